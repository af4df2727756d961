package org.jrdma.subnet;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.jrdma.RdmaException;
import org.jrdma.iba.Lid;
import org.jrdma.iba.smp.SmpLinearForwardingTable;
import org.jrdma.iba.smp.SmpMulticastForwardingTable;
import org.jrdma.iba.smp.SmpSwitchInfo;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.iba.wire.MadAttribute;
import org.jrdma.mad.MadSchedule;

/**
 * Reads a switch's forwarding tables block by block, the blocks in parallel on a
 * {@link MadSchedule} bounded by the source's window: SwitchInfo first, for the tables' tops, then
 * the blocks up to them.
 */
final class ForwardingTables {
    private ForwardingTables() {
    }

    /** The LinearForwardingTable blocks 0 .. LinearFDBTop / 64 (IBA 14.2.5.10). */
    static LinearForwardingTable linear(AttributeSource source, Node sw) {
        SmpSwitchInfo info = source.get(new SmpSwitchInfo(), sw, 0);
        int top = Math.min(info.linearFdbTop(), Lid.UNICAST_LAST);
        int blocks = top / LinearForwardingTable.LIDS_PER_BLOCK + 1;
        List<Long> modifiers = new ArrayList<>();
        for (long block = 0; block < blocks; block++) {
            modifiers.add(block);
        }
        List<SmpLinearForwardingTable> read = readAll(source, sw, "LinearForwardingTable", modifiers, SmpLinearForwardingTable::new);
        byte[] ports = new byte[top + 1];
        for (int lid = 0; lid <= top; lid++) {
            ports[lid] = (byte) read.get(lid / LinearForwardingTable.LIDS_PER_BLOCK).portBlock(lid % LinearForwardingTable.LIDS_PER_BLOCK);
        }
        return new LinearForwardingTable(ports);
    }

    /**
     * The MulticastForwardingTable blocks from MLID 0xC000 up to MulticastFDBTop (IBA 14.2.5.12),
     * every port-mask position of each; a switch that leaves MulticastFDBTop 0 (before IBA 1.2.1)
     * is read up to its MulticastFDBCap.
     */
    static MulticastForwardingTable multicast(AttributeSource source, Node sw) {
        SmpSwitchInfo info = source.get(new SmpSwitchInfo(), sw, 0);
        int capTop = Lid.MULTICAST_FIRST + info.multicastFdbCap() - 1;
        int top = Math.min(info.multicastFdbTop() == 0 ? capTop : info.multicastFdbTop(), Lid.MULTICAST_LAST);
        int positions = MulticastForwardingTable.positions(sw.numPorts());
        int entries = Math.max(0, top - Lid.MULTICAST_FIRST + 1);
        int blocks = (entries + MulticastForwardingTable.MLIDS_PER_BLOCK - 1) / MulticastForwardingTable.MLIDS_PER_BLOCK;
        List<Long> modifiers = new ArrayList<>();
        for (long block = 0; block < blocks; block++) {
            for (long position = 0; position < positions; position++) {
                modifiers.add(block | position << 28);
            }
        }
        List<SmpMulticastForwardingTable> read = readAll(source, sw, "MulticastForwardingTable", modifiers, SmpMulticastForwardingTable::new);
        char[] masks = new char[entries * positions];
        for (int entry = 0; entry < entries; entry++) {
            int block = entry / MulticastForwardingTable.MLIDS_PER_BLOCK;
            for (int position = 0; position < positions; position++) {
                masks[entry * positions + position] = (char) read.get(block * positions + position)
                        .portMaskBlock(entry % MulticastForwardingTable.MLIDS_PER_BLOCK);
            }
        }
        return new MulticastForwardingTable(sw.numPorts(), masks);
    }

    /** Reads one attribute per modifier, in parallel; a failure names the table, the switch and the modifier. */
    private static <T extends IbaStruct & MadAttribute> List<T> readAll(AttributeSource source,
            Node sw, String table, List<Long> modifiers, Supplier<T> factory) {
        List<MadSchedule.Task<T>> tasks = new ArrayList<>();
        try (MadSchedule sched = new MadSchedule(source.window())) {
            for (long modifier : modifiers) {
                tasks.add(sched.queue(() -> {
                    try {
                        return source.get(factory.get(), sw, modifier);
                    } catch (RdmaException e) {
                        throw new RdmaException(String.format("reading the %s of %s: AttributeModifier 0x%x: %s", table, sw, modifier,
                                e.getMessage()), e);
                    }
                }));
            }
            sched.run();
        }
        return tasks.stream().map(MadSchedule.Task::join).toList();
    }
}

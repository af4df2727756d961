package org.jrdma.tools;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jrdma.iba.Gid;
import org.jrdma.iba.diag.DiagOptions;
import org.jrdma.iba.diag.SaQuery;
import org.jrdma.iba.sa.SaGuidInfoRecord;
import org.jrdma.iba.sa.SaInformInfoRecord;
import org.jrdma.iba.sa.SaLinearForwardingTableRecord;
import org.jrdma.iba.sa.SaLinkRecord;
import org.jrdma.iba.sa.SaMcMemberRecord;
import org.jrdma.iba.sa.SaMulticastForwardingTableRecord;
import org.jrdma.iba.sa.SaNodeRecord;
import org.jrdma.iba.sa.SaPKeyTableRecord;
import org.jrdma.iba.sa.SaPathRecord;
import org.jrdma.iba.sa.SaPortInfoRecord;
import org.jrdma.iba.sa.SaServiceRecord;
import org.jrdma.iba.sa.SaSlToVlMappingTableRecord;
import org.jrdma.iba.sa.SaSmInfoRecord;
import org.jrdma.iba.sa.SaSwitchInfoRecord;
import org.jrdma.iba.sa.SaVlArbitrationTableRecord;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.iba.wire.MadAttribute;

/**
 * saquery's {@code query_cmds}: each query name, its alias, and how it asks the SA — the record
 * template and ComponentMask its arguments make ({@code [[lid]/[port]/[block]]} and the like, the
 * LID part a node name or a number as saquery's {@code get_lid} reads it), the records it gets back
 * printed as saquery prints them.
 */
enum SaQueryTable {
    CLASS_PORT_INFO("ClassPortInfo", "CPI", (run, args) -> SaRecordPrinter.classPortInfo(run.classPortInfo())),
    NODE_RECORD("NodeRecord", "NR", (run, args) -> {
        run.parse(args, 0);
        Template t = new Template(112);
        t.val16(0, run.lid(), 0, SaNodeRecord.LID_COMPONENT_MASK);
        return run.print(t, SaNodeRecord::new, r -> SaQuery.nodeRecord(run.named((SaNodeRecord) r)));
    }),
    PORT_INFO_RECORD("PortInfoRecord", "PIR", (run, args) -> {
        run.parse(args, 0);
        Template t = new Template(72);
        t.val16(0, run.lid(), 0, SaPortInfoRecord.ENDPORT_LID_COMPONENT_MASK);
        t.val8(2, run.part(1), -1, SaPortInfoRecord.PORT_NUM_COMPONENT_MASK);
        t.val8(3, run.part(2), -1, SaPortInfoRecord.OPTIONS_COMPONENT_MASK);
        return run.print(t, SaPortInfoRecord::new, r -> SaQuery.portInfoRecord((SaPortInfoRecord) r, run.options()));
    }),
    SL2VL_TABLE_RECORD("SL2VLTableRecord", "SL2VL", (run, args) -> {
        run.parse(args, 0);
        Template t = new Template(16);
        t.val16(0, run.lid(), 0, SaSlToVlMappingTableRecord.LID_COMPONENT_MASK);
        t.val8(2, run.part(1), -1, SaSlToVlMappingTableRecord.INPUT_PORT_NUM_COMPONENT_MASK);
        t.val8(3, run.part(2), -1, SaSlToVlMappingTableRecord.OUTPUT_PORT_NUM_COMPONENT_MASK);
        return run.printBytes(t, SaSlToVlMappingTableRecord::new, SaRecordPrinter::slToVl);
    }),
    PKEY_TABLE_RECORD("PKeyTableRecord", "PKTR", (run, args) -> {
        run.parse(args, 0);
        Template t = new Template(72);
        t.val16(0, run.lid(), 0, SaPKeyTableRecord.LID_COMPONENT_MASK);
        t.val8(4, run.part(1), -1, SaPKeyTableRecord.PORT_NUM_COMPONENT_MASK);
        t.val16(2, run.part(2), -1, SaPKeyTableRecord.BLOCK_NUM_COMPONENT_MASK);
        return run.printBytes(t, SaPKeyTableRecord::new, SaRecordPrinter::pKeyTable);
    }),
    VL_ARBITRATION_TABLE_RECORD("VLArbitrationTableRecord", "VLAR", (run, args) -> {
        run.parse(args, 0);
        Template t = new Template(72);
        t.val16(0, run.lid(), 0, SaVlArbitrationTableRecord.LID_COMPONENT_MASK);
        t.val8(2, run.part(1), -1, SaVlArbitrationTableRecord.OUTPUT_PORT_NUM_COMPONENT_MASK);
        t.val8(3, run.part(2), -1, SaVlArbitrationTableRecord.BLOCK_NUM_COMPONENT_MASK);
        return run.printBytes(t, SaVlArbitrationTableRecord::new, SaRecordPrinter::vlArbitration);
    }),
    INFORM_INFO_RECORD("InformInfoRecord", "IIR", (run, args) -> {
        Template t = new Template(64);
        if (!args.isEmpty()) {
            byte[] gid;
            try {
                gid = Gid.parse(args.getFirst()).toBytes();
            } catch (IllegalArgumentException e) {
                throw DiagError.stderr("Invalid SubscriberGID specified: \"" + args.getFirst() + "\"", SaqueryLids.EINVAL, e);
            }
            System.arraycopy(gid, 0, t.bytes, 0, gid.length);
            t.mask = SaInformInfoRecord.SUBSCRIBER_GID_COMPONENT_MASK;
        }
        return run.printBytes(t, SaInformInfoRecord::new, r -> SaRecordPrinter.informInfo(r, run.options().showKeys()));
    }),
    LINK_RECORD("LinkRecord", "LR", (run, args) -> {
        run.parse(args, 0);
        Template t = new Template(8);
        t.val16(0, run.lid(), 0, SaLinkRecord.FROM_LID_COMPONENT_MASK);
        t.val8(2, run.part(1), -1, SaLinkRecord.FROM_PORT_COMPONENT_MASK);
        run.parse(args, 1);
        t.val8(3, run.part(1), -1, SaLinkRecord.TO_PORT_COMPONENT_MASK);
        t.val16(4, run.lid(), 0, SaLinkRecord.TO_LID_COMPONENT_MASK);
        return run.print(t, SaLinkRecord::new, r -> SaQuery.linkRecord((SaLinkRecord) r));
    }),
    SERVICE_RECORD("ServiceRecord", "SR", (run, args) -> run.printBytes(new Template(176), SaServiceRecord::new,
            r -> SaRecordPrinter.service(r, run.options().showKeys()))),
    PATH_RECORD("PathRecord", "PR", (run, args) -> run.print(SaRequests.pathRecord(run.params()), SaPathRecord::new,
            r -> SaQuery.pathRecord((SaPathRecord) r))),
    MC_MEMBER_RECORD("MCMemberRecord", "MCMR", (run, args) -> run.printBytes(SaRequests.mcMemberRecord(run.params()),
            SaMcMemberRecord::new, SaRecordPrinter::mcMember)),
    LFT_RECORD("LFTRecord", "LFTR", (run, args) -> {
        run.parse(args, 0);
        Template t = new Template(72);
        t.val16(0, run.lid(), 0, SaLinearForwardingTableRecord.LID_COMPONENT_MASK);
        t.val16(2, run.part(1), -1, SaLinearForwardingTableRecord.BLOCK_NUM_COMPONENT_MASK);
        return run.printBytes(t, SaLinearForwardingTableRecord::new, SaRecordPrinter::linearForwardingTable);
    }),
    MFT_RECORD("MFTRecord", "MFTR", (run, args) -> {
        run.parse(args, 0);
        Template t = new Template(72);
        t.val16(0, run.lid(), 0, SaMulticastForwardingTableRecord.LID_COMPONENT_MASK);
        t.val16(2, run.part(2), -1, SaMulticastForwardingTableRecord.BLOCK_NUM_COMPONENT_MASK);
        t.bytes[2] &= 0x01;
        long position = run.part(1);
        if ((byte) position != -1) {
            t.mask |= SaMulticastForwardingTableRecord.POSITION_COMPONENT_MASK;
            t.bytes[2] |= (byte) ((position & 0xff) << 4);
        }
        return run.printBytes(t, SaMulticastForwardingTableRecord::new, SaRecordPrinter::multicastForwardingTable);
    }),
    GUID_INFO_RECORD("GUIDInfoRecord", "GIR", (run, args) -> {
        run.parse(args, 0);
        Template t = new Template(72);
        t.val16(0, run.lid(), 0, SaGuidInfoRecord.LID_COMPONENT_MASK);
        t.val8(2, run.part(1), -1, SaGuidInfoRecord.BLOCK_NUM_COMPONENT_MASK);
        return run.printBytes(t, SaGuidInfoRecord::new, SaRecordPrinter::guidInfo);
    }),
    SWITCH_INFO_RECORD("SwitchInfoRecord", "SWIR", (run, args) -> {
        long capabilityMask2 = SaRecordPrinter.u32(run.classPortInfo(), 4) >>> 5;
        run.parse(args, 0);
        Template t = new Template(24);
        t.val16(0, run.lid(), 0, SaSwitchInfoRecord.LID_COMPONENT_MASK);
        return run.printBytes(t, SaSwitchInfoRecord::new, r -> SaRecordPrinter.switchInfo(r, capabilityMask2));
    }),
    SM_INFO_RECORD("SMInfoRecord", "SMIR", (run, args) -> {
        run.parse(args, 0);
        Template t = new Template(32);
        t.val16(0, run.lid(), 0, SaSmInfoRecord.LID_COMPONENT_MASK);
        return run.print(t, SaSmInfoRecord::new, r -> SaQuery.smInfoRecord((SaSmInfoRecord) r));
    });

    private final String fullName;
    private final String alias;
    private final Handler handler;

    SaQueryTable(String fullName, String alias, Handler handler) {
        this.fullName = fullName;
        this.alias = alias;
        this.handler = handler;
    }

    /** The query of a name or alias, any case ({@code find_query}). */
    static Optional<SaQueryTable> find(String name) {
        for (SaQueryTable q : values()) {
            if (q.fullName.equalsIgnoreCase(name) || q.alias.equalsIgnoreCase(name)) {
                return Optional.of(q);
            }
        }
        return Optional.empty();
    }

    /** Runs the query with its arguments (what follows the query name) and returns what saquery prints. */
    String run(Run run, List<String> args) {
        return handler.run(run, args);
    }

    /** What a query needs of the saquery run: the SA, the options, and the arguments' LID and numbers. */
    interface Run {
        /**
         * Reads {@code args.get(index)}, if there is one, as {@code lid[/n1[/n2]]}
         * ({@code parse_lid_and_ports}): the LID for {@link #lid()}, the numbers for {@link #part}.
         */
        void parse(List<String> args, int index);

        /** The LID of the last {@link #parse}d argument, 0 if none. */
        long lid();

        /** Its {@code n}th number after the LID, -1 if none. */
        long part(int n);

        /** The SA's ClassPortInfo bytes. */
        byte[] classPortInfo();

        SaqueryParams params();

        DiagOptions options();

        SaNodeRecord named(SaNodeRecord record);

        /** Asks the SA for the records matching {@code t} and prints each with {@code printer}. */
        <T extends IbaStruct & MadAttribute> String print(Template t, Supplier<T> type, Function<IbaStruct, String> printer);

        /** As {@link #print}, the printer reading the record's bytes. */
        <T extends IbaStruct & MadAttribute> String printBytes(Template t, Supplier<T> type, Function<byte[], String> printer);
    }

    @FunctionalInterface
    private interface Handler {
        String run(Run run, List<String> args);
    }

    /**
     * A record template being filled as saquery fills its C structure: a component is set, and
     * its ComponentMask bit, only when the value differs from the default in the field's width.
     */
    static final class Template {
        final byte[] bytes;
        long mask;

        Template(int size) {
            this.bytes = new byte[size];
        }

        /** {@code CHECK_AND_SET_VAL(value, 8, unset, ...)}. */
        void val8(int offset, long value, long unset, long bit) {
            if ((byte) value != (byte) unset) {
                bytes[offset] = (byte) value;
                mask |= bit;
            }
        }

        /** {@code CHECK_AND_SET_VAL(value, 16, unset, ...)}. */
        void val16(int offset, long value, long unset, long bit) {
            if ((short) value != (short) unset) {
                bytes[offset] = (byte) (value >> 8);
                bytes[offset + 1] = (byte) value;
                mask |= bit;
            }
        }

        /** {@code CHECK_AND_SET_VAL(value, 32, unset, ...)}. */
        void val32(int offset, long value, long unset, long bit) {
            if ((int) value != (int) unset) {
                put32(offset, value);
                mask |= bit;
            }
        }

        /** {@code CHECK_AND_SET_VAL(value, 64, unset, ...)}. */
        void val64(int offset, long value, long unset, long bit) {
            if (value != unset) {
                put32(offset, value >>> 32);
                put32(offset + 4, value);
                mask |= bit;
            }
        }

        /** {@code CHECK_AND_SET_GID}: a GID that is not all zeros. */
        void gid(int offset, byte[] gid, long bit) {
            for (byte b : gid) {
                if (b != 0) {
                    System.arraycopy(gid, 0, bytes, offset, gid.length);
                    mask |= bit;
                    return;
                }
            }
        }

        /** {@code CHECK_AND_SET_VAL_AND_SEL}: the byte and both its selector and value bits, when not 0. */
        void valAndSelector(int offset, int value, long selectorBit, long valueBit) {
            if (value != 0) {
                bytes[offset] = (byte) value;
                mask |= selectorBit | valueBit;
            }
        }

        void put32(int offset, long value) {
            for (int i = 0; i < 4; i++) {
                bytes[offset + i] = (byte) (value >> (24 - 8 * i));
            }
        }
    }
}

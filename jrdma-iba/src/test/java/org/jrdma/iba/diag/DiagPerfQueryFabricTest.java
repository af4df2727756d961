package org.jrdma.iba.diag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jrdma.iba.NodeType;
import org.jrdma.iba.mad.MadHeader;
import org.jrdma.iba.pm.PmPortCounters;
import org.jrdma.iba.pm.PmPortCountersExtended;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.iba.wire.Bits;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.ToolResult;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Golden tests against the real {@code perfquery} on a simulated fabric. perfquery has no raw
 * dump of its own, but with {@code -d -d} libibmad writes every MAD it receives to standard error
 * ({@code rcv buf}): the PerfMgt ClassPortInfo (whose capability masks decide the lines) and the
 * PortCounters or PortCountersExtended answer. Those bytes, decoded with the generated classes and
 * printed with {@link PerfQuery}, must be what the same perfquery run printed on standard output.
 * (The counters move as OpenSM sweeps, so the bytes must come from the same run.)
 */
@SimulatedFabric(topology = "two-switch")
class DiagPerfQueryFabricTest {
    /** The PerfMgt data of a MAD starts after the 24-byte common header and 40 reserved bytes. */
    static final int PM_DATA = 64;

    /** A perfquery run with its output and the MADs it received. */
    record Run(String stdout, DiagOptions options, byte[] answer) {
    }

    static Run perfquery(Fabric fabric, String... args) {
        List<String> command = new ArrayList<>(List.of("perfquery", "-d", "-d"));
        command.addAll(List.of(args));
        ToolResult r = fabric.run(command.toArray(String[]::new)).orThrow();
        List<byte[]> mads = DiagDumps.blocksAfter(r.stderr(), "rcv buf");
        assertEquals(2, mads.size(), () -> "ClassPortInfo and counters answers expected in:\n" + r.stderr());
        byte[] classPortInfo = mads.get(0);
        assertEquals(0x0001, MadHeader.decode(classPortInfo, 0).attributeId(), "ClassPortInfo first");
        // ClassPortInfo: CapabilityMask is bytes 2-3, CapabilityMask2 the 27 bits above RespTimeValue.
        int capMask = Bits.u16(classPortInfo, PM_DATA + 2);
        int capMask2 = (int) (Bits.u32(classPortInfo, PM_DATA + 4) >>> 5);
        return new Run(r.stdout(), DiagOptions.defaults().withPmCapabilities(capMask, capMask2), mads.get(1));
    }

    /**
     * Every LID that answers (1 up to the first two that do not) and its ports: 0..8 on a switch;
     * on a channel adapter the port the LID belongs to (a CA's PMA answers for its own port only).
     */
    static List<int[]> lidPorts(Fabric fabric) {
        List<int[]> out = new ArrayList<>();
        int misses = 0;
        for (int lid = 1; misses < 2 && lid < 64; lid++) {
            // smpdump prints zeros for a LID nobody has: NodeInfo:BaseVersion 0.
            byte[] nodeInfo = DiagDumps.smpdump(fabric, false, Integer.toString(lid), 0x11, 0);
            if (nodeInfo[0] == 0) {
                misses++;
                continue;
            }
            SmpNodeInfo info = SmpNodeInfo.decode(nodeInfo, 0);
            if (info.nodeType() == NodeType.SWITCH.value()) {
                for (int port = 0; port <= info.numPorts(); port++) {
                    out.add(new int[] {lid, port});
                }
            } else {
                out.add(new int[] {lid, info.localPortNum()});
            }
        }
        assertTrue(out.size() >= 20, "ports found: " + out.size());
        return out;
    }

    @TestFactory
    Stream<DynamicTest> portCounters(Fabric fabric) {
        List<DiagGolden.Case> cases = new ArrayList<>();
        for (int[] lp : lidPorts(fabric)) {
            Run[] run = new Run[1];
            cases.add(new DiagGolden.Case("perfquery " + lp[0] + " " + lp[1], () -> {
                run[0] = perfquery(fabric, Integer.toString(lp[0]), Integer.toString(lp[1]));
                return run[0].stdout();
            }, () -> {
                assertEquals(0x0012, MadHeader.decode(run[0].answer(), 0).attributeId(), "PortCounters answer");
                return PerfQuery.portCounters(PortId.lid(lp[0]), lp[1], PmPortCounters.decode(run[0].answer(), PM_DATA),
                        run[0].options());
            }));
        }
        cases.add(localPort(fabric));
        return DiagGolden.run(cases);
    }

    @TestFactory
    Stream<DynamicTest> portCountersExtended(Fabric fabric) {
        List<DiagGolden.Case> cases = new ArrayList<>();
        for (int[] lp : lidPorts(fabric)) {
            Run[] run = new Run[1];
            cases.add(new DiagGolden.Case("perfquery -x " + lp[0] + " " + lp[1], () -> {
                run[0] = perfquery(fabric, "-x", Integer.toString(lp[0]), Integer.toString(lp[1]));
                return run[0].stdout();
            }, () -> {
                assertEquals(0x001d, MadHeader.decode(run[0].answer(), 0).attributeId(), "PortCountersExtended answer");
                return PerfQuery.portCountersExtended(PortId.lid(lp[0]), lp[1],
                        PmPortCountersExtended.decode(run[0].answer(), PM_DATA), run[0].options());
            }));
        }
        return DiagGolden.run(cases);
    }

    /** {@code perfquery} without arguments: the local port, the switch's port 0, whose LID its PortInfo gives. */
    private static DiagGolden.Case localPort(Fabric fabric) {
        Run[] run = new Run[1];
        return new DiagGolden.Case("perfquery (local port)", () -> {
            run[0] = perfquery(fabric);
            return run[0].stdout();
        }, () -> {
            int lid = SmpPortInfo.decode(DiagDumps.smpdump(fabric, true, "0", 0x15, 0), 0).lid();
            return PerfQuery.portCounters(PortId.lid(lid), 0, PmPortCounters.decode(run[0].answer(), PM_DATA), run[0].options());
        });
    }
}

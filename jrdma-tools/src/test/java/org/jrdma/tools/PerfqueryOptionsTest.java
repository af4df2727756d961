package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.ToolResult;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every option of {@code ibtool perfquery} against infiniband-diags' perfquery on one simulated
 * fabric ({@link AgainstC}), with error counters and the detail attributes made non-zero through
 * ibsim's console first: the same standard output, exit status and standard error (pids masked).
 * The attributes ibsim does not implement (PortXmitDataSL, PortRcvDataSL, PortExtendedSpeedsCounters,
 * PortSamplesControl and the congestion ones) fail the same way in both, after a short timeout.
 * Traffic counters are masked: each query moves them.
 */
@SimulatedFabric(topology = "two-switch")
class PerfqueryOptionsTest {
    /** Reads: the channel adapter node01 (LID 3, no AllPortSelect) and the switch sw1 (LID 1, AllPortSelect). */
    private static final List<String> READS = List.of("", "3", "3 1", "1 1", "1 2", "-x 3 1", "-x 1 1", "--extended 1 2",
            "-a 1", "-a 3", "-a 3 1,1", "-a 1 1,2", "-x -a 1", "-x -a 3 1,1", "--all_ports 1 1-3", "-l 1", "-l 1 255", "-l 1 1-3",
            "-l 1 1,2,7", "--loop_ports -x 1 255", "1 1-3", "1 2,1", "1 1,", "1 255", "-a 3 1", "-a",
            "-D 3 1", "--xmtdisc 1 2", "-E 3 1", "--rcverr 1 1", "-D -E 3 1", "-E -D 3 1", "--oprcvcounters 3 1",
            "--flowctlcounters 3 1", "--vloppackets 3 1", "--vlopdata 3 1", "--vlxmitflowctlerrors 3 1", "--vlxmitcounters 1 1",
            "--vlxmitcounters --flowctlcounters 3 1");
    /** Attributes ibsim does not answer: both fail on the timeout. */
    private static final List<String> UNANSWERED = List.of("-t 100 -X 3 1", "-t 100 --xmtsl 3 1", "-t 100 -S 3 1",
            "-t 100 -T 3 1", "-t 100 --extended_speeds 1 1", "-t 100 -c 3 1", "-t 100 --smplctl 1 1", "-t 100 --swportvlcong 1 1",
            "-t 100 --rcvcc 3 1", "-t 100 --slrcvfecn 3 1", "-t 100 --slrcvbecn 3 1", "-t 100 --xmitcc 3 1",
            "-t 100 --vlxmittimecc 3 1", "-t 100 3 2", "-t 100 40");
    /** perfquery's own failures. */
    private static final List<String> FAILURES = List.of("1 3-1", "1 2-2", "3 255", "-x 3 255");
    /** Resets, each from the same counters. */
    private static final List<String> RESETS = List.of("-r 3 1", "-R -E 3 1", "-r -D 1 2", "-R 1 2 0x0fff", "-R 1 2 0xf000",
            "-x -R 1 2", "-x -r 3 1", "-R -a 1", "-R -l 1 1-3", "-R -a 3 1,1", "-R --oprcvcounters 3 1", "-R --vloppackets 3 1",
            "-R 3 1 0", "--Reset_only --reset_after_read 1 1", "-R -x 3 1 0x3", "-r -a 1 1,2");
    private static final String NODE = "node01 HCA-1";

    /** What the resets leave, read by the C tool: the counters the reset cases touch. */
    private static final List<String> STATE = List.of("3 1", "1 2", "1 1", "-x 3 1", "-E 3 1", "-D 1 2", "--oprcvcounters 3 1",
            "--vloppackets 3 1");

    @TestFactory
    Stream<DynamicTest> optionsArePerfquerys(Fabric fabric) {
        setCounters(fabric);
        return Stream.of(READS, UNANSWERED, FAILURES).flatMap(List::stream).map(line -> DynamicTest.dynamicTest(
                line.isEmpty() ? "(no arguments)" : line,
                () -> AgainstC.runAt(fabric, NODE, "perfquery", words(line)).assertSame(QueryCommandsTest::maskTraffic)));
    }

    /**
     * Each reset run both ways from the same counters: the same output, and the same counters left
     * behind (read by the C tool after each).
     */
    @TestFactory
    Stream<DynamicTest> resetsArePerfquerys(Fabric fabric) {
        return RESETS.stream().map(line -> DynamicTest.dynamicTest(line, () -> {
            List<String> ibtool = new ArrayList<>(List.of("perfquery", "--sim", fabric.socketName(), "--sim-node", NODE));
            ibtool.addAll(List.of(words(line)));
            setCounters(fabric);
            IbtoolRun ours = IbtoolRun.of(ibtool.toArray(String[]::new));
            String oursLeft = state(fabric);
            setCounters(fabric);
            List<String> c = new ArrayList<>(List.of("perfquery"));
            c.addAll(List.of(words(line)));
            ToolResult theirs = fabric.runAt(NODE, Duration.ofSeconds(60), c);
            String cLeft = state(fabric);
            new AgainstC(ours, theirs).assertSame(QueryCommandsTest::maskTraffic);
            assertEquals(cLeft, oursLeft, "counters left by " + line);
        }));
    }

    private static String state(Fabric fabric) {
        StringBuilder out = new StringBuilder();
        for (String read : STATE) {
            List<String> command = new ArrayList<>(List.of("perfquery"));
            command.addAll(List.of(read.split(" ")));
            out.append(QueryCommandsTest.maskTraffic(fabric.runAt(NODE, Duration.ofSeconds(60), command).stdout()));
        }
        return out.toString();
    }

    private static String[] words(String line) {
        return line.isEmpty() ? new String[0] : line.split(" ");
    }

    /** Error counters and the detail attributes made non-zero on node01's and sw1's ports. */
    private static void setCounters(Fabric fabric) {
        fabric.performanceSet("node01 HCA-1", 1, "PortCounters", "SymbolErrorCounter", 40000);
        fabric.performanceSet("node01 HCA-1", 1, "PortCounters", "LinkDownedCounter", 200);
        fabric.performanceSet("node01 HCA-1", 1, "PortCounters", "LocalLinkIntegrityErrors", 9);
        fabric.performanceSet("node01 HCA-1", 1, "PortCounters", "PortRcvErrors", 7);
        fabric.performanceSet("node01 HCA-1", 1, "PortCounters", "VL15Dropped", 3);
        fabric.performanceSet("node01 HCA-1", 1, "PortCounters", "PortXmitWait", 123456);
        fabric.performanceSet("sw1", 1, "PortCounters", "PortXmitDiscards", 6);
        fabric.performanceSet("sw1", 2, "PortCounters", "PortXmitDiscards", 5);
        fabric.performanceSet("sw1", 2, "PortCounters", "SymbolErrorCounter", 11);
        fabric.performanceSet("sw1", 2, "PortXmitDiscardDetails", "PortInactiveDiscards", 4);
        fabric.performanceSet("sw1", 2, "PortXmitDiscardDetails", "PortSwHOQLifetimeLimitDiscards", 2);
        fabric.performanceSet("node01 HCA-1", 1, "PortRcvErrorDetails", "PortLocalPhysicalErrors", 3);
        fabric.performanceSet("node01 HCA-1", 1, "PortRcvErrorDetails", "PortDLIDMappingErrors", 1);
        fabric.performanceSet("sw1", 1, "PortRcvErrorDetails", "PortLoopingErrors", 8);
        fabric.performanceSet("node01 HCA-1", 1, "PortOpRcvCounters", "PortOpRcvPkts", 17);
        fabric.performanceSet("node01 HCA-1", 1, "PortFlowCtlCounters", "PortXmitFlowPkts", 21);
        fabric.performanceSet("node01 HCA-1", 1, "PortVLOpPackets", "PortVLOpPackets3", 33);
        fabric.performanceSet("node01 HCA-1", 1, "PortVLOpData", "PortVLOpData0", 44);
        fabric.performanceSet("node01 HCA-1", 1, "PortVLXmitFlowCtlUpdateErrors", "PortVLXmitFlowCtlUpdateErrors1", 2);
        fabric.performanceSet("sw1", 1, "PortVLXmitWaitCounters", "PortVLXmitWaitCounters7", 77);
        fabric.performanceSet("node01 HCA-1", 1, "PortCountersExtended", "PortUnicastXmitPkts", 5);
    }
}

package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.ToolResult;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code ibtool smpquery}, {@code perfquery} and {@code saquery} against the infiniband-diags tools
 * of the same name on one simulated fabric: the same arguments, the same output byte for byte, the
 * same success or failure (infiniband-diags exits 255 on any failure; ibtool exits 1 for a fabric
 * failure and 2 for bad input). Traffic counters (packets and data) are masked in perfquery output,
 * because each query is itself traffic that moves them between the two runs. When the C tool fails,
 * only the failure is compared: it prints its error on standard output, ibtool on standard error.
 */
@SimulatedFabric(topology = "two-switch")
class QueryCommandsTest {
    private static final List<String> CASES = List.of(
            "smpquery nodeinfo 3", "smpquery -D nodeinfo 0,1", "smpquery -D nodeinfo 0", "smpquery nodedesc 1",
            "smpquery -D nodedesc 0,1,7,2", "smpquery portinfo 3 1", "smpquery portinfo 1 7", "smpquery -D portinfo 0,1,7 7",
            "smpquery -K portinfo 3 1", "smpquery switchinfo 1", "smpquery -D switchinfo 0,1", "smpquery -D switchinfo 0", "smpquery pkeys 3 1", "smpquery pkeys 1 0",
            "smpquery sl2vl 1 7", "smpquery sl2vl 3 1", "smpquery vlarb 3 1", "smpquery vlarb 1 0", "smpquery GI 3",
            "perfquery", "perfquery 3 1", "perfquery 1 7", "perfquery -x 3 1", "perfquery -x 1 0",
            "saquery NR 3", "saquery NR 1", "saquery PIR 1/7", "saquery PIR 3/1", "saquery -K PIR 3/1", "saquery LR 3",
            "saquery SMIR", "saquery PR --slid 3 --dlid 5", "saquery PR --slid 1 --dlid 6");

    @TestFactory
    Stream<DynamicTest> sameOutputAsTheCTool(Fabric fabric) {
        return CASES.stream().map(line -> DynamicTest.dynamicTest(line, () -> {
            String[] words = line.split(" ");
            ToolResult c = fabric.runAt("node01 HCA-1", Duration.ofSeconds(30), List.of(words));
            List<String> args = new ArrayList<>(List.of(words[0], "--sim", fabric.socketName(), "--sim-node", "node01 HCA-1"));
            args.addAll(List.of(words).subList(1, words.length));
            IbtoolRun ours = IbtoolRun.of(args.toArray(String[]::new));
            assertEquals(c.exitCode() == 0, ours.exitCode() == 0, "C exit " + c.exitCode() + "; ibtool: " + ours.err());
            if (c.exitCode() == 0) {
                assertEquals(maskTraffic(c.stdout()), maskTraffic(ours.out()));
            } else {
                // infiniband-diags prints its errors on standard output; ibtool prints them on standard error.
                assertEquals("", ours.out());
                assertTrue(ours.err().startsWith(words[0] + ": "), ours.err());
            }
        }));
    }

    @Test
    void unknownOperationsAndBadDestinationsAreUsageErrors(Fabric fabric) {
        IbtoolRun op = IbtoolRun.of("smpquery", "--sim", fabric.socketName(), "nodeinfos", "1");
        assertEquals(2, op.exitCode());
        assertTrue(op.err().contains("unknown operation \"nodeinfos\""), op.err());
        IbtoolRun route = IbtoolRun.of("smpquery", "--sim", fabric.socketName(), "-D", "nodeinfo", "1,2");
        assertEquals(2, route.exitCode());
        assertTrue(route.err().contains("bad directed route \"1,2\""), route.err());
        assertEquals(2, IbtoolRun.of("perfquery", "--sim", fabric.socketName(), "0xC001").exitCode());
        assertEquals(2, IbtoolRun.of("saquery", "--sim", fabric.socketName(), "XYZ").exitCode());
    }

    @Test
    void aLidNobodyHasFailsWithStatusOne(Fabric fabric) {
        IbtoolRun run = IbtoolRun.of("smpquery", "--sim", fabric.socketName(), "-t", "200", "--retries", "0", "nodeinfo", "40");
        assertEquals(1, run.exitCode());
        assertTrue(run.err().contains("could not deliver"), run.err());
    }

    @Test
    void perfqueryResetClearsTheCounters(Fabric fabric) {
        assertEquals(0, IbtoolRun.of("perfquery", "--sim", fabric.socketName(), "-R", "3", "1").exitCode());
        String after = fabric.run("perfquery", "3", "1").orThrow().stdout();
        assertTrue(after.contains("SymbolErrorCounter:..............0"), after);
        long packets = Long.parseLong(after.replaceAll("(?s).*PortXmitPkts:\\.+(\\d+).*", "$1"));
        assertTrue(packets < 10, "counters were reset, only a few packets since: " + packets);
    }

    private static String maskTraffic(String perfquery) {
        return perfquery.replaceAll("(?m)^((?:Port(?:Xmit|Rcv|Unicast(?:Xmit|Rcv)|Multicast(?:Xmit|Rcv))(?:Data|Pkts)):\\.+)\\d+$", "$1<n>");
    }
}

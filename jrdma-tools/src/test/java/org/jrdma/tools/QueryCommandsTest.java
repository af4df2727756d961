package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code ibtool smpquery}, {@code perfquery} and {@code saquery} against the infiniband-diags tools
 * of the same name on one simulated fabric ({@link AgainstC}): the same arguments, the same standard
 * output byte for byte, the same exit status, standard error beginning with the C tool's, failures
 * included. Traffic counters (packets and data) are masked in perfquery output, because each query
 * is itself traffic that moves them between the two runs.
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
            "saquery SMIR", "saquery PR --slid 3 --dlid 5", "saquery PR --slid 1 --dlid 6",
            // failures: no such LID, a dead directed route, an error status, records that do not exist
            "smpquery nodeinfo 40", "smpquery nodedesc 40", "smpquery -D nodeinfo 0,99", "smpquery portinfo 1 99",
            "smpquery pkeys 3 5", "smpquery nodeinfos 1", "perfquery 40", "perfquery 3 9", "saquery NR 40", "saquery PIR 40/1");

    @TestFactory
    Stream<DynamicTest> sameOutputAsTheCTool(Fabric fabric) {
        return CASES.stream().map(line -> DynamicTest.dynamicTest(line, () -> {
            String[] words = line.split(" ");
            AgainstC.runAt(fabric, "node01 HCA-1", words[0], Arrays.copyOfRange(words, 1, words.length))
                    .assertSame(QueryCommandsTest::maskTraffic);
        }));
    }

    @Test
    void badDestinationsFailAsTheCToolsFail(Fabric fabric) {
        // The C tools send "-D 1,2" and fail on the answer; ibtool refuses a route not starting at 0 first.
        IbtoolRun route = IbtoolRun.of("smpquery", "--sim", fabric.socketName(), "-D", "nodeinfo", "1,2");
        assertEquals(255, route.exitCode());
        assertEquals("smpquery: iberror: failed: can't resolve destination port 1,2\n", route.out());
        assertTrue(route.err().contains("bad directed route \"1,2\""), route.err());
        AgainstC.runAt(fabric, "node01 HCA-1", "perfquery", "0xC001").assertSame();
        AgainstC.runAt(fabric, "node01 HCA-1", "smpquery", "nodeinfo", "abc").assertSame();
    }

    @Test
    void aLidNobodyHasFailsAsTheCToolAndThenSaysWhy(Fabric fabric) {
        IbtoolRun run = IbtoolRun.of("smpquery", "--sim", fabric.socketName(), "-t", "200", "--retries", "0", "nodeinfo", "40");
        assertEquals(255, run.exitCode());
        assertEquals("smpquery: iberror: failed: operation nodeinfo: node info query failed\n", run.out());
        assertTrue(run.err().matches("ibwarn: \\[\\d+\\] mad_rpc: _do_madrpc failed; dport \\(Lid 40\\)\nsmpquery: .*could not deliver.*\n"),
                run.err());
    }

    @Test
    void perfqueryResetClearsTheCounters(Fabric fabric) {
        assertEquals(0, IbtoolRun.of("perfquery", "--sim", fabric.socketName(), "-R", "3", "1").exitCode());
        String after = fabric.run("perfquery", "3", "1").orThrow().stdout();
        assertTrue(after.contains("SymbolErrorCounter:..............0"), after);
        long packets = Long.parseLong(after.replaceAll("(?s).*PortXmitPkts:\\.+(\\d+).*", "$1"));
        assertTrue(packets < 10, "counters were reset, only a few packets since: " + packets);
    }

    /** Traffic counters, and the SM's ActCount, which moves with every sweep. */
    static String maskTraffic(String perfquery) {
        return perfquery.replaceAll("(?m)^(\t\tActCount\\.+)\\d+$", "$1<n>").replaceAll("(?m)^((?:Port(?:Xmit|Rcv|Unicast(?:Xmit|Rcv)|Multicast(?:Xmit|Rcv))(?:Data|Pkts)):\\.+)\\d+$", "$1<n>");
    }
}

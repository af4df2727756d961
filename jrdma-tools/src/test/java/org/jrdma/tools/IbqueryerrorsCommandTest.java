package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code ibtool ibqueryerrors} against infiniband-diags' ibqueryerrors on the same fabric, with real
 * error states made by ibsim's console: error counters set on a switch port, an adapter port and a
 * switch's PortXmitWait, a link unplugged, and an adapter whose agent drops every PortCounters MAD.
 */
@SimulatedFabric(topology = "two-switch")
class IbqueryerrorsCommandTest {
    /** The options compared, each with the state {@link #breakThings} makes. */
    private static final List<List<String>> CASES = List.of(List.of(), List.of("-r"), List.of("-R"),
            List.of("-s", "SymbolErrorCounter,LinkDownedCounter,NoSuchCounter"), List.of("-s", "PortXmitWait", "-c"),
            List.of("--suppress-common"), List.of("--switch"), List.of("--ca"), List.of("--router"), List.of("--ca", "--switch", "-r"),
            List.of("--data"), List.of("--data", "-r"), List.of("--counters"), List.of("--counters", "--switch", "-r"),
            List.of("--threshold-file", "/nonexistent/error_thresholds"), List.of("-G", "0x0002c90300001021"),
            List.of("-S", "0x0002c90300001021"), List.of("--port-guid", "0x1234"), List.of("-D", "0,7"),
            List.of("--Direct", "0,7", "-r", "--data"));

    /** Data counters move with every MAD that crosses a port: their values (and units) are masked. */
    private static final Pattern DATA = Pattern.compile("\\[(Port(?:Xmit|Rcv|Unicast(?:Xmit|Rcv)|Multicast(?:Xmit|Rcv))(?:Data|Pkts)) == \\d+ \\([^)]*\\)\\]");

    private static boolean linkDown;

    @TestFactory
    Stream<DynamicTest> sameReportAsTheCTool(Fabric fabric) {
        breakThings(fabric);
        return CASES.stream().map(args -> DynamicTest.dynamicTest("ibqueryerrors " + String.join(" ", args),
                () -> AgainstC.run(fabric, "ibqueryerrors", args.toArray(String[]::new)).assertSame(IbqueryerrorsCommandTest::maskData)));
    }

    /**
     * A documented difference: the C tool's scan from an adapter's GUID starts at the adapter by LID
     * and cannot see past it (an adapter does not forward directed-route SMPs), so its {@code -r}
     * prints no remote port; this command's scan sees the switch.
     */
    @Test
    void linkInfoOfAnAdapterChosenByGuidShowsTheSwitch(Fabric fabric) {
        breakThings(fabric);
        AgainstC run = AgainstC.run(fabric, "ibqueryerrors", "-G", "0x0002c90300001021", "-r");
        assertTrue(run.cOut().contains("==>             [  ] \"\" ( )\n"), run.cOut());
        assertEquals(run.cOut().replace("==>             [  ] \"\" ( )\n",
                "==>  0x0002c90300000a01      1    2[  ] \"sw1\" (Could be 12X Could be 10.0 Gbps)\n"), run.ours().out());
        assertEquals(run.expectedStatus(), run.ours().exitCode());
    }

    /**
     * A documented difference: for {@code --details} the C tool reads PortXmitDiscardDetails and
     * PortRcvErrorDetails but prints each one's counters under the other's names, position by
     * position; this command prints them under their own.
     */
    @Test
    void detailsNameTheCountersOfTheAttributeRead(Fabric fabric) {
        breakThings(fabric);
        fabric.performanceSet("sw1", 2, "PortCounters", "PortXmitDiscards", 6);
        fabric.performanceSet("sw1", 2, "PortXmitDiscardDetails", "PortInactiveDiscards", 4);
        fabric.performanceSet("sw1", 2, "PortXmitDiscardDetails", "PortSwHOQLifetimeLimitDiscards", 2);
        fabric.performanceSet("node01 HCA-1", 1, "PortCounters", "PortRcvErrors", 9);
        fabric.performanceSet("node01 HCA-1", 1, "PortRcvErrorDetails", "PortLocalPhysicalErrors", 3);
        fabric.performanceSet("node01 HCA-1", 1, "PortRcvErrorDetails", "PortDLIDMappingErrors", 1);
        AgainstC run = AgainstC.run(fabric, "ibqueryerrors", "--details");
        List<String> xmit = List.of("PortInactiveDiscards", "PortNeighborMTUDiscards", "PortSwLifetimeLimitDiscards",
                "PortSwHOQLifetimeLimitDiscards");
        List<String> rcv = List.of("PortLocalPhysicalErrors", "PortMalformedPktErrors", "PortBufferOverrunErrors", "PortDLIDMappingErrors");
        String c = run.cOut();
        for (int i = 0; i < xmit.size(); i++) {
            c = c.replace("[" + xmit.get(i) + " ==", "[<x" + i + "> ==").replace("[" + rcv.get(i) + " ==", "[" + xmit.get(i) + " ==")
                    .replace("[<x" + i + "> ==", "[" + rcv.get(i) + " ==");
        }
        assertTrue(c.contains("port 2: [PortXmitDiscards == 6] [PortInactiveDiscards == 4] [PortSwHOQLifetimeLimitDiscards == 2]\n"), c);
        assertTrue(c.contains("port 1: [PortRcvErrors == 9] [PortLocalPhysicalErrors == 3] [PortDLIDMappingErrors == 1]\n"), c);
        assertEquals(c, run.ours().out());
        assertEquals(run.expectedStatus(), run.ours().exitCode());
        fabric.performanceSet("sw1", 2, "PortCounters", "PortXmitDiscards", 0);
        fabric.performanceSet("node01 HCA-1", 1, "PortCounters", "PortRcvErrors", 0);
    }

    @Test
    void aCachedFabricIsReadAsTheCToolReadsIt(Fabric fabric) {
        breakThings(fabric);
        String cache = fabric.workDir().resolve("ibqueryerrors.cache").toString();
        fabric.run("ibnetdiscover", "--cache", cache).orThrow();
        for (List<String> args : List.of(List.of("--load-cache", cache), List.of("--load-cache", cache, "-r", "--switch"),
                List.of("--load-cache", cache, "-G", "0x0002c90300001021"), List.of("--load-cache", cache, "-G", "0x12"),
                List.of("--load-cache", "/nonexistent/jrdma.cache"), List.of("--load-cache", cache, "-D", "0,1"))) {
            AgainstC.run(fabric, "ibqueryerrors", args.toArray(String[]::new)).assertSame();
        }
    }

    @Test
    void thresholdsFromAFileAsTheCToolReadsThem(Fabric fabric) throws IOException {
        breakThings(fabric);
        Path file = Files.createTempFile(fabric.workDir(), "error_thresholds", "");
        Files.writeString(file, "# thresholds\n\nSymbolErrorCounter=10\nLinkDownedCounter=0x2\nNoSuchCounter=3\nPortXmitWait=07\n");
        AgainstC run = AgainstC.run(fabric, "ibqueryerrors", "--threshold-file", file.toString()).assertSame();
        assertTrue(run.ours().out().contains("## Thresholds: [SymbolErrorCounter = 10][LinkDownedCounter = 2][PortXmitWait = 7]\n"),
                run.ours().out());
        assertTrue(run.ours().out().contains("[LinkDownedCounter == 3]") && !run.ours().out().contains("SymbolErrorCounter =="), run.ours().out());
    }

    @Test
    void clearErrorsResetsTheErrorCountersAfterReadingThem(Fabric fabric) {
        breakThings(fabric);
        String before = fabric.run("ibqueryerrors").stdout();
        IbtoolRun ours = IbtoolRun.of("ibqueryerrors", "--sim", fabric.socketName(), "-k");
        assertEquals(before, ours.out(), ours.err());
        assertEquals(1, ours.exitCode());
        String after = fabric.run("ibqueryerrors").stdout();
        assertTrue(after.contains("0 bad nodes found\n##          19 ports checked, 0 ports have errors"), after);
    }

    @Test
    void clearCountsResetsTheDataCounters(Fabric fabric) {
        breakThings(fabric);
        fabric.performanceSet("node01 HCA-1", 1, "PortCountersExtended", "PortXmitPkts", 5_000_000);
        assertTrue(xmitPkts(fabric.run("ibqueryerrors", "--counters", "--ca").stdout()) >= 5_000_000);
        IbtoolRun ours = IbtoolRun.of("ibqueryerrors", "--sim", fabric.socketName(), "-K");
        assertEquals(1, ours.exitCode(), ours.err());
        long after = xmitPkts(fabric.run("ibqueryerrors", "--counters", "--ca").stdout());
        assertTrue(after < 1000, "reset, only a few packets since: " + after);
    }

    /** node01's PortXmitPkts in {@code ibqueryerrors --counters} output. */
    private static long xmitPkts(String counters) {
        Matcher m = Pattern.compile("\"node01 HCA-1\"\n   GUID 0x\\p{XDigit}+ port 1: \\[PortXmitData == \\d+ [^]]*\\] \\[PortRcvData == \\d+ [^]]*\\] "
                + "\\[PortXmitPkts == (\\d+)").matcher(counters);
        assertTrue(m.find(), counters);
        return Long.parseLong(m.group(1));
    }

    /**
     * Errors on sw1 port 1 (SymbolErrorCounter, read at once by AllPortSelect first), node02 port 1
     * (LinkDownedCounter), sw2 port 3 (PortXmitWait, on a Down port); node04's link unplugged; and
     * node03's agent dropping every PortCounters MAD (a PMA query failure).
     */
    private static synchronized void breakThings(Fabric fabric) {
        fabric.performanceSet("sw1", 1, "PortCounters", "SymbolErrorCounter", 5);
        fabric.performanceSet("node02 HCA-1", 1, "PortCounters", "LinkDownedCounter", 3);
        fabric.performanceSet("sw2", 3, "PortCounters", "PortXmitWait", 7);
        fabric.error("node03 HCA-1", 1, 100, 0x12);
        if (!linkDown) {
            fabric.unlink("node04 HCA-1", 1);
            linkDown = true;
        }
    }

    private static String maskData(String report) {
        return DATA.matcher(report).replaceAll("[$1 == <n>]");
    }
}

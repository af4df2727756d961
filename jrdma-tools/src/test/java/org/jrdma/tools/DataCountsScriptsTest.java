package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ibdatacounts, ibdatacounters and ibswportwatch, rdma-core's deprecated scripts, are not installed:
 * rdma-core's sources were run by hand with sh and perl on this fat tree to learn their output; here
 * ibtool's commands are checked against the C tools the scripts run (perfquery, smpquery, ibnetdiscover)
 * on the same fabric. The counters move with every MAD ibsim answers, so their values are masked.
 */
@SimulatedFabric(topology = "fat-tree")
class DataCountsScriptsTest {
    private static final String WARNING = "*** WARNING ***: this command is deprecated; Please use \"ibqueryerrors --counters\"\n\n\n";

    /** Counter values masked: the digits ending a line of dots. */
    private static String masked(String text) {
        return text.replaceAll("(?m)(\\.{3,})\\d+$", "$1N");
    }

    /** The LID C ibswitches gives a switch. */
    private static String lid(Fabric fabric, String name) {
        Matcher m = Pattern.compile("\"" + name + "\" base port 0 lid (\\d+)").matcher(fabric.run("ibswitches").orThrow().stdout());
        assertTrue(m.find(), name);
        return m.group(1);
    }

    /** C perfquery's header and its PortRcvData and PortRcvPkts lines, what the script keeps of them. */
    private static String receiveCounters(Fabric fabric, String... address) {
        String text = fabric.run(concat("perfquery", address)).orThrow().stdout();
        StringBuilder kept = new StringBuilder();
        for (String line : text.split("\n")) {
            if (line.startsWith("# Port counters") || line.startsWith("PortRcvData:") || line.startsWith("PortRcvPkts:")) {
                kept.append(line).append('\n');
            }
        }
        return masked(kept.toString().replaceAll("(?m)^(PortRcv\\w+):\\.+", "$1:........................."));
    }

    private static String[] concat(String first, String... rest) {
        String[] all = new String[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }

    @Test
    void ibdatacountsPrintsPerfquerysReceiveCountersAndTheVerdict(Fabric fabric) {
        String sim = fabric.socketName();
        String spine2 = lid(fabric, "spine2");
        String description = fabric.run("smpquery", "nodedesc", spine2).orThrow().stdout().replaceFirst("^Node Description:\\.*", "").strip();
        assertEquals("spine2", description);

        IbtoolRun port = IbtoolRun.of("ibdatacounts", "--sim", sim, "-N", "-v", spine2, "3");
        assertEquals(receiveCounters(fabric, spine2, "3") + "Error on lid " + spine2 + " (spine2) port 3: OK\n", masked(port.out()));
        assertEquals(WARNING, port.err());
        assertEquals(0, port.exitCode());

        IbtoolRun all = IbtoolRun.of("ibdatacounts", "--sim", sim, "-S", spine2);
        assertEquals(receiveCounters(fabric, spine2, "255"), masked(all.out()));
        assertEquals("", all.err());
        IbtoolRun coloured = IbtoolRun.of("ibdatacounts", "--sim", sim, "-S", "-v", "-G", "0x0002c90300000a02", "1");
        assertEquals(receiveCounters(fabric, spine2, "1") + "Error on lid " + spine2 + " (spine2) port 1: \033[1;032m OK \033[0;39m\n", masked(coloured.out()));

        IbtoolRun unreachable = IbtoolRun.of("ibdatacounts", "--sim", sim, "-t", "100", "99");
        assertEquals("lid 99 address resolution: \033[1;031m FAILED \033[0;39m\n", unreachable.out());
        assertEquals(255, unreachable.exitCode());
        String cWarning = AgainstC.maskPids(fabric.run("ibaddr", "-t", "100", "-L", "99").stderr());
        assertTrue(AgainstC.maskPids(unreachable.err()).startsWith(cWarning), unreachable.err());

        for (String[] bad : new String[][] {{}, {"-x"}, {"-h"}, {"-C"}, {"-P", "-1", "2"}}) {
            IbtoolRun usage = IbtoolRun.of(concat("ibdatacounts", concat("--sim", concat(sim, bad))));
            assertEquals("Usage: ibdatacounts [-h] [-b] [-v] [-G] [-N | -nocolor] [-C ca_name] [-P ca_port] "
                    + "[-t(imeout) timeout_ms] <lid|guid> [<port>]\n", usage.out(), String.join(" ", bad));
            assertEquals(255, usage.exitCode());
        }
    }

    @Test
    void ibdatacountersChecksEveryNodeOfTheTopologyAndCountsTheSilentOnes(Fabric fabric, @TempDir Path dir) throws IOException {
        String sim = fabric.socketName();
        String topology = fabric.run("ibnetdiscover").orThrow().stdout();
        long ports = topology.lines().filter(l -> l.startsWith("[")).count();
        long caPorts = topology.lines().filter(l -> l.startsWith("Ca")).count(); // one port each on this tree
        IbtoolRun run = IbtoolRun.of("ibdatacounters", "--sim", sim, "-N");
        assertTrue(run.out().endsWith("*** WARNING ***: this command is deprecated; Please use \"ibqueryerrors --counters\n\n"
                + "## Summary: 14 nodes checked, 0 bad nodes found\n##          " + ports + " ports checked\n"), run.out());
        assertEquals(6 + caPorts, run.out().lines().filter(l -> l.startsWith("# Port counters")).count(), run.out());
        assertEquals(0, run.exitCode());
        String spine1 = lid(fabric, "spine1");
        assertTrue(masked(run.out()).contains(receiveCounters(fabric, spine1, "255")), run.out());

        Path file = dir.resolve("topology");
        Files.writeString(file, topology);
        String leaf4 = lid(fabric, "leaf4");
        long leaf4Ports = topology.substring(topology.indexOf("# \"leaf4\" base port 0")).split("\n\n")[0].lines().filter(l -> l.startsWith("[")).count();
        fabric.error("leaf4", 0, 100);
        try {
            IbtoolRun silent = IbtoolRun.of("ibdatacounters", "--sim", sim, "-N", "-t", "100", file.toString());
            String failed = "lid " + leaf4 + " address resolution: FAILED\n";
            assertTrue(silent.out().contains(failed + "\n# Switch: nodeguid 0x0002c90300000a14 failed\n" + failed.repeat((int) leaf4Ports)),
                    silent.out());
            assertTrue(silent.out().endsWith("## Summary: 14 nodes checked, 1 bad nodes found\n##          " + ports + " ports checked\n"), silent.out());
            assertEquals(0, silent.exitCode());
        } finally {
            fabric.error("leaf4", 0, 0);
        }

        IbtoolRun verbose = IbtoolRun.of("ibdatacounters", "--sim", sim, "-N", "-v", file.toString());
        assertTrue(verbose.out().startsWith("\n# Checking Switch: nodeguid 0x"), verbose.out());
        assertTrue(verbose.out().contains("Node check lid " + spine1 + ": OK\n# Port counters: Lid " + spine1 + " port 255 "), verbose.out());

        IbtoolRun usage = IbtoolRun.of("ibdatacounters", "--sim", sim, "-x");
        assertEquals("Usage: ibdatacounters [-h] [-b] [-v] [-N | -nocolor] [<topology-file> \\| -C ca_name -P ca_port -t(imeout) timeout_ms]\n",
                usage.out());
        assertEquals(255, usage.exitCode());
        IbtoolRun missing = IbtoolRun.of("ibdatacounters", "--sim", sim, dir.resolve("none").toString());
        assertEquals("cat: " + dir.resolve("none") + ": No such file or directory\n", missing.err());
        assertEquals(1, missing.exitCode());
    }

    /**
     * A SymbolErrorCounter raised by 81 through ibsim's console while ibswportwatch sleeps 6 seconds
     * (its first poll long done after 3) is an excessive rate of 13.5 a second; {@code -v} shows it
     * new and old, as C perfquery reads it.
     */
    @Test
    void ibswportwatchReportsTheRateOfACounterRaisedBetweenItsPolls(Fabric fabric) throws Exception {
        String sim = fabric.socketName();
        fabric.performanceSet("spine1", 1, "PortCounters", "SymbolErrorCounter", 0);
        CompletableFuture<IbtoolRun> watch = CompletableFuture.supplyAsync(
                () -> IbtoolRun.of("ibswportwatch.pl", "--sim", sim, "-n", "1", "-p", "6", "-v", "-b", "-G", "0x0002c90300000a01", "1"));
        Thread.sleep(3000);
        fabric.performanceSet("spine1", 1, "PortCounters", "SymbolErrorCounter", 81);
        IbtoolRun run = watch.get();
        String c = fabric.run("perfquery", "-G", "0x0002c90300000a01", "1").orThrow().stdout();
        assertTrue(c.matches("(?s).*\nSymbolErrorCounter:\\.+81\n.*"), c);
        assertTrue(run.out().startsWith("Checking counts...\nDetected excessive rate for SymbolErrorCounter (13.5 cnts/sec)\n"), run.out());
        assertTrue(run.out().contains("   SymbolErrorCounter\t\t\t81 ==> 0\n"), run.out());
        assertTrue(run.out().matches("(?s).*\n   [0-9.]+ PortXmitData/second\n   [0-9.]+ PortRcvData/second\n"
                + "   [0-9.]+ PortXmitPkts/second\n   [0-9.]+ PortRcvPkts/second\n   Counter\t\t\tNew ==> Old\n.*"), run.out());
        assertEquals(17, run.out().lines().filter(l -> l.contains(" ==> ")).count(), run.out());
        assertEquals(0, run.exitCode());

        IbtoolRun unreachable = IbtoolRun.of("ibswportwatch", "--sim", sim, "-n", "1", "-p", "1", "99", "1");
        assertTrue(unreachable.err().endsWith("perfquery failed : \"perfquery  99 1\"\n"), unreachable.err());
        assertEquals("", unreachable.out());
        assertEquals(255, unreachable.exitCode());
        IbtoolRun usage = IbtoolRun.of("ibswportwatch.pl", "--sim", sim, "-x");
        assertEquals("Unknown option: x\n", usage.err());
        assertTrue(usage.out().startsWith("Usage: ibswportwatch.pl [-p <pause_time> -b -v -n <cycles> -G] <guid|lid> <port>\n"
                + "   Attempt to diagnose a problem on a port\n"), usage.out());
        assertEquals(2, usage.exitCode());
    }
}

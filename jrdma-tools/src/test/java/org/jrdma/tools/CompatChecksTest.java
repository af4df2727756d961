package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.ToolResult;
import org.jrdma.testkit.fabric.Topology;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ibchecknode, ibcheckport, ibcheckportstate, ibcheckportwidth, ibcheckerrs, ibcheckstate,
 * ibcheckwidth, ibchecknet and ibcheckerrors, rdma-core's deprecated scripts, are not installed:
 * rdma-core's sources were run by hand with bash on these fabrics to learn their output (identical
 * to ibtool's, but for jrdma's explanation after libibmad's warnings). Here ibtool's commands are
 * checked against the C tools the scripts run (ibaddr, smpquery, perfquery, ibnetdiscover) on the
 * same fabric: what the C tools print is what the scripts' lines say. The interesting states are
 * made with ibsim: counters set with PerformanceSet, a link unplugged, a switch silenced with Error,
 * and a link enabled at 1X alone (a topology option).
 */
@SimulatedFabric(topology = "two-switch")
class CompatChecksTest {
    private static final String SW1 = "0x0002c90300000a01";
    private static final String SW2 = "0x0002c90300000a02";
    private static final String NODE02 = "0x0002c90300001021";
    private static final String NODE04 = "0x0002c90300001041";
    private static final String DEPRECATED = "*** WARNING ***: this command is deprecated\n\n\n";
    private static final String USE_IBQUERYERRORS = "*** WARNING ***: this command is deprecated; Please use \"ibqueryerrors\"\n\n\n";
    private static final String RED_FAILED = "\033[1;031m FAILED \033[0;39m\n";
    private static final String PORT_USAGE = " [-h] [-v] [-N | -nocolor] [-G] [-C ca_name] [-P ca_port] [-t(imeout) timeout_ms] <lid|guid> <port>\n";

    /** The LID of a port GUID as C ibaddr resolves it. */
    private static String lid(Fabric fabric, String guid) {
        return fabric.run("ibaddr", "-G", "-L", guid).orThrow().stdout().trim().split("\\s+")[2];
    }

    /** The value C smpquery or perfquery prints for a field: the text after its dots. */
    private static String value(String text, String field) {
        for (String line : text.split("\n")) {
            if (line.startsWith(field + ":")) {
                return line.replaceFirst("^[^:]*:\\.*", "");
            }
        }
        throw new AssertionError(field + " not in " + text);
    }

    private static IbtoolRun ibtool(Fabric fabric, String command, String... args) {
        List<String> line = new ArrayList<>(List.of(command, "--sim", fabric.socketName()));
        line.addAll(List.of(args));
        return IbtoolRun.of(line.toArray(String[]::new));
    }

    private static void assertRun(IbtoolRun run, int status, String out, String err) {
        assertEquals(out, run.out(), run.err());
        assertEquals(err, run.err(), run.out());
        assertEquals(status, run.exitCode(), run.out());
    }

    /** The summary's counts from C ibnetdiscover: its node headers and port lines. */
    private static long[] topologyCounts(String topology) {
        long nodes = topology.lines().filter(l -> l.startsWith("Switch") || l.startsWith("Ca") || l.startsWith("Rt")).count();
        long ports = topology.lines().filter(l -> l.startsWith("[")).count();
        return new long[] {nodes, ports};
    }

    /**
     * Waits until OpenSM's sweep after a link change is over: sw2 answers C smpquery by LID five
     * times running (during the sweep LID-routed MADs may go unanswered).
     */
    private static void awaitAnswers(Fabric fabric, String lid) {
        long deadline = System.nanoTime() + 20_000_000_000L;
        int answered = 0;
        while (answered < 5) {
            answered = fabric.run("smpquery", "-t", "200", "portinfo", lid, "1").exitCode() == 0 ? answered + 1 : 0;
            assertTrue(System.nanoTime() < deadline, "LID " + lid + " does not answer steadily after the link change");
        }
    }

    @Test
    void nodeAndPortChecksSayWhatSmpquerySays(Fabric fabric) {
        String sw1 = lid(fabric, SW1);
        assertEquals(0, fabric.run("smpquery", "nodeinfo", sw1).exitCode());
        assertRun(ibtool(fabric, "ibchecknode", "-v", "-N", sw1), 0, "Node check lid " + sw1 + ": OK\n",
                "*** WARNING ***: this command is deprecated; Please use \"smpquery nodeinfo\"\n\n\n");
        assertRun(ibtool(fabric, "ibchecknode", "-S", sw1), 0, "", "");
        assertRun(ibtool(fabric, "ibchecknode", "-S", "-v", sw1), 0, "Node check lid " + sw1 + ": \033[1;032m OK \033[0;39m\n", "");
        String node02 = lid(fabric, NODE02);
        assertRun(ibtool(fabric, "ibchecknode", "-S", "-v", "--nocolor", "-G", NODE02), 0, "Node check lid " + node02 + ": OK\n", "");

        ToolResult cAddress = fabric.run("ibaddr", "-t", "100", "-L", "99");
        assertTrue(cAddress.stdout().contains("failed"), cAddress.stdout());
        IbtoolRun unreachable = ibtool(fabric, "ibchecknode", "-S", "-t", "100", "99");
        assertEquals("lid 99 address resolution: " + RED_FAILED, unreachable.out());
        assertTrue(AgainstC.maskPids(unreachable.err()).startsWith(AgainstC.maskPids(cAddress.stderr())), unreachable.err());
        assertEquals(255, unreachable.exitCode());
        IbtoolRun unknownGuid = ibtool(fabric, "ibcheckport", "-S", "-N", "-t", "100", "-G", "0x0002c903000099ff", "1");
        assertTrue(fabric.run("ibaddr", "-t", "100", "-G", "-L", "0x0002c903000099ff").stdout().contains("failed"));
        assertEquals("guid 0x0002c903000099ff address resolution: FAILED\n", unknownGuid.out());
        assertEquals(255, unknownGuid.exitCode());

        String portinfo = fabric.run("smpquery", "portinfo", sw1, "1").orThrow().stdout();
        assertEquals("LinkUp", value(portinfo, "PhysLinkState"));
        assertEquals("Active", value(portinfo, "LinkState"));
        assertEquals("4X", value(portinfo, "LinkWidthActive"));
        for (String check : List.of("ibcheckport", "ibcheckportstate", "ibcheckportwidth")) {
            assertRun(ibtool(fabric, check, "-v", "-N", sw1, "1"), 0, "Port check lid " + sw1 + " port 1: OK\n", DEPRECATED);
            assertRun(ibtool(fabric, check, sw1, "1"), 0, "", DEPRECATED);
            assertRun(ibtool(fabric, check, "-S", "-v", "-G", NODE02, "1"), 0, "Port check lid " + node02 + " port 1: \033[1;032m OK \033[0;39m\n", "");
            for (String[] bad : new String[][] {{}, {sw1}, {"-x", sw1, "1"}, {"-h"}, {"-C"}, {"-P", "-1", sw1, "1"}}) {
                assertRun(ibtool(fabric, check, bad), 255, "Usage: " + check + PORT_USAGE, "");
            }
        }
        ToolResult cNoPort = fabric.run("smpquery", "portinfo", sw1, "99");
        assertNotEquals(0, cNoPort.exitCode());
        assertTrue(cNoPort.stdout().startsWith("smpquery: iberror: failed: "), cNoPort.stdout());
        IbtoolRun noPort = ibtool(fabric, "ibcheckportstate", "-S", "-N", sw1, "99");
        assertEquals(cNoPort.stdout() + "Port check lid " + sw1 + " port 99: FAILED\n", noPort.out()); // the awk passes iberror: lines
        assertTrue(AgainstC.maskPids(noPort.err()).startsWith(AgainstC.maskPids(cNoPort.stderr())), noPort.err());
        assertEquals(255, noPort.exitCode());
        for (String[] bad : new String[][] {{}, {"-b", sw1}, {"-x"}}) {
            assertRun(ibtool(fabric, "ibchecknode", bad), 255,
                    "Usage: ibchecknode [-h] [-v] [-N | -nocolor] [-G] [-C ca_name] [-P ca_port] [-t(imeout) timeout_ms] <lid|guid>\n", "");
        }
    }

    @Test
    void errorCountersAtOrBeyondTheirThresholdsAsPerfqueryReadsThem(Fabric fabric, @TempDir Path dir) throws IOException {
        String sw1 = lid(fabric, SW1);
        String node02 = lid(fabric, NODE02);
        fabric.performanceSet("sw1", 1, "PortCounters", "SymbolErrorCounter", 25);
        fabric.performanceSet("node02 HCA-1", 1, "PortCounters", "PortRcvErrors", 10);
        try {
            assertEquals("25", value(fabric.run("perfquery", sw1, "1").orThrow().stdout(), "SymbolErrorCounter"));
            assertEquals("25", value(fabric.run("perfquery", sw1, "255").orThrow().stdout(), "SymbolErrorCounter")); // the switch's sum
            assertEquals("10", value(fabric.run("perfquery", node02, "1").orThrow().stdout(), "PortRcvErrors"));
            assertEquals("sw1", value(fabric.run("smpquery", "nodedesc", sw1).orThrow().stdout(), "Node Description"));
            String symbols = "#warn: counter SymbolErrorCounter = 25 \t(threshold 10) lid " + sw1 + " port ";
            assertRun(ibtool(fabric, "ibcheckerrs", "-N", sw1, "1"), 255, symbols + "1\nError check on lid " + sw1 + " (sw1) port 1: FAILED\n",
                    USE_IBQUERYERRORS);
            assertRun(ibtool(fabric, "ibcheckerrs", "-S", sw1), 255,
                    "\033[1;034m" + symbols + "255\n\033[0;39mError check on lid " + sw1 + " (sw1) port all: " + RED_FAILED, "");
            assertRun(ibtool(fabric, "ibcheckerrs", "-S", "-b", sw1), 255, "Error check on lid " + sw1 + " (sw1) port all: " + RED_FAILED, "");
            // At the threshold is beyond it: the script compares with >=.
            assertRun(ibtool(fabric, "ibcheckerrs", "-S", "-N", node02, "1"), 255, "#warn: counter PortRcvErrors = 10 \t(threshold 10) lid " + node02
                    + " port 1\nError check on lid " + node02 + " (node02 HCA-1) port 1: FAILED\n", "");
            assertTrue(fabric.run("perfquery", node02, "255").stdout().contains("AllPortSelect not supported"));
            assertRun(ibtool(fabric, "ibcheckerrs", "-S", "-v", "-N", "-G", NODE02), 0,
                    "Error check on lid " + node02 + " (node02 HCA-1) port all: AllPortSelect not supported\n", "");

            Path thresholds = Files.writeString(dir.resolve("thresholds"), "# ibcheckerrs -T\nSymbolErrorCounter=30\nPortRcvErrors=0\n");
            assertRun(ibtool(fabric, "ibcheckerrs", "-S", "-T", thresholds.toString(), "-v", "-N", sw1, "1"), 0,
                    "Error check on lid " + sw1 + " (sw1) port 1: OK\n", "");
            assertRun(ibtool(fabric, "ibcheckerrs", "-S", "-T", thresholds.toString(), "-v", "-N", node02, "1"), 0,
                    "Error check on lid " + node02 + " (node02 HCA-1) port 1: OK\n", "");
            String defaults = "SymbolErrorCounter=10\nLinkErrorRecoveryCounter=10\nLinkDownedCounter=10\nPortRcvErrors=10\n"
                    + "PortRcvRemotePhysicalErrors=100\nPortRcvSwitchRelayErrors=100\nPortXmitDiscards=100\nPortXmitConstraintErrors=100\n"
                    + "PortRcvConstraintErrors=100\nLocalLinkIntegrityErrors=10\nExcessiveBufferOverrunErrors=10\nVL15Dropped=100\n";
            assertRun(ibtool(fabric, "ibcheckerrs", "-s"), 0, defaults, "");
            assertRun(ibtool(fabric, "ibcheckerrs", "--show_thresholds"), 0, defaults, ""); // python-rdma's name
            assertRun(ibtool(fabric, "ibcheckerrs", "-T", thresholds.toString(), "-s"), 0,
                    defaults.replace("SymbolErrorCounter=10", "SymbolErrorCounter=30").replace("PortRcvErrors=10", "PortRcvErrors=0"), "");
            String usage = "Usage: ibcheckerrs [-h] [-b] [-v] [-G] [-T <threshold_file>] [-s(how_thresholds)] [-N \\| -nocolor] "
                    + "[-C ca_name] [-P ca_port] [-t(imeout) timeout_ms] <lid|guid> [<port>]\n";
            assertRun(ibtool(fabric, "ibcheckerrs", "-T", dir.resolve("none").toString(), sw1), 255,
                    "Can't use threshold file '" + dir.resolve("none") + "'\n" + usage, "");
            assertRun(ibtool(fabric, "ibcheckerrs", "-v"), 255, usage, "");

            String topology = fabric.run("ibnetdiscover").orThrow().stdout();
            long[] counts = topologyCounts(topology);
            String failures = symbols + "255\nError check on lid " + sw1 + " (sw1) port all: FAILED\n"
                    + symbols + "1\nError check on lid " + sw1 + " (sw1) port 1: FAILED\n"
                    + "#warn: counter PortRcvErrors = 10 \t(threshold 10) lid " + node02 + " port 1\n"
                    + "Error check on lid " + node02 + " (node02 HCA-1) port 1: FAILED\n";
            assertRun(ibtool(fabric, "ibcheckerrors", "-N"), 0, failures
                    + "\n*** WARNING ***: this command is deprecated; Please use \"ibqueryerrors\"\n## Summary: " + counts[0]
                    + " nodes checked, 0 bad nodes found\n##          " + counts[1] + " ports checked, 2 ports have errors beyond threshold\n", "");
            IbtoolRun net = ibtool(fabric, "ibchecknet", "-N");
            assertTrue(net.out().endsWith("\n*** WARNING ***: this command is deprecated; Please use \"ibqueryerrors\"\n## Summary: " + counts[0]
                    + " nodes checked, 0 bad nodes found\n##          " + counts[1] + " ports checked, 0 bad ports found\n"
                    + "##          2 ports have errors beyond threshold\n"), net.out());
            assertEquals(topology.lines().filter(l -> l.startsWith("Ca")).count(),
                    net.out().lines().filter(l -> l.startsWith("# Checking Ca: nodeguid 0x")).count(), net.out());
            assertTrue(net.out().startsWith(symbols + "255\n"), net.out());
            assertEquals(2, net.exitCode(), "the sum of the bad nodes and ports is ibchecknet's status");
            IbtoolRun verbose = ibtool(fabric, "ibcheckerrors", "-v", "-N", "-T", thresholds.toString());
            assertTrue(verbose.out().startsWith("\n# Checking Switch: nodeguid 0x"), verbose.out());
            assertTrue(verbose.out().contains("\n# Checking Switch: nodeguid 0x0002c90300000a01\nNode check lid " + sw1 + ": OK\n"
                    + "Error check on lid " + sw1 + " (sw1) port all: OK\n"), verbose.out());
            assertTrue(verbose.out().endsWith("ports checked, 0 ports have errors beyond threshold\n"), verbose.out());

            JsonNode one = new ObjectMapper().readTree(ibtool(fabric, "ibcheckerrs", "--json", "-S", sw1, "1").out());
            assertEquals(255, one.get("status").asInt());
            assertEquals("errors", one.at("/checks/0/check").asText());
            assertEquals(sw1, one.at("/checks/0/lid").asText());
            assertFalse(one.at("/checks/0/ok").asBoolean());
            assertEquals(symbols + "1", one.at("/checks/0/findings/0").asText());
            JsonNode all = new ObjectMapper().readTree(ibtool(fabric, "ibcheckerrors", "--json").out());
            assertEquals(counts[0], all.get("nodesChecked").asLong());
            assertEquals(counts[1], all.get("portsChecked").asLong());
            assertEquals(2, all.get("portsOverThreshold").asInt());
            assertFalse(all.has("badPorts"), all.toString());
            assertEquals(3, all.get("checks").findValues("ok").stream().filter(ok -> !ok.asBoolean()).count(), all.toString());
        } finally {
            fabric.performanceSet("sw1", 1, "PortCounters", "SymbolErrorCounter", 0);
            fabric.performanceSet("node02 HCA-1", 1, "PortCounters", "PortRcvErrors", 0);
        }
    }

    /**
     * On a fabric whose sw1-node02 link is enabled at 1X alone at both ends (ibsim's {@code w=1}): the width
     * checks warn on both ends. Then sw2's link to node04 is unplugged, and the state checks read
     * the topology saved before: sw2's port is no longer LinkUp and node04 no longer answers.
     * Then sw2 is silenced (ibsim's {@code Error}): every check of it fails at ibaddr.
     */
    @Test
    void aOneXLinkADownLinkAndASilentSwitch(@TempDir Path dir) throws IOException {
        String text = Topology.bundled("two-switch").text().replace("[2]\t\"node02 HCA-1\"[1]", "[2]\t\"node02 HCA-1\"[1] w=1")
                .replace("[1](0002c90300001021)\t\"sw1\"[2]", "[1](0002c90300001021)\t\"sw1\"[2] w=1");
        try (Fabric fabric = Fabric.start(Topology.parse("two-switch, one 1X link", text, null))) {
            String sw1 = lid(fabric, SW1);
            String sw2 = lid(fabric, SW2);
            String node02 = lid(fabric, NODE02);
            String node04 = lid(fabric, NODE04);
            String sw1Port2 = fabric.run("smpquery", "portinfo", sw1, "2").orThrow().stdout();
            assertEquals("1X", value(sw1Port2, "LinkWidthActive"));
            assertTrue(value(sw1Port2, "LinkWidthSupported").startsWith("1X or "), sw1Port2);
            assertEquals("1X", value(fabric.run("smpquery", "portinfo", node02, "1").orThrow().stdout(), "LinkWidthActive"));
            String narrow = "#warn: Link configured as 1X  lid " + sw1 + " port 2\nPort check lid " + sw1 + " port 2: FAILED\n";
            assertRun(ibtool(fabric, "ibcheckportwidth", "-S", "-N", sw1, "2"), 255, narrow, "");
            assertRun(ibtool(fabric, "ibcheckport", "-S", "-N", sw1, "2"), 255, narrow, "");
            assertRun(ibtool(fabric, "ibcheckportstate", "-S", "-N", sw1, "2"), 0, "", "");
            assertRun(ibtool(fabric, "ibcheckportwidth", "-S", sw1, "2"), 255, "\033[1;034m#warn: Link configured as 1X  lid " + sw1
                    + " port 2\n\033[0;39mPort check lid " + sw1 + " port 2: " + RED_FAILED, "");

            String topology = fabric.run("ibnetdiscover").orThrow().stdout();
            long[] counts = topologyCounts(topology);
            IbtoolRun width = ibtool(fabric, "ibcheckwidth", "-N");
            assertTrue(width.out().contains(narrow + "# Checked Switch: nodeguid 0x0002c90300000a01 with failure\n"), width.out());
            assertTrue(width.out().contains("#warn: Link configured as 1X  lid " + node02 + " port 1\nPort check lid " + node02
                    + " port 1: FAILED\n# Checked Ca: nodeguid 0x0002c90300001020 with failure\n"), width.out());
            assertTrue(width.out().endsWith("\n*** WARNING ***: this command is deprecated\n\n## Summary: " + counts[0]
                    + " nodes checked, 0 bad nodes found\n##          " + counts[1] + " ports checked, 2 ports with 1x width in error found\n"), width.out());
            assertEquals(0, width.exitCode());
            IbtoolRun net = ibtool(fabric, "ibchecknet", "-N");
            assertTrue(net.out().contains(narrow + "# Checked Switch: nodeguid 0x0002c90300000a01 with failure\n"), net.out());
            assertTrue(net.out().contains("ports checked, 2 bad ports found\n##          0 ports have errors beyond threshold\n"), net.out());
            assertEquals(2, net.exitCode());

            Path saved = Files.writeString(dir.resolve("topology"), topology);
            fabric.unlink("sw2", 2);
            awaitAnswers(fabric, sw2);
            String sw2Port2 = fabric.run("smpquery", "portinfo", sw2, "2").orThrow().stdout();
            String physical = value(sw2Port2, "PhysLinkState");
            assertNotEquals("LinkUp", physical);
            String down = "#error: Physical link state is " + physical + "  lid " + sw2 + " port 2\nPort check lid " + sw2 + " port 2: FAILED\n";
            assertRun(ibtool(fabric, "ibcheckportstate", "-S", "-N", sw2, "2"), 255, down, "");
            assertRun(ibtool(fabric, "ibcheckport", "-S", "-N", sw2, "2"), 255, down, "");
            assertTrue(fabric.run("ibaddr", "-t", "100", "-L", node04).stdout().contains("failed"));
            IbtoolRun state = ibtool(fabric, "ibcheckstate", "-N", "-t", "100", saved.toString());
            assertTrue(state.out().contains(down + "# Checked Switch: nodeguid 0x0002c90300000a02 with failure\n"), state.out());
            assertTrue(state.out().contains("lid " + node04 + " address resolution: FAILED\n\n# Ca: nodeguid 0x0002c90300001040 failed\n"), state.out());
            assertTrue(state.out().endsWith("## Summary: " + counts[0] + " nodes checked, 1 bad nodes found\n##          " + counts[1]
                    + " ports checked, 1 ports with bad state found\n"), state.out());
            assertEquals(0, state.exitCode());
            IbtoolRun up = ibtool(fabric, "ibcheckstate", "--up", "-N", "-t", "100", saved.toString()); // python-rdma's option
            assertFalse(up.out().contains("#error"), up.out());
            assertTrue(up.out().endsWith("## Summary: " + counts[0] + " nodes checked, 1 bad nodes found\n##          " + (counts[1] - 1)
                    + " ports checked, 0 ports with bad state found\n"), up.out());

            fabric.error("sw2", 0, 100);
            assertTrue(fabric.run("ibaddr", "-t", "100", "-L", sw2).stdout().contains("failed"));
            IbtoolRun silent = ibtool(fabric, "ibcheckstate", "-N", "-t", "100", saved.toString());
            long sw2Ports = topology.substring(topology.indexOf("switchguid=0x2c90300000a02")).split("\n\n")[0].lines()
                    .filter(l -> l.startsWith("[")).count();
            assertTrue(silent.out().contains("lid " + sw2 + " address resolution: FAILED\n"
                    + "\n# Switch: nodeguid 0x0002c90300000a02 failed\n".repeat((int) sw2Ports)), silent.out());
            assertTrue(silent.out().contains(" nodes checked, 2 bad nodes found\n"), silent.out());
            IbtoolRun errors = ibtool(fabric, "ibcheckerrors", "-N", "-t", "100", saved.toString());
            assertTrue(errors.out().contains("lid " + sw2 + " address resolution: FAILED\n\n# Switch: nodeguid 0x0002c90300000a02 failed\n"
                    + ("lid " + sw2 + " address resolution: FAILED\n").repeat((int) sw2Ports)), errors.out());
            assertEquals(0, errors.exitCode());
        }
    }
}

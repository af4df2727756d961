package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.Topology;
import org.jrdma.testkit.junit.Peers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * python-rdma's own ibtool commands, which infiniband-diags does not have, on one two-switch ibsim
 * fabric (OpenSM not sweeping, so that what the commands change stays until the C tools read it),
 * attached at sw1: the C tools read what they did. {@code query} answers what smpquery reads;
 * {@code set_guid}'s alias GUID is what {@code saquery GIR} lists; {@code set_port_state}
 * disables a link over a directed route that avoids it and enables it again, as {@code smpquery
 * portinfo} sees; {@code init_all_ports} leaves every link in Initialize. {@code ibv_devices} is
 * compared with the C program on this host. The commands that change the fabric run last.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PythonRdmaCommandsTest {
    private static final Pattern IBADDR = Pattern.compile("GID (\\S+) LID start 0x(\\p{XDigit}+) end");
    private static Fabric fabric;

    @BeforeAll
    static void start() {
        Peers.require(Fabric.isAvailable(), Fabric.unavailabilityCause().orElse("ibsim"));
        fabric = Fabric.start(Topology.bundled("two-switch"), Fabric.Options.defaults().withSweepSeconds(0));
    }

    @AfterAll
    static void stop() {
        if (fabric != null) {
            fabric.close();
        }
    }

    private static IbtoolRun ibtool(String... args) {
        String[] all = new String[args.length + 2];
        all[0] = args[0];
        all[1] = "--sim";
        all[2] = fabric.socketName();
        System.arraycopy(args, 1, all, 3, args.length - 1);
        return IbtoolRun.of(all);
    }

    /** The SM's LID, as C sminfo reads it. */
    private static int smLid() {
        Matcher m = Pattern.compile("sm lid (\\d+) ").matcher(fabric.run("sminfo").orThrow().stdout());
        assertTrue(m.find());
        return Integer.parseInt(m.group(1));
    }

    /** The LID of the end port at a directed route from sw1, as C ibaddr reads it. */
    private static int lidAt(String route) {
        Matcher m = IBADDR.matcher(fabric.run("ibaddr", "-D", route).orThrow().stdout());
        assertTrue(m.find());
        return Integer.parseInt(m.group(2), 16);
    }

    @Test
    @Order(1)
    void ibvDevicesIsTheCProgram() throws IOException, InterruptedException {
        Process c = new ProcessBuilder("ibv_devices").start();
        String out = new String(c.getInputStream().readAllBytes());
        String err = new String(c.getErrorStream().readAllBytes());
        assertTrue(c.waitFor(30, TimeUnit.SECONDS));
        IbtoolRun ours = IbtoolRun.of("ibv_devices");
        assertEquals(out, ours.out());
        assertEquals(err, ours.err());
        assertEquals(c.exitValue(), ours.exitCode());
    }

    @Test
    @Order(2)
    void queryAnswersWhatSmpqueryReads() throws IOException {
        int lid = lidAt("0,1");
        String c = fabric.run("smpquery", "nodeinfo", Integer.toString(lid)).orThrow().stdout();
        for (String target : List.of(Integer.toString(lid), "IBPath(DLID=" + lid + ")", "0,1", "0002:c903:0000:1011",
                "fe80::2:c903:0:1011")) {
            IbtoolRun run = ibtool("query", "SubnGet", "SMPNodeInfo", target);
            assertEquals(0, run.exitCode(), target + ": " + run.out() + run.err());
            assertTrue(run.out().startsWith("NodeInfo\n"), run.out());
            assertTrue(run.out().contains("  nodeGuid........................0x0002c90300001010\n"), target + ": " + run.out());
            assertTrue(c.contains("Guid:............................0x0002c90300001010\n"), c);
            assertTrue(run.out().contains("  portGuid........................0x0002c90300001011\n"), run.out());
            assertTrue(c.contains("PortGuid:........................0x0002c90300001011\n"), c);
        }
        IbtoolRun counters = ibtool("query", "PerformanceGet", "PmPortCounters", "-f", "portSelect=1", Integer.toString(lid));
        assertEquals(0, counters.exitCode(), counters.out());
        assertTrue(counters.out().startsWith("PortCounters\n  portSelect......................1\n"), counters.out());
        IbtoolRun table = ibtool("query", "SubnAdmGetTable", "SANodeRecord", "-f", "LID=" + lid);
        assertEquals(0, table.exitCode(), table.out());
        assertEquals(table.out(), ibtool("query", "--sa-path", Integer.toString(smLid()), "--smkey", "0", "--int-names",
                "SubnAdmGetTable", "SANodeRecord", "-f", "LID=" + lid).out(), "the SA at --sa-path answers as at the SM LID");
        assertTrue(table.out().startsWith("Reply structure #0\n  NodeRecord\n"), table.out());
        assertEquals(1, table.out().lines().filter(l -> l.startsWith("Reply structure #")).count(), table.out());
        JsonNode json = new ObjectMapper().readTree(ibtool("query", "--json", "SubnGet", "SmpNodeInfo", Integer.toString(lid)).out());
        assertEquals("0x0002c90300001010", json.get("records").get(0).get("nodeGuid").asText(), json.toString());
        assertEquals("NodeInfo", json.get("attribute").asText());
    }

    /**
     * python-rdma's addresses where infiniband-diags takes a LID: a GID, a port GUID with colons
     * (both resolved by the SA) or an IBPath specification print what the C tool prints for the LID.
     */
    @Test
    @Order(3)
    void diagsCommandsTakeGidsAndPathSpecificationsForLids() {
        int node01 = lidAt("0,1");
        int sw2 = lidAt("0,7");
        String lid = Integer.toString(node01);
        for (String address : List.of("fe80::2:c903:0:1011", "0002:c903:0000:1011", "IBPath(DLID=" + node01 + ")")) {
            assertSameAs(fabric.run("smpquery", "nodeinfo", lid), ibtool("smpquery", "nodeinfo", address));
            assertSameAs(fabric.run("smpquery", "portinfo", lid, "1"), ibtool("smpquery", "portinfo", address, "1"));
            assertSameAs(fabric.run("ibaddr", lid), ibtool("ibaddr", address));
        }
        assertSameAs(fabric.run("ibroute", Integer.toString(sw2)), ibtool("ibroute", "IBPath(DLID=" + sw2 + ")"));
        assertSameAs(fabric.run("ibroute", Integer.toString(sw2)), ibtool("ibroute", "fe80::2:c903:0:a02"));
        IbtoolRun bad = ibtool("smpquery", "nodeinfo", "fe80::zz");
        assertEquals("smpquery: iberror: failed: can't resolve destination port fe80::zz\n", bad.out());
        assertEquals(ExitCodes.FAILED, bad.exitCode());
    }

    private static void assertSameAs(org.jrdma.testkit.fabric.ToolResult c, IbtoolRun ours) {
        assertEquals(c.stdout(), ours.out(), c.command() + "\n" + ours.err());
        assertEquals(c.exitCode(), ours.exitCode(), c.command() + "\n" + ours.err());
    }

    @Test
    @Order(3)
    void queryFailsAsPythonRdmaDoes() {
        assertFailure(ibtool("query", "Bogus", "SmpNodeInfo"), "E: Invalid method 'Bogus'\n");
        assertFailure(ibtool("query", "SubnGet", "Bogus"), "E: Invalid attribute 'Bogus'\n");
        assertFailure(ibtool("query", "SubnGet", "PmPortCounters"), "E: Invalid attribute 'PmPortCounters'\n");
        assertFailure(ibtool("query", "SubnGet", "SmpNodeInfo", "-f", "nope=1"), "E: Invalid field name 'nope' for NodeInfo\n");
        assertFailure(ibtool("query", "SubnGet", "SmpNodeInfo", "-f", "lid"), "E: Field 'lid' does not have exactly 1 equals.\n");
        assertEquals(2, ibtool("query", "SubnGet").exitCode());
    }

    private static void assertFailure(IbtoolRun run, String out) {
        assertEquals(out, run.out(), run.err());
        assertEquals(CmdError.STATUS, run.exitCode());
    }

    @Test
    @Order(4)
    void setGuidProgramsTheAliasSaqueryLists() {
        int lid = lidAt("0,2");
        IbtoolRun set = ibtool("set_guid", Integer.toString(lid), "1", "0x0002c903000010ff");
        assertEquals(0, set.exitCode(), set.out() + set.err());
        String c = fabric.run("saquery", "GIR", Integer.toString(lid)).orThrow().stdout();
        assertTrue(c.contains("\t\tGUID 1.....................0x0002c903000010ff\n"), c);
        assertTrue(c.startsWith(set.out()), "the SA's answer is block 0 as saquery lists it\n" + set.out() + c);
        IbtoolRun byGid = ibtool("set_guid", "fe80::2:c903:0:1021", "2", "0002:c903:0000:10fe");
        assertEquals(0, byGid.exitCode(), byGid.out());
        assertTrue(fabric.run("saquery", "GIR", Integer.toString(lid)).orThrow().stdout()
                .contains("\t\tGUID 2.....................0x0002c903000010fe\n"));
        // python-rdma's --int-names: the record by its IBA field names; --sa-path and --smkey: the SA's path and SM_Key
        IbtoolRun internal = ibtool("set_guid", "--int-names", "--sa-path", Integer.toString(smLid()), "--smkey", "0",
                Integer.toString(lid), "3", "0x0002c903000010fc");
        assertEquals(0, internal.exitCode(), internal.out() + internal.err());
        assertTrue(internal.out().startsWith("GuidInfoRecord\n"), internal.out());
        assertTrue(internal.out().contains("  guidInfo.guid3" + ".".repeat(18) + "0x0002c903000010fc\n"), internal.out());
        assertTrue(fabric.run("saquery", "GIR", Integer.toString(lid)).orThrow().stdout()
                .contains("\t\tGUID 3.....................0x0002c903000010fc\n"));
        assertEquals(ExitCodes.USAGE, ibtool("set_guid", "--sa-path", "no(path", Integer.toString(lid), "4", "0x0002c903000010fb").exitCode());
        IbtoolRun baseGuid = ibtool("set_guid", Integer.toString(lid), "0", "0x0002c903000010fd");
        assertEquals(CmdError.STATUS, baseGuid.exitCode());
        assertTrue(baseGuid.out().startsWith("E: SubnAdmSet(GuidInfoRecord"), baseGuid.out());
        assertTrue(baseGuid.out().contains("(Request Invalid)"), baseGuid.out());
    }

    @Test
    @Order(5)
    void setPortStateTakesARouteAroundTheLinkItDisables() {
        int sw2 = lidAt("0,7");
        IbtoolRun dry = ibtool("set_port_state", "IBPath(DLID=" + sw2 + ")@1", "0,7@8");
        assertEquals("Would have changed 0002:c903:0000:0a02@1 on DR Path (0, 7)\n"
                + "Would have changed 0002:c903:0000:0a02@8 on DR Path (0, 7)\n", dry.out(), dry.err());
        IbtoolRun dryBySa = ibtool("set_port_state", "--sa-path", Integer.toString(smLid()), "--smkey", "0", "IBPath(DLID=" + sw2 + ")@1",
                "0,7@8");
        assertEquals(dry.out(), dryBySa.out(), "--sa-path: discovered from the SA's records there\n" + dryBySa.err());
        assertFailure(ibtool("set_port_state", "--sa-path", Integer.toString(smLid()), "--discovery", "DR", "0,7@8"),
                "E: Can't combine --sa with discovery mode 'DR'\n");
        IbtoolRun dryByLid = ibtool("set_port_state", "--discovery", "LID", "IBPath(DLID=" + sw2 + ")@1", "0,7@8");
        assertEquals(dry.out(), dryByLid.out(), "python-rdma's LID discovery finds the links the DR walk finds\n" + dryByLid.err());
        assertFailure(ibtool("set_port_state", "--disable", "fe80::2:c903:0:1031"),
                "E: No DR path exists to 0002:c903:0000:1031 port 1 - try using the peer 0002:c903:0000:0a02 port 1\n");
        assertFailure(ibtool("set_port_state", "0,7"), "E: Need to have a port index for switch 0002:c903:0000:0a02\n");
        assertFailure(ibtool("set_port_state", "-D", "0,9@1"), "E: Could not find path 0,9 in the subnet\n");

        JsonNode dryJson = TextAndJson.parse(ibtool("set_port_state", "--json", "IBPath(DLID=" + sw2 + ")@1", "0,7@8"));
        assertEquals(2, dryJson.get("ports").size(), dryJson.toString());
        assertTrue(dryJson.get("portPhysicalState") == null && dryJson.get("portState") == null, dryJson.toString());
        for (int i = 0; i < 2; i++) {
            JsonNode port = dryJson.get("ports").get(i);
            assertEquals(dry.out().lines().toList().get(i), "Would have changed " + guidText(port.get("portGuid").asText()) + "@"
                    + port.get("portNum").asInt() + " on DR Path (" + String.join(", ", port.get("route").valueStream()
                    .map(JsonNode::asText).toList()) + ")");
            assertFalse(port.get("set").asBoolean());
            assertEquals(4, port.get("portInfo").get("portState").asInt(), "Active before: " + port);
        }
        IbtoolRun failed = ibtool("set_port_state", "--json", "-D", "0,9@1");
        assertEquals(CmdError.STATUS, failed.exitCode());
        assertEquals("Could not find path 0,9 in the subnet", TextAndJson.parse(failed).get("error").get("message").asText());

        IbtoolRun disable = ibtool("set_port_state", "--disable", "0,7@7");
        assertEquals(0, disable.exitCode(), disable.out() + disable.err());
        assertTrue(fabric.run("smpquery", "-D", "portinfo", "0,8", "7").orThrow().stdout()
                .contains("PhysLinkState:...................Disabled\n"));
        IbtoolRun enable = ibtool("set_port_state", "--json", "--enable", "0,8@7");
        assertEquals(0, enable.exitCode(), enable.out() + enable.err());
        assertTrue(fabric.run("smpquery", "-D", "portinfo", "0,8", "7").orThrow().stdout()
                .contains("PhysLinkState:...................Polling\n"));
        JsonNode enabled = TextAndJson.parse(enable);
        assertEquals(2, enabled.get("portPhysicalState").asInt(), enabled.toString());
        assertEquals(0, enabled.get("portState").asInt(), enabled.toString());
        JsonNode port = enabled.get("ports").get(0);
        assertEquals(7, port.get("portNum").asInt());
        assertTrue(port.get("set").asBoolean());
        assertEquals(3, port.get("portInfo").get("portPhysicalState").asInt(), "Disabled before the Set: " + port);
        assertEquals("[0,8]", port.get("route").toString());
    }

    /** {@code 0x0002c90300000a02} as python-rdma prints a GUID: {@code 0002:c903:0000:0a02}. */
    private static String guidText(String hex) {
        String digits = hex.substring(2);
        return String.join(":", digits.substring(0, 4), digits.substring(4, 8), digits.substring(8, 12), digits.substring(12));
    }

    @Test
    @Order(6)
    void initAllPortsLeavesEveryLinkInInitialize() {
        assertTrue(fabric.run("smpquery", "-D", "portinfo", "0,8", "1").orThrow().stdout().contains("LinkState:.......................Active\n"));
        IbtoolRun run = ibtool("init_all_ports", "--json");
        assertEquals(0, run.exitCode(), run.out() + run.err());
        JsonNode reset = TextAndJson.parse(run).get("ports");
        List<String> set = new java.util.ArrayList<>();
        for (JsonNode port : reset) {
            assertEquals(4, port.get("portState").asInt(), "Active before: " + port);
            assertTrue(port.get("failure") == null, port.toString());
            String route = String.join(",", port.get("route").valueStream().map(JsonNode::asText).toList());
            set.add(route + " " + port.get("portNum").asInt());
            String c = fabric.run("smpquery", "-D", "portinfo", route, port.get("portNum").asText()).orThrow().stdout();
            assertTrue(c.contains("LinkState:.......................Initialize\n"), port + ": " + c);
        }
        for (String port : List.of("0 1", "0 2", "0 8", "0,8 1", "0,8 2", "0,1 1")) {
            assertTrue(set.contains(port), port + " in " + set);
        }
        IbtoolRun again = ibtool("init_all_ports", "--smkey", "1", "--int-names");
        assertEquals(0, again.exitCode(), again.out() + again.err());
        assertEquals("", again.out(), "every link is in Initialize already");
    }
}

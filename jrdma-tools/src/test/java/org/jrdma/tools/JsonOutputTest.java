package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;

/**
 * {@code --json} of the ibtool commands on the fat tree: each document is parsed with Jackson and
 * checked against the same command's text output (or the fabric's known values); failures give an
 * {@code {"error"}} document with the text run's exit status.
 */
@SimulatedFabric(topology = "fat-tree")
class JsonOutputTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The command run twice on {@code fabric}, as text and with {@code --json}. */
    private record Runs(IbtoolRun text, IbtoolRun json, JsonNode document) {
        static Runs of(Fabric fabric, String command, String... args) {
            List<String> text = new ArrayList<>(List.of(command, "--sim", fabric.socketName()));
            text.addAll(List.of(args));
            IbtoolRun textRun = IbtoolRun.of(text.toArray(String[]::new));
            text.add(1, "--json");
            IbtoolRun jsonRun = IbtoolRun.of(text.toArray(String[]::new));
            assertEquals(textRun.exitCode(), jsonRun.exitCode(), jsonRun.err());
            try {
                return new Runs(textRun, jsonRun, JSON.readTree(jsonRun.out()));
            } catch (Exception e) {
                throw new AssertionError("not JSON: " + jsonRun.out(), e);
            }
        }

        /** Group 1 of {@code regex} in the text output. */
        String text(String regex) {
            Matcher m = Pattern.compile(regex, Pattern.MULTILINE).matcher(text.out());
            assertTrue(m.find(), regex + " in " + text.out());
            return m.group(1);
        }

        long count(String regex) {
            return Pattern.compile(regex, Pattern.MULTILINE).matcher(text.out()).results().count();
        }
    }

    @Test
    void sminfo(Fabric fabric) {
        Runs runs = Runs.of(fabric, "sminfo");
        assertEquals(runs.text("sm lid (\\d+)"), runs.document().get("lid").asText());
        assertEquals(runs.text("sm guid (0x\\p{XDigit}+)"), "0x" + Long.toHexString(Long.decode(runs.document().get("guid").asText())));
        assertEquals("SMINFO_MASTER", runs.document().get("stateName").asText());
        assertEquals(3, runs.document().at("/smInfo/smState").asInt());
    }

    @Test
    void ibaddr(Fabric fabric) {
        Runs runs = Runs.of(fabric, "ibaddr", "1");
        assertEquals(runs.text("GID (\\S+)"), runs.document().get("gid").asText());
        assertEquals(Integer.decode(runs.text("LID start (0x\\p{XDigit}+)")), runs.document().get("lid").asInt());
        assertEquals(Integer.decode(runs.text("end (0x\\p{XDigit}+)")), runs.document().get("lidEnd").asInt());
    }

    @Test
    void smpquery(Fabric fabric) {
        Runs node = Runs.of(fabric, "smpquery", "nodeinfo", "1");
        assertEquals("nodeinfo", node.document().get("operation").asText());
        assertEquals(node.text("^Guid:\\.+(0x\\p{XDigit}+)"), node.document().at("/nodeInfo/nodeGuid").asText());
        assertEquals(Integer.parseInt(node.text("^NumPorts:\\.+(\\d+)")), node.document().at("/nodeInfo/numPorts").asInt());

        Runs port = Runs.of(fabric, "smpquery", "portinfo", "1", "1");
        assertEquals(1, port.document().get("portNum").asInt());
        assertEquals(Integer.parseInt(port.text("^LinkWidthActive:\\.+(\\d+)X")) == 4 ? 2 : -1,
                port.document().at("/portInfo/linkWidthActive").asInt());

        Runs description = Runs.of(fabric, "smpquery", "nodedesc", "1");
        assertEquals(description.text("^Node Description:\\.+(.*)$"), description.document().get("nodeDescription").asText());

        Runs pKeys = Runs.of(fabric, "smpquery", "pkeys", "1", "1");
        assertTrue(pKeys.document().get("pKeys").isArray());
        assertEquals(0xffff, pKeys.document().get("pKeys").get(0).asInt());
    }

    @Test
    void perfquery(Fabric fabric) {
        Runs runs = Runs.of(fabric, "perfquery", "1", "1");
        JsonNode counters = runs.document().get("counters");
        assertEquals(1, runs.document().get("lid").asInt());
        assertEquals(1, counters.size());
        assertEquals("PortCounters", counters.get(0).get("attribute").asText());
        assertEquals(1, counters.get(0).at("/values/portSelect").asInt());
        assertEquals(Long.parseLong(runs.text("^SymbolErrorCounter:\\.+(\\d+)")), counters.get(0).at("/values/symbolErrorCounter").asLong());
    }

    @Test
    void saquery(Fabric fabric) {
        Runs runs = Runs.of(fabric, "saquery", "--sim-node", "node01 HCA-1");
        JsonNode records = runs.document().get("records");
        assertNotNull(records, runs.json().out() + runs.json().err());
        assertEquals(runs.count("^NodeRecord dump:"), records.size());
        assertEquals(Integer.decode(runs.text("^\\s+lid\\.+(\\S+)")), records.get(0).get("lid").asInt(), "the first record's LID");
    }

    @Test
    void discoveryCommands(Fabric fabric) {
        Runs discover = Runs.of(fabric, "ibnetdiscover");
        JsonNode nodes = discover.document().get("nodes");
        assertEquals(discover.count("^(Switch|Ca)\\s"), nodes.size());
        for (JsonNode node : nodes) {
            assertTrue(discover.text.out().contains(node.get("nodeGuid").asText().substring(2)), node.toString());
        }
        Runs switches = Runs.of(fabric, "ibswitches");
        assertEquals(switches.count("^Switch"), switches.document().get("nodes").size());
        switches.document().get("nodes").forEach(n -> assertEquals(2, n.get("nodeType").asInt()));

        Runs links = Runs.of(fabric, "iblinkinfo");
        assertEquals(links.count("^(Switch|CA): "), links.document().get("nodes").size());
        JsonNode firstPort = links.document().at("/nodes/0/ports/0");
        assertFalse(firstPort.isMissingNode(), links.json().out());
        assertEquals(4, firstPort.get("portState").asInt());
    }

    @Test
    void ibqueryerrors(Fabric fabric) {
        Runs runs = Runs.of(fabric, "ibqueryerrors");
        assertEquals(Integer.parseInt(runs.text("## Summary: (\\d+) nodes checked")), runs.document().get("nodesChecked").asInt());
        assertEquals(Integer.parseInt(runs.text("(\\d+) ports checked")), runs.document().get("portsChecked").asInt());
    }

    @Test
    void ibroute(Fabric fabric) {
        Runs runs = Runs.of(fabric, "ibroute", "1");
        assertEquals(Integer.parseInt(runs.text("^(\\d+) valid lids dumped")), runs.document().get("unicast").size());
        assertEquals(runs.text("guid (0x\\p{XDigit}+)"), runs.document().get("nodeGuid").asText());
        Runs multicast = Runs.of(fabric, "ibroute", "-M", "1");
        assertEquals(Integer.parseInt(multicast.text("^(\\d+) valid mlids dumped")), multicast.document().get("multicast").size());
    }

    @Test
    void ibstatAndIbsysstat(Fabric fabric) {
        Runs stat = Runs.of(fabric, "ibstat");
        assertEquals(stat.text("^\\w+ '(\\S+)'"), stat.document().get(0).get("name").asText());
        assertEquals(stat.text("Port GUID: (0x\\p{XDigit}+)"), stat.document().at("/0/ports/0/portGuid").asText());
    }

    @Test
    void ibtracert(Fabric fabric) throws Exception {
        int local = JSON.readTree(IbtoolRun.of("ibaddr", "--json", "--sim", fabric.socketName()).out()).get("lid").asInt();
        Runs runs = Runs.of(fabric, "ibtracert", Integer.toString(local), "1");
        assertEquals(runs.count("^\\[\\d+\\] -> "), runs.document().get("hops").size());
        assertEquals(runs.text("^From \\S+ \\{(0x\\p{XDigit}+)\\}"), runs.document().at("/from/nodeGuid").asText());
        assertEquals(runs.text("^To \\S+ \\{(0x\\p{XDigit}+)\\}"), runs.document().at("/to/nodeGuid").asText());
        assertEquals(1, runs.document().at("/to/lid").asInt());
        Runs multicast = Runs.of(fabric, "ibtracert", "-m", "0xc000", Integer.toString(local), "1");
        // no port has joined the MLID on this fabric: the text's failure, as the error document (MulticastTraceTest has a route)
        assertEquals(255, multicast.text().exitCode());
        assertEquals(255, multicast.document().at("/error/status").asInt(), multicast.json().out());
    }

    @Test
    void ibportstate(Fabric fabric) throws Exception {
        Runs runs = Runs.of(fabric, "ibportstate", "--sim-node", "node01 HCA-1", Integer.toString(lidOf(fabric, "node01 HCA-1")), "1");
        assertNotNull(runs.document().get("portNum"), runs.json().out() + runs.json().err());
        assertEquals(1, runs.document().get("portNum").asInt());
        assertEquals(1, runs.document().get("nodeType").asInt());
        assertEquals("Active", runs.text("^LinkState:\\.+(\\w+)"));
        assertEquals(4, runs.document().at("/portInfo/portState").asInt(), "PortState 4, Active");
        assertEquals(runs.text.out().contains("Peer PortInfo:"), runs.document().has("peerPortInfo"), runs.json().out());
    }

    @Test
    void ibpingWithoutAServer(Fabric fabric) throws Exception {
        IbtoolRun run = IbtoolRun.of("ibping", "--json", "--sim", fabric.socketName(), "--sim-node", "node01 HCA-1", "-t", "200", "-c", "1",
                Integer.toString(lidOf(fabric, "node05 HCA-1")));
        assertEquals(0, run.exitCode(), run.err());
        JsonNode document = JSON.readTree(run.out());
        assertEquals(1, document.get("transmitted").asInt());
        assertEquals(0, document.get("received").asInt());
        assertEquals(100, document.get("packetLossPercent").asInt());
        assertEquals(0, document.get("pongs").size());
    }

    @Test
    void decodeMad() throws Exception {
        byte[] smp = new byte[256];
        smp[0] = 1;
        smp[1] = (byte) 0x81;
        smp[2] = 1;
        smp[3] = 1;
        smp[17] = 0x11;
        String hex = HexFormat.of().formatHex(smp);
        IbtoolRun text = IbtoolRun.of("decode_mad", hex);
        IbtoolRun json = IbtoolRun.of("decode_mad", "--json", hex);
        assertEquals(text.exitCode(), json.exitCode(), json.err());
        JsonNode document = JSON.readTree(json.out());
        assertEquals(0x11, document.at("/header/attributeId").asInt());
        assertTrue(text.out().startsWith(document.get("headerName").asText() + "\n"), text.out());
        assertTrue(text.out().contains("\n" + document.get("recordName").asText() + "\n"), text.out());
    }

    /** The LID of the port ibsim's {@code node} attaches to, from {@code ibaddr --json}. */
    private static int lidOf(Fabric fabric, String node) throws Exception {
        return JSON.readTree(IbtoolRun.of("ibaddr", "--json", "--sim", fabric.socketName(), "--sim-node", node).out()).get("lid").asInt();
    }

    @Test
    void compactIsOneLine(Fabric fabric) {
        IbtoolRun run = IbtoolRun.of("sminfo", "--compact", "--sim", fabric.socketName());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(1, run.out().lines().count(), run.out());
    }

    @Test
    void failuresAreErrorDocumentsWithTheSameStatus(Fabric fabric) throws Exception {
        Runs unreachable = Runs.of(fabric, "smpquery", "-t", "200", "--retries", "0", "nodeinfo", "40");
        JsonNode error = unreachable.document().get("error");
        assertEquals(255, error.get("status").asInt());
        assertEquals("smpquery", error.get("command").asText());
        assertTrue(unreachable.text().out().contains("iberror: failed: " + error.get("message").asText()), unreachable.text().out());
        assertTrue(unreachable.json().err().contains("_do_madrpc failed"), "the C tool's warning stays on standard error");

        IbtoolRun usage = IbtoolRun.of("sminfo", "--json", "--sim", fabric.socketName(), "-s", "4", "1", "2");
        assertEquals(2, usage.exitCode());
        assertEquals(2, JSON.readTree(usage.out()).at("/error/status").asInt());
        assertTrue(JSON.readTree(usage.out()).at("/error/message").asText().contains("--state 4 outside 0..3"), usage.out());
    }
}

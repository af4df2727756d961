package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --json} of the infiniband-diags scripts' commands on the fat tree (spine1 0x...0a01,
 * leaf1 0x...0a11 with node01 on port 1): each document parsed with Jackson and checked against
 * the same command's text run, the exit status the same; a usage message becomes the error
 * document (README, "JSON output").
 */
@SimulatedFabric(topology = "fat-tree")
class ScriptsJsonTest {

    private static TextAndJson run(Fabric fabric, String command, String... args) {
        List<String> line = new ArrayList<>(List.of(command, "--sim", fabric.socketName()));
        line.addAll(List.of(args));
        return TextAndJson.of(line.toArray(String[]::new));
    }

    /** A switch's LID, as C ibswitches prints it. */
    private static String switchLid(Fabric fabric, String name) {
        Matcher m = Pattern.compile("\"" + name + "\" base port 0 lid (\\d+)").matcher(fabric.run("ibswitches").orThrow().stdout());
        assertTrue(m.find(), name);
        return m.group(1);
    }

    @Test
    void ibidsverify(Fabric fabric) {
        TextAndJson runs = run(fabric, "ibidsverify", "-R");
        assertEquals(0, runs.json().exitCode());
        assertEquals(runs.count("^.+$"), runs.document().get("problems").size());
        assertEquals(14, runs.document().get("nodeGuids").asInt(), "the fat tree's 14 nodes");
        assertTrue(runs.document().get("lids").asInt() >= 14, runs.json().out());

        TextAndJson usage = run(fabric, "ibidsverify", "-x");
        assertEquals(2, usage.error().get("status").asInt());
        assertEquals(usage.text().out().strip(), usage.error().get("message").asText());
    }

    @Test
    void ibfindnodesusing(Fabric fabric) {
        TextAndJson runs = run(fabric, "ibfindnodesusing", "-R", "0x0002c90300000a11", "1");
        JsonNode document = runs.document();
        assertEquals("0x0002c90300000a11", document.get("nodeGuid").asText());
        assertEquals("1", document.get("portNum").asText());
        assertEquals(runs.find("==>>  (0x\\p{XDigit}+) "), document.at("/remote/nodeGuid").asText());
        assertEquals(runs.find("==>>  0x\\p{XDigit}+ (\\d+) "), document.at("/remote/portNum").asText());
        String[] lines = runs.text().out().split("\n");
        assertEquals(!lines[1].isEmpty(), !document.get("routedOut").isEmpty(), runs.json().out());
        document.get("routedOut").forEach(host -> assertTrue(lines[1].contains(host.asText().replaceFirst("\\d+$", "")), lines[1]));
        String back = lines.length > 4 ? lines[4] : "";
        assertEquals(back.isEmpty(), document.get("routedBack").isEmpty(), runs.text().out());
        assertTrue(back.isEmpty(), "node01's HCA forwards nothing back: " + runs.text().out());

        TextAndJson missing = run(fabric, "ibfindnodesusing", "0x0002c90300000a99", "1");
        assertEquals(1, missing.error().get("status").asInt());
        assertTrue(missing.error().get("message").asText().startsWith("Switch \"0x0002c90300000a99\" not found"), missing.json().out());
    }

    @Test
    void checkLftBalance(Fabric fabric, @TempDir Path dir) throws IOException {
        Path lfts = dir.resolve("lfts");
        Path cache = dir.resolve("cache");
        Files.writeString(lfts, fabric.run("dump_lfts").orThrow().stdout());
        fabric.run("ibnetdiscover", "--cache", cache.toString()).orThrow();
        TextAndJson runs = run(fabric, "check_lft_balance", "-v", "-l", lfts.toString(), "-i", cache.toString());
        JsonNode switches = runs.document().get("switches");
        List<String> headers = runs.findAll("^(?:Unbalanced )?Switch Port Usage: (.*)$");
        assertEquals(headers.size(), switches.size());
        List<String> ports = runs.findAll("^Port (\\d+: \\d+)$");
        List<String> documented = new ArrayList<>();
        for (int s = 0; s < switches.size(); s++) {
            JsonNode sw = switches.get(s);
            assertEquals(headers.get(s), sw.get("nodeDescription").asText() + ", " + sw.get("nodeGuid").asText());
            sw.get("ports").forEach(p -> documented.add("%03d: %d".formatted(p.get("portNum").asInt(), p.get("lids").asInt())));
        }
        assertEquals(ports, documented);

        TextAndJson usage = run(fabric, "check_lft_balance", "-l", lfts.toString());
        assertTrue(usage.error().get("message").asText().startsWith("Usage: check_lft_balance"), usage.json().out());
    }

    @Test
    void dumpLftsAndDumpMfts(Fabric fabric) {
        TextAndJson lfts = run(fabric, "dump_lfts");
        assertEquals("dump_fts", lfts.document().get("replacedBy").asText());
        assertEquals("unicast", lfts.document().at("/dumpFts/table").asText());
        assertEquals(lfts.count("^Unicast lids "), lfts.document().at("/dumpFts/switches").size());
        TextAndJson mfts = run(fabric, "dump_mfts");
        assertEquals("dump_fts -M", mfts.document().get("replacedBy").asText());
        assertEquals(mfts.count("^Multicast mlids "), mfts.document().at("/dumpFts/switches").size());
    }

    @Test
    void ibprintCommands(Fabric fabric) {
        TextAndJson ca = run(fabric, "ibprintca", "-R", "node03 HCA-1");
        JsonNode node = ca.document().get("nodes").get(0);
        assertEquals(1, ca.document().get("nodes").size());
        assertEquals("0x0002c90300001030", node.get("nodeGuid").asText());
        assertEquals(ca.text().out().split("\n")[0], node.get("line").asText());
        assertEquals(ca.count("^\\["), node.get("ports").size());

        TextAndJson sw = run(fabric, "ibprintswitch", "-G", "0x0002c90300000a11");
        assertEquals(sw.count("^\\["), sw.document().at("/nodes/0/ports").size());
        assertEquals(sw.count("^\\[1\\]"), sw.document().at("/nodes/0/ports").findValues("portNum").stream().filter(p -> p.asInt() == 1).count());

        TextAndJson list = run(fabric, "ibprintswitch", "-l");
        assertEquals(1, list.json().exitCode());
        assertEquals(list.count("^.+$"), list.document().get("listed").size());

        TextAndJson missing = run(fabric, "ibprintrt", "router9");
        assertEquals(255, missing.error().get("status").asInt());
    }

    @Test
    void ibclearcountersAndIbclearerrors(Fabric fabric) {
        for (String command : List.of("ibclearcounters", "ibclearerrors")) {
            TextAndJson runs = run(fabric, command);
            assertEquals(Integer.parseInt(runs.find("## Summary: (\\d+) nodes cleared")), runs.document().get("nodes").asInt());
            assertEquals(Integer.parseInt(runs.find("nodes cleared (\\d+) errors")), runs.document().get("errors").asInt());
            JsonNode resets = runs.document().get("resets");
            assertEquals(14, runs.document().get("nodes").asInt());
            assertTrue(resets.size() >= 14, runs.json().out());
            resets.forEach(r -> assertTrue(r.get("ok").asBoolean(), r.toString()));
        }
        TextAndJson usage = run(fabric, "ibclearcounters", "-x");
        assertEquals("Usage: ibclearcounters [-h] [<topology-file> | -C ca_name -P ca_port -t(imeout) timeout_ms]",
                usage.error().get("message").asText());
    }

    @Test
    void ibdatacountsAndIbdatacounters(Fabric fabric) {
        String spine2 = switchLid(fabric, "spine2");
        TextAndJson port = run(fabric, "ibdatacounts", "-N", "-v", spine2, "3");
        JsonNode document = port.document();
        assertEquals(port.find("^Error on lid \\d+ \\((.*)\\) port 3: OK$"), document.get("nodeDescription").asText());
        assertEquals(spine2, document.get("lid").asText());
        assertEquals("3", document.get("portNum").asText());
        assertTrue(document.get("ok").asBoolean());
        List<String> shown = port.findAll("^(Port\\w+):\\.+\\d+$");
        List<String> names = new ArrayList<>();
        document.get("counters").fieldNames().forEachRemaining(names::add);
        assertEquals(shown.stream().map(n -> Character.toLowerCase(n.charAt(0)) + n.substring(1)).toList(), names);

        TextAndJson unreachable = run(fabric, "ibdatacounts", "-N", "-t", "100", "99");
        assertEquals("lid 99 address resolution: FAILED", unreachable.error().get("message").asText());

        TextAndJson all = run(fabric, "ibdatacounters", "-N");
        assertEquals(Integer.parseInt(all.find("## Summary: (\\d+) nodes checked")), all.document().get("nodes").asInt());
        assertEquals(Integer.parseInt(all.find("nodes checked, (\\d+) bad nodes")), all.document().get("badNodes").asInt());
        assertEquals(Integer.parseInt(all.find("^##\\s+(\\d+) ports checked")), all.document().get("ports").asInt());
        assertEquals(all.count("^# Port counters"), all.document().get("checks").size());
        assertEquals(0, all.document().get("failedNodes").size());
    }

    @Test
    void ibswportwatch(Fabric fabric) {
        TextAndJson runs = run(fabric, "ibswportwatch", "-n", "2", "-p", "1", "-G", "0x0002c90300000a01", "1");
        JsonNode cycles = runs.document().get("cycles");
        assertEquals(runs.count("^Checking counts\\.\\.\\.$"), cycles.size());
        assertEquals(2, cycles.size());
        assertEquals(16, cycles.get(0).get("rates").size());
        assertTrue(cycles.get(1).at("/counters/portXmitPkts").asLong() >= cycles.get(0).at("/counters/portXmitPkts").asLong());
        assertEquals("1", runs.document().get("portNum").asText());
        assertEquals(1.0, runs.document().get("pauseSeconds").asDouble());

        TextAndJson unreachable = run(fabric, "ibswportwatch", "-n", "1", "-p", "1", "99", "1");
        assertEquals(255, unreachable.error().get("status").asInt());
    }

    /** Without {@code -n} ibswportwatch polls until it is stopped: the document of the cycles so far is written then (SIGTERM). */
    @Test
    void ibswportwatchWritesItsDocumentWhenStopped(Fabric fabric, @TempDir Path dir) throws Exception {
        Path out = dir.resolve("out");
        ProcessBuilder pb = new ProcessBuilder(IbtoolProcess.ibtool("ibswportwatch", "--json", "--sim", fabric.socketName(), "-p", "1", "-G",
                "0x0002c90300000a01", "1")).directory(fabric.workDir().toFile()).redirectOutput(out.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().putAll(fabric.clientEnvironment(null));
        Process watch = pb.start();
        try {
            Thread.sleep(6000);
        } finally {
            IbtoolProcess.stop(watch);
        }
        JsonNode document = TextAndJson.parse(new IbtoolRun(0, Files.readString(out), ""));
        assertTrue(document.get("cycles").size() >= 1, document.toString());
        assertEquals(1.0, document.get("pauseSeconds").asDouble());
    }
}

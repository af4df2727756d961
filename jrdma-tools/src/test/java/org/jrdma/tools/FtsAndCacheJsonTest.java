package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jrdma.iba.smp.SmpMulticastForwardingTable;
import org.jrdma.mad.MadEngine;
import org.jrdma.mad.SmpClient;
import org.jrdma.mad.SmpTarget;
import org.jrdma.mad.sim.IbsimTransport;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dump_fts --json} and {@code ibcacheedit --json} on the fat tree, parsed with Jackson: the
 * forwarding tables against the same run's text (every switch, entry and destination the text
 * shows), the cache edits against the GUIDs given and the cache written (README, "JSON output").
 */
@SimulatedFabric(topology = "fat-tree")
class FtsAndCacheJsonTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern HEADER = Pattern.compile("^(?:Unicast|Multicast) (?:m?lids) \\[0x(\\p{XDigit}+)-0x(\\p{XDigit}+)\\] of switch "
            + "DR path slid 0; dlid 0; ([\\d,]+) guid (0x\\p{XDigit}{16}) \\((.*)\\):$");

    private static JsonNode parse(IbtoolRun run) {
        try {
            return JSON.readTree(run.out());
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + run.out(), e);
        }
    }

    private static IbtoolRun run(Fabric fabric, String... args) {
        List<String> line = new ArrayList<>(List.of("dump_fts", "--sim", fabric.socketName()));
        line.addAll(List.of(args));
        return IbtoolRun.of(line.toArray(String[]::new));
    }

    /** The switch tables of the text, each its header line and entry lines. */
    private static List<List<String>> tablesOf(String text) {
        List<List<String>> tables = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (HEADER.matcher(line).matches()) {
                tables.add(new ArrayList<>());
            }
            if (!tables.isEmpty() && (line.startsWith("0x") || HEADER.matcher(line).matches() || line.contains("dumped"))) {
                tables.getLast().add(line);
            }
        }
        return tables;
    }

    /** The document's switches each equal to the text's table: header, entries, count. */
    private static void assertSameTables(IbtoolRun text, JsonNode document, boolean unicast) {
        List<List<String>> tables = tablesOf(text.out());
        JsonNode switches = document.get("switches");
        assertEquals(tables.size(), switches.size());
        assertEquals(unicast ? "unicast" : "multicast", document.get("table").asText());
        for (int s = 0; s < tables.size(); s++) {
            List<String> table = tables.get(s);
            JsonNode sw = switches.get(s);
            Matcher header = HEADER.matcher(table.getFirst());
            assertTrue(header.matches());
            assertEquals(Long.parseLong(header.group(1), 16), sw.get("start").asLong());
            assertEquals(Long.parseLong(header.group(2), 16), sw.get("end").asLong());
            List<String> route = new ArrayList<>();
            sw.get("route").forEach(hop -> route.add(hop.asText()));
            assertEquals(header.group(3), String.join(",", route));
            assertEquals(header.group(4), sw.get("guid").asText());
            assertEquals(header.group(5), sw.get("description").asText());
            assertTrue(sw.get("lid").asInt() > 0);
            JsonNode entries = sw.get(unicast ? "unicast" : "multicast");
            assertFalse(sw.has(unicast ? "multicast" : "unicast"));
            List<String> lines = table.subList(1, table.size() - 1);
            assertEquals(lines.size(), entries.size(), table.getFirst());
            assertEquals(lines.size(), sw.get("dumped").asInt());
            for (int e = 0; e < lines.size(); e++) {
                String line = lines.get(e);
                JsonNode entry = entries.get(e);
                if (unicast) {
                    assertTrue(line.startsWith(String.format("0x%04x %03d ", entry.get("lid").asInt(), entry.get("port").asInt())), line);
                    JsonNode destination = entry.get("destination");
                    if (destination == null) {
                        assertEquals(String.format("0x%04x %03d ", entry.get("lid").asInt(), entry.get("port").asInt()), line);
                    } else {
                        assertTrue(line.endsWith(suffix(destination)), line + " " + destination);
                    }
                } else {
                    StringBuilder marks = new StringBuilder();
                    List<Integer> ports = new ArrayList<>();
                    entry.get("ports").forEach(p -> ports.add(p.asInt()));
                    int nports = (line.length() - "0x0000      ".length()) / 2;
                    for (int p = 0; p < nports; p++) {
                        marks.append(ports.contains(p) ? 'x' : ' ').append(' ');
                    }
                    assertEquals(String.format("0x%04x      %s", entry.get("mlid").asInt(), marks), line);
                }
            }
        }
    }

    /**
     * The text a destination stands for: a node's type, port GUID and name; a LID of an LMC range (or
     * before the first LID, as the C tool counts them) by its path number; or why there is none.
     */
    private static String suffix(JsonNode destination) {
        String problem = destination.has("problem") ? destination.get("problem").asText() : null;
        if (destination.has("pathNumber")) {
            int number = destination.get("pathNumber").asInt();
            if (problem != null) {
                return ": (path #" + (number - 1) + " - " + problem + ")";
            }
            String paths = "path #" + number + " out of " + destination.get("pathCount").asInt();
            return destination.has("portGuid") ? ": (" + paths + ": portguid " + destination.get("portGuid").asText() + ")" : ": (" + paths + ")";
        }
        if (problem != null) {
            return ": (" + problem + ")";
        }
        return ": (" + destination.get("nodeType").asText() + " portguid " + destination.get("portGuid").asText() + ": '"
                + destination.get("name").asText() + "')";
    }

    @Test
    void dumpFtsDocumentHasEverySwitchAndEntryTheTextShows(Fabric fabric) {
        for (String[] args : List.of(new String[0], new String[] {"-a", "0", "0x10"}, new String[] {"-n", "2", "5"})) {
            IbtoolRun text = run(fabric, args);
            List<String> json = new ArrayList<>(List.of("--json"));
            json.addAll(List.of(args));
            IbtoolRun document = run(fabric, json.toArray(String[]::new));
            assertEquals(text.exitCode(), document.exitCode(), document.err());
            assertEquals(0, document.exitCode(), document.err());
            assertSameTables(text, parse(document), true);
        }
        JsonNode all = parse(run(fabric, "--compact", "-a", "0", "0x10"));
        boolean illegal = false;
        for (JsonNode sw : all.get("switches")) {
            for (JsonNode entry : sw.get("unicast")) {
                illegal |= !entry.get("valid").asBoolean();
            }
        }
        assertTrue(illegal, "-a shows the entries without a valid port");

        try (MadEngine engine = new MadEngine(IbsimTransport.attach(fabric.socketName(), null), 4)) {
            SmpClient smp = new SmpClient(engine, Duration.ofSeconds(1), 2, 0);
            smp.set(new SmpMulticastForwardingTable().portMaskBlock(0, 0x0013), SmpTarget.local().then(1), 0);
        }
        IbtoolRun text = run(fabric, "-M");
        JsonNode multicast = parse(run(fabric, "-M", "--json"));
        assertSameTables(text, multicast, false);
        boolean found = false;
        for (JsonNode sw : multicast.get("switches")) {
            for (JsonNode entry : sw.get("multicast")) {
                found |= entry.get("mlid").asInt() == 0xC000 && entry.get("ports").toString().equals("[0,1,4]");
            }
        }
        assertTrue(found, multicast.toString());

        IbtoolRun failed = IbtoolRun.of("dump_fts", "--json", "--sim", "no-such-fabric");
        assertEquals(IbtoolRun.of("dump_fts", "--sim", "no-such-fabric").exitCode(), failed.exitCode());
        assertTrue(parse(failed).has("error"), failed.out());
    }

    @Test
    void ibcacheeditDocumentSaysWhatChanged(Fabric fabric, @TempDir Path dir) throws Exception {
        Path original = dir.resolve("fabric.cache");
        fabric.run("ibnetdiscover", "--cache", original.toString()).orThrow();
        Path text = dir.resolve("text.cache");
        Path json = dir.resolve("json.cache");
        Matcher system = Pattern.compile("(?m)^SystemGuid:\\.+(0x\\p{XDigit}+)$").matcher(fabric.run("smpquery", "nodeinfo", "1").orThrow().stdout());
        assertTrue(system.find());
        String[] edits = {"--switchguid", "0x0002c90300000a11:0x1234", "--sysimgguid", system.group(1) + ":0x55",
            "--portguid", "0x0002c90300001010:0x0002c90300001011:0x77"};
        List<String> textLine = new ArrayList<>(List.of("ibcacheedit"));
        textLine.addAll(List.of(edits));
        textLine.addAll(List.of(original.toString(), text.toString()));
        IbtoolRun textRun = IbtoolRun.of(textLine.toArray(String[]::new));
        assertEquals(0, textRun.exitCode(), textRun.err());
        assertEquals("", textRun.out());
        List<String> jsonLine = new ArrayList<>(List.of("ibcacheedit", "--json"));
        jsonLine.addAll(List.of(edits));
        jsonLine.addAll(List.of(original.toString(), json.toString()));
        IbtoolRun jsonRun = IbtoolRun.of(jsonLine.toArray(String[]::new));
        assertEquals(0, jsonRun.exitCode(), jsonRun.err());
        assertEquals(Files.mismatch(text, json), -1L, "the same cache written");

        JsonNode document = parse(jsonRun);
        assertEquals(original.toString(), document.get("original").asText());
        assertEquals(json.toString(), document.get("written").asText());
        JsonNode changes = document.get("edits");
        assertEquals(3, changes.size(), document.toString());
        assertEquals("switchguid", changes.get(0).get("option").asText());
        assertEquals("0x0002c90300000a11", changes.get(0).get("before").asText());
        assertEquals("0x0000000000001234", changes.get(0).get("after").asText());
        assertEquals(1, changes.get(0).get("nodes").asInt());
        assertFalse(changes.get(0).has("port"));
        assertEquals("sysimgguid", changes.get(1).get("option").asText());
        assertTrue(changes.get(1).get("nodes").asInt() > 0, document.toString());
        assertEquals("portguid", changes.get(2).get("option").asText());
        assertEquals("0x0002c90300001010", changes.get(2).get("nodeGuid").asText());
        assertEquals("0x0002c90300001011", changes.get(2).get("before").asText());
        assertEquals("0x0000000000000077", changes.get(2).get("after").asText());
        assertEquals(1, changes.get(2).get("port").asInt());

        IbtoolRun missing = IbtoolRun.of("ibcacheedit", "--json", "--caguid", "5:6", original.toString(), dir.resolve("x").toString());
        assertEquals(255, missing.exitCode());
        assertTrue(parse(missing).at("/error/message").asText().contains("caguid = 5 not found"), missing.out());
        assertFalse(Files.exists(dir.resolve("x")));
    }
}

package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One ibtool command line run twice in process, as text and with {@code --json} after the command's
 * name, both ending with the same exit status; the document parsed with Jackson, for checking it
 * against the text (README, "JSON output").
 *
 * @param text     the text run
 * @param json     the {@code --json} run
 * @param document its standard output, parsed
 */
record TextAndJson(IbtoolRun text, IbtoolRun json, JsonNode document) {
    private static final ObjectMapper JSON = new ObjectMapper();

    static TextAndJson of(String... args) {
        IbtoolRun textRun = IbtoolRun.of(args);
        List<String> line = new ArrayList<>(List.of(args));
        line.add(1, "--json");
        IbtoolRun jsonRun = IbtoolRun.of(line.toArray(String[]::new));
        assertEquals(textRun.exitCode(), jsonRun.exitCode(), "--json ended otherwise: " + jsonRun.out() + jsonRun.err());
        return new TextAndJson(textRun, jsonRun, parse(jsonRun));
    }

    /** The run's standard output as one JSON document. */
    static JsonNode parse(IbtoolRun run) {
        try {
            JsonNode document = JSON.readTree(run.out());
            assertTrue(document != null && document.isObject(), "not a JSON object: " + run.out());
            return document;
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + run.out(), e);
        }
    }

    /** Group 1 of {@code regex} in the text output. */
    String find(String regex) {
        Matcher m = Pattern.compile(regex, Pattern.MULTILINE).matcher(text.out());
        assertTrue(m.find(), regex + " in " + text.out());
        return m.group(1);
    }

    /** Group 1 of each match of {@code regex} in the text output. */
    List<String> findAll(String regex) {
        return Pattern.compile(regex, Pattern.MULTILINE).matcher(text.out()).results().map(r -> r.group(1)).toList();
    }

    long count(String regex) {
        return Pattern.compile(regex, Pattern.MULTILINE).matcher(text.out()).results().count();
    }

    /** The error document's members, checked to carry the run's status. */
    JsonNode error() {
        JsonNode error = document.get("error");
        assertTrue(error != null && error.isObject(), "no error document: " + json.out());
        assertEquals(json.exitCode(), error.get("status").asInt(), json.out());
        return error;
    }
}

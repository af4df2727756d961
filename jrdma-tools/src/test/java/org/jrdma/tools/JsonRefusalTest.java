package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --json} on the commands that had no JSON document until lately (README, "JSON output"): they that refused it until they had a JSON document take it (where the fabric
 * cannot be reached, the failure is their error document on standard output, with the status the
 * text run ends with).
 */
class JsonRefusalTest {
    @ParameterizedTest
    @ValueSource(strings = {"vendstat", "ibccquery", "ibccconfig"})
    void aCommandThatHadNoDocumentTakesJson(String command) {
        IbtoolRun text = IbtoolRun.of(command, "--sim", "no-such-fabric", "CI", "1");
        IbtoolRun run = IbtoolRun.of(command, "--json", "--sim", "no-such-fabric", "CI", "1");
        assertEquals(text.exitCode(), run.exitCode(), run.err());
        assertFalse(run.err().contains("has no JSON document"), run.err());
        JsonNode error = TextAndJson.parse(run).get("error");
        assertEquals(run.exitCode(), error.get("status").asInt(), run.out());
    }

    @ParameterizedTest
    @ValueSource(strings = {"init_all_ports", "set_port_state 0,1@1"})
    void pythonRdmaCommandsThatHadNoDocumentTakeJson(String commandLine) {
        List<String> args = new ArrayList<>(List.of(commandLine.split(" ")));
        args.addAll(1, List.of("--sim", "no-such-fabric"));
        TextAndJson run = TextAndJson.of(args.toArray(String[]::new));
        JsonNode error = run.document().get("error");
        assertEquals(run.text().exitCode(), error.get("status").asInt(), run.json().out());
        assertTrue((run.text().out() + run.text().err()).contains(error.get("message").asText()), "the text's message: " + error);
    }
}

package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The commands that refused {@code --json} until they had a JSON document take it: where the
 * fabric cannot be reached, the failure is their error document on standard output, with the
 * status the text run ends with, not a refusal (README, "JSON output").
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
}

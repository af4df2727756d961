package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --json} where a command has no document and where it had none until lately (README, "JSON
 * output"): the commands that refused it until they had a JSON document take it (where the fabric
 * cannot be reached, the failure is their error document on standard output, with the status the
 * text run ends with); a command without a document refuses it with a usage error, itself a JSON
 * error document.
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
    @ValueSource(strings = {"init_all_ports"})
    void aCommandWithoutADocumentRefusesJson(String command) {
        IbtoolRun run = IbtoolRun.of(command, "--json", "--sim", "no-such-fabric");
        assertEquals(ExitCodes.USAGE, run.exitCode(), run.err());
        String why = "--json: " + command + " has no JSON document yet";
        assertTrue(run.err().contains(why), run.err());
        assertTrue(run.out().contains("\"error\"") && run.out().contains(why), run.out()); // the usage error as a JSON error document
    }
}

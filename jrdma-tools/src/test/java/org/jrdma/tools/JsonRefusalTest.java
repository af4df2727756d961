package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The commands without a JSON document refuse {@code --json} as a usage error before they open a
 * port or a file, rather than printing their text under it; as every usage error under {@code --json},
 * the refusal is also an error document on standard output (README, "JSON output").
 */
class JsonRefusalTest {
    @ParameterizedTest
    @ValueSource(strings = {"vendstat", "ibccquery", "ibccconfig", "init_all_ports"})
    void aCommandWithoutADocumentRefusesJson(String command) {
        IbtoolRun run = IbtoolRun.of(command, "--json", "--sim", "no-such-fabric");
        assertEquals(ExitCodes.USAGE, run.exitCode(), run.err());
        String why = "--json: " + command + " has no JSON document yet";
        assertTrue(run.err().contains(why), run.err());
        assertTrue(run.out().contains("\"error\"") && run.out().contains(why), run.out()); // the usage error as a JSON error document
    }
}

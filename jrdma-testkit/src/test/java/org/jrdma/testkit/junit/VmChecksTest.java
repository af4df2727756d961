package org.jrdma.testkit.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.jrdma.testkit.vm.VmChecks;
import org.junit.jupiter.api.Test;

/** {@link VmChecks}' deadline, in a JVM of its own: a hung check fails, the threads are dumped, the program ends. */
class VmChecksTest {
    @Test
    void aCheckPastItsDeadlineFailsWithAThreadDumpAndEndsTheProgram() throws IOException, InterruptedException {
        Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), HangingChecks.class.getName()).redirectErrorStream(true).start();
        boolean ended = process.waitFor(60, TimeUnit.SECONDS);
        if (!ended) {
            process.destroyForcibly();
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(ended, "the program ended by itself:\n" + output);
        assertEquals(VmChecks.HUNG, process.exitValue(), output);
        assertTrue(output.matches("(?s)PASS quick \\(\\d+ ms\\)\nFAIL hangs: no result within 1 s\n.*"), output);
        assertTrue(output.contains("\"waiting-for-ever\" virtual"), "the virtual thread in the dump:\n" + output);
        assertTrue(output.contains("HangingChecks.waitForEver"), "where it waits:\n" + output);
        assertTrue(output.strip().endsWith("DONE failures=1"), output);
    }
}

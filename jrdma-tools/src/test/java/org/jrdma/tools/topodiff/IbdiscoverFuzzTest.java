package org.jrdma.tools.topodiff;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;

/**
 * Coverage-guided fuzz target (Jazzer) for ibdiscover's three inputs, all untrusted text
 * ({@code ibdiscover.map}, {@code ibdiscover.topo} and the topology on standard input): any bytes,
 * cut at the first two NUL bytes into the three, read by {@link IbdiscoverScript#run}, which
 * documents no exception (the script reads any text). A hang fails too: the script's patterns,
 * run by a backtracking matcher, would take quadratic time on long lines.
 */
class IbdiscoverFuzzTest {
    @FuzzTest(maxDuration = "10s")
    void script(byte[] input) {
        String[] parts = new String(input, StandardCharsets.UTF_8).split("\0", 3);
        IbdiscoverScript.run(parts[0], parts.length > 1 ? parts[1] : null, parts.length > 2 ? parts[2] : "");
    }
}

package org.jrdma.testkit.fabric;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;

/**
 * Coverage-guided fuzz target (Jazzer) for topology files (ibnetdiscover's format, as ibsim
 * reads it): any text, in UTF-8, parsed by {@link Topology#parse} with includes forbidden. The
 * only exception allowed out is {@link IllegalArgumentException}, naming the line.
 */
class TopologyFuzzTest {

    @FuzzTest(maxDuration = "10s")
    void topology(byte[] utf8) {
        try {
            Topology.parse("fuzz.topo", new String(utf8, StandardCharsets.UTF_8), null);
        } catch (IllegalArgumentException expected) {
            // a line that is not topology, named
        }
    }
}

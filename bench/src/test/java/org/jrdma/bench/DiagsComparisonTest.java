package org.jrdma.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.Topology;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/bench-diags} in small and bounded: two rounds on the bundled fat tree (14 nodes)
 * with OpenSM, {@code ibtool.jar} started as {@code bin/ibtool} starts it. Every ibtool run
 * printed what the C tool printed and ended with its status ({@link DiagsComparison#compare}
 * throws otherwise); the times are printed, not asserted.
 */
class DiagsComparisonTest {
    @Test
    void ibtoolRunsAndPrintsWhatTheCToolsPrint() {
        Path jar = Path.of(System.getProperty("jrdma.ibtool.jar", "../jrdma-tools/target/ibtool.jar"));
        assertTrue(Files.isRegularFile(jar), "ibtool.jar is built before bench's tests: " + jar);
        List<String> ibtool = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-jar", jar.toString());
        try (Fabric fabric = Fabric.start(Topology.bundled("fat-tree"), Fabric.Options.defaults().withSweepSeconds(0))) {
            List<DiagsComparison.Comparison> comparisons = DiagsComparison.compare(fabric, ibtool, 2);
            assertEquals(DiagsComparison.COMMANDS, comparisons.stream().map(DiagsComparison.Comparison::command).toList());
            for (DiagsComparison.Comparison c : comparisons) {
                System.out.println(c.report());
                assertTrue(c.lines() > 0, c.command() + " printed something");
                assertEquals(2, c.ibtool().size());
            }
        }
    }
}

package org.jrdma.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code jrdma-monitor}'s command line: the benchmark and a short soak on the fat tree, options from a file, durations. */
@SimulatedFabric(topology = "fat-tree")
class MonitorCommandTest {
    @Test
    void benchPrintsEachCycle(Fabric fabric) {
        String out = run("--sim", fabric.socketName(), "--sim-node", "node01 HCA-1", "--bench", "2");
        assertTrue(out.contains("cycle 1: 14 nodes, discovery ") && out.contains("cycle 2: 14 nodes"), out);
        assertTrue(out.contains("counter sweep of 32 ports"), out);
        assertTrue(out.contains(", 0 lost)"), out);
    }

    @Test
    void aShortSoakTakenFromAConfigFilePrintsALinePerCycle(Fabric fabric, @TempDir Path dir) throws Exception {
        Path config = dir.resolve("monitor.properties");
        Files.writeString(config, "interval=500ms\nsoak=0.05\nsim-node=node02 HCA-1\n");
        String out = run("--config", config.toString(), "--sim", fabric.socketName());
        String[] lines = out.strip().split("\n");
        assertTrue(lines[0].startsWith("elapsed_s sweep_s discovery_s ports mads_per_s heap_after_gc_mb mads_lost"), out);
        long cycles = out.lines().filter(l -> l.matches("\\s*[0-9.]+ +[0-9.]+ +[0-9.]+ +32 +[0-9]+ +[0-9.]+ +0")).count();
        assertTrue(cycles >= 2 && cycles <= 7, "a cycle every 0.5 s after the last, for 3 s: " + out);
    }

    @Test
    void durationsAndAddresses() throws Exception {
        assertEquals(Duration.ofMillis(500), MonitorCommand.duration("500ms"));
        assertEquals(Duration.ofSeconds(10), MonitorCommand.duration("10s"));
        assertEquals(Duration.ofMinutes(90), MonitorCommand.duration("1.5h"));
        assertEquals(Duration.ofSeconds(30), MonitorCommand.duration("PT30S"));
        assertThrows(IllegalArgumentException.class, () -> MonitorCommand.duration("10 parsecs"));
        assertEquals(9315, MonitorCommand.address(":9315").getPort());
        assertTrue(MonitorCommand.address("9315").getAddress().isLoopbackAddress());
    }

    private static String run(String... args) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int status = MonitorCommand.run(new PrintStream(bytes, true, StandardCharsets.UTF_8), args);
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, out);
        return out;
    }
}

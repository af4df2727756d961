package org.jrdma.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.ToolResult;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;

/**
 * The runnable {@code ibtool.jar} itself, as {@code bin/ibtool} runs it: the build rewrites
 * picocli's Java 5 class files in it (so that the JDK's AOT cache stores them), and the other
 * ibtool tests run the compiled classes, not the jar. Here the jar runs as a process of its own on
 * a simulated fabric, next to the C tools at the same node: the same output and exit status,
 * help and usage errors included.
 */
@SimulatedFabric(topology = "fat-tree")
class IbtoolJarTest {
    private static final String NODE = "node03 HCA-1";

    @Test
    void discoversAsTheCTool(Fabric fabric) {
        ToolResult ours = ibtool(fabric, "ibnetdiscover");
        ToolResult c = fabric.runAt(NODE, Duration.ofSeconds(60), List.of("ibnetdiscover")).orThrow();
        assertEquals(0, ours.exitCode(), ours.stderr());
        assertEquals(withoutDate(c.stdout()), withoutDate(ours.stdout()));
    }

    @Test
    void queriesAndFailsAsTheCTool(Fabric fabric) {
        for (List<String> command : List.of(List.of("smpquery", "nodeinfo", "1"), List.of("saquery", "NR", "2"),
                List.of("smpquery", "-t", "200", "nodeinfo", "99"))) {
            ToolResult ours = ibtool(fabric, command.toArray(String[]::new));
            ToolResult c = fabric.runAt(NODE, Duration.ofSeconds(60), command);
            assertEquals(c.stdout(), ours.stdout(), command.toString());
            assertEquals(c.exitCode(), ours.exitCode(), command + ": " + ours.stderr());
        }
    }

    @Test
    void helpAndUsageErrorsComeFromTheRewrittenPicocli(Fabric fabric) {
        ToolResult help = ibtool(fabric, "--help");
        assertEquals(0, help.exitCode(), help.stderr());
        assertTrue(help.stdout().contains("ibnetdiscover"), help.stdout());
        ToolResult bad = ibtool(fabric, "smpquery", "--no-such-option");
        assertEquals(2, bad.exitCode(), bad.stderr());
    }

    /**
     * {@code java -jar ibtool.jar ARGS --sim SOCKET --sim-node NODE}, a process of its own (not
     * under libumad2sim: {@code --sim} speaks ibsim's protocol itself), for a minute at most.
     */
    private static ToolResult ibtool(Fabric fabric, String... args) {
        Path jar = Path.of(System.getProperty("jrdma.ibtool.jar", "../jrdma-tools/target/ibtool.jar"));
        assertTrue(Files.isRegularFile(jar), "ibtool.jar is built before bench's tests: " + jar);
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-jar", jar.toString()));
        command.addAll(List.of(args));
        if (!args[0].startsWith("-")) {
            command.addAll(List.of("--sim", fabric.socketName(), "--sim-node", NODE));
        }
        try {
            Path out = Files.createTempFile(fabric.workDir(), "ibtool", ".out");
            Path err = Files.createTempFile(fabric.workDir(), "ibtool", ".err");
            Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("ibtool did not finish in a minute: " + command);
            }
            return new ToolResult(command, p.exitValue(), Files.readString(out), Files.readString(err));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    private static String withoutDate(String topology) {
        return topology.replaceAll("(?m)^# Topology file: generated on .*$", "");
    }
}

package org.jrdma.tools;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.ToolResult;

/**
 * {@code ibtool} run as a process of its own at a node of a simulated fabric, the way the C tools
 * run there ({@link Fabric#runAt}): libumad2sim preloaded into the JVM, {@code $IBSIM_SOCKNAME} and
 * {@code $SIM_HOST} set, and no {@code --sim}, so ibtool takes the kernel umad path
 * ({@code /dev/infiniband/umadN} and sysfs, which libumad2sim emulates) exactly as on a real
 * machine. The JVM is this test's own, on this test's class path.
 */
final class IbtoolProcess {
    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    private IbtoolProcess() {
    }

    /** Runs {@code ibtool args...} attached at {@code node} (null for the fabric's first node). */
    static IbtoolRun runAt(Fabric fabric, String node, String... args) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                Ibtool.class.getName()));
        command.addAll(List.of(args));
        ToolResult result = fabric.runAt(node, TIMEOUT, command);
        return new IbtoolRun(result.exitCode(), result.stdout(), result.stderr());
    }

    /**
     * Starts {@code command} (a server: {@code ibping -S}) attached at {@code node} as the C tools
     * run there, its output discarded, under {@code timeout} so that it ends after {@code lifetime}
     * even if the test that started it does not stop it: the caller destroys it when done.
     */
    static Process startAt(Fabric fabric, String node, Duration lifetime, List<String> command) {
        List<String> bounded = new ArrayList<>(List.of("timeout", "-k", "5", lifetime.toSeconds() + "s"));
        bounded.addAll(command);
        ProcessBuilder pb = new ProcessBuilder(bounded).directory(fabric.workDir().toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD)
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        pb.environment().putAll(fabric.clientEnvironment(node));
        try {
            return pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Stops a process of {@link #startAt}: SIGTERM, which {@code timeout} passes on to the server,
     * then SIGKILL to both if they are still there after five seconds.
     */
    static void stop(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }

    /** The command line of {@code ibtool args...} in a JVM of its own on this test's class path. */
    static List<String> ibtool(String... args) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                Ibtool.class.getName()));
        command.addAll(List.of(args));
        return command;
    }

    /** Runs {@code tool args...} as ibtool in its own process and as the C tool, both attached at {@code node}. */
    static AgainstC againstC(Fabric fabric, String node, String tool, String... args) {
        List<String> ibtool = new ArrayList<>(List.of(tool));
        ibtool.addAll(List.of(args));
        IbtoolRun ours = runAt(fabric, node, ibtool.toArray(String[]::new));
        return new AgainstC(ours, fabric.runAt(node, TIMEOUT, ibtool));
    }
}

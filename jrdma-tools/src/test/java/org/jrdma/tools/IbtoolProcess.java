package org.jrdma.tools;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
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
     * Starts {@code ibtool args...} in a process of its own attached at {@code node}, killed after
     * {@code lifetime} if it has not ended (a server, {@code ibping -S}); the future completes with
     * what it printed.
     */
    static CompletableFuture<IbtoolRun> startAt(Fabric fabric, String node, Duration lifetime, String... args) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                Ibtool.class.getName()));
        command.addAll(List.of(args));
        return CompletableFuture.supplyAsync(() -> {
            ToolResult result = fabric.runAt(node, lifetime, command);
            return new IbtoolRun(result.exitCode(), result.stdout(), result.stderr());
        }, runnable -> Thread.ofVirtual().start(runnable));
    }

    /** Runs {@code tool args...} as ibtool in its own process and as the C tool, both attached at {@code node}. */
    static AgainstC againstC(Fabric fabric, String node, String tool, String... args) {
        List<String> ibtool = new ArrayList<>(List.of(tool));
        ibtool.addAll(List.of(args));
        IbtoolRun ours = runAt(fabric, node, ibtool.toArray(String[]::new));
        return new AgainstC(ours, fabric.runAt(node, TIMEOUT, ibtool));
    }
}

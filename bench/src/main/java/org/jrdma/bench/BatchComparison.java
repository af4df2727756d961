package org.jrdma.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.ToolResult;
import org.jrdma.testkit.fabric.Topology;

/**
 * Many small queries from a script, {@code ibtool --batch} against a loop of C processes: on the
 * bundled fat tree under ibsim and OpenSM, attached at its first HCA through libumad2sim (the
 * kernel umad path, as the C tools run there), N {@code perfquery} of the local port's counters as
 * one {@code ibtool --batch} (one JVM, the port opened once) and as N C {@code perfquery}
 * processes started by a bash loop, alternately for the given rounds; then a few {@code ibtool
 * perfquery} processes of their own, for the cost of a JVM start per call. Each run prints how
 * many of its calls were answered (a call that times out on a loaded machine is counted, not fatal).
 *
 * <p>Usage: {@code BatchComparison IBTOOL_JAR [N [ROUNDS]]} (default 1,000 calls, 3 rounds); run
 * through {@code bin/bench-batch}.
 */
public final class BatchComparison {
    private static final String NODE = "node01 HCA-1";
    private static final String HEADER = "# Port counters:";
    private static final int SINGLE_PROCESSES = 10;

    private BatchComparison() {
    }

    public static void main(String[] args) throws IOException {
        String jar = Path.of(args[0]).toAbsolutePath().toString();
        int calls = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path batch = Files.createTempFile("perfquery", ".batch");
        try (Fabric fabric = Fabric.start(Topology.bundled("fat-tree"))) {
            Files.write(batch, Collections.nCopies(calls, "perfquery"));
            List<String> ibtool = List.of(java, "--enable-native-access=ALL-UNNAMED", "-jar", jar, "--batch", batch.toString());
            List<String> cLoop = List.of("bash", "-c", "for ((i = 0; i < " + calls + "; i++)); do perfquery; done");
            System.out.printf("%d perfquery calls at \"%s\" of the fat tree (%d nodes), %d rounds%n", calls, NODE,
                    fabric.topology().nodes().size(), rounds);
            for (int round = 1; round <= rounds; round++) {
                Timed ours = timed(fabric, ibtool);
                Timed c = timed(fabric, cLoop);
                System.out.printf("round %d: ibtool --batch %.2f s (%.2f ms per call, %d answered), C loop %.2f s (%.2f ms per call, "
                        + "%d answered), C/ibtool %.1f%n", round, ours.seconds(), 1000 * ours.seconds() / calls, ours.answers(),
                        c.seconds(), 1000 * c.seconds() / calls, c.answers(), c.seconds() / ours.seconds());
            }
            double singles = 0;
            for (int i = 0; i < SINGLE_PROCESSES; i++) {
                singles += timed(fabric, List.of(java, "--enable-native-access=ALL-UNNAMED", "-jar", jar, "perfquery")).seconds();
            }
            System.out.printf("ibtool perfquery as a process of its own: %.0f ms per call (mean of %d)%n",
                    1000 * singles / SINGLE_PROCESSES, SINGLE_PROCESSES);
        } finally {
            Files.deleteIfExists(batch);
        }
    }

    /** A run's wall time and the counter blocks it printed. */
    private record Timed(double seconds, int answers) {
    }

    /** Runs {@code command} at the node: its wall time and how many counter blocks it printed. */
    private static Timed timed(Fabric fabric, List<String> command) {
        long start = System.nanoTime();
        ToolResult result = fabric.runAt(NODE, Duration.ofMinutes(30), command);
        return new Timed((System.nanoTime() - start) / 1e9, result.stdout().split(HEADER, -1).length - 1);
    }
}

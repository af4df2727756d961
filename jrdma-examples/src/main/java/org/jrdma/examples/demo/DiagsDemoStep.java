package org.jrdma.examples.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.ToolResult;

/**
 * The demo's step for the diags ibtool gained beyond its first sixteen commands (issue 12): a
 * fabric-wide {@code dump_fts} next to the C tool, a result as a JSON document ({@code --json}), and
 * several commands in one JVM ({@code --batch}), each attached at the demo's node.
 */
final class DiagsDemoStep {
    private DiagsDemoStep() {
    }

    static void run(Fabric fabric, String node) {
        System.out.println("More of infiniband-diags: dump_fts, --json, --batch");
        List<String> at = List.of("--sim", fabric.socketName(), "--sim-node", node);
        compareWithC(fabric, node, at, "dump_fts");
        InProcessIbtool.run(with(List.of("sminfo", "--json"), at));
        System.out.println();
        batch(at);
    }

    /** Runs an ibtool command and the C tool (or script) of the same name at {@code node}; says whether they agree. */
    private static void compareWithC(Fabric fabric, String node, List<String> at, String... command) {
        InProcessIbtool ours = InProcessIbtool.run(with(List.of(command), at));
        ToolResult c = fabric.runAt(node, Duration.ofSeconds(60), List.of(command));
        System.out.printf("(C %s at the same node: %s)%n%n", command[0],
                c.stdout().equals(ours.out()) && c.exitCode() == ours.status() ? "identical output and exit status" : "DIFFERENT:\n" + c.stdout());
    }

    /** Three commands as lines of one {@code ibtool --batch} file: one JVM, one attachment to the fabric. */
    private static void batch(List<String> at) {
        String suffix = " --sim " + at.get(1) + " --sim-node '" + at.get(3) + "'"; // the node's name has a space
        try {
            Path file = Files.createTempFile("jrdma-demo-", ".batch");
            try {
                Files.writeString(file, "sminfo" + suffix + "\nibaddr 1" + suffix + "\nperfquery 1 1" + suffix + "\n");
                System.out.println("(a batch file of three lines: sminfo, ibaddr 1, perfquery 1 1, each with" + suffix + ")");
                InProcessIbtool.run("--batch", file.toString());
            } finally {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        System.out.println();
    }

    private static String[] with(List<String> command, List<String> at) {
        return java.util.stream.Stream.concat(command.stream(), at.stream()).toArray(String[]::new);
    }
}

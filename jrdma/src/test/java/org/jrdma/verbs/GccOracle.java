package org.jrdma.verbs;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jrdma.testkit.Peers;

/**
 * Compiles and runs a small C program against {@code <infiniband/verbs.h>} and libibverbs, the
 * oracle for the hand-written layouts and constants. A missing gcc or header is a missing peer:
 * the test fails under {@code CI=true} and is skipped loudly elsewhere.
 */
final class GccOracle {
    private static final long TIMEOUT_SECONDS = 120;

    private GccOracle() {
    }

    /** Compiles {@code source} in {@code dir} with {@code -libverbs}, runs it, returns its output lines. */
    static List<String> run(Path dir, String source) throws IOException, InterruptedException {
        Path c = dir.resolve("oracle.c");
        Path exe = dir.resolve("oracle");
        Files.writeString(c, source);
        Peers.require(Peers.hasExecutable("gcc"), "gcc (Debian: apt-get install gcc)");
        Peers.require(Files.exists(Path.of("/usr/include/infiniband/verbs.h")),
                "<infiniband/verbs.h> (Debian: apt-get install libibverbs-dev)");
        String compiled = execute(dir, List.of("gcc", "-std=gnu11", "-Wall", "-Werror", "-o", exe.toString(),
                c.toString(), "-libverbs"));
        if (!Files.isExecutable(exe)) {
            fail("gcc did not compile the oracle:\n" + compiled);
        }
        return execute(dir, List.of(exe.toString())).lines().toList();
    }

    private static String execute(Path dir, List<String> command) throws IOException, InterruptedException {
        Path out = dir.resolve("out.txt");
        Process process = new ProcessBuilder(new ArrayList<>(command)).directory(dir.toFile())
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail(command + " did not finish within " + TIMEOUT_SECONDS + " s");
        }
        String output = Files.readString(out);
        if (process.exitValue() != 0) {
            fail(command + " failed with exit code " + process.exitValue() + ":\n" + output);
        }
        return output;
    }
}

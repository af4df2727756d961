package org.jrdma.verbs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jrdma.testkit.junit.NativeCommand;

/**
 * Compiles and runs a small C program against {@code <infiniband/verbs.h>} and libibverbs, the
 * oracle for the hand-written layouts and constants. A missing gcc or header is a missing peer:
 * the test fails under {@code CI=true} and is skipped loudly elsewhere.
 */
final class GccOracle {
    private GccOracle() {
    }

    /** Compiles {@code source} in {@code dir} with {@code -libverbs}, runs it, returns its output lines. */
    static List<String> run(Path dir, String source) throws IOException, InterruptedException {
        Path c = dir.resolve("oracle.c");
        Files.writeString(c, source);
        Path exe = NativeCommand.gcc(dir, "oracle", List.of("-Werror", c.toString(), "-libverbs"), "libibverbs-dev");
        return NativeCommand.run(dir, List.of(exe.toString()), null).requireSuccess().lines();
    }
}

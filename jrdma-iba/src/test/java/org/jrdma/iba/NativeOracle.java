package org.jrdma.iba;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.testkit.junit.NativeCommand;

/**
 * Builds and runs a small C program against the real C libraries (libibmad, libibumad,
 * libibverbs, glibc), the oracles for this package's numbers and texts. A missing compiler or
 * header is a missing peer: the test fails when {@code CI=true} and is skipped loudly elsewhere.
 */
final class NativeOracle {
    private NativeOracle() {
    }

    /** Compiles {@code source} into an executable in {@code dir}, linked with {@code libraries}. */
    static Path compile(Path dir, String source, String... libraries) throws IOException, InterruptedException {
        Path c = dir.resolve("oracle.c");
        Files.writeString(c, source);
        List<String> arguments = new ArrayList<>(List.of("-O0", c.toString()));
        for (String library : libraries) {
            arguments.add("-l" + library);
        }
        return NativeCommand.gcc(dir, "oracle", arguments, "libibmad-dev, libibumad-dev and libibverbs-dev");
    }

    /** Runs {@code exe} with {@code input} as standard input; returns its standard output lines. */
    static List<String> execute(Path exe, String input) throws IOException, InterruptedException {
        return NativeCommand.run(exe.getParent(), List.of(exe.toString()), input).requireSuccess().lines();
    }
}

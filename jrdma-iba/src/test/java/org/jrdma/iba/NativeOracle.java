package org.jrdma.iba;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jrdma.testkit.Peers;

/**
 * Builds and runs a small C program against the real C libraries (libibmad, libibumad,
 * libibverbs, glibc), the oracles for this package's numbers and texts. A missing compiler or
 * header is a missing peer: the test fails when {@code CI=true} and is skipped loudly elsewhere.
 */
final class NativeOracle {
    private static final long TIMEOUT_SECONDS = 120;

    private NativeOracle() {
    }

    /** Compiles {@code source} into an executable in {@code dir}, linked with {@code libraries}. */
    static Path compile(Path dir, String source, String... libraries) throws IOException, InterruptedException {
        Path c = dir.resolve("oracle.c");
        Path exe = dir.resolve("oracle");
        Files.writeString(c, source);
        List<String> command = new ArrayList<>(List.of("gcc", "-std=gnu11", "-O0", "-o", exe.toString(), c.toString()));
        for (String library : libraries) {
            command.add("-l" + library);
        }
        Result result;
        try {
            result = run(command, null, dir);
        } catch (IOException noCompiler) {
            missingPeer("gcc cannot be run (" + noCompiler.getMessage() + "); install gcc");
            throw noCompiler;
        }
        if (result.exitCode != 0) {
            if (result.stderr.contains("No such file or directory") || result.stderr.contains("cannot find -l")) {
                missingPeer("C headers or libraries are missing; install libibmad-dev, libibumad-dev and"
                        + " libibverbs-dev (gcc said: " + result.stderr.strip() + ")");
            }
            fail("gcc failed with exit code " + result.exitCode + ":\n" + result.stderr);
        }
        return exe;
    }

    /** Runs {@code exe} with {@code input} as standard input; returns its standard output lines. */
    static List<String> execute(Path exe, String input) throws IOException, InterruptedException {
        Result result = run(List.of(exe.toString()), input, exe.getParent());
        if (result.exitCode != 0) {
            fail(exe + " failed with exit code " + result.exitCode + ":\n" + result.stderr);
        }
        return result.stdout.lines().toList();
    }

    private record Result(int exitCode, String stdout, String stderr) {
    }

    private static Result run(List<String> command, String input, Path dir) throws IOException, InterruptedException {
        Path in = Files.createTempFile(dir, "in", ".txt");
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        Files.writeString(in, input == null ? "" : input);
        Process process = new ProcessBuilder(command).directory(dir.toFile())
                .redirectInput(in.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail(command + " did not finish within " + TIMEOUT_SECONDS + " s");
        }
        return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    private static void missingPeer(String reason) {
        Peers.require(false, "native oracle: " + reason);
    }
}

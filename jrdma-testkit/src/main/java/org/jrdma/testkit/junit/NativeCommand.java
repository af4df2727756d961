package org.jrdma.testkit.junit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jrdma.testkit.Executables;

/**
 * Runs a local program for a test and keeps what it printed, and builds with gcc the small C
 * programs the tests use as native oracles (libibmad, libibumad, libibverbs, glibc). A missing
 * gcc, C header or library is a missing peer ({@link Peers#require}): the test fails under CI and
 * is skipped loudly elsewhere. Output is read as ISO-8859-1, one char a byte, so that bytes a C
 * program copies from the wire survive.
 */
public final class NativeCommand {
    /** How long any one program may run. */
    public static final long TIMEOUT_SECONDS = 120;

    private NativeCommand() {
    }

    /** What a finished program printed, and its exit code. */
    public record Output(List<String> command, int exitCode, String stdout, String stderr) {
        /** This output, if the program exited with 0; else an {@link AssertionError} with its stderr. */
        public Output requireSuccess() {
            if (exitCode != 0) {
                throw new AssertionError(String.join(" ", command) + " failed with exit code " + exitCode + ":\n"
                        + stderr + stdout);
            }
            return this;
        }

        /** The lines of standard output. */
        public List<String> lines() {
            return stdout.lines().toList();
        }
    }

    /**
     * Runs {@code command} in {@code dir}, with {@code stdin} (null for none) as its standard
     * input, and waits for it.
     *
     * @throws AssertionError if it runs longer than {@link #TIMEOUT_SECONDS}
     * @throws IOException if it cannot be started
     */
    public static Output run(Path dir, List<String> command, String stdin) throws IOException, InterruptedException {
        Path in = Files.createTempFile(dir, "stdin", ".txt");
        Path out = Files.createTempFile(dir, "stdout", ".txt");
        Path err = Files.createTempFile(dir, "stderr", ".txt");
        try {
            Files.writeString(in, stdin == null ? "" : stdin, StandardCharsets.ISO_8859_1);
            Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectInput(in.toFile())
                    .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not finish within " + TIMEOUT_SECONDS + " s");
            }
            return new Output(List.copyOf(command), process.exitValue(),
                    Files.readString(out, StandardCharsets.ISO_8859_1), Files.readString(err, StandardCharsets.ISO_8859_1));
        } finally {
            Files.deleteIfExists(in);
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /**
     * Compiles C with {@code gcc -std=gnu11 -Wall ARGUMENTS -o dir/NAME} in {@code dir} and returns
     * the executable. {@code arguments} hold the sources, flags and {@code -l} libraries.
     *
     * @param packages the Debian packages that provide the headers and libraries, for the message
     *                 when one is missing
     * @throws AssertionError if gcc rejects the program for any other reason
     */
    public static Path gcc(Path dir, String name, List<String> arguments, String packages)
            throws IOException, InterruptedException {
        Peers.require(Executables.isInstalled("gcc"), "gcc, to build a native oracle (apt-get install gcc)");
        Path exe = dir.resolve(name);
        List<String> command = new ArrayList<>(List.of("gcc", "-std=gnu11", "-Wall"));
        command.addAll(arguments);
        command.addAll(List.of("-o", exe.toString()));
        Output gcc = run(dir, command, null);
        if (gcc.exitCode() != 0 && (gcc.stderr().contains("No such file or directory")
                || gcc.stderr().contains("cannot find -l"))) {
            Peers.require(false, "C headers or libraries for a native oracle; install " + packages
                    + " (gcc said: " + gcc.stderr().strip() + ")");
        }
        gcc.requireSuccess();
        return exe;
    }
}

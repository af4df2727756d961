package org.jrdma.iba.diag;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jrdma.testkit.Peers;

/**
 * {@code src/test/c/diag_oracle.c}, built with gcc against the installed libibmad the first time a
 * test needs it: libibmad's own dumpers, run on the bytes and values the tests choose. A missing
 * gcc or libibmad-dev is a missing peer (fails under CI, skipped loudly elsewhere).
 */
final class DiagOracle {
    private static final Path SOURCE = Path.of("src/test/c/diag_oracle.c");
    private static final long TIMEOUT_SECONDS = 120;
    private static Path executable;

    private DiagOracle() {
    }

    /** Runs the commands (one per element, no newlines) and returns the answer to each. */
    static List<String> run(List<String> commands) {
        Path exe = executable();
        try {
            Path dir = exe.getParent();
            Path in = Files.createTempFile(dir, "in", ".txt");
            Path out = Files.createTempFile(dir, "out", ".txt");
            Path err = Files.createTempFile(dir, "err", ".txt");
            Files.writeString(in, String.join("\n", commands) + "\n");
            Process p = new ProcessBuilder(exe.toString()).redirectInput(in.toFile()).redirectOutput(out.toFile())
                    .redirectError(err.toFile()).start();
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                fail("diag_oracle did not finish within " + TIMEOUT_SECONDS + " s");
            }
            if (p.exitValue() != 0) {
                fail("diag_oracle exited with " + p.exitValue() + ": " + Files.readString(err));
            }
            String text = Files.readString(out, StandardCharsets.ISO_8859_1);
            List<String> answers = new ArrayList<>(List.of(text.split("@@\n", -1)));
            answers.removeLast();
            if (answers.size() != commands.size()) {
                fail("diag_oracle answered " + answers.size() + " of " + commands.size() + " commands");
            }
            return answers;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** {@code dump <kind> <hex>}. */
    static String dump(String kind, byte[] bytes) {
        return "dump " + kind + " " + HexFormat.of().formatHex(bytes);
    }

    private static void deleteTree(Path dir) {
        try (var paths = Files.walk(dir)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException ignored) {
            // best effort at exit
        }
    }

    private static synchronized Path executable() {
        if (executable != null) {
            return executable;
        }
        Peers.require(Peers.hasExecutable("gcc"), "gcc (apt-get install gcc)");
        Peers.require(Files.isReadable(Path.of("/usr/include/infiniband/mad.h")),
                "libibmad's headers (apt-get install libibmad-dev)");
        try {
            Path dir = Files.createTempDirectory("jrdma-diag-oracle-");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(dir)));
            Path exe = dir.resolve("diag_oracle");
            Process p = new ProcessBuilder("gcc", "-std=gnu11", "-O0", "-Wall", "-o", exe.toString(),
                    SOURCE.toAbsolutePath().toString(), "-libmad").redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS) || p.exitValue() != 0) {
                Peers.require(!output.contains("cannot find -libmad"), "libibmad (apt-get install libibmad-dev)");
                fail("gcc could not build " + SOURCE + ":\n" + output);
            }
            executable = exe;
            return exe;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}

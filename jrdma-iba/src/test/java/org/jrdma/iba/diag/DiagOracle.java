package org.jrdma.iba.diag;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.jrdma.testkit.junit.NativeCommand;

/**
 * {@code src/test/c/diag_oracle.c}, built with gcc against the installed libibmad the first time a
 * test needs it: libibmad's own dumpers, run on the bytes and values the tests choose. A missing
 * gcc or libibmad-dev is a missing peer (fails under CI, skipped loudly elsewhere).
 */
final class DiagOracle {
    private static final Path SOURCE = Path.of("src/test/c/diag_oracle.c");
    private static Path executable;

    private DiagOracle() {
    }

    /** Runs the commands (one per element, no newlines) and returns the answer to each. */
    static List<String> run(List<String> commands) {
        Path exe = executable();
        try {
            String text = NativeCommand.run(exe.getParent(), List.of(exe.toString()), String.join("\n", commands) + "\n")
                    .requireSuccess().stdout();
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
        try {
            Path dir = Files.createTempDirectory("jrdma-diag-oracle-");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(dir)));
            executable = NativeCommand.gcc(dir, "diag_oracle", List.of("-O0", SOURCE.toAbsolutePath().toString(), "-libmad"),
                    "libibmad-dev");
            return executable;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}

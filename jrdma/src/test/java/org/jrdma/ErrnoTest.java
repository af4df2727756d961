package org.jrdma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jrdma.testkit.Peers;

/** Checks the errno table against glibc's {@code strerrorname_np} and {@code strerror}. */
class ErrnoTest {
    @TempDir
    Path dir;

    @Test
    void tableMatchesGlibc() throws Exception {
        Files.writeString(dir.resolve("errno.c"), """
                #define _GNU_SOURCE
                #include <stdio.h>
                #include <string.h>
                int main(void) {
                    for (int e = 0; e <= 200; e++) {
                        const char *name = strerrorname_np(e);
                        printf("%d|%s|%s\\n", e, name ? name : "", strerror(e));
                    }
                    return 0;
                }
                """);
        Path out = dir.resolve("out.txt");
        run(List.of("gcc", "-o", "errno", "errno.c"), null);
        run(List.of(dir.resolve("errno").toString()), out);
        List<String> lines = Files.readAllLines(out);
        assertEquals(201, lines.size());
        for (String line : lines) {
            String[] fields = line.split("\\|", 3);
            int errno = Integer.parseInt(fields[0]);
            Errno.Entry entry = Errno.lookup(errno);
            if (errno == 0 || fields[1].isEmpty()) {
                assertNull(entry, line);
            } else {
                assertEquals(new Errno.Entry(fields[1], fields[2]), entry, line);
            }
            assertEquals(fields[2], Errno.strerror(errno), line);
        }
    }

    private void run(List<String> command, Path output) throws IOException, InterruptedException {
        Process process;
        try {
            var builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
            builder.redirectOutput(output != null ? output.toFile() : dir.resolve("log.txt").toFile());
            process = builder.start();
        } catch (IOException noCompiler) {
            Peers.require(false, "native oracle: gcc cannot be run (" + noCompiler.getMessage() + "); install gcc");
            return;
        }
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail(command + " did not finish within 120 s");
        }
        if (process.exitValue() != 0) {
            fail(command + " failed with exit code " + process.exitValue() + ": "
                    + (output == null ? Files.readString(dir.resolve("log.txt")) : ""));
        }
    }
}

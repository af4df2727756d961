package org.jrdma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jrdma.testkit.junit.NativeCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
        Path exe = NativeCommand.gcc(dir, "errno", List.of("errno.c"), "libc6-dev");
        List<String> lines = NativeCommand.run(dir, List.of(exe.toString()), null).requireSuccess().lines();
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
}

package org.jrdma.ffi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jrdma.SysException;
import org.jrdma.testkit.junit.NativeCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The C library calls failing for real, each with its plain call name, errno and, for a path,
 * the path quoted in the detail; {@code poll(2)}'s readiness and time-out; and the hand-written
 * {@code struct pollfd} and constants against the C headers.
 */
class LibcTest {
    /** {@code SOCK_NONBLOCK}: a socket whose reads return EAGAIN instead of blocking. */
    private static final int SOCK_NONBLOCK = 0x800;
    /** {@code O_RDONLY}. */
    private static final int O_RDONLY = 0;

    @Test
    void readsFilesAndListsFoldersThroughTheCLibrary(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("rate"), "40 Gb/sec (4X QDR)\n");
        Files.createDirectory(dir.resolve("ports"));
        assertEquals("40 Gb/sec (4X QDR)\n", new String(Libc.readFile(dir.resolve("rate").toString(), 100)));
        assertEquals("40 Gb", new String(Libc.readFile(dir.resolve("rate").toString(), 5)));
        assertEquals(List.of("ports", "rate"), Libc.listDirectory(dir.toString()).stream().sorted().toList());
        SysException e = assertThrows(SysException.class, () -> Libc.listDirectory(dir.resolve("gone").toString()));
        assertEquals("opendir", e.call());
        assertEquals(Libc.ENOENT, e.errno());
        assertTrue(e.getMessage().endsWith(", path \"" + dir.resolve("gone") + "\""), e.getMessage());
    }

    @Test
    void symbolsResolveInTheGlobalScope() {
        assertTrue(Libc.findGlobal("open").isPresent());
        assertTrue(Libc.findGlobal("no_such_symbol_in_jrdma").isEmpty());
    }

    @Test
    void openOfAMissingFileQuotesThePathInTheDetail() {
        SysException e = assertThrows(SysException.class, () -> Libc.open("/nonexistent-jrdma/\"umad\"\n", O_RDONLY));
        assertEquals("open", e.call());
        assertEquals(2, e.errno());
        assertEquals("open(..) failed with error(2): No such file or directory, path \"/nonexistent-jrdma/\\\"umad\\\"\\u000a\"",
                e.getMessage());
    }

    @Test
    void closeOfABadDescriptorIsEbadf() {
        SysException e = assertThrows(SysException.class, () -> Libc.close(-1));
        assertEquals("close(..) failed with error(9): Bad file descriptor", e.getMessage());
    }

    @Test
    void readOfANonBlockingDescriptorWithNothingWaitingIsMinusOne() {
        int fd = Libc.socket(Libc.AF_UNIX, Libc.SOCK_DGRAM | Libc.SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        try (Arena arena = Arena.ofConfined()) {
            assertEquals(-1, Libc.read(fd, arena.allocate(16), 16));
        } finally {
            Libc.close(fd);
        }
    }

    @Test
    void pollReportsReadinessAtOnceAndWaitsOutTheTimeOtherwise() {
        int silent = Libc.socket(Libc.AF_UNIX, Libc.SOCK_DGRAM | Libc.SOCK_CLOEXEC, 0);
        int devNull = Libc.open("/dev/null", O_RDONLY);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment fds = arena.allocate(Libc.POLLFD, 3);
            MemorySegment state = Errors.callState(arena);
            Libc.pollFd(fds, 0, silent, Libc.POLLIN);
            Libc.pollFd(fds, 1, -1, Libc.POLLIN);
            Libc.pollFd(fds, 2, devNull, Libc.POLLIN);
            assertEquals(1, Libc.poll(fds, 3, -1, state));
            assertEquals(0, Libc.revents(fds, 0));
            assertEquals(0, Libc.revents(fds, 1));
            assertEquals(Libc.POLLIN, Libc.revents(fds, 2));

            assertTrue(Libc.pollIn(devNull, 0));
            long start = System.nanoTime();
            assertFalse(Libc.pollIn(silent, 50));
            assertTrue(System.nanoTime() - start >= 50_000_000L, "poll returned before its time-out");
        } finally {
            Libc.close(devNull);
            Libc.close(silent);
        }
    }

    @Test
    void pollfdLayoutAndConstantsMatchTheCHeaders(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("libc.c"), """
                #define _GNU_SOURCE
                #include <stdio.h>
                #include <stddef.h>
                #include <errno.h>
                #include <poll.h>
                #include <sys/socket.h>
                #define M(m) printf("pollfd." #m " %zu %zu\\n", offsetof(struct pollfd, m), sizeof(((struct pollfd *) 0)->m))
                #define C(c) printf(#c " %ld\\n", (long) (c))
                int main(void) {
                    printf("pollfd.sizeof %zu\\n", sizeof(struct pollfd));
                    M(fd); M(events); M(revents);
                    C(AF_UNIX); C(SOCK_DGRAM); C(SOCK_CLOEXEC); C(SOCK_NONBLOCK); C(MSG_DONTWAIT);
                    C(POLLIN); C(POLLERR); C(POLLHUP); C(POLLNVAL); C(EINTR); C(EAGAIN);
                    return 0;
                }
                """);
        Path exe = NativeCommand.gcc(dir, "libc", List.of("-Werror", "libc.c"), "libc6-dev");
        Map<String, String> c = new TreeMap<>();
        for (String line : NativeCommand.run(dir, List.of(exe.toString()), null).requireSuccess().lines()) {
            int space = line.indexOf(' ');
            c.put(line.substring(0, space), line.substring(space + 1));
        }
        Map<String, String> expected = new TreeMap<>();
        expected.put("pollfd.sizeof", Long.toString(Libc.POLLFD.byteSize()));
        for (String member : List.of("fd", "events", "revents")) {
            var path = MemoryLayout.PathElement.groupElement(member);
            expected.put("pollfd." + member, Libc.POLLFD.byteOffset(path) + " " + Libc.POLLFD.select(path).byteSize());
        }
        expected.put("AF_UNIX", Integer.toString(Libc.AF_UNIX));
        expected.put("SOCK_DGRAM", Integer.toString(Libc.SOCK_DGRAM));
        expected.put("SOCK_CLOEXEC", Integer.toString(Libc.SOCK_CLOEXEC));
        expected.put("SOCK_NONBLOCK", Integer.toString(SOCK_NONBLOCK));
        expected.put("MSG_DONTWAIT", Integer.toString(Libc.MSG_DONTWAIT));
        expected.put("POLLIN", Integer.toString(Libc.POLLIN));
        expected.put("POLLERR", Integer.toString(Libc.POLLERR));
        expected.put("POLLHUP", Integer.toString(Libc.POLLHUP));
        expected.put("POLLNVAL", Integer.toString(Libc.POLLNVAL));
        expected.put("EINTR", Integer.toString(Libc.EINTR));
        expected.put("EAGAIN", Integer.toString(Libc.EAGAIN));
        assertEquals(expected, c, "Java (expected) vs C headers (actual)");
    }
}

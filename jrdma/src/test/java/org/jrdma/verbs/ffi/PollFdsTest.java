package org.jrdma.verbs.ffi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jrdma.ffi.Libc;
import org.junit.jupiter.api.Test;

/**
 * The two-descriptor wait on real descriptors: {@code /dev/null}, always readable, and an
 * unconnected datagram socket, never readable.
 */
class PollFdsTest {
    @Test
    void eachReadyDescriptorSetsItsBitAndANegativeOneIsIgnored() {
        int silent = Libc.socket(Libc.AF_UNIX, Libc.SOCK_DGRAM | Libc.SOCK_CLOEXEC, 0);
        int devNull = Libc.open("/dev/null", 0);
        try {
            PollFds fds = new PollFds();
            assertEquals(1, fds.pollIn(devNull, silent, 0));
            assertEquals(2, fds.pollIn(silent, devNull, 0));
            assertEquals(3, fds.pollIn(devNull, devNull, -1));
            assertEquals(2, fds.pollIn(-1, devNull, -1));
            long start = System.nanoTime();
            assertEquals(0, fds.pollIn(silent, -1, 30));
            assertTrue(System.nanoTime() - start >= 30_000_000L, "poll returned before its time-out");
        } finally {
            Libc.close(devNull);
            Libc.close(silent);
        }
    }
}

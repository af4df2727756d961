package org.jrdma.ffi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.jrdma.SysException;
import org.jrdma.testkit.ThreadCounters;

/**
 * Run in a fresh JVM by {@link LibcAllocationTest}: the bytes the first failed call of each of
 * {@link Libc}'s often-made calls allocates in this process, one line each ({@code poll 1234}).
 * A failed call is made again with errno captured; the first time a call site of the capturing
 * handle runs, the JDK links it, which spun method-handle classes (about 129 KB) in whatever
 * thread failed first, even in a loop that allocates nothing otherwise.
 */
public final class FirstFailedCalls {
    private FirstFailedCalls() {
    }

    /** Prints {@code CALL BYTES} for close (first: the exception's classes load), poll, send, recv, read and write, each failing for the first time here. */
    public static void main(String[] args) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment buffer = arena.allocate(8);
            int closed = -1; // EBADF (a descriptor just closed may be reused by the JDK meanwhile)
            // the device calls' class initialised, and a failure of another call made, first: linking
            // those handles and loading the exception's classes are not what is counted
            Libc.close(Libc.eventfd(0, Libc.EFD_CLOEXEC));
            report("close", () -> Libc.close(closed));
            // a poll that succeeds first (one entry, ignored), as a process polls long before one fails;
            // then one entry at address 0: EFAULT
            MemorySegment ignored = Libc.newPollFd(arena);
            Libc.pollFd(ignored, 0, -1, Libc.POLLIN);
            Libc.poll(ignored, 1, 0, state);
            report("poll", () -> Libc.poll(MemorySegment.NULL, 1, 0, state));
            report("send", () -> Libc.send(closed, buffer, 8, state));
            report("recv", () -> Libc.recv(closed, buffer, 8, 0, state));
            report("read", () -> Libc.read(closed, buffer, 8, state));
            report("write", () -> Libc.write(closed, buffer, 8, state));
        }
    }

    private static void report(String call, Runnable failing) {
        long bytes = ThreadCounters.allocatedBy(() -> {
            try {
                failing.run();
                throw new IllegalStateException(call + " did not fail");
            } catch (SysException expected) {
                // the failure, as the call reports it
            }
        });
        System.out.println(call + " " + bytes);
    }
}

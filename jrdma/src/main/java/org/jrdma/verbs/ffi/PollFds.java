package org.jrdma.verbs.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import org.jrdma.SysException;
import org.jrdma.ffi.Libc;

/**
 * {@code poll(2)} for input on two file descriptors at once (a completion channel's and a
 * context's asynchronous event descriptor), in storage made once: waiting allocates nothing.
 * One thread at a time.
 */
public final class PollFds {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle POLL = LINKER.downcallHandle(
            LINKER.defaultLookup().find("poll").orElseThrow(() -> new UnsatisfiedLinkError("libc has no poll")),
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT), Linker.Option.captureCallState("errno"));
    private static final long POLLFD = Libc.POLLFD.byteSize();
    private static final long EVENTS = 4;
    private static final long REVENTS = 6;
    /** {@code POLLIN | POLLERR | POLLHUP | POLLNVAL}: a descriptor that a read would not block on. */
    private static final short READY = 0x1 | 0x8 | 0x10 | 0x20;
    private static final long NANOS_PER_MILLI = 1_000_000L;

    private final MemorySegment fds;
    private final MemorySegment state;

    /** Storage for two {@code struct pollfd} and the errno of the call. */
    public PollFds() {
        Arena arena = Arena.ofAuto();
        this.fds = arena.allocate(Libc.POLLFD, 2);
        this.state = Errors.callState(arena);
    }

    /**
     * Waits until {@code fd0} or {@code fd1} is readable (a negative descriptor is ignored, as
     * poll(2) does), retrying on {@code EINTR}.
     *
     * @param timeoutNanos how long to wait, rounded up to milliseconds; negative waits for ever
     * @return bit 0 set if {@code fd0} is readable, bit 1 if {@code fd1} is; 0 on time-out
     * @throws SysException if poll fails
     */
    public int pollIn(int fd0, int fd1, long timeoutNanos) {
        fds.set(JAVA_INT, 0, fd0);
        fds.set(JAVA_SHORT, EVENTS, Libc.POLLIN);
        fds.set(JAVA_INT, POLLFD, fd1);
        fds.set(JAVA_SHORT, POLLFD + EVENTS, Libc.POLLIN);
        long deadline = System.nanoTime() + timeoutNanos;
        try {
            while (true) {
                fds.set(JAVA_SHORT, REVENTS, (short) 0);
                fds.set(JAVA_SHORT, POLLFD + REVENTS, (short) 0);
                int wait = timeoutNanos < 0 ? -1 : millisUp(Math.max(0, deadline - System.nanoTime()));
                int n = (int) POLL.invokeExact(state, fds, 2L, wait);
                if (n < 0) {
                    int errno = Errors.errno(state);
                    if (errno == Libc.EINTR) {
                        continue;
                    }
                    throw new SysException("poll", errno);
                }
                return ready(0) | ready(1) << 1;
            }
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    private int ready(int i) {
        return (fds.get(JAVA_SHORT, i * POLLFD + REVENTS) & READY) != 0 ? 1 : 0;
    }

    private static int millisUp(long nanos) {
        return (int) Math.min(Integer.MAX_VALUE, (nanos + NANOS_PER_MILLI - 1) / NANOS_PER_MILLI);
    }
}

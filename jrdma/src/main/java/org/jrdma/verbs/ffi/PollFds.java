package org.jrdma.verbs.ffi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.jrdma.SysException;
import org.jrdma.ffi.Errors;
import org.jrdma.ffi.Libc;

/**
 * {@code poll(2)} for input on two file descriptors at once (a completion channel's and a
 * context's asynchronous event descriptor), in storage made once: waiting allocates nothing.
 * One thread at a time.
 */
public final class PollFds {
    /** A descriptor that a read would not block on. */
    private static final short READY = Libc.POLLIN | Libc.POLLERR | Libc.POLLHUP | Libc.POLLNVAL;

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
     * @param timeoutMillis how long to wait; negative waits for ever
     * @return bit 0 set if {@code fd0} is readable, bit 1 if {@code fd1} is; 0 on time-out
     * @throws SysException if poll fails
     */
    public int pollIn(int fd0, int fd1, int timeoutMillis) {
        Libc.pollFd(fds, 0, fd0, Libc.POLLIN);
        Libc.pollFd(fds, 1, fd1, Libc.POLLIN);
        Libc.poll(fds, 2, timeoutMillis, state);
        return ready(0) | ready(1) << 1;
    }

    private int ready(int i) {
        return (Libc.revents(fds, i) & READY) != 0 ? 1 : 0;
    }
}

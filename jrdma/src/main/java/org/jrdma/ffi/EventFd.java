package org.jrdma.ffi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A non-blocking {@code eventfd(2)}: a descriptor that another thread makes readable with
 * {@link #signal()}, to wake a thread blocked in {@code poll(2)} on it beside other descriptors
 * (a completion channel's). {@link #drain()} makes it unreadable again.
 */
public final class EventFd implements AutoCloseable {
    private final int fd;
    /** The counter value written and read, and the call state for errno: made once, so signalling allocates nothing. */
    private final MemorySegment value;
    private final MemorySegment state;

    /** Makes the descriptor ({@code EFD_NONBLOCK | EFD_CLOEXEC}). */
    public EventFd() {
        this.fd = Libc.eventfd(0, Libc.EFD_NONBLOCK | Libc.EFD_CLOEXEC);
        Arena arena = Arena.ofAuto();
        this.value = arena.allocate(ValueLayout.JAVA_LONG);
        this.state = Errors.callState(arena);
    }

    /** The descriptor, readable after {@link #signal()} until {@link #drain()}. */
    public int fd() {
        return fd;
    }

    /** Adds one to the counter ({@code write(2)} of 8 bytes): the descriptor becomes readable. Allocates nothing. */
    public void signal() {
        synchronized (value) {
            value.set(ValueLayout.JAVA_LONG, 0, 1);
            Libc.write(fd, value, 8, state);
        }
    }

    /** Reads the counter back to zero ({@code read(2)}), if it was not already. Allocates nothing. */
    public void drain() {
        synchronized (value) {
            Libc.read(fd, value, 8, state);
        }
    }

    @Override
    public void close() {
        Libc.close(fd);
    }
}

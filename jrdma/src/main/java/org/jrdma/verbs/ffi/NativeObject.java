package org.jrdma.verbs.ffi;

import java.lang.foreign.Arena;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemorySegment;
import org.jrdma.ffi.Errors;
import org.jrdma.ffi.Libc;

/**
 * A libibverbs object ({@code struct ibv_context}, {@code ibv_pd}, {@code ibv_qp}, ...) owned by
 * Java: its pointer as a segment of the structure's size, bound to an {@link Arena} that also
 * holds any native memory allocated for the object. Every downcall receives that segment, and the
 * linker keeps the arena open for the call's duration; so once {@link #close()} has closed the
 * arena, a late call fails with {@link IllegalStateException} instead of touching freed memory,
 * and a close while a call is running in another thread fails instead of freeing memory under it.
 *
 * <p>The arena is shared, usable from any thread, unless the object's context was opened
 * confined ({@link IbvContext#open(String, boolean)}): then it is confined to the thread that
 * made the object, which alone may use and close it (others get
 * {@link WrongThreadException}), and keeping it open across a call costs two plain increments
 * instead of two atomic operations.
 */
@SuppressWarnings("restricted")
public abstract sealed class NativeObject
        permits IbvContext, IbvPd, IbvMr, IbvCompChannel, IbvCq, IbvQp, IbvSrq, IbvAh, IbvMw, IbvXrcd, IbvTd,
        IbvFlow {
    /** The longest {@link #awaitReadable} sleeps in {@code poll(2)} before it looks whether the object was closed. */
    private static final int WAIT_SLICE_MILLIS = 100;
    private static final long NANOS_PER_MILLI = 1_000_000L;

    /** Owns {@link #ptr}'s lifetime and the object's native allocations. */
    final Arena arena;
    /** The C object, readable through the layout given at construction. */
    final MemorySegment ptr;
    private final String what;
    private final boolean confined;

    /**
     * Takes ownership of the C object at {@code raw}, of {@code layout}, described as
     * {@code what}, confined to this thread or not.
     */
    NativeObject(MemorySegment raw, GroupLayout layout, String what, boolean confined) {
        this.arena = confined ? Arena.ofConfined() : Arena.ofShared();
        this.confined = confined;
        this.ptr = raw.reinterpret(layout.byteSize(), arena, null);
        this.what = what;
    }

    /** Whether only the thread that made the object may use it. */
    public final boolean isConfined() {
        return confined;
    }

    /** Whether the object is usable from Java: false from the moment {@link #close()} begins to free it. */
    public final boolean isOpen() {
        return ptr.scope().isAlive();
    }

    /** The C pointer, for a work request or an event to refer to this object. */
    public final long address() {
        return ptr.address();
    }

    /**
     * Waits up to {@code timeoutMillis} (negative: for ever) for {@code fd}, a descriptor this
     * object owns, to become readable. Closing a descriptor does not wake a {@code poll(2)}
     * blocked on it in another thread, so the wait sleeps at most {@value #WAIT_SLICE_MILLIS} ms
     * at a time and looks in between whether the object was closed.
     *
     * @return whether it became readable (false on time-out)
     * @throws IllegalStateException if the object is closed, before or during the wait
     */
    final boolean awaitReadable(int fd, int timeoutMillis) {
        try (Arena temporary = Arena.ofConfined()) {
            return awaitReadable(fd, timeoutMillis, Libc.newPollFd(temporary), Errors.callState(temporary));
        }
    }

    /**
     * {@link #awaitReadable(int, int)} in storage made once by the caller, one {@code struct
     * pollfd} and a call state ({@link Errors#callState}): allocates nothing.
     */
    final boolean awaitReadable(int fd, int timeoutMillis, MemorySegment pollFd, MemorySegment state) {
        boolean forever = timeoutMillis < 0;
        long deadline = System.nanoTime() + timeoutMillis * NANOS_PER_MILLI;
        while (true) {
            checkAlive();
            long left = forever ? Long.MAX_VALUE : Math.max(0, Math.ceilDiv(deadline - System.nanoTime(), NANOS_PER_MILLI));
            boolean ready = Libc.pollIn(fd, (int) Math.min(WAIT_SLICE_MILLIS, left), pollFd, state);
            if (ready || left <= WAIT_SLICE_MILLIS) {
                checkAlive();
                return ready;
            }
        }
    }

    private void checkAlive() {
        if (!ptr.scope().isAlive()) {
            throw new IllegalStateException(what + " is closed");
        }
    }

    /**
     * Makes the object unusable from Java, then destroys it in libibverbs. Called once.
     *
     * @throws IllegalStateException when a call on the object is running in another thread, or
     *                               the object is confined to another thread; the object is then
     *                               left as it was
     * @throws org.jrdma.SysException when libibverbs fails to destroy it; it is unusable anyway
     */
    public final void close() {
        MemorySegment raw = MemorySegment.ofAddress(ptr.address());
        try {
            arena.close();
        } catch (IllegalStateException busy) {
            throw new IllegalStateException(what + " is in use by a call in another thread; not closed", busy);
        } catch (WrongThreadException stranger) {
            throw new IllegalStateException(what + " is confined to the thread that made it; not closed", stranger);
        }
        destroy(raw);
    }

    /** Frees the C object at {@code raw}, whose arena is already closed. */
    abstract void destroy(MemorySegment raw);
}

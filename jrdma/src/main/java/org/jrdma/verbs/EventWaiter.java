package org.jrdma.verbs;

import java.util.Objects;
import org.jrdma.verbs.ffi.PollFds;

/**
 * Waits for a completion channel's event and, optionally, its context's asynchronous events at
 * the same time: {@code poll(2)} on {@code channel->fd} and {@code context->async_fd}, what
 * python-rdma's {@code register_poll} and {@code check_poll} let a {@code select.poll} loop do.
 * It only waits; the caller then takes the event with {@link CompChannel#getEvent} or
 * {@link Context#getAsyncEvent}. Waiting allocates nothing. One thread at a time.
 */
public final class EventWaiter {
    /** Ready bit: the completion channel has an event. */
    public static final int COMPLETION = 1;
    /** Ready bit: the context has an asynchronous event. */
    public static final int ASYNC_EVENT = 2;
    private static final long NANOS_PER_MILLI = 1_000_000L;

    private final CompChannel channel;
    private final boolean asyncEvents;
    private final PollFds fds = new PollFds();

    /**
     * A waiter on {@code channel}, and on the asynchronous events of its context when
     * {@code asyncEvents}.
     */
    public EventWaiter(CompChannel channel, boolean asyncEvents) {
        this.channel = Objects.requireNonNull(channel, "channel");
        this.asyncEvents = asyncEvents;
    }

    /** The completion channel waited on. */
    public CompChannel channel() {
        return channel;
    }

    /**
     * Waits until an event is ready or {@code timeoutNanos} pass.
     *
     * @param timeoutNanos how long to wait, in nanoseconds (rounded up to milliseconds);
     *                     negative waits for ever
     * @return the ready bits, {@link #COMPLETION} and {@link #ASYNC_EVENT}; 0 on time-out
     * @throws IllegalStateException if the channel or its context is closed
     */
    public int await(long timeoutNanos) {
        int asyncFd = asyncEvents ? channel.context().asyncFd() : -1;
        int millis = timeoutNanos < 0 ? -1 : (int) Math.min(Integer.MAX_VALUE, Math.ceilDiv(timeoutNanos, NANOS_PER_MILLI));
        int ready = fds.pollIn(channel.fd(), asyncFd, millis);
        return (ready & 1) * COMPLETION | (ready >> 1 & 1) * ASYNC_EVENT;
    }
}

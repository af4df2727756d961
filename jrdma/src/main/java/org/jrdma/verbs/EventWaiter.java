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
    /** The longest {@link #await} sleeps in {@code poll(2)} before it looks whether the channel was closed. */
    private static final int SLICE_MILLIS = 100;

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
     * Waits until an event is ready or {@code timeoutNanos} pass. Closing a descriptor does not
     * wake a {@code poll(2)} blocked on it, so the wait sleeps at most {@value #SLICE_MILLIS} ms at
     * a time and looks in between whether the channel or its context was closed.
     *
     * @param timeoutNanos how long to wait, in nanoseconds (rounded up to milliseconds);
     *                     negative waits for ever
     * @return the ready bits, {@link #COMPLETION} and {@link #ASYNC_EVENT}; 0 on time-out
     * @throws IllegalStateException if the channel or its context is closed, also by another
     *                               thread during the wait
     */
    public int await(long timeoutNanos) {
        boolean forever = timeoutNanos < 0;
        long deadline = System.nanoTime() + timeoutNanos;
        while (true) {
            int asyncFd = asyncEvents ? channel.context().asyncFd() : -1;
            int channelFd = channel.fd();
            long left = forever ? Long.MAX_VALUE : Math.max(0, Math.ceilDiv(deadline - System.nanoTime(), NANOS_PER_MILLI));
            int ready = fds.pollIn(channelFd, asyncFd, (int) Math.min(SLICE_MILLIS, left));
            if (ready != 0 || left <= SLICE_MILLIS) {
                channel.fd();
                return (ready & 1) * COMPLETION | (ready >> 1 & 1) * ASYNC_EVENT;
            }
        }
    }
}

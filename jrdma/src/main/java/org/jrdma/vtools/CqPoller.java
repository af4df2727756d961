package org.jrdma.vtools;

import java.time.Duration;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.jrdma.verbs.AsyncEvent;
import org.jrdma.verbs.CompChannel;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Cq;
import org.jrdma.verbs.EventWaiter;
import org.jrdma.verbs.Wc;
import org.jrdma.verbs.WcBuffer;

/**
 * A blocking iteration over the work completions of a {@link Cq}, python-rdma's
 * {@code rdma.vtools.CQPoller}: when the queue is empty it sleeps on the queue's completion
 * channel (arming the queue with {@link Cq#reqNotify} first and polling once more, as the
 * edge-triggered channel needs), or spins when the queue has no channel. While it sleeps it also
 * watches the context's asynchronous events and hands them to
 * {@link Context#handleAsyncEvent}, which throws {@link org.jrdma.verbs.AsyncException} for a
 * failure.
 *
 * <pre>{@code
 * CqPoller poller = new CqPoller(ctx.cq(2 * depth, ctx.compChannel()));
 * for (Wc wc : poller.iterwc(10, Duration.ofSeconds(1))) {
 *     wc.check();
 *     ...
 * }
 * if (poller.timedOut()) { ... }
 * }</pre>
 *
 * <p>Every completion is the same {@link Wc} view, moved along a reusable {@link WcBuffer}:
 * read what is needed before asking for the next one. Taking completions that are waiting
 * allocates nothing; only going to sleep does (a little, to take the channel's event). The
 * poller takes the channel's events, so the channel should serve this queue alone. Not
 * thread-safe, and one iteration at a time: {@link #iterwc} restarts the poller's only
 * iteration, though completions already taken from the queue are never lost.
 */
public final class CqPoller {
    /** Completions taken from the queue per poll. */
    private static final int BATCH = 16;
    /** Time-outs this long or longer are no limit: about 146 years, half of what nanoTime spans. */
    private static final Duration FOREVER = Duration.ofNanos(Long.MAX_VALUE / 2);

    private final Cq cq;
    private final CompChannel channel;
    private final Context context;
    private final boolean solicitedOnly;
    private final EventWaiter waiter;
    private final WcBuffer wcs = new WcBuffer(BATCH);
    private final Wc wc = new Wc(wcs);
    private final Completions completions = new Completions();
    /** The next entry of {@link #wcs} to return; the buffer holds {@code wcs.count()} entries. */
    private int next;
    private boolean armed;
    private long remaining;
    private boolean deadline;
    private long wakeAt;
    private boolean timedOut;

    /** A poller of {@code cq} that watches asynchronous events and wakes on every completion. */
    public CqPoller(Cq cq) {
        this(cq, true, false);
    }

    /**
     * A poller of {@code cq}.
     *
     * @param asyncEvents   whether to watch the context's asynchronous events while sleeping
     * @param solicitedOnly whether only solicited (and error) completions wake it
     *                      ({@code ibv_req_notify_cq(cq, 1)}); others are still returned
     */
    public CqPoller(Cq cq, boolean asyncEvents, boolean solicitedOnly) {
        this.cq = Objects.requireNonNull(cq, "cq");
        this.channel = cq.channel();
        this.context = cq.context();
        this.solicitedOnly = solicitedOnly;
        this.waiter = channel == null ? null : new EventWaiter(channel, asyncEvents);
    }

    /** The completion queue polled. */
    public Cq cq() {
        return cq;
    }

    /** Every completion, with no limit of number or time. */
    public Iterable<Wc> iterwc() {
        return start(Long.MAX_VALUE, false, 0);
    }

    /**
     * At most {@code count} completions, waiting at most {@code timeout} in all (null for no
     * limit; zero or negative takes only what is waiting): python-rdma's
     * {@code iterwc(count, timeout)}.
     *
     * @param count the most to return, {@code Long.MAX_VALUE} for no limit
     */
    public Iterable<Wc> iterwc(long count, Duration timeout) {
        if (timeout == null || timeout.compareTo(FOREVER) >= 0) {
            return start(count, false, 0);
        }
        return start(count, true, System.nanoTime() + timeout.toNanos());
    }

    /**
     * At most {@code count} completions, until {@link System#nanoTime()} reaches
     * {@code wakeAtNanos}: python-rdma's {@code iterwc(count, wakeat=...)}.
     */
    public Iterable<Wc> iterwcUntil(long count, long wakeAtNanos) {
        return start(count, true, wakeAtNanos);
    }

    /**
     * The completions of {@link #iterwc(long, Duration)} as a sequential stream of the one
     * {@link Wc} view: map each to what is needed before the next.
     */
    public Stream<Wc> stream(long count, Duration timeout) {
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(iterwc(count, timeout).iterator(),
                Spliterator.ORDERED | Spliterator.NONNULL), false);
    }

    /** Whether the last iteration stopped because its time ran out. */
    public boolean timedOut() {
        return timedOut;
    }

    /**
     * Moves the end of the current iteration to {@code wakeAtNanos} ({@link System#nanoTime()}
     * time), python-rdma's assignable {@code wakeat}; allowed while iterating.
     */
    public void wakeAt(long wakeAtNanos) {
        this.deadline = true;
        this.wakeAt = wakeAtNanos;
    }

    /**
     * When the current iteration ends ({@link System#nanoTime()} time), python-rdma's readable
     * {@code wakeat}; {@code Long.MAX_VALUE} when it has no deadline.
     */
    public long wakeAt() {
        return deadline ? wakeAt : Long.MAX_VALUE;
    }

    /**
     * Sleeps until the completion channel signals the queue, or {@link System#nanoTime()} reaches
     * {@code wakeAtNanos}, handling asynchronous events meanwhile: python-rdma's
     * {@code sleep(wakeat)}. As there, arm the queue ({@link Cq#reqNotify}) and poll it empty
     * first, or a completion that came before may never signal.
     *
     * @return true if the channel signalled this queue, or when there is no channel (nothing to
     *         sleep on); false when the time ran out first
     */
    public boolean sleep(long wakeAtNanos) {
        if (waiter == null) {
            return true;
        }
        while (true) {
            long left = wakeAtNanos - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            if (await(left)) {
                return true;
            }
        }
    }

    private Completions start(long count, boolean hasDeadline, long wakeAtNanos) {
        if (count < 0) {
            throw new IllegalArgumentException("count must not be negative, not " + count);
        }
        this.remaining = count;
        this.deadline = hasDeadline;
        this.wakeAt = wakeAtNanos;
        this.timedOut = false;
        return completions;
    }

    /** Takes completions into {@link #wcs}, sleeping while there are none; false when the time ran out. */
    private boolean fill() {
        while (true) {
            if (cq.poll(wcs, (int) Math.min(remaining, BATCH)) > 0) {
                next = 0;
                return true;
            }
            next = 0;
            if (waiter != null && !armed) {
                cq.reqNotify(solicitedOnly);
                armed = true;
                continue;
            }
            long left = deadline ? wakeAt - System.nanoTime() : -1;
            if (deadline && left <= 0) {
                timedOut = true;
                remaining = 0;
                return false;
            }
            if (waiter == null) {
                Thread.onSpinWait();
            } else {
                await(left);
            }
        }
    }

    /**
     * Waits up to {@code nanos} (negative: for ever) for the channel, handling asynchronous events;
     * true if the channel signalled this queue.
     */
    private boolean await(long nanos) {
        int ready = waiter.await(nanos);
        if ((ready & EventWaiter.ASYNC_EVENT) != 0) {
            AsyncEvent event = context.getAsyncEvent(Duration.ZERO);
            if (event != null) {
                context.handleAsyncEvent(event);
            }
        }
        if ((ready & EventWaiter.COMPLETION) != 0 && channel.getEvent(Duration.ZERO) == cq) {
            armed = false;
            return true;
        }
        return false;
    }

    /** The one iteration of the poller: its own {@link Iterable} and {@link Iterator}. */
    private final class Completions implements Iterable<Wc>, Iterator<Wc> {
        @Override
        public Iterator<Wc> iterator() {
            return this;
        }

        @Override
        public boolean hasNext() {
            if (remaining == 0) {
                return false;
            }
            return next < wcs.count() || fill();
        }

        @Override
        public Wc next() {
            if (!hasNext()) {
                throw new NoSuchElementException(timedOut ? "the time ran out" : "no completions left to take");
            }
            remaining--;
            return wc.at(next++);
        }
    }
}

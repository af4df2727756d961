package org.jrdma.verbs;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.jrdma.verbs.ffi.IbvCq;

/**
 * A completion queue, {@code struct ibv_cq} ({@code ibv_create_cq}; IBA 10.2.6): where work
 * completions of the queue pairs using it arrive. python-rdma's {@code rdma.ibverbs.CQ}, from
 * {@link Context#cq}; {@link #poll} fills a reusable {@link WcBuffer} instead of returning new
 * objects, and allocates nothing.
 */
public final class Cq extends Resource {
    private final Context context;
    private final CompChannel channel;
    private final IbvCq handle;
    private final AtomicLong compEvents = new AtomicLong();
    /** The lock serialising {@link #pollGuarded} with the queue's destruction ({@link #guardWith}). */
    private final DestroyGuard guard = new DestroyGuard();

    private Cq(Context context, CompChannel channel, IbvCq handle) {
        this.context = context;
        this.channel = channel;
        this.handle = handle;
    }

    /** {@code ibv_create_cq}, registered as a dependent of the context and channel and findable by events. */
    static Cq create(Context context, int cqe, CompChannel channel, int compVector) {
        Cq cq = new Cq(context, channel,
                IbvCq.create(context.handle(), cqe, channel == null ? null : channel.handle(), compVector));
        cq.register(context, channel);
        context.map(cq.handle.address(), cq);
        return cq;
    }

    /**
     * Wraps {@code handle}, a queue {@code ibv_create_cq_ex} made ({@link CqEx}), as {@link #create}
     * wraps one of its own: a dependent of the context and channel, findable by events.
     */
    static Cq adopt(Context context, CompChannel channel, IbvCq handle) {
        Cq cq = new Cq(context, channel, handle);
        cq.register(context, channel);
        context.map(handle.address(), cq);
        return cq;
    }

    /** The context this queue belongs to. */
    public Context context() {
        return context;
    }

    /** The completion channel its events go to, or null. */
    public CompChannel channel() {
        return channel;
    }

    /** How many entries the queue has ({@code cq->cqe}), at least what was asked. */
    public int cqe() {
        checkOpen();
        return handle.cqe();
    }

    /** Changes the queue to at least {@code cqe} entries ({@code ibv_resize_cq}). */
    public void resize(int cqe) {
        checkOpen();
        handle.resize(Args.positiveOrZero("cqe", cqe));
    }

    /**
     * Takes up to {@code wcs.capacity()} completions into {@code wcs} ({@code ibv_poll_cq});
     * {@link WcBuffer#count()} becomes the result. Allocates nothing.
     *
     * @return how many completions were taken, 0 when the queue was empty
     */
    public int poll(WcBuffer wcs) {
        checkOpen();
        int n;
        try {
            n = handle.poll(wcs.array());
        } catch (IllegalStateException e) {
            throw closedDuringCall(e, handle);
        }
        wcs.filled(n);
        return n;
    }

    /**
     * Takes up to {@code max} completions into {@code wcs} ({@code ibv_poll_cq}), leaving any
     * more in the queue: for a caller that wants no more than a number of them.
     * {@link WcBuffer#count()} becomes the result. Allocates nothing.
     *
     * @return how many completions were taken, 0 when the queue was empty
     * @throws IllegalArgumentException unless {@code 1 <= max <= wcs.capacity()}
     */
    public int poll(WcBuffer wcs, int max) {
        if (max < 1 || max > wcs.capacity()) {
            throw new IllegalArgumentException("max must be 1 to " + wcs.capacity() + ", not " + max);
        }
        checkOpen();
        int n;
        try {
            n = handle.poll(wcs.array(), max);
        } catch (IllegalStateException e) {
            throw closedDuringCall(e, handle);
        }
        wcs.filled(n);
        return n;
    }

    /**
     * Has {@code lock} guard this queue: from now on destroying the queue takes {@code lock}
     * (waiting for a guarded poll under way), and {@link #pollGuarded} polls, while the caller
     * holds {@code lock}, without keeping the queue's memory open for the call (on a context
     * shared between threads, that costs two atomic operations a poll). Once per queue.
     *
     * @throws IllegalStateException if the queue is closed or guarded already
     */
    public void guardWith(ReentrantLock lock) {
        checkOpen();
        guard.set(lock, describe());
    }

    /**
     * Takes completions as {@link #poll(WcBuffer)} does, for a caller holding the queue's guard
     * ({@link #guardWith}). Allocates nothing.
     *
     * @throws IllegalStateException if the caller does not hold the guard, or the queue is closed
     */
    public int pollGuarded(WcBuffer wcs) {
        if (!guard.heldByCaller()) {
            throw new IllegalStateException("polling " + describe() + " without holding its guard");
        }
        if (!handle.isOpen()) {
            throw new IllegalStateException(describe() + " is closed");
        }
        int n = handle.pollByAddress(wcs.array());
        wcs.filled(n);
        return n;
    }

    /**
     * Arms the queue to signal its completion channel once, on the next completion, or with
     * {@code solicitedOnly} on the next solicited or error completion ({@code ibv_req_notify_cq}).
     * Allocates nothing.
     */
    public void reqNotify(boolean solicitedOnly) {
        checkOpen();
        try {
            handle.reqNotify(solicitedOnly);
        } catch (IllegalStateException e) {
            throw closedDuringCall(e, handle);
        }
    }

    /**
     * How many completion events its channel has delivered for this queue (each acknowledged
     * with {@code ibv_ack_cq_events} when taken), python-rdma's {@code cq.comp_events}.
     */
    public long compEvents() {
        return compEvents.get();
    }

    /** Counts a completion event its channel delivered. */
    void countEvent() {
        compEvents.incrementAndGet();
    }

    /** The native object, for a queue pair completing on this CQ. */
    IbvCq handle() {
        return handle;
    }

    @Override
    String describe() {
        return "CQ on " + context.deviceName();
    }

    @Override
    void release() {
        guard.destroy(handle::close);
    }

    @Override
    void afterClose() {
        context.unmap(handle.address(), this);
    }
}

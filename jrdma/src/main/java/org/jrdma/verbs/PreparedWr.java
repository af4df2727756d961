package org.jrdma.verbs;

import java.util.Objects;
import org.jrdma.verbs.ffi.WrStaging;

/**
 * A work request copied once into native memory of its own, for a queue that posts the same
 * request, or one differing in a field or two, again and again: {@link #post()} hands that
 * {@code struct ibv_send_wr} or {@code struct ibv_recv_wr} to the provider as it stands, one
 * downcall and no copying, where {@link Qp#postSend(SendWr)} copies the whole request under the
 * queue's lock on every post. The setters change the native copy in place.
 *
 * <p>Made by {@link Qp#prepareSend}, {@link Qp#prepareRecv} or {@link Srq#prepareRecv}, it lives
 * in the queue's memory and is freed with it; posting or changing it after the queue is closed
 * throws {@link IllegalStateException}. Not thread-safe: one thread posts and changes it, or the
 * callers synchronise (the queue itself takes posts from any number of threads). Allocates
 * nothing after it is made.
 *
 * @param <P> the prepared request's type, returned by the setters
 */
public abstract sealed class PreparedWr<P extends PreparedWr<P>> permits PreparedSend, PreparedRecv {
    private final Resource queue;
    private final String call;
    private final int numSge;
    /** The native request, in slot 0. */
    private final WrStaging staging;

    /**
     * Copies {@code wr}, a single request (no {@code next}), into {@code staging} of
     * {@code queue} with {@code stager}, to be posted through {@code call}.
     *
     * @throws IllegalArgumentException when {@code wr} is a chain or has more elements than the queue allows
     */
    <W extends WorkRequest<W>, S extends WrStaging> PreparedWr(Resource queue, S staging,
            WorkRequest.Stager<W, S> stager, String call, W wr) {
        Objects.requireNonNull(wr, "wr");
        if (wr.next() != null) {
            throw new IllegalArgumentException("a prepared work request is one request; post chains as they are");
        }
        if (wr.numSge() > staging.maxSge()) {
            throw new IllegalArgumentException(wr.numSge() + " scatter/gather elements, more than the "
                    + staging.maxSge() + " of " + queue.describe());
        }
        this.queue = queue;
        this.call = call;
        this.numSge = wr.numSge();
        this.staging = staging;
        stager.stage(wr, staging, 0);
    }

    /** This request, as its own type. */
    abstract P self();

    /** Throws unless everything the request refers to is still open; the queue is checked already. */
    void checkReferences() {
    }

    /**
     * Posts the request as it stands ({@code ibv_post_send}, {@code ibv_post_recv} or
     * {@code ibv_post_srq_recv}). Allocates nothing.
     *
     * @throws WrException           when the provider refused it
     * @throws IllegalStateException when the queue is closed
     */
    public final void post() {
        queue.checkOpen();
        checkReferences();
        if (staging.post(1) >= 0) {
            throw new WrException(call, staging.lastError(), 0);
        }
    }

    /**
     * Posts the request as {@link #post()} does, for a caller holding the lock that guards the
     * queue pair ({@link Qp#guardWith}): the queue goes to the provider by address, without the
     * hold on its memory that {@link #post()} takes for the call. Allocates nothing.
     *
     * @throws WrException           when the provider refused it
     * @throws IllegalStateException when the caller does not hold the queue's guard, or the queue is closed
     */
    public final void postGuarded() {
        if (!queue.guardedByCaller()) {
            throw new IllegalStateException(queue.describe() + " is closed, or the caller does not hold its guard");
        }
        checkReferences();
        if (staging.postByAddress(1) >= 0) {
            throw new WrException(call, staging.lastError(), 0);
        }
    }

    /** Sets {@code wr_id}. */
    public final P wrId(long wrId) {
        staging.wrId(0, wrId);
        return self();
    }

    /** Sets scatter/gather element {@code j} (one of those the request was prepared with) to {@code sge}'s values. */
    public final P sge(int j, Sge sge) {
        staging.sge(0, Objects.checkIndex(j, numSge), sge.addr(), sge.length(), sge.lkey());
        return self();
    }

    /**
     * Sets the address of scatter/gather element {@code j}, leaving its length and key: for
     * walking through a buffer.
     */
    public final P sgeAddr(int j, long addr) {
        staging.sgeAddr(0, Objects.checkIndex(j, numSge), addr);
        return self();
    }
}

package org.jrdma.verbs.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * A staging area for {@code ibv_post_recv} (to a queue pair, through {@code ops.post_recv}) or
 * {@code ibv_post_srq_recv} (to a shared receive queue, through {@code ops.post_srq_recv}), which
 * share a signature: a fixed array of {@code struct ibv_recv_wr}, each with its own
 * {@code struct ibv_sge} list. Allocates nothing; not thread-safe (the owner serialises posts).
 */
public final class RecvWrs {
    /** {@code int (*post_recv)(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)}. */
    private static final MethodHandle POST_RECV = Ibv.pointer(FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));

    private static final long WR = Structs.IBV_RECV_WR.byteSize();
    private static final long SGE = Structs.IBV_SGE.byteSize();
    private static final VarHandle WR_ID = Structs.handle(Structs.IBV_RECV_WR, "wr_id");
    private static final VarHandle NUM_SGE = Structs.handle(Structs.IBV_RECV_WR, "num_sge");
    private static final long NEXT = Structs.offset(Structs.IBV_RECV_WR, "next");
    private static final long SG_LIST = Structs.offset(Structs.IBV_RECV_WR, "sg_list");

    private final MemorySegment queue;
    private final MemorySegment postRecv;
    private final MemorySegment wrs;
    private final MemorySegment sges;
    private final MemorySegment badWr;
    private final int capacity;
    private final int maxSge;
    private int lastError;

    /**
     * Room for {@code capacity} work requests of up to {@code maxSge} elements each, in
     * {@code arena}, for posting to {@code queue} (a QP or an SRQ) through {@code postRecv}.
     */
    RecvWrs(Arena arena, MemorySegment queue, MemorySegment postRecv, int capacity, int maxSge) {
        this.queue = queue;
        this.postRecv = postRecv;
        this.capacity = capacity;
        this.maxSge = maxSge;
        this.wrs = arena.allocate(Structs.IBV_RECV_WR, capacity);
        this.sges = arena.allocate(Structs.IBV_SGE, (long) capacity * Math.max(1, maxSge));
        this.badWr = arena.allocate(ADDRESS);
        for (int i = 0; i < capacity; i++) {
            wrs.set(JAVA_LONG, i * WR + SG_LIST, sges.address() + (long) i * maxSge * SGE);
        }
    }

    /** How many work requests one {@link #post} takes at most. */
    public int capacity() {
        return capacity;
    }

    /** How many scatter/gather elements each work request may have. */
    public int maxSge() {
        return maxSge;
    }

    /** Sets work request {@code i}. */
    public void wr(int i, long wrId, int numSge) {
        long base = i * WR;
        WR_ID.set(wrs, base, wrId);
        NUM_SGE.set(wrs, base, numSge);
        wrs.set(JAVA_LONG, base + NEXT, wrs.address() + base + WR);
    }

    /** Sets element {@code j} of work request {@code i}'s scatter/gather list. */
    public void sge(int i, int j, long addr, int length, int lkey) {
        Sges.set(sges, ((long) i * maxSge + j) * SGE, addr, length, lkey);
    }

    /**
     * Posts work requests 0 to {@code count - 1} as one list.
     *
     * @return -1 when all were posted, else the index of the first one that was not, the error
     *         number being {@link #lastError()}
     */
    public int post(int count) {
        wrs.set(JAVA_LONG, (count - 1) * WR + NEXT, 0L);
        int rc;
        try {
            rc = (int) POST_RECV.invokeExact(postRecv, queue, wrs, badWr);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
        if (rc == 0) {
            return -1;
        }
        lastError = rc;
        return Sges.badIndex(badWr, wrs, WR, count);
    }

    /** The error number of the last failed {@link #post}, as the provider returned it. */
    public int lastError() {
        return lastError;
    }
}

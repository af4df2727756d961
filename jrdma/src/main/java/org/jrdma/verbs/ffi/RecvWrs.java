package org.jrdma.verbs.ffi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

/**
 * A staging area for {@code ibv_post_recv} (to a queue pair, through {@code ops.post_recv}) or
 * {@code ibv_post_srq_recv} (to a shared receive queue, through {@code ops.post_srq_recv}), which
 * share a signature: {@code struct ibv_recv_wr} requests.
 */
public final class RecvWrs extends WrStaging {
    private static final VarHandle WR_ID = Structs.handle(Structs.IBV_RECV_WR, "wr_id");
    private static final VarHandle NUM_SGE = Structs.handle(Structs.IBV_RECV_WR, "num_sge");

    /**
     * Room for {@code capacity} work requests of up to {@code maxSge} elements each, in
     * {@code arena}, for posting to {@code queue} (a QP or an SRQ) through {@code postRecv}.
     */
    RecvWrs(Arena arena, MemorySegment queue, MemorySegment postRecv, int capacity, int maxSge) {
        super(arena, Structs.IBV_RECV_WR, queue, postRecv, capacity, maxSge);
    }

    /** Sets work request {@code i}. */
    public void wr(int i, long wrId, int numSge) {
        long base = link(i);
        WR_ID.set(wrs, base, wrId);
        NUM_SGE.set(wrs, base, numSge);
    }
}

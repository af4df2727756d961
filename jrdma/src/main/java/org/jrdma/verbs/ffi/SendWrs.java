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
 * A queue pair's staging area for {@code ibv_post_send}: a fixed array of
 * {@code struct ibv_send_wr}, each with its own {@code struct ibv_sge} list, filled field by field
 * and posted as one linked list through {@code context->ops.post_send}. Allocates nothing; not
 * thread-safe (the queue pair serialises posts).
 */
public final class SendWrs {
    /** {@code int (*post_send)(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr)}. */
    private static final MethodHandle POST_SEND = Ibv.pointer(FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));

    private static final long WR = Structs.IBV_SEND_WR.byteSize();
    private static final long SGE = Structs.IBV_SGE.byteSize();
    private static final VarHandle WR_ID = Structs.handle(Structs.IBV_SEND_WR, "wr_id");
    private static final VarHandle NUM_SGE = Structs.handle(Structs.IBV_SEND_WR, "num_sge");
    private static final VarHandle OPCODE = Structs.handle(Structs.IBV_SEND_WR, "opcode");
    private static final VarHandle SEND_FLAGS = Structs.handle(Structs.IBV_SEND_WR, "send_flags");
    private static final VarHandle IMM_DATA = Structs.handle(Structs.IBV_SEND_WR, "imm_data");
    private static final VarHandle RDMA_REMOTE_ADDR = Structs.handle(Structs.IBV_SEND_WR, "wr.rdma.remote_addr");
    private static final VarHandle RDMA_RKEY = Structs.handle(Structs.IBV_SEND_WR, "wr.rdma.rkey");
    private static final VarHandle ATOMIC_REMOTE_ADDR = Structs.handle(Structs.IBV_SEND_WR, "wr.atomic.remote_addr");
    private static final VarHandle ATOMIC_COMPARE_ADD = Structs.handle(Structs.IBV_SEND_WR, "wr.atomic.compare_add");
    private static final VarHandle ATOMIC_SWAP = Structs.handle(Structs.IBV_SEND_WR, "wr.atomic.swap");
    private static final VarHandle ATOMIC_RKEY = Structs.handle(Structs.IBV_SEND_WR, "wr.atomic.rkey");
    private static final VarHandle UD_REMOTE_QPN = Structs.handle(Structs.IBV_SEND_WR, "wr.ud.remote_qpn");
    private static final VarHandle UD_REMOTE_QKEY = Structs.handle(Structs.IBV_SEND_WR, "wr.ud.remote_qkey");
    /** Pointers are written as 64-bit integers (x86-64), so that no segment is made per post. */
    private static final long NEXT = Structs.offset(Structs.IBV_SEND_WR, "next");
    private static final long SG_LIST = Structs.offset(Structs.IBV_SEND_WR, "sg_list");
    private static final long UD_AH = Structs.offset(Structs.IBV_SEND_WR, "wr.ud.ah");

    private final MemorySegment qp;
    private final MemorySegment postSend;
    private final MemorySegment wrs;
    private final MemorySegment sges;
    private final MemorySegment badWr;
    private final int capacity;
    private final int maxSge;
    private int lastError;

    /**
     * Room for {@code capacity} work requests of up to {@code maxSge} elements each, in
     * {@code arena}, for posting to {@code qp} through {@code postSend}.
     */
    SendWrs(Arena arena, MemorySegment qp, MemorySegment postSend, int capacity, int maxSge) {
        this.qp = qp;
        this.postSend = postSend;
        this.capacity = capacity;
        this.maxSge = maxSge;
        this.wrs = arena.allocate(Structs.IBV_SEND_WR, capacity);
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

    /** Sets the common fields of work request {@code i}; {@code immData} in host order. */
    public void wr(int i, long wrId, int opcode, int sendFlags, int immData, int numSge) {
        long base = i * WR;
        WR_ID.set(wrs, base, wrId);
        OPCODE.set(wrs, base, opcode);
        SEND_FLAGS.set(wrs, base, sendFlags);
        IMM_DATA.set(wrs, base, immData);
        NUM_SGE.set(wrs, base, numSge);
        wrs.set(JAVA_LONG, base + NEXT, wrs.address() + base + WR);
    }

    /** Sets {@code wr.rdma} of work request {@code i}. */
    public void rdma(int i, long remoteAddr, int rkey) {
        long base = i * WR;
        RDMA_REMOTE_ADDR.set(wrs, base, remoteAddr);
        RDMA_RKEY.set(wrs, base, rkey);
    }

    /** Sets {@code wr.atomic} of work request {@code i}. */
    public void atomic(int i, long remoteAddr, int rkey, long compareAdd, long swap) {
        long base = i * WR;
        ATOMIC_REMOTE_ADDR.set(wrs, base, remoteAddr);
        ATOMIC_COMPARE_ADD.set(wrs, base, compareAdd);
        ATOMIC_SWAP.set(wrs, base, swap);
        ATOMIC_RKEY.set(wrs, base, rkey);
    }

    /** Sets {@code wr.ud} of work request {@code i}: the {@code struct ibv_ah} address and the destination. */
    public void ud(int i, long ah, int remoteQpn, int remoteQkey) {
        long base = i * WR;
        wrs.set(JAVA_LONG, base + UD_AH, ah);
        UD_REMOTE_QPN.set(wrs, base, remoteQpn);
        UD_REMOTE_QKEY.set(wrs, base, remoteQkey);
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
            rc = (int) POST_SEND.invokeExact(postSend, qp, wrs, badWr);
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

package org.jrdma.verbs.ffi;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

/**
 * A queue pair's staging area for {@code ibv_post_send} (through {@code context->ops.post_send}):
 * {@code struct ibv_send_wr} requests with their {@code wr} union.
 */
public final class SendWrs extends WrStaging {
    private static final long WR = Structs.IBV_SEND_WR.byteSize();
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
    private static final long UD_AH = Structs.offset(Structs.IBV_SEND_WR, "wr.ud.ah");

    /**
     * Room for {@code capacity} work requests of up to {@code maxSge} elements each, in
     * {@code arena}, for posting to {@code qp} through {@code postSend}.
     */
    SendWrs(Arena arena, MemorySegment qp, MemorySegment postSend, int capacity, int maxSge) {
        super(arena, Structs.IBV_SEND_WR, qp, postSend, capacity, maxSge);
    }

    /** Sets the common fields of work request {@code i}; {@code immData} in host order. */
    public void wr(int i, long wrId, int opcode, int sendFlags, int immData, int numSge) {
        long base = link(i);
        WR_ID.set(wrs, base, wrId);
        OPCODE.set(wrs, base, opcode);
        SEND_FLAGS.set(wrs, base, sendFlags);
        IMM_DATA.set(wrs, base, immData);
        NUM_SGE.set(wrs, base, numSge);
    }

    /** {@code send_flags} of work request {@code i}. */
    public int sendFlags(int i) {
        return (int) SEND_FLAGS.get(wrs, i * WR);
    }

    /** Sets {@code send_flags} of work request {@code i}. */
    public void sendFlags(int i, int sendFlags) {
        SEND_FLAGS.set(wrs, i * WR, sendFlags);
    }

    /** Sets {@code imm_data} of work request {@code i}, in host order. */
    public void immData(int i, int immData) {
        IMM_DATA.set(wrs, i * WR, immData);
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
}

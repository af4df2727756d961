package org.jrdma.verbs.ffi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

/**
 * An array of {@code struct ibv_wc} that {@code ibv_poll_cq} fills, read in place: no
 * allocation per completion. The memory is freed when the array becomes unreachable.
 */
public final class WcArray {
    private static final long WC = Structs.IBV_WC.byteSize();
    private static final VarHandle WR_ID = Structs.handle(Structs.IBV_WC, "wr_id");
    private static final VarHandle STATUS = Structs.handle(Structs.IBV_WC, "status");
    private static final VarHandle OPCODE = Structs.handle(Structs.IBV_WC, "opcode");
    private static final VarHandle VENDOR_ERR = Structs.handle(Structs.IBV_WC, "vendor_err");
    private static final VarHandle BYTE_LEN = Structs.handle(Structs.IBV_WC, "byte_len");
    private static final VarHandle IMM_DATA = Structs.handle(Structs.IBV_WC, "imm_data");
    private static final VarHandle INVALIDATED_RKEY = Structs.handle(Structs.IBV_WC, "invalidated_rkey");
    private static final VarHandle QP_NUM = Structs.handle(Structs.IBV_WC, "qp_num");
    private static final VarHandle SRC_QP = Structs.handle(Structs.IBV_WC, "src_qp");
    private static final VarHandle WC_FLAGS = Structs.handle(Structs.IBV_WC, "wc_flags");
    private static final VarHandle PKEY_INDEX = Structs.handle(Structs.IBV_WC, "pkey_index");
    private static final VarHandle SLID = Structs.handle(Structs.IBV_WC, "slid");
    private static final VarHandle SL = Structs.handle(Structs.IBV_WC, "sl");
    private static final VarHandle DLID_PATH_BITS = Structs.handle(Structs.IBV_WC, "dlid_path_bits");

    /** The {@code struct ibv_wc} array. */
    final MemorySegment wcs;
    /** Its number of elements. */
    final int capacity;

    /** Room for {@code capacity} completions, at least 1. */
    public WcArray(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a completion array needs room for at least 1, not " + capacity);
        }
        this.capacity = capacity;
        this.wcs = Arena.ofAuto().allocate(Structs.IBV_WC, capacity);
    }

    /** {@code wc[i].wr_id}. */
    public long wrId(int i) {
        return (long) WR_ID.get(wcs, i * WC);
    }

    /** {@code wc[i].status}. */
    public int status(int i) {
        return (int) STATUS.get(wcs, i * WC);
    }

    /** {@code wc[i].opcode}. */
    public int opcode(int i) {
        return (int) OPCODE.get(wcs, i * WC);
    }

    /** {@code wc[i].vendor_err}. */
    public int vendorErr(int i) {
        return (int) VENDOR_ERR.get(wcs, i * WC);
    }

    /** {@code wc[i].byte_len}. */
    public int byteLen(int i) {
        return (int) BYTE_LEN.get(wcs, i * WC);
    }

    /** {@code wc[i].imm_data}, converted from network byte order. */
    public int immData(int i) {
        return (int) IMM_DATA.get(wcs, i * WC);
    }

    /** {@code wc[i].invalidated_rkey}. */
    public int invalidatedRkey(int i) {
        return (int) INVALIDATED_RKEY.get(wcs, i * WC);
    }

    /** {@code wc[i].qp_num}. */
    public int qpNum(int i) {
        return (int) QP_NUM.get(wcs, i * WC);
    }

    /** {@code wc[i].src_qp}. */
    public int srcQp(int i) {
        return (int) SRC_QP.get(wcs, i * WC);
    }

    /** {@code wc[i].wc_flags}. */
    public int wcFlags(int i) {
        return (int) WC_FLAGS.get(wcs, i * WC);
    }

    /** {@code wc[i].pkey_index}. */
    public int pkeyIndex(int i) {
        return Short.toUnsignedInt((short) PKEY_INDEX.get(wcs, i * WC));
    }

    /** {@code wc[i].slid}. */
    public int slid(int i) {
        return Short.toUnsignedInt((short) SLID.get(wcs, i * WC));
    }

    /** {@code wc[i].sl}. */
    public int sl(int i) {
        return Byte.toUnsignedInt((byte) SL.get(wcs, i * WC));
    }

    /** {@code wc[i].dlid_path_bits}. */
    public int dlidPathBits(int i) {
        return Byte.toUnsignedInt((byte) DLID_PATH_BITS.get(wcs, i * WC));
    }
}

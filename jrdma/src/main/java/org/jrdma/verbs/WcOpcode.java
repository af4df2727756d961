package org.jrdma.verbs;

/**
 * What a successful work completion completed, {@code enum ibv_wc_opcode}: a send queue
 * operation, or (from {@link #RECV} on, values with bit 7 set) a receive.
 */
public enum WcOpcode {
    /** {@code IBV_WC_SEND}. */
    SEND(0),
    /** {@code IBV_WC_RDMA_WRITE}. */
    RDMA_WRITE(1),
    /** {@code IBV_WC_RDMA_READ}. */
    RDMA_READ(2),
    /** {@code IBV_WC_COMP_SWAP}: atomic compare and swap. */
    COMP_SWAP(3),
    /** {@code IBV_WC_FETCH_ADD}: atomic fetch and add. */
    FETCH_ADD(4),
    /** {@code IBV_WC_BIND_MW}. */
    BIND_MW(5),
    /** {@code IBV_WC_LOCAL_INV}. */
    LOCAL_INV(6),
    /** {@code IBV_WC_TSO}. */
    TSO(7),
    /** {@code IBV_WC_ATOMIC_WRITE}. */
    ATOMIC_WRITE(9),
    /** {@code IBV_WC_RECV}: a SEND arrived. */
    RECV(128),
    /** {@code IBV_WC_RECV_RDMA_WITH_IMM}: an RDMA write with immediate consumed a receive. */
    RECV_RDMA_WITH_IMM(129),
    /** {@code IBV_WC_TM_ADD}. */
    TM_ADD(130),
    /** {@code IBV_WC_TM_DEL}. */
    TM_DEL(131),
    /** {@code IBV_WC_TM_SYNC}. */
    TM_SYNC(132),
    /** {@code IBV_WC_TM_RECV}. */
    TM_RECV(133),
    /** {@code IBV_WC_TM_NO_TAG}. */
    TM_NO_TAG(134),
    /** {@code IBV_WC_DRIVER1}. */
    DRIVER1(135),
    /** {@code IBV_WC_DRIVER2}. */
    DRIVER2(136),
    /** {@code IBV_WC_DRIVER3}. */
    DRIVER3(137);

    private static final WcOpcode[] BY_VALUE = new WcOpcode[256];

    static {
        for (WcOpcode opcode : values()) {
            BY_VALUE[opcode.value] = opcode;
        }
    }

    private final int value;

    WcOpcode(int value) {
        this.value = value;
    }

    /** The {@code enum ibv_wc_opcode} number. */
    public int value() {
        return value;
    }

    /** Whether this completes a receive work request (bit 7, {@code IBV_WC_RECV}). */
    public boolean isRecv() {
        return (value & RECV.value) != 0;
    }

    /**
     * The opcode numbered {@code value}.
     *
     * @throws IllegalArgumentException for a number verbs.h does not define
     */
    public static WcOpcode fromValue(int value) {
        WcOpcode opcode = value >= 0 && value < BY_VALUE.length ? BY_VALUE[value] : null;
        if (opcode == null) {
            throw new IllegalArgumentException("unknown ibv_wc_opcode " + value);
        }
        return opcode;
    }
}

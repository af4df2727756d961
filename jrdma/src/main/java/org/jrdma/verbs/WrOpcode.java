package org.jrdma.verbs;

/**
 * The operation of a send work request, {@code enum ibv_wr_opcode} (IBA 10.7.2.2): the ones a
 * {@link SendWr} carries the fields for.
 */
public enum WrOpcode {
    /** {@code IBV_WR_RDMA_WRITE}: write the local buffers to remote memory. */
    RDMA_WRITE(0),
    /** {@code IBV_WR_RDMA_WRITE_WITH_IMM}: the same, also consuming a remote receive with the immediate data. */
    RDMA_WRITE_WITH_IMM(1),
    /** {@code IBV_WR_SEND}: send the local buffers to the remote receive queue. */
    SEND(2),
    /** {@code IBV_WR_SEND_WITH_IMM}: the same, with 32 bits of immediate data. */
    SEND_WITH_IMM(3),
    /** {@code IBV_WR_RDMA_READ}: read remote memory into the local buffers. */
    RDMA_READ(4),
    /** {@code IBV_WR_ATOMIC_CMP_AND_SWP}: 64-bit compare and swap on remote memory. */
    ATOMIC_CMP_AND_SWP(5),
    /** {@code IBV_WR_ATOMIC_FETCH_AND_ADD}: 64-bit fetch and add on remote memory. */
    ATOMIC_FETCH_AND_ADD(6);

    private final int value;

    WrOpcode(int value) {
        this.value = value;
    }

    /** The {@code enum ibv_wr_opcode} number. */
    public int value() {
        return value;
    }

    /** Whether the request uses {@code wr.rdma}: RDMA write and read. */
    boolean isRdma() {
        return this == RDMA_WRITE || this == RDMA_WRITE_WITH_IMM || this == RDMA_READ;
    }

    /** Whether the request uses {@code wr.atomic}. */
    boolean isAtomic() {
        return this == ATOMIC_CMP_AND_SWP || this == ATOMIC_FETCH_AND_ADD;
    }
}

package org.jrdma.verbs;

/**
 * The work requests an extended queue pair ({@link QpEx}) may build,
 * {@code enum ibv_qp_create_send_ops_flags}: given at creation ({@code send_ops_flags}).
 */
public final class SendOps {
    /** {@code IBV_QP_EX_WITH_RDMA_WRITE}. */
    public static final int RDMA_WRITE = 1;
    /** {@code IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM}. */
    public static final int RDMA_WRITE_WITH_IMM = 1 << 1;
    /** {@code IBV_QP_EX_WITH_SEND}. */
    public static final int SEND = 1 << 2;
    /** {@code IBV_QP_EX_WITH_SEND_WITH_IMM}. */
    public static final int SEND_WITH_IMM = 1 << 3;
    /** {@code IBV_QP_EX_WITH_RDMA_READ}. */
    public static final int RDMA_READ = 1 << 4;
    /** {@code IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP}. */
    public static final int ATOMIC_CMP_AND_SWP = 1 << 5;
    /** {@code IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD}. */
    public static final int ATOMIC_FETCH_AND_ADD = 1 << 6;
    /** {@code IBV_QP_EX_WITH_LOCAL_INV}. */
    public static final int LOCAL_INV = 1 << 7;
    /** {@code IBV_QP_EX_WITH_BIND_MW}. */
    public static final int BIND_MW = 1 << 8;
    /** {@code IBV_QP_EX_WITH_SEND_WITH_INV}. */
    public static final int SEND_WITH_INV = 1 << 9;
    /** {@code IBV_QP_EX_WITH_TSO}. */
    public static final int TSO = 1 << 10;

    private SendOps() {
    }
}

package org.jrdma.verbs;

/**
 * The state of a queue pair, {@code enum ibv_qp_state} (IBA 10.3.1, the QP state machine of
 * figure 124): RESET → INIT → RTR → RTS, with SQD, SQE and ERR beside.
 */
public enum QpState {
    /** {@code IBV_QPS_RESET}: just created, or reset; nothing is processed. */
    RESET,
    /** {@code IBV_QPS_INIT}: receive requests may be posted, none is processed. */
    INIT,
    /** {@code IBV_QPS_RTR}: ready to receive. */
    RTR,
    /** {@code IBV_QPS_RTS}: ready to send. */
    RTS,
    /** {@code IBV_QPS_SQD}: send queue drained. */
    SQD,
    /** {@code IBV_QPS_SQE}: send queue error. */
    SQE,
    /** {@code IBV_QPS_ERR}: error; outstanding requests complete with a flush error. */
    ERR,
    /** {@code IBV_QPS_UNKNOWN}. */
    UNKNOWN;

    private static final QpState[] VALUES = values();

    /** The {@code enum ibv_qp_state} number: the ordinal. */
    public int value() {
        return ordinal();
    }

    /**
     * The state numbered {@code value}.
     *
     * @throws IllegalArgumentException if {@code value} is not 0 to 7
     */
    public static QpState fromValue(int value) {
        if (value < 0 || value >= VALUES.length) {
            throw new IllegalArgumentException("ibv_qp_state " + value + " is not 0 to 7");
        }
        return VALUES[value];
    }
}

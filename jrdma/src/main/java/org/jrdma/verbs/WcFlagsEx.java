package org.jrdma.verbs;

/**
 * The fields an extended completion queue ({@link CqEx}) reports beyond {@code wr_id} and
 * {@code status}, {@code enum ibv_create_cq_wc_flags}: asked for at creation, each read by its
 * {@code ibv_wc_read_*}.
 */
public final class WcFlagsEx {
    /** {@code IBV_WC_EX_WITH_BYTE_LEN}: {@link CqEx#byteLen()}. */
    public static final int BYTE_LEN = 1;
    /** {@code IBV_WC_EX_WITH_IMM}: {@link CqEx#immData()} and {@link CqEx#invalidatedRkey()}. */
    public static final int IMM = 1 << 1;
    /** {@code IBV_WC_EX_WITH_QP_NUM}: {@link CqEx#qpNum()}. */
    public static final int QP_NUM = 1 << 2;
    /** {@code IBV_WC_EX_WITH_SRC_QP}: {@link CqEx#srcQp()}. */
    public static final int SRC_QP = 1 << 3;
    /** {@code IBV_WC_EX_WITH_SLID}: {@link CqEx#slid()}. */
    public static final int SLID = 1 << 4;
    /** {@code IBV_WC_EX_WITH_SL}: {@link CqEx#sl()}. */
    public static final int SL = 1 << 5;
    /** {@code IBV_WC_EX_WITH_DLID_PATH_BITS}: {@link CqEx#dlidPathBits()}. */
    public static final int DLID_PATH_BITS = 1 << 6;
    /** {@code IBV_WC_EX_WITH_COMPLETION_TIMESTAMP}: {@link CqEx#completionTs()}. */
    public static final int COMPLETION_TIMESTAMP = 1 << 7;
    /** {@code IBV_WC_EX_WITH_CVLAN}: {@link CqEx#cvlan()}. */
    public static final int CVLAN = 1 << 8;
    /** {@code IBV_WC_EX_WITH_FLOW_TAG}: {@link CqEx#flowTag()}. */
    public static final int FLOW_TAG = 1 << 9;
    /** {@code IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK}: {@link CqEx#completionWallclockNs()}. */
    public static final int COMPLETION_TIMESTAMP_WALLCLOCK = 1 << 11;

    private WcFlagsEx() {
    }
}

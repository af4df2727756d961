package org.jrdma.verbs;

/**
 * The status of a work completion, {@code enum ibv_wc_status} (IBA 10.7.3.1 and 11.4.2.1), with
 * the text of {@code ibv_wc_status_str}.
 */
public enum WcStatus {
    /** {@code IBV_WC_SUCCESS}. */
    SUCCESS("success"),
    /** {@code IBV_WC_LOC_LEN_ERR}: a received message did not fit the receive buffers. */
    LOC_LEN_ERR("local length error"),
    /** {@code IBV_WC_LOC_QP_OP_ERR}: an internal QP consistency error, such as too much inline data. */
    LOC_QP_OP_ERR("local QP operation error"),
    /** {@code IBV_WC_LOC_EEC_OP_ERR}. */
    LOC_EEC_OP_ERR("local EE context operation error"),
    /** {@code IBV_WC_LOC_PROT_ERR}: a local buffer is not in a registered region with the right access. */
    LOC_PROT_ERR("local protection error"),
    /** {@code IBV_WC_WR_FLUSH_ERR}: the QP was in the error state; the request was not processed. */
    WR_FLUSH_ERR("Work Request Flushed Error"),
    /** {@code IBV_WC_MW_BIND_ERR}. */
    MW_BIND_ERR("memory management operation error"),
    /** {@code IBV_WC_BAD_RESP_ERR}. */
    BAD_RESP_ERR("bad response error"),
    /** {@code IBV_WC_LOC_ACCESS_ERR}. */
    LOC_ACCESS_ERR("local access error"),
    /** {@code IBV_WC_REM_INV_REQ_ERR}: the responder found the request invalid. */
    REM_INV_REQ_ERR("remote invalid request error"),
    /** {@code IBV_WC_REM_ACCESS_ERR}: the responder refused access: wrong rkey, range or rights. */
    REM_ACCESS_ERR("remote access error"),
    /** {@code IBV_WC_REM_OP_ERR}: the responder could not complete the operation. */
    REM_OP_ERR("remote operation error"),
    /** {@code IBV_WC_RETRY_EXC_ERR}: no acknowledgement after {@code retry_cnt} retries. */
    RETRY_EXC_ERR("transport retry counter exceeded"),
    /** {@code IBV_WC_RNR_RETRY_EXC_ERR}: the responder had no receive posted, {@code rnr_retry} times. */
    RNR_RETRY_EXC_ERR("RNR retry counter exceeded"),
    /** {@code IBV_WC_LOC_RDD_VIOL_ERR}. */
    LOC_RDD_VIOL_ERR("local RDD violation error"),
    /** {@code IBV_WC_REM_INV_RD_REQ_ERR}. */
    REM_INV_RD_REQ_ERR("remote invalid RD request"),
    /** {@code IBV_WC_REM_ABORT_ERR}. */
    REM_ABORT_ERR("aborted error"),
    /** {@code IBV_WC_INV_EECN_ERR}. */
    INV_EECN_ERR("invalid EE context number"),
    /** {@code IBV_WC_INV_EEC_STATE_ERR}. */
    INV_EEC_STATE_ERR("invalid EE context state"),
    /** {@code IBV_WC_FATAL_ERR}. */
    FATAL_ERR("fatal error"),
    /** {@code IBV_WC_RESP_TIMEOUT_ERR}. */
    RESP_TIMEOUT_ERR("response timeout error"),
    /** {@code IBV_WC_GENERAL_ERR}. */
    GENERAL_ERR("general error"),
    /** {@code IBV_WC_TM_ERR}: tag matching error. */
    TM_ERR("TM error"),
    /** {@code IBV_WC_TM_RNDV_INCOMPLETE}: tag matching rendezvous left to software. */
    TM_RNDV_INCOMPLETE("TM software rendezvous");

    private static final WcStatus[] VALUES = values();

    private final String text;

    WcStatus(String text) {
        this.text = text;
    }

    /** The {@code enum ibv_wc_status} number: the ordinal. */
    public int value() {
        return ordinal();
    }

    /** The text {@code ibv_wc_status_str} gives. */
    public String text() {
        return text;
    }

    /**
     * The status numbered {@code value}.
     *
     * @throws IllegalArgumentException for a number verbs.h does not define
     */
    public static WcStatus fromValue(int value) {
        if (value < 0 || value >= VALUES.length) {
            throw new IllegalArgumentException("unknown ibv_wc_status " + value);
        }
        return VALUES[value];
    }
}

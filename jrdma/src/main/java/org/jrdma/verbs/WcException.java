package org.jrdma.verbs;

import java.util.Objects;
import org.jrdma.RdmaException;

/**
 * A work completion came back with an error status ({@code ibv_wc.status} other than
 * {@code IBV_WC_SUCCESS}; IBA 11.4): the work request it completes failed, and the queue
 * pair has usually moved to the error state; python-rdma's {@code rdma.ibverbs.WCError}.
 */
public final class WcException extends RdmaException {
    private static final long serialVersionUID = 1L;

    private final int status;
    private final String statusText;
    private final int qpNum;
    private final long wrId;

    /**
     * A completion with error status {@code status} ({@code enum ibv_wc_status}), described by
     * {@code statusText} ({@code ibv_wc_status_str}), for queue pair {@code qpNum}, completing
     * the work request {@code wrId}.
     */
    public WcException(int status, String statusText, int qpNum, long wrId) {
        super(String.format("Work completion error: %s (status %d) on QP 0x%06x, wr_id 0x%x",
                Objects.requireNonNull(statusText, "statusText"), status, qpNum, wrId));
        this.status = status;
        this.statusText = statusText;
        this.qpNum = qpNum;
        this.wrId = wrId;
    }

    /** The {@code ibv_wc_status} number, for example 5 for {@code IBV_WC_WR_FLUSH_ERR}. */
    public int status() {
        return status;
    }

    /** The text of the status, for example {@code Work Request Flushed Error}. */
    public String statusText() {
        return statusText;
    }

    /** The number of the queue pair the completion belongs to. */
    public int qpNum() {
        return qpNum;
    }

    /** The {@code wr_id} of the work request that failed. */
    public long wrId() {
        return wrId;
    }
}

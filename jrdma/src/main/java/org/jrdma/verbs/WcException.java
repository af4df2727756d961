package org.jrdma.verbs;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import org.jrdma.RdmaException;

/**
 * A work completion came back with an error status ({@code ibv_wc.status} other than
 * {@code IBV_WC_SUCCESS}; IBA 11.4): the work request it completes failed, and the queue
 * pair has usually moved to the error state; python-rdma's {@code rdma.ibverbs.WCError}.
 * Made by {@link WcBuffer#check(int, Cq, String)}, it carries what {@code WCError(wc, cq, obj,
 * msg, is_rq)} does: the CQ, the queue pair or SRQ, whether the receive queue failed, the opcode
 * and a message.
 */
public final class WcException extends RdmaException {
    private static final long serialVersionUID = 1L;

    private final int status;
    private final String statusText;
    private final int qpNum;
    private final long wrId;
    private final int opcode;
    private final transient Cq cq;
    private final transient RecvQueue queue;
    private final Boolean isRq;
    private final String detail;

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
        this.opcode = -1;
        this.cq = null;
        this.queue = null;
        this.isRq = null;
        this.detail = null;
    }

    /**
     * A completion with error status {@code status} described by {@code statusText}, for queue
     * pair {@code qpNum}, completing {@code wrId}, with what the catcher needs to find the failed
     * queue: python-rdma's {@code WCError(wc, cq, obj, msg, is_rq)}.
     *
     * @param opcode  the completion's {@code ibv_wc_opcode} value, -1 if unknown (devices need
     *                not report it in an error completion)
     * @param cq      the CQ the completion was taken from, or null
     * @param queue   the queue pair, or the SRQ of a receive on one, or null if unknown
     * @param isRq    true if the receive queue failed, false if the send queue, null if unknown
     * @param message what the code that found the error adds, or null
     */
    public WcException(int status, String statusText, int qpNum, long wrId, int opcode, Cq cq, RecvQueue queue, Boolean isRq,
            String message) {
        super(String.format("Work completion error: %s (status %d) on %s%s, wr_id 0x%x%s%s%s",
                Objects.requireNonNull(statusText, "statusText"), status,
                isRq == null ? "" : isRq ? "the receive queue of " : "the send queue of ",
                queue != null ? queue.toString() : String.format("QP 0x%06x", qpNum), wrId,
                opcode >= 0 ? ", opcode " + opcode : "", cq != null ? ", from " + cq : "",
                message != null ? ": " + message : ""));
        this.status = status;
        this.statusText = statusText;
        this.qpNum = qpNum;
        this.wrId = wrId;
        this.opcode = opcode;
        this.cq = cq;
        this.queue = queue;
        this.isRq = isRq;
        this.detail = message;
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

    /**
     * The completion's {@code ibv_wc_opcode} value as the device reported it, the seed's
     * {@code wc.opcode}; empty if not given. Verbs defines it for successful completions only: a
     * device may leave any value in an error completion (rxe leaves 0).
     */
    public OptionalInt opcode() {
        return opcode < 0 ? OptionalInt.empty() : OptionalInt.of(opcode);
    }

    /** The completion queue the completion came from, the seed's {@code cq}; empty if not given. */
    public Optional<Cq> cq() {
        return Optional.ofNullable(cq);
    }

    /**
     * The queue whose work request failed, the seed's {@code obj}: the queue pair, or the SRQ of a
     * receive on one; empty if unknown.
     */
    public Optional<RecvQueue> queue() {
        return Optional.ofNullable(queue);
    }

    /**
     * The seed's {@code is_rq}: true if the completion is known to be of the receive queue, false
     * if of the send queue, empty if unknown.
     */
    public Optional<Boolean> isRq() {
        return Optional.ofNullable(isRq);
    }

    /** The message the code that found the error added, the seed's {@code msg}; empty if none. */
    public Optional<String> detail() {
        return Optional.ofNullable(detail);
    }
}

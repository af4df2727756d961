package org.jrdma.verbs;

import java.util.Objects;
import org.jrdma.verbs.ffi.WcArray;

/**
 * Reusable storage for work completions, an array of {@code struct ibv_wc} (IBA 11.4.2.1 Poll
 * for Completion) that {@link Cq#poll} fills and whose fields are read in place by index: no
 * object per completion. Completion {@code i} is valid for {@code 0 <= i < count()} until the
 * next poll into this buffer. Apart from {@link #wrId}, {@link #status}, {@link #qpNum} and
 * {@link #vendorErr}, fields are defined only for successful completions. Not thread-safe: one
 * buffer per polling thread.
 *
 * <pre>{@code
 * WcBuffer wcs = new WcBuffer(16);
 * int n = cq.poll(wcs);
 * for (int i = 0; i < n; i++) {
 *     wcs.check(i);                     // WcException unless SUCCESS
 *     handle(wcs.wrId(i), wcs.byteLen(i));
 * }
 * }</pre>
 */
public final class WcBuffer {
    /** {@code IBV_WC_GRH}: a UD receive buffer starts with the 40-byte GRH. */
    public static final int GRH = 1;
    /** {@code IBV_WC_WITH_IMM}: {@link #immData} is valid. */
    public static final int WITH_IMM = 1 << 1;
    /** {@code IBV_WC_IP_CSUM_OK}: the device checked the IP checksum. */
    public static final int IP_CSUM_OK = 1 << 2;
    /** {@code IBV_WC_WITH_INV}: the sender invalidated a remote key. */
    public static final int WITH_INV = 1 << 3;

    private final WcArray wcs;
    private final int capacity;
    private int count;

    /** Room for {@code capacity} completions per poll, at least 1. */
    public WcBuffer(int capacity) {
        this.wcs = new WcArray(capacity);
        this.capacity = capacity;
    }

    /** How many completions one poll may take. */
    public int capacity() {
        return capacity;
    }

    /** How many completions the last poll took. */
    public int count() {
        return count;
    }

    /** The native completions, for {@link Cq#poll}. */
    WcArray array() {
        return wcs;
    }

    /** Records that the last poll took {@code n} completions. */
    void filled(int n) {
        this.count = n;
    }

    /** {@code wr_id} of completion {@code i}: the work request's. */
    public long wrId(int i) {
        return wcs.wrId(Objects.checkIndex(i, count));
    }

    /** {@code status} of completion {@code i}. */
    public WcStatus status(int i) {
        return WcStatus.fromValue(wcs.status(Objects.checkIndex(i, count)));
    }

    /** Whether completion {@code i} succeeded. */
    public boolean isSuccess(int i) {
        return wcs.status(Objects.checkIndex(i, count)) == 0;
    }

    /**
     * Throws unless completion {@code i} succeeded.
     *
     * @throws WcException with the decoded status, the queue pair and the {@code wr_id}
     */
    public void check(int i) {
        if (!isSuccess(i)) {
            WcStatus status = status(i);
            throw new WcException(status.value(), status.text(), qpNum(i), wrId(i));
        }
    }

    /**
     * Throws unless completion {@code i}, taken from {@code cq}, succeeded, as python-rdma's
     * {@code raise WCError(wc, cq, msg=message)}: the exception names the CQ, the queue pair (the
     * SRQ for a receive on one) found by number in the CQ's context, whether the send or receive
     * queue failed (known when the queue pair completes them on different CQs), and the opcode.
     *
     * @param message what to add to the exception's message, or null
     * @throws WcException if the completion has an error status
     */
    public void check(int i, Cq cq, String message) {
        Objects.requireNonNull(cq, "cq");
        if (isSuccess(i)) {
            return;
        }
        WcStatus status = status(i);
        Qp qp = cq.context().qp(qpNum(i));
        Boolean isRq = null;
        if (qp != null && qp.sendCq() != qp.recvCq()) {
            isRq = cq == qp.recvCq() ? Boolean.TRUE : cq == qp.sendCq() ? Boolean.FALSE : null;
        }
        RecvQueue queue = qp != null && Boolean.TRUE.equals(isRq) && qp.srq() != null ? qp.srq() : qp;
        throw new WcException(status.value(), status.text(), qpNum(i), wrId(i), wcs.opcode(i), cq, queue, isRq, message);
    }

    /** {@code opcode} of successful completion {@code i}. */
    public WcOpcode opcode(int i) {
        return WcOpcode.fromValue(wcs.opcode(Objects.checkIndex(i, count)));
    }

    /** {@code vendor_err} of completion {@code i}: the device's own error code. */
    public int vendorErr(int i) {
        return wcs.vendorErr(Objects.checkIndex(i, count));
    }

    /** {@code byte_len} of completion {@code i}: bytes received (or read, for RDMA read and atomics). */
    public int byteLen(int i) {
        return wcs.byteLen(Objects.checkIndex(i, count));
    }

    /** {@code imm_data} of completion {@code i}, when {@link #WITH_IMM} is in its flags; in host order. */
    public int immData(int i) {
        return wcs.immData(Objects.checkIndex(i, count));
    }

    /** {@code invalidated_rkey} of completion {@code i}, when {@link #WITH_INV} is in its flags. */
    public int invalidatedRkey(int i) {
        return wcs.invalidatedRkey(Objects.checkIndex(i, count));
    }

    /** {@code qp_num} of completion {@code i}: the local queue pair. */
    public int qpNum(int i) {
        return wcs.qpNum(Objects.checkIndex(i, count));
    }

    /** {@code src_qp} of completion {@code i}: the sending queue pair of a UD receive. */
    public int srcQp(int i) {
        return wcs.srcQp(Objects.checkIndex(i, count));
    }

    /** {@code wc_flags} of completion {@code i}: {@link #GRH}, {@link #WITH_IMM}, ... */
    public int wcFlags(int i) {
        return wcs.wcFlags(Objects.checkIndex(i, count));
    }

    /** {@code pkey_index} of completion {@code i} (GSI queue pairs). */
    public int pkeyIndex(int i) {
        return wcs.pkeyIndex(Objects.checkIndex(i, count));
    }

    /** {@code slid} of completion {@code i}: the source LID of a UD receive. */
    public int slid(int i) {
        return wcs.slid(Objects.checkIndex(i, count));
    }

    /** {@code sl} of completion {@code i}: the service level of a UD receive. */
    public int sl(int i) {
        return wcs.sl(Objects.checkIndex(i, count));
    }

    /** {@code dlid_path_bits} of completion {@code i}. */
    public int dlidPathBits(int i) {
        return wcs.dlidPathBits(Objects.checkIndex(i, count));
    }
}

package org.jrdma.cm;

import java.util.Arrays;
import java.util.Objects;
import org.jrdma.cm.ffi.RawCmEvent.RawConnParam;

/**
 * {@code struct rdma_conn_param}: what {@code rdma_connect} and {@code rdma_accept} send and a
 * connect request, reply or reject carries. Every field starts at 0 (librdmacm's defaults where
 * it has some); {@code qpNum} and {@code srq} count only when the queue pair was not made by
 * {@link RdmaCmId#createQp}. A received parameter's private data is as long as the CM message
 * carried: the sender's bytes followed by zeros.
 */
public final class ConnParam {
    /** The most private data {@code rdma_conn_param} can hold; the IB CM allows fewer (56 in a REQ, 196 in a REP). */
    public static final int MAX_PRIVATE_DATA = 255;

    private byte[] privateData = new byte[0];
    private int responderResources;
    private int initiatorDepth;
    private int flowControl;
    private int retryCount;
    private int rnrRetryCount;
    private boolean srq;
    private int qpNum;

    /** All zero, no private data. */
    public ConnParam() {
    }

    static ConnParam of(RawConnParam raw) {
        return new ConnParam().privateData(raw.privateData()).responderResources(raw.responderResources())
                .initiatorDepth(raw.initiatorDepth()).flowControl(raw.flowControl()).retryCount(raw.retryCount())
                .rnrRetryCount(raw.rnrRetryCount()).srq(raw.srq() != 0).qpNum(raw.qpNum());
    }

    RawConnParam toRaw() {
        return new RawConnParam(privateData, responderResources, initiatorDepth, flowControl, retryCount,
                rnrRetryCount, srq ? 1 : 0, qpNum);
    }

    /** {@code private_data}: a copy. */
    public byte[] privateData() {
        return privateData.clone();
    }

    /** Sets {@code private_data} (copied), at most {@link #MAX_PRIVATE_DATA} bytes. */
    public ConnParam privateData(byte[] value) {
        Objects.requireNonNull(value, "privateData");
        if (value.length > MAX_PRIVATE_DATA) {
            throw new IllegalArgumentException("private data longer than " + MAX_PRIVATE_DATA + " bytes: " + value.length);
        }
        this.privateData = value.clone();
        return this;
    }

    /** {@code responder_resources}: RDMA reads and atomics this side accepts at once. */
    public int responderResources() {
        return responderResources;
    }

    /** Sets {@code responder_resources}, 8 bits. */
    public ConnParam responderResources(int value) {
        this.responderResources = u8("responder_resources", value);
        return this;
    }

    /** {@code initiator_depth}: RDMA reads and atomics this side issues at once. */
    public int initiatorDepth() {
        return initiatorDepth;
    }

    /** Sets {@code initiator_depth}, 8 bits. */
    public ConnParam initiatorDepth(int value) {
        this.initiatorDepth = u8("initiator_depth", value);
        return this;
    }

    /** {@code flow_control}: whether the hardware does end-to-end flow control. */
    public int flowControl() {
        return flowControl;
    }

    /** Sets {@code flow_control}, 8 bits. */
    public ConnParam flowControl(int value) {
        this.flowControl = u8("flow_control", value);
        return this;
    }

    /** {@code retry_count}: transport retries after a timeout (3 bits; ignored when accepting). */
    public int retryCount() {
        return retryCount;
    }

    /** Sets {@code retry_count}, 0 to 7. */
    public ConnParam retryCount(int value) {
        this.retryCount = range("retry_count", value, 7);
        return this;
    }

    /** {@code rnr_retry_count}: retries after receiver-not-ready NAKs (3 bits, 7 for ever). */
    public int rnrRetryCount() {
        return rnrRetryCount;
    }

    /** Sets {@code rnr_retry_count}, 0 to 7. */
    public ConnParam rnrRetryCount(int value) {
        this.rnrRetryCount = range("rnr_retry_count", value, 7);
        return this;
    }

    /** {@code srq}: whether the queue pair receives from a shared receive queue. */
    public boolean srq() {
        return srq;
    }

    /** Sets {@code srq}. */
    public ConnParam srq(boolean value) {
        this.srq = value;
        return this;
    }

    /** {@code qp_num}: the queue pair number announced to the peer. */
    public int qpNum() {
        return qpNum;
    }

    /** Sets {@code qp_num}, 24 bits. */
    public ConnParam qpNum(int value) {
        this.qpNum = range("qp_num", value, 0xFF_FFFF);
        return this;
    }

    private static int u8(String name, int value) {
        return range(name, value, 0xFF);
    }

    private static int range(String name, int value, int max) {
        if (value < 0 || value > max) {
            throw new IllegalArgumentException(name + " must be 0 to " + max + ": " + value);
        }
        return value;
    }

    @Override
    public String toString() {
        return "ConnParam[privateData=" + privateData.length + " bytes, responderResources=" + responderResources
                + ", initiatorDepth=" + initiatorDepth + ", flowControl=" + flowControl + ", retryCount=" + retryCount
                + ", rnrRetryCount=" + rnrRetryCount + ", srq=" + srq + ", qpNum=" + qpNum + "]";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ConnParam p && Arrays.equals(privateData, p.privateData)
                && responderResources == p.responderResources && initiatorDepth == p.initiatorDepth
                && flowControl == p.flowControl && retryCount == p.retryCount && rnrRetryCount == p.rnrRetryCount
                && srq == p.srq && qpNum == p.qpNum;
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(privateData), responderResources, initiatorDepth, flowControl, retryCount,
                rnrRetryCount, srq, qpNum);
    }
}

package org.jrdma.verbs;

import java.util.Objects;

/**
 * What a new queue pair should be, {@code struct ibv_qp_init_attr} ({@code ibv_create_qp}; IBA
 * 11.2.5.1 Create QP): its type, its completion queues, an optional shared receive queue, the
 * work queue sizes and {@code sq_sig_all}. A mutable builder for {@link Pd#qp(QpInitAttr)}.
 */
public final class QpInitAttr {
    private final QpType qpType;
    private final Cq sendCq;
    private final Cq recvCq;
    private Srq srq;
    private QpCap cap = new QpCap(1, 1, 1, 1, 0);
    private boolean sqSigAll;

    /** A queue pair of {@code qpType} completing on {@code sendCq} and {@code recvCq} (which may be the same). */
    public QpInitAttr(QpType qpType, Cq sendCq, Cq recvCq) {
        this.qpType = Objects.requireNonNull(qpType, "qpType");
        this.sendCq = Objects.requireNonNull(sendCq, "sendCq");
        this.recvCq = Objects.requireNonNull(recvCq, "recvCq");
    }

    /** {@code qp_type}. */
    public QpType qpType() {
        return qpType;
    }

    /** {@code send_cq}. */
    public Cq sendCq() {
        return sendCq;
    }

    /** {@code recv_cq}. */
    public Cq recvCq() {
        return recvCq;
    }

    /** {@code srq}: the shared receive queue, or null. */
    public Srq srq() {
        return srq;
    }

    /** Sets {@code srq}: receives come from it, and the queue pair has no receive queue of its own. */
    public QpInitAttr srq(Srq value) {
        this.srq = value;
        return this;
    }

    /** {@code cap}: the work queue sizes asked for; one request and element each by default. */
    public QpCap cap() {
        return cap;
    }

    /** Sets {@code cap}. */
    public QpInitAttr cap(QpCap value) {
        this.cap = Objects.requireNonNull(value, "cap");
        return this;
    }

    /** {@code sq_sig_all}: every send request completes with a work completion. */
    public boolean sqSigAll() {
        return sqSigAll;
    }

    /** Sets {@code sq_sig_all}; without it only requests with {@link SendFlags#SIGNALED} do. */
    public QpInitAttr sqSigAll(boolean value) {
        this.sqSigAll = value;
        return this;
    }
}

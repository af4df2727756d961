package org.jrdma.verbs;

import java.util.List;
import java.util.Objects;
import org.jrdma.WrException;
import org.jrdma.iba.Gid;
import org.jrdma.verbs.ffi.IbvQp;
import org.jrdma.verbs.ffi.RecvWrs;

/**
 * A queue pair, {@code struct ibv_qp} ({@code ibv_create_qp}; IBA 10.2.4): a send queue and a
 * receive queue (or a shared one) of one transport type. python-rdma's {@code rdma.ibverbs.QP},
 * from {@link Pd#qp}. Connect it with {@link #modify} through INIT, RTR and RTS, then post work
 * requests: {@link #postSend} and {@link #postRecv} allocate nothing and are safe from several
 * threads (posts to one queue pair are serialised).
 *
 * <pre>{@code
 * qp.modify(new QpAttr().qpState(QpState.INIT).pkeyIndex(0).portNum(1)
 *         .qpAccessFlags(Access.REMOTE_WRITE | Access.REMOTE_READ));
 * qp.modify(new QpAttr().qpState(QpState.RTR).pathMtu(Mtu.MTU_1024).destQpNum(remoteQpn).rqPsn(0)
 *         .maxDestRdAtomic(1).minRnrTimer(12).ahAttr(new AhAttr().grh(remoteGid, 0, 1).portNum(1)));
 * qp.modify(new QpAttr().qpState(QpState.RTS).sqPsn(0).timeout(14).retryCnt(7).rnrRetry(7).maxRdAtomic(1));
 * }</pre>
 */
public final class Qp extends Resource {
    /** Every attribute {@code ibv_query_qp} answers: the mask bits below {@code IBV_QP_RATE_LIMIT}. */
    private static final int QUERYABLE = (QpAttr.DEST_QPN << 1) - 1;

    private final Pd pd;
    private final QpType type;
    private final Cq sendCq;
    private final Cq recvCq;
    private final Srq srq;
    private final IbvQp handle;

    private Qp(Pd pd, QpInitAttr init, IbvQp handle) {
        this.pd = pd;
        this.type = init.qpType();
        this.sendCq = init.sendCq();
        this.recvCq = init.recvCq();
        this.srq = init.srq();
        this.handle = handle;
    }

    /** {@code ibv_create_qp}, registered as a dependent of what it uses and findable by events. */
    static Qp create(Pd pd, QpInitAttr init) {
        Context context = pd.context();
        for (Cq cq : new Cq[] {init.sendCq(), init.recvCq()}) {
            cq.checkOpen();
            if (cq.context() != context) {
                throw new IllegalArgumentException(cq + " belongs to another context than " + pd);
            }
        }
        Srq srq = init.srq();
        if (srq != null) {
            srq.checkOpen();
            if (srq.pd() != pd) {
                throw new IllegalArgumentException(srq + " belongs to another protection domain");
            }
        }
        IbvQp handle = IbvQp.create(pd.handle(), init.sendCq().handle(), init.recvCq().handle(),
                srq == null ? null : srq.handle(), init.qpType().value(), init.cap(), init.sqSigAll());
        Qp qp = new Qp(pd, init, handle);
        qp.register(pd, init.sendCq(), init.recvCq(), srq);
        context.map(handle.address(), qp);
        return qp;
    }

    /** The queue pair number ({@code qp_num}), 24 bits, what the remote side sends to. */
    public int qpNum() {
        return handle.qpNum();
    }

    /** The transport type. */
    public QpType type() {
        return type;
    }

    /** The work queue sizes the device granted. */
    public QpCap cap() {
        return handle.cap();
    }

    /** The protection domain of this queue pair. */
    public Pd pd() {
        return pd;
    }

    /** The completion queue of the send queue. */
    public Cq sendCq() {
        return sendCq;
    }

    /** The completion queue of the receive queue. */
    public Cq recvCq() {
        return recvCq;
    }

    /** The shared receive queue, or null. */
    public Srq srq() {
        return srq;
    }

    /** Changes the attributes set in {@code attr}, by its {@link QpAttr#mask()} ({@code ibv_modify_qp}). */
    public void modify(QpAttr attr) {
        modify(attr, attr.mask());
    }

    /** Changes the attributes {@code mask} selects ({@code ibv_modify_qp}, {@code QpAttr} mask bits). */
    public void modify(QpAttr attr, int mask) {
        Objects.requireNonNull(attr, "attr");
        checkOpen();
        handle.modify(attr, mask);
    }

    /** The current attributes ({@code ibv_query_qp} with every mask bit it accepts). */
    public QpAttr query() {
        return query(QUERYABLE);
    }

    /** The attributes {@code mask} selects ({@code ibv_query_qp}); the others may be left 0. */
    public QpAttr query(int mask) {
        checkOpen();
        return handle.query(mask);
    }

    /**
     * Posts {@code first} and the requests linked after it by {@link SendWr#next} to the send
     * queue ({@code ibv_post_send}). Allocates nothing.
     *
     * @throws WrException when a request could not be posted; those before it were
     */
    public void postSend(SendWr first) {
        checkOpen();
        SendWr.post(handle.sendWrs(), Objects.requireNonNull(first, "first"), null);
    }

    /**
     * Posts {@code wrs} in order to the send queue ({@code ibv_post_send}), ignoring their
     * {@link SendWr#next} links.
     *
     * @throws WrException when a request could not be posted; those before it were
     */
    public void postSend(List<SendWr> wrs) {
        checkOpen();
        if (!wrs.isEmpty()) {
            SendWr.post(handle.sendWrs(), null, wrs);
        }
    }

    /**
     * Posts {@code first} and the requests linked after it to the receive queue
     * ({@code ibv_post_recv}). Allocates nothing.
     *
     * @throws IllegalStateException if the queue pair receives from a shared receive queue
     * @throws WrException           when a request could not be posted; those before it were
     */
    public void postRecv(RecvWr first) {
        checkOpen();
        RecvWr.post(recvWrs(), "ibv_post_recv", Objects.requireNonNull(first, "first"), null);
    }

    /**
     * Posts {@code wrs} in order to the receive queue ({@code ibv_post_recv}).
     *
     * @throws IllegalStateException if the queue pair receives from a shared receive queue
     * @throws WrException           when a request could not be posted; those before it were
     */
    public void postRecv(List<RecvWr> wrs) {
        checkOpen();
        if (!wrs.isEmpty()) {
            RecvWr.post(recvWrs(), "ibv_post_recv", null, wrs);
        }
    }

    private RecvWrs recvWrs() {
        RecvWrs staging = handle.recvWrs();
        if (staging == null) {
            throw new IllegalStateException(describe() + " receives from " + srq + "; post there");
        }
        return staging;
    }

    /** Joins the multicast group {@code gid} with LID {@code lid} ({@code ibv_attach_mcast}; UD only). */
    public void attachMcast(Gid gid, int lid) {
        Objects.requireNonNull(gid, "gid");
        checkOpen();
        handle.attachMcast(gid, Args.unsigned("lid", lid, 16));
    }

    /** Leaves the multicast group {@code gid} with LID {@code lid} ({@code ibv_detach_mcast}). */
    public void detachMcast(Gid gid, int lid) {
        Objects.requireNonNull(gid, "gid");
        checkOpen();
        handle.detachMcast(gid, Args.unsigned("lid", lid, 16));
    }

    @Override
    String describe() {
        return String.format("%s QP 0x%06x on %s", type, handle.qpNum(), pd.context().deviceName());
    }

    @Override
    void release() {
        handle.close();
    }

    @Override
    void afterClose() {
        pd.context().unmap(handle.address(), this);
    }
}

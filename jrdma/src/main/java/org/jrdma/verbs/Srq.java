package org.jrdma.verbs;

import java.util.List;
import java.util.Objects;
import org.jrdma.SysException;
import org.jrdma.verbs.ffi.IbvSrq;

/**
 * A shared receive queue, {@code struct ibv_srq} ({@code ibv_create_srq}; IBA 10.2.9): one pool
 * of receive requests for several queue pairs ({@link QpInitAttr#srq}). python-rdma's
 * {@code rdma.ibverbs.SRQ}, from {@link Pd#srq}; or made by {@code ibv_create_srq_ex} with a type
 * ({@code enum ibv_srq_type}): basic with a completion queue ({@link Pd#srq(SrqAttr, Cq)}),
 * tag-matching ({@link Pd#srqTagMatching}), or XRC ({@link Xrcd#srq}), the pool of an XRC domain's
 * target QPs that XRC initiators name by {@link #srqNum()}.
 */
public final class Srq extends Resource implements RecvQueue {
    /** {@code IBV_SRQ_MAX_WR}: {@code ibv_modify_srq} resizes. */
    static final int MAX_WR = 1;
    /** {@code IBV_SRQ_LIMIT}: {@code ibv_modify_srq} arms the limit. */
    static final int LIMIT = 1 << 1;

    private final Pd pd;
    private final IbvSrq handle;

    private Srq(Pd pd, IbvSrq handle) {
        this.pd = pd;
        this.handle = handle;
    }

    /** {@code ibv_create_srq} in {@code pd}, registered as its dependent and findable by events. */
    static Srq create(Pd pd, SrqAttr attr) {
        IbvSrq handle = IbvSrq.create(pd.handle(), attr.toIbv());
        Srq srq = new Srq(pd, handle);
        srq.register(pd);
        pd.context().map(handle.address(), srq);
        return srq;
    }

    /**
     * {@code ibv_create_srq_ex} of {@code type} in {@code pd} with {@code cq} (null for none) and
     * {@code xrcd} (XRC only), registered as a dependent of each and findable by events.
     */
    static Srq createEx(Pd pd, int type, Cq cq, Xrcd xrcd, int maxNumTags, SrqAttr attr) {
        IbvSrq handle;
        try {
            handle = IbvSrq.createEx(pd.handle(), type, cq == null ? null : cq.handle(),
                    xrcd == null ? null : xrcd.handle(), maxNumTags, attr.toIbv());
        } catch (SysException e) {
            throw UnsupportedVerbException.translate(e, switch (type) {
                case IbvSrq.SRQT_XRC -> "ibv_create_srq_ex (XRC SRQs)";
                case IbvSrq.SRQT_TM -> "ibv_create_srq_ex (tag matching)";
                default -> "ibv_create_srq_ex";
            });
        }
        Srq srq = new Srq(pd, handle);
        srq.register(pd, cq, xrcd);
        pd.context().map(handle.address(), srq);
        return srq;
    }

    /**
     * The number XRC initiators name this XRC SRQ by ({@code ibv_get_srq_num}; {@link QpEx#xrcSrqn}).
     *
     * @throws UnsupportedVerbException if the provider has no {@code get_srq_num} (no XRC)
     */
    public int srqNum() {
        checkOpen();
        try {
            return handle.srqNum();
        } catch (SysException e) {
            throw UnsupportedVerbException.translate(e, "ibv_get_srq_num (XRC SRQs)");
        }
    }

    /** The protection domain of this queue. */
    public Pd pd() {
        return pd;
    }

    /** The attributes granted at creation: at least what was asked. */
    public SrqAttr granted() {
        return SrqAttr.of(handle.granted());
    }

    /** The current attributes ({@code ibv_query_srq}). */
    public SrqAttr query() {
        checkOpen();
        return SrqAttr.of(handle.query());
    }

    /**
     * Arms the limit ({@code ibv_modify_srq} with {@code IBV_SRQ_LIMIT}): when fewer than
     * {@code srqLimit} requests remain, the context raises {@link EventType#SRQ_LIMIT_REACHED}
     * once.
     */
    public void armLimit(int srqLimit) {
        checkOpen();
        handle.modify(new SrqAttr(0, 0, Args.positiveOrZero("srq_limit", srqLimit)).toIbv(), LIMIT);
    }

    /** Resizes the queue to at least {@code maxWr} requests ({@code ibv_modify_srq} with {@code IBV_SRQ_MAX_WR}). */
    public void resize(int maxWr) {
        checkOpen();
        handle.modify(new SrqAttr(Args.positiveOrZero("max_wr", maxWr), 0, 0).toIbv(), MAX_WR);
    }

    /**
     * Posts {@code first} and the requests linked after it ({@code ibv_post_srq_recv}).
     * Allocates nothing.
     *
     * @throws WrException when a request could not be posted; those before it were
     */
    @Override
    public void postRecv(RecvWr first) {
        checkOpen();
        WorkRequest.post(handle.recvWrs(), RecvWr::stage, "ibv_post_srq_recv", Objects.requireNonNull(first, "first"),
                null);
    }

    /**
     * Posts {@code wrs} in order ({@code ibv_post_srq_recv}).
     *
     * @throws WrException when a request could not be posted; those before it were
     */
    public void postRecv(List<RecvWr> wrs) {
        checkOpen();
        if (!wrs.isEmpty()) {
            WorkRequest.post(handle.recvWrs(), RecvWr::stage, "ibv_post_srq_recv", null, wrs);
        }
    }

    /**
     * Copies {@code wr} (one request, no chain) into native memory of its own, to be posted
     * again and again with {@link PreparedRecv#post()} ({@code ibv_post_srq_recv}).
     *
     * @throws IllegalArgumentException when {@code wr} is a chain or has more elements than the queue allows
     */
    @Override
    public PreparedRecv prepareRecv(RecvWr wr) {
        checkOpen();
        return new PreparedRecv(this, handle.newRecvWrs(1), "ibv_post_srq_recv", wr);
    }

    /** The native object, for a queue pair made on this SRQ. */
    IbvSrq handle() {
        return handle;
    }

    @Override
    String describe() {
        return "SRQ on " + pd.context().deviceName();
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

package org.jrdma.verbs;

import java.util.Objects;
import org.jrdma.SysException;
import org.jrdma.verbs.ffi.IbvSrq;
import org.jrdma.verbs.ffi.IbvXrcd;

/**
 * An XRC domain, {@code struct ibv_xrcd} ({@code ibv_open_xrcd}; IBA 11.2.9 for the eXtended
 * Reliable Connected transport): the scope in which XRC SRQs ({@link #srq}) and XRC target QPs
 * ({@link #targetQp()}, {@link #openQp}) are shared, within a process or, through a file, between
 * processes. From {@link Context#xrcd()}; a device without XRC ({@code IBV_DEVICE_XRC}) refuses
 * with {@link UnsupportedVerbException}. Closing it closes its SRQs and target QPs.
 */
public final class Xrcd extends Resource {
    private final Context context;
    private final IbvXrcd handle;

    private Xrcd(Context context, IbvXrcd handle) {
        this.context = context;
        this.handle = handle;
    }

    /** {@code ibv_open_xrcd} of {@code fd} with {@code oflags}, registered as a dependent of {@code context}. */
    static Xrcd open(Context context, int fd, int oflags) {
        IbvXrcd handle;
        try {
            handle = IbvXrcd.open(context.handle(), fd, oflags);
        } catch (SysException e) {
            throw UnsupportedVerbException.translate(e, "IBV_DEVICE_XRC");
        }
        Xrcd xrcd = new Xrcd(context, handle);
        xrcd.register(context);
        return xrcd;
    }

    /** The context. */
    public Context context() {
        return context;
    }

    /**
     * A new XRC SRQ of this domain ({@code ibv_create_srq_ex} of {@code IBV_SRQT_XRC}) in
     * {@code pd}, its completions going to {@code cq}; initiators name it by {@link Srq#srqNum()}.
     *
     * @throws UnsupportedVerbException if the provider cannot make XRC SRQs
     */
    public Srq srq(Pd pd, Cq cq, SrqAttr attr) {
        Objects.requireNonNull(pd, "pd");
        Objects.requireNonNull(attr, "attr");
        checkOpen();
        pd.checkOpen();
        if (pd.context() != context) {
            throw new IllegalArgumentException(pd + " belongs to another context than " + this);
        }
        pd.checkCq(cq);
        return Srq.createEx(pd, IbvSrq.SRQT_XRC, cq, this, 0, attr);
    }

    /**
     * A new XRC target QP of this domain ({@code ibv_create_qp_ex} of {@code IBV_QPT_XRC_RECV}):
     * it receives what XRC initiators send to the domain's SRQs.
     *
     * @throws UnsupportedVerbException if the provider cannot make XRC target QPs
     */
    public XrcTargetQp targetQp() {
        checkOpen();
        return XrcTargetQp.create(this);
    }

    /**
     * Another handle on the XRC target QP {@code qpNum} of this domain ({@code ibv_open_qp}), made
     * by this or another process sharing the domain's file; closing it leaves the QP to its other
     * handles.
     *
     * @throws UnsupportedVerbException if the provider cannot open QPs
     */
    public XrcTargetQp openQp(int qpNum) {
        Args.unsigned("qp_num", qpNum, 24);
        checkOpen();
        return XrcTargetQp.open(this, qpNum);
    }

    /** The native object, for the SRQs and target QPs of this domain. */
    IbvXrcd handle() {
        return handle;
    }

    @Override
    String describe() {
        return "XRCD on " + context.deviceName();
    }

    @Override
    void release() {
        handle.close();
    }
}

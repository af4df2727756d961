package org.jrdma.verbs;

import java.util.Objects;
import org.jrdma.SysException;
import org.jrdma.verbs.ffi.IbvQp;
import org.jrdma.verbs.ffi.IbvXrcd;

/**
 * An XRC target queue pair ({@code IBV_QPT_XRC_RECV}; IBA 11.2.9): the responder side of the
 * eXtended Reliable Connected transport, with no protection domain, completion queues or receive
 * queue of its own; what an XRC initiator ({@link QpType#XRC_SEND}) sends to it lands in the XRC
 * SRQ the request names ({@link QpEx#xrcSrqn}) of its domain. Made by {@link Xrcd#targetQp()}
 * ({@code ibv_create_qp_ex}) or opened by number ({@link Xrcd#openQp}, {@code ibv_open_qp});
 * connected by {@link #modify}; closed with its domain.
 */
public final class XrcTargetQp extends Resource {
    private final Xrcd xrcd;
    private final IbvQp handle;
    private final boolean opened;

    private XrcTargetQp(Xrcd xrcd, IbvQp handle, boolean opened) {
        this.xrcd = xrcd;
        this.handle = handle;
        this.opened = opened;
    }

    /** {@code ibv_create_qp_ex} of an XRC target QP in {@code xrcd}, registered as its dependent. */
    static XrcTargetQp create(Xrcd xrcd) {
        IbvQp handle;
        try {
            handle = IbvXrcd.createTargetQp(xrcd.context().handle(), xrcd.handle());
        } catch (SysException e) {
            throw UnsupportedVerbException.translate(e, "ibv_create_qp_ex (XRC target QPs)");
        }
        XrcTargetQp qp = new XrcTargetQp(xrcd, handle, false);
        qp.register(xrcd);
        return qp;
    }

    /** {@code ibv_open_qp} of QP {@code qpNum} in {@code xrcd}, registered as its dependent. */
    static XrcTargetQp open(Xrcd xrcd, int qpNum) {
        IbvQp handle;
        try {
            handle = IbvXrcd.openQp(xrcd.context().handle(), xrcd.handle(), qpNum);
        } catch (SysException e) {
            throw UnsupportedVerbException.translate(e, "ibv_open_qp (XRC target QPs)");
        }
        XrcTargetQp qp = new XrcTargetQp(xrcd, handle, true);
        qp.register(xrcd);
        return qp;
    }

    /** The XRC domain. */
    public Xrcd xrcd() {
        return xrcd;
    }

    /** The queue pair number ({@code qp->qp_num}), which initiators connect to and {@link Xrcd#openQp} opens. */
    public int qpNum() {
        return handle.qpNum();
    }

    /** Whether this handle was opened ({@code ibv_open_qp}) rather than made. */
    public boolean opened() {
        return opened;
    }

    /** Changes the attributes {@code mask} selects ({@code ibv_modify_qp}, {@code QpAttr} mask bits): RESET to INIT, RTR. */
    public void modify(QpAttr attr, int mask) {
        Objects.requireNonNull(attr, "attr");
        checkOpen();
        handle.modify(attr.toIbv(), mask);
    }

    @Override
    String describe() {
        return String.format("XRC_RECV QP 0x%06x on %s", handle.qpNum(), xrcd.context().deviceName());
    }

    @Override
    void release() {
        handle.close();
    }
}

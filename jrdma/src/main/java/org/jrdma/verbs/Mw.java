package org.jrdma.verbs;

import org.jrdma.SysException;
import org.jrdma.verbs.ffi.IbvMw;

/**
 * A memory window, {@code struct ibv_mw} ({@code ibv_alloc_mw}; IBA 10.6.7): a remote key onto part
 * of a memory region, granted and revoked without registering memory again. A type 1 window is
 * bound by {@link #bind} ({@code ibv_bind_mw}) and belongs to its protection domain; a type 2
 * window is bound by a work request of one queue pair ({@link QpEx#bindMw}), and invalidated by
 * the remote side's send with invalidate ({@link QpEx#sendInv}) or a local invalidate
 * ({@link QpEx#localInv}). From {@link Pd#mw}.
 */
public final class Mw extends Resource {
    /** {@code IBV_MW_TYPE_1}. */
    public static final int TYPE_1 = 1;
    /** {@code IBV_MW_TYPE_2}. */
    public static final int TYPE_2 = 2;

    private final Pd pd;
    private final IbvMw handle;

    private Mw(Pd pd, IbvMw handle) {
        this.pd = pd;
        this.handle = handle;
    }

    /** {@code ibv_alloc_mw} in {@code pd}, registered as its dependent. */
    static Mw alloc(Pd pd, int type) {
        if (type != TYPE_1 && type != TYPE_2) {
            throw new IllegalArgumentException("a memory window is of type 1 or 2, not " + type);
        }
        IbvMw handle;
        try {
            handle = IbvMw.alloc(pd.handle(), type);
        } catch (SysException e) {
            throw UnsupportedVerbException.translate(e, "IBV_DEVICE_MEM_WINDOW (type " + type + ")");
        }
        Mw mw = new Mw(pd, handle);
        mw.register(pd);
        return mw;
    }

    /** The protection domain. */
    public Pd pd() {
        return pd;
    }

    /** {@link #TYPE_1} or {@link #TYPE_2}. */
    public int type() {
        checkOpen();
        return handle.type();
    }

    /** The key remote sides use ({@code mw->rkey}), changed by each bind. */
    public int rkey() {
        checkOpen();
        return handle.rkey();
    }

    /**
     * The key for the next bind of a type 2 window: {@link #rkey()} with its low 8 bits, the
     * key's tag, incremented (verbs.h's {@code ibv_inc_rkey}).
     */
    public int nextRkey() {
        int rkey = rkey();
        return (rkey & ~0xff) | ((rkey + 1) & 0xff);
    }

    /**
     * Binds this type 1 window to {@code length} bytes at {@code offset} of {@code mr} with
     * {@link Access} rights {@code access}, by a bind request posted on {@code qp} with
     * {@code wrId} and {@link SendFlags} {@code sendFlags} ({@code ibv_bind_mw}); its completion
     * comes on the QP's send CQ. A null {@code mr} (and 0, 0) unbinds.
     *
     * @return the window's new rkey
     * @throws IllegalArgumentException if the window is not of type 1, or {@code mr} is in another domain
     */
    public int bind(Qp qp, long wrId, int sendFlags, Mr mr, long offset, long length, int access) {
        checkOpen();
        qp.checkOpen();
        if (handle.type() != TYPE_1) {
            throw new IllegalArgumentException("ibv_bind_mw binds type 1 windows; bind type 2 by QpEx.bindMw");
        }
        if (mr != null && mr.pd() != pd) {
            throw new IllegalArgumentException(mr + " is in another protection domain than " + this);
        }
        long addr = mr == null ? 0 : mr.addr() + offset;
        return handle.bind(qp.handle(), wrId, sendFlags, mr == null ? null : mr.handle(), addr, length, access);
    }

    /** The native object, for {@link QpEx#bindMw}. */
    IbvMw handle() {
        return handle;
    }

    @Override
    String describe() {
        return "MW on " + pd.context().deviceName();
    }

    @Override
    void release() {
        handle.close();
    }
}

package org.jrdma.verbs;

import org.jrdma.path.IBPath;
import org.jrdma.verbs.ffi.IbvAh;

/**
 * An address handle, {@code struct ibv_ah} ({@code ibv_create_ah}; IBA 10.2.2): the address
 * vector a UD send request goes to ({@link SendWr#ud}). python-rdma's {@code rdma.ibverbs.AH},
 * from {@link Pd#ah(AhAttr)}, or cached per path by {@link Pd#ah(IBPath)}.
 */
public final class Ah extends Resource {
    private final Pd pd;
    private final IbvAh handle;
    private final String attr;
    /** The path this handle is cached for in {@link #pd}, or null. */
    private final IBPath path;

    private Ah(Pd pd, IbvAh handle, String attr, IBPath path) {
        this.pd = pd;
        this.handle = handle;
        this.attr = attr;
        this.path = path;
    }

    /** {@code ibv_create_ah} in {@code pd}, registered as its dependent; cached for {@code path} unless null. */
    static Ah create(Pd pd, AhAttr attr, IBPath path) {
        Ah ah = new Ah(pd, IbvAh.create(pd.handle(), attr.toIbv()), attr.toString(), path);
        ah.register(pd);
        return ah;
    }

    /** The protection domain of this handle. */
    public Pd pd() {
        return pd;
    }

    /** The {@code struct ibv_ah} address, for a work request; checks the handle is open. */
    long address() {
        checkOpen();
        return handle.address();
    }

    /** The native object, for the extended verbs ({@link QpEx}, {@link Mw}). */
    IbvAh handle() {
        return handle;
    }

    @Override
    String describe() {
        return "AH " + attr + " on " + pd.context().deviceName();
    }

    @Override
    void release() {
        handle.close();
    }

    @Override
    void afterClose() {
        if (path != null) {
            pd.uncache(path, this);
        }
    }
}

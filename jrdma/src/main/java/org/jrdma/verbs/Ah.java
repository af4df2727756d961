package org.jrdma.verbs;

import org.jrdma.verbs.ffi.IbvAh;

/**
 * An address handle, {@code struct ibv_ah} ({@code ibv_create_ah}; IBA 10.2.2): the address
 * vector a UD send request goes to ({@link SendWr#ud}). python-rdma's {@code rdma.ibverbs.AH},
 * from {@link Pd#ah}.
 */
public final class Ah extends Resource {
    private final Pd pd;
    private final IbvAh handle;
    private final String attr;

    private Ah(Pd pd, IbvAh handle, String attr) {
        this.pd = pd;
        this.handle = handle;
        this.attr = attr;
    }

    /** {@code ibv_create_ah} in {@code pd}, registered as its dependent. */
    static Ah create(Pd pd, AhAttr attr) {
        Ah ah = new Ah(pd, IbvAh.create(pd.handle(), attr), attr.toString());
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

    @Override
    String describe() {
        return "AH " + attr + " on " + pd.context().deviceName();
    }

    @Override
    void release() {
        handle.close();
    }
}

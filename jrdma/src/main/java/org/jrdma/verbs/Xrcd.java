package org.jrdma.verbs;

import org.jrdma.SysException;
import org.jrdma.verbs.ffi.IbvXrcd;

/**
 * An XRC domain, {@code struct ibv_xrcd} ({@code ibv_open_xrcd}; IBA 11.2.9 for the eXtended
 * Reliable Connected transport): the scope in which XRC SRQs and XRC target QPs are shared. From
 * {@link Context#xrcd()}; a device without XRC ({@code IBV_DEVICE_XRC}) refuses with
 * {@link UnsupportedVerbException}.
 */
public final class Xrcd extends Resource {
    private final Context context;
    private final IbvXrcd handle;

    private Xrcd(Context context, IbvXrcd handle) {
        this.context = context;
        this.handle = handle;
    }

    /** {@code ibv_open_xrcd}, registered as a dependent of {@code context}. */
    static Xrcd open(Context context) {
        IbvXrcd handle;
        try {
            handle = IbvXrcd.open(context.handle());
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

    @Override
    String describe() {
        return "XRCD on " + context.deviceName();
    }

    @Override
    void release() {
        handle.close();
    }
}

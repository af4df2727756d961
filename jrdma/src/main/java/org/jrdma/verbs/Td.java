package org.jrdma.verbs;

import org.jrdma.SysException;
import org.jrdma.verbs.ffi.IbvTd;

/**
 * A thread domain, {@code struct ibv_td} ({@code ibv_alloc_td}): the promise that one thread uses
 * the objects of a parent domain made with it, so the provider may leave out its locks. From
 * {@link Context#td()}; a provider without thread domains refuses with
 * {@link UnsupportedVerbException}.
 */
public final class Td extends Resource {
    private final Context context;
    private final IbvTd handle;

    private Td(Context context, IbvTd handle) {
        this.context = context;
        this.handle = handle;
    }

    /** {@code ibv_alloc_td}, registered as a dependent of {@code context}. */
    static Td alloc(Context context) {
        IbvTd handle;
        try {
            handle = IbvTd.alloc(context.handle());
        } catch (SysException e) {
            throw UnsupportedVerbException.translate(e, "ibv_alloc_td (thread domains)");
        }
        Td td = new Td(context, handle);
        td.register(context);
        return td;
    }

    /** The context. */
    public Context context() {
        return context;
    }

    @Override
    String describe() {
        return "TD on " + context.deviceName();
    }

    @Override
    void release() {
        handle.close();
    }
}

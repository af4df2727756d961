package org.jrdma.verbs.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import org.jrdma.ffi.Errors;

/**
 * {@code struct ibv_pd}: a protection domain ({@code ibv_alloc_pd}, {@code ibv_dealloc_pd}), a
 * parent domain over one (verbs.h's {@code ibv_alloc_parent_domain}, an inline calling
 * {@code verbs_context->alloc_parent_domain}), or one imported from another process's device
 * file ({@code ibv_import_pd}, {@code ibv_unimport_pd}).
 */
public final class IbvPd extends NativeObject {
    private static final MethodHandle ALLOC_PD = Ibv.function("ibv_alloc_pd",
            FunctionDescriptor.of(ADDRESS, ADDRESS), true);
    private static final MethodHandle DEALLOC_PD = Ibv.function("ibv_dealloc_pd",
            FunctionDescriptor.of(JAVA_INT, ADDRESS), false);
    private static final MethodHandle IMPORT_PD = Ibv.function("ibv_import_pd",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT), true);
    private static final MethodHandle UNIMPORT_PD = Ibv.function("ibv_unimport_pd",
            FunctionDescriptor.ofVoid(ADDRESS), false);
    private static final MethodHandle ALLOC_PARENT_DOMAIN = Ibv.pointerCapturingErrno(
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
    private static final VarHandle HANDLE = Structs.handle(Structs.IBV_PD, "handle");
    private static final VarHandle PARENT_PD = Structs.handle(StructsEx.IBV_PARENT_DOMAIN_INIT_ATTR, "pd");

    /** The context of this domain, whose entry points its queues use. */
    final IbvContext context;

    /** Whether it was imported ({@code ibv_import_pd}): closing it unimports it, the owner keeps it. */
    private final boolean imported;

    private IbvPd(MemorySegment raw, IbvContext context, boolean imported) {
        super(raw, Structs.IBV_PD, "protection domain", context.isConfined());
        this.context = context;
        this.imported = imported;
    }

    /** {@code ibv_alloc_pd}. */
    public static IbvPd alloc(IbvContext context) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment raw = (MemorySegment) ALLOC_PD.invokeExact(state, context.ptr);
            return new IbvPd(Errors.nonNull("ibv_alloc_pd", raw, state), context, false);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * {@code ibv_import_pd}: the domain with kernel handle {@code pdHandle} of the device file
     * {@code context} was imported from ({@code ibv_import_device}).
     *
     * @throws org.jrdma.SysException {@code EOPNOTSUPP} when the provider cannot import
     */
    public static IbvPd importPd(IbvContext context, int pdHandle) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment raw = (MemorySegment) IMPORT_PD.invokeExact(state, context.ptr, pdHandle);
            return new IbvPd(Errors.nonNull("ibv_import_pd", raw, state), context, true);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * verbs.h's {@code ibv_alloc_parent_domain} over {@code pd}, without a thread domain or
     * custom allocators: a domain usable wherever {@code pd} is.
     *
     * @throws org.jrdma.SysException {@code EOPNOTSUPP} when the provider has no
     *                                {@code alloc_parent_domain}, or what it reports
     */
    public static IbvPd allocParentDomain(IbvPd pd) {
        MemorySegment function = IbvContextEx.requireOp(pd.context, "alloc_parent_domain", "ibv_alloc_parent_domain");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment init = arena.allocate(StructsEx.IBV_PARENT_DOMAIN_INIT_ATTR);
            PARENT_PD.set(init, 0L, pd.ptr);
            MemorySegment raw = (MemorySegment) ALLOC_PARENT_DOMAIN.invokeExact(function, state, pd.context.ptr, init);
            return new IbvPd(Errors.nonNull("ibv_alloc_parent_domain", raw, state), pd.context, false);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code pd->handle}: the kernel's number for the domain, which {@code ibv_import_pd} takes. */
    public int kernelHandle() {
        return (int) HANDLE.get(ptr, 0L);
    }

    @Override
    void destroy(MemorySegment raw) {
        try {
            if (imported) {
                UNIMPORT_PD.invokeExact(raw);
                return;
            }
            Errors.zero("ibv_dealloc_pd", (int) DEALLOC_PD.invokeExact(raw));
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }
}

package org.jrdma.verbs.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import org.jrdma.ffi.Errors;

/**
 * {@code struct ibv_td}: a thread domain ({@code ibv_alloc_td}, {@code ibv_dealloc_td}, inlines of
 * verbs.h calling {@code verbs_context->alloc_td} and {@code ->dealloc_td}): a promise that one
 * thread uses the objects of a parent domain made with it, so the provider may drop its locks.
 */
public final class IbvTd extends NativeObject {
    private static final MethodHandle ALLOC_TD = Ibv.pointerCapturingErrno(
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle DEALLOC_TD = Ibv.pointer(FunctionDescriptor.of(JAVA_INT, ADDRESS));

    private final MemorySegment deallocTd;

    private IbvTd(MemorySegment raw, IbvContext context, MemorySegment deallocTd) {
        super(raw, StructsEx.IBV_TD, "thread domain", context.isConfined());
        this.deallocTd = deallocTd;
    }

    /**
     * verbs.h's {@code ibv_alloc_td}.
     *
     * @throws org.jrdma.SysException {@code EOPNOTSUPP} when the provider has no {@code alloc_td},
     *                                or what it reports
     */
    public static IbvTd alloc(IbvContext context) {
        MemorySegment alloc = IbvContextEx.requireOp(context, "alloc_td", "ibv_alloc_td");
        MemorySegment dealloc = IbvContextEx.requireOp(context, "dealloc_td", "ibv_dealloc_td");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment init = arena.allocate(StructsEx.IBV_TD_INIT_ATTR);
            MemorySegment raw = (MemorySegment) ALLOC_TD.invokeExact(alloc, state, context.ptr, init);
            return new IbvTd(Errors.nonNull("ibv_alloc_td", raw, state), context, dealloc);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    @Override
    void destroy(MemorySegment raw) {
        try {
            Errors.zero("ibv_dealloc_td", (int) DEALLOC_TD.invokeExact(deallocTd, raw));
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }
}

package org.jrdma.verbs.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import org.jrdma.ffi.Errors;

/** {@code struct ibv_pd}: a protection domain ({@code ibv_alloc_pd}, {@code ibv_dealloc_pd}). */
public final class IbvPd extends NativeObject {
    private static final MethodHandle ALLOC_PD = Ibv.function("ibv_alloc_pd",
            FunctionDescriptor.of(ADDRESS, ADDRESS), true);
    private static final MethodHandle DEALLOC_PD = Ibv.function("ibv_dealloc_pd",
            FunctionDescriptor.of(JAVA_INT, ADDRESS), false);

    /** The context of this domain, whose entry points its queues use. */
    final IbvContext context;

    private IbvPd(MemorySegment raw, IbvContext context) {
        super(raw, Structs.IBV_PD, "protection domain", context.isConfined());
        this.context = context;
    }

    /** {@code ibv_alloc_pd}. */
    public static IbvPd alloc(IbvContext context) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment raw = (MemorySegment) ALLOC_PD.invokeExact(state, context.ptr);
            return new IbvPd(Errors.nonNull("ibv_alloc_pd", raw, state), context);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    @Override
    void destroy(MemorySegment raw) {
        try {
            Errors.zero("ibv_dealloc_pd", (int) DEALLOC_PD.invokeExact(raw));
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }
}

package org.jrdma.verbs.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import org.jrdma.ffi.Errors;

/** {@code struct ibv_ah}: an address handle ({@code ibv_create_ah}, {@code ibv_destroy_ah}). */
public final class IbvAh extends NativeObject {
    private static final MethodHandle CREATE_AH = Ibv.function("ibv_create_ah",
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS), true);
    private static final MethodHandle DESTROY_AH = Ibv.function("ibv_destroy_ah",
            FunctionDescriptor.of(JAVA_INT, ADDRESS), false);

    private IbvAh(MemorySegment raw, boolean confined) {
        super(raw, Structs.IBV_AH, "address handle", confined);
    }

    /** {@code ibv_create_ah}. */
    public static IbvAh create(IbvPd pd, IbvAhAttr attr) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment ahAttr = arena.allocate(Structs.IBV_AH_ATTR);
            AhAttrs.write(ahAttr, 0, attr);
            MemorySegment raw = (MemorySegment) CREATE_AH.invokeExact(state, pd.ptr, ahAttr);
            return new IbvAh(Errors.nonNull("ibv_create_ah", raw, state), pd.isConfined());
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    @Override
    void destroy(MemorySegment raw) {
        try {
            Errors.zero("ibv_destroy_ah", (int) DESTROY_AH.invokeExact(raw));
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }
}

package org.jrdma.verbs.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import org.jrdma.ffi.Errors;

/**
 * {@code struct ibv_mr}: registered memory ({@code ibv_reg_mr}, {@code ibv_dereg_mr}). The
 * exported {@code ibv_reg_mr} is what verbs.h's macro calls for access flags known at compile
 * time to be outside the optional range; jrdma accepts only such flags.
 */
public final class IbvMr extends NativeObject {
    private static final MethodHandle REG_MR = Ibv.function("ibv_reg_mr",
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT), true);
    private static final MethodHandle DEREG_MR = Ibv.function("ibv_dereg_mr",
            FunctionDescriptor.of(JAVA_INT, ADDRESS), false);
    private static final VarHandle LKEY = Structs.handle(Structs.IBV_MR, "lkey");
    private static final VarHandle RKEY = Structs.handle(Structs.IBV_MR, "rkey");

    private final int lkey;
    private final int rkey;

    private IbvMr(MemorySegment raw, boolean confined) {
        super(raw, Structs.IBV_MR, "memory region", confined);
        this.lkey = (int) LKEY.get(ptr, 0L);
        this.rkey = (int) RKEY.get(ptr, 0L);
    }

    /** {@code ibv_reg_mr(pd, memory, memory.byteSize(), access)}. */
    public static IbvMr register(IbvPd pd, MemorySegment memory, int access) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment raw = (MemorySegment) REG_MR.invokeExact(state, pd.ptr, memory, memory.byteSize(), access);
            return new IbvMr(Errors.nonNull("ibv_reg_mr", raw, state), pd.isConfined());
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** Takes ownership of the MR at {@code raw} made by another constructor ({@code ibv_reg_mr_iova}). */
    static IbvMr adopt(MemorySegment raw, boolean confined) {
        return new IbvMr(raw, confined);
    }

    /** {@code mr->lkey}. */
    public int lkey() {
        return lkey;
    }

    /** {@code mr->rkey}. */
    public int rkey() {
        return rkey;
    }

    @Override
    void destroy(MemorySegment raw) {
        try {
            Errors.zero("ibv_dereg_mr", (int) DEREG_MR.invokeExact(raw));
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }
}

package org.jrdma.verbs.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import org.jrdma.SysException;
import org.jrdma.ffi.Errors;

/**
 * {@code struct ibv_mr}: registered memory ({@code ibv_reg_mr}, {@code ibv_dereg_mr},
 * {@code ibv_rereg_mr}), or imported from another process's device file ({@code ibv_import_mr},
 * {@code ibv_unimport_mr}). The
 * exported {@code ibv_reg_mr} is what verbs.h's macro calls for access flags known at compile
 * time to be outside the optional range; jrdma accepts only such flags.
 */
public final class IbvMr extends NativeObject {
    private static final MethodHandle REG_MR = Ibv.function("ibv_reg_mr",
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT), true);
    private static final MethodHandle DEREG_MR = Ibv.function("ibv_dereg_mr",
            FunctionDescriptor.of(JAVA_INT, ADDRESS), false);
    private static final MethodHandle REREG_MR = Ibv.function("ibv_rereg_mr",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT), true);
    private static final MethodHandle IMPORT_MR = Ibv.function("ibv_import_mr",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT), true);
    private static final MethodHandle UNIMPORT_MR = Ibv.function("ibv_unimport_mr",
            FunctionDescriptor.ofVoid(ADDRESS), false);
    private static final VarHandle LKEY = Structs.handle(Structs.IBV_MR, "lkey");
    private static final VarHandle RKEY = Structs.handle(Structs.IBV_MR, "rkey");
    private static final VarHandle HANDLE = Structs.handle(Structs.IBV_MR, "handle");
    private static final VarHandle ADDR = Structs.handle(Structs.IBV_MR, "addr");
    private static final VarHandle LENGTH = Structs.handle(Structs.IBV_MR, "length");

    /** Whether it was imported ({@code ibv_import_mr}): closing it unimports it, the owner keeps it. */
    private final boolean imported;
    private int lkey;
    private int rkey;

    private IbvMr(MemorySegment raw, boolean confined, boolean imported) {
        super(raw, Structs.IBV_MR, "memory region", confined);
        this.imported = imported;
        this.lkey = (int) LKEY.get(ptr, 0L);
        this.rkey = (int) RKEY.get(ptr, 0L);
    }

    /** {@code ibv_reg_mr(pd, memory, memory.byteSize(), access)}. */
    public static IbvMr register(IbvPd pd, MemorySegment memory, int access) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment raw = (MemorySegment) REG_MR.invokeExact(state, pd.ptr, memory, memory.byteSize(), access);
            return new IbvMr(Errors.nonNull("ibv_reg_mr", raw, state), pd.isConfined(), false);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * {@code ibv_import_mr}: the region with kernel handle {@code mrHandle} in the imported domain
     * {@code pd}.
     *
     * @throws org.jrdma.SysException {@code EOPNOTSUPP} when the provider cannot import
     */
    public static IbvMr importMr(IbvPd pd, int mrHandle) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment raw = (MemorySegment) IMPORT_MR.invokeExact(state, pd.ptr, mrHandle);
            return new IbvMr(Errors.nonNull("ibv_import_mr", raw, state), pd.isConfined(), true);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** Takes ownership of the MR at {@code raw} made by another constructor ({@code ibv_reg_mr_iova}). */
    static IbvMr adopt(MemorySegment raw, boolean confined) {
        return new IbvMr(raw, confined, false);
    }

    /**
     * {@code ibv_rereg_mr(mr, flags, pd, memory, memory.byteSize(), access)}: with
     * {@code IBV_REREG_MR_CHANGE_TRANSLATION} other memory ({@code memory}; NULL and 0 otherwise),
     * {@code IBV_REREG_MR_CHANGE_PD} another domain ({@code pd}; NULL otherwise),
     * {@code IBV_REREG_MR_CHANGE_ACCESS} new access rights; then new keys ({@link #lkey()},
     * {@link #rkey()} read again). libibverbs checks the arguments itself ({@code EINVAL},
     * {@code IBV_REREG_MR_ERR_INPUT}).
     *
     * @throws org.jrdma.SysException with {@code errno} ({@code EOPNOTSUPP} when the provider cannot
     *                                re-register) and the failure code ({@code enum
     *                                ibv_rereg_mr_err_code}) in its message
     */
    public void rereg(int flags, IbvPd pd, MemorySegment memory, int access) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment addr = memory == null ? MemorySegment.NULL : memory;
            MemorySegment newPd = pd == null ? MemorySegment.NULL : pd.ptr;
            int rc = (int) REREG_MR.invokeExact(state, ptr, flags, newPd, addr, memory == null ? 0L : memory.byteSize(),
                    access);
            if (rc != 0) {
                throw new SysException("ibv_rereg_mr", Errors.errno(state), null, " (ibv_rereg_mr_err_code " + rc + ")");
            }
            lkey = (int) LKEY.get(ptr, 0L);
            rkey = (int) RKEY.get(ptr, 0L);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code mr->addr}: where the device sees the region. */
    public long addr() {
        return ((MemorySegment) ADDR.get(ptr, 0L)).address();
    }

    /** {@code mr->length}. */
    public long length() {
        return (long) LENGTH.get(ptr, 0L);
    }

    /** {@code mr->handle}: the kernel's number for the region, which {@code ibv_import_mr} takes. */
    public int kernelHandle() {
        return (int) HANDLE.get(ptr, 0L);
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
            if (imported) {
                UNIMPORT_MR.invokeExact(raw);
                return;
            }
            Errors.zero("ibv_dereg_mr", (int) DEREG_MR.invokeExact(raw));
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }
}

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
 * The other ways to register memory: {@code ibv_reg_mr_iova} (the region seen by the device at an
 * I/O virtual address of the caller's choosing), {@code ibv_reg_dmabuf_mr} (memory another
 * device exports as a dma-buf file descriptor), and {@code ibv_advise_mr} (prefetching the pages
 * of on-demand paging regions, an inline of verbs.h calling {@code verbs_context->advise_mr}).
 */
public final class IbvMrEx {
    private static final MethodHandle REG_MR_IOVA = Ibv.function("ibv_reg_mr_iova",
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_INT), true);
    private static final MethodHandle REG_DMABUF_MR = Ibv.function("ibv_reg_dmabuf_mr",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT), true);
    private static final MethodHandle ADVISE_MR = Ibv.pointer(
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
    private static final VarHandle SGE_ADDR = Structs.handle(Structs.IBV_SGE, "addr");
    private static final VarHandle SGE_LENGTH = Structs.handle(Structs.IBV_SGE, "length");
    private static final VarHandle SGE_LKEY = Structs.handle(Structs.IBV_SGE, "lkey");

    private IbvMrEx() {
    }

    /** {@code ibv_reg_mr_iova(pd, memory, memory.byteSize(), iova, access)}. */
    public static IbvMr registerIova(IbvPd pd, MemorySegment memory, long iova, int access) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment raw = (MemorySegment) REG_MR_IOVA.invokeExact(state, pd.ptr, memory, memory.byteSize(), iova,
                    access);
            return IbvMr.adopt(Errors.nonNull("ibv_reg_mr_iova", raw, state), pd.isConfined());
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * {@code ibv_reg_dmabuf_mr(pd, offset, length, iova, fd, access)}: {@code length} bytes from
     * {@code offset} of the dma-buf {@code fd}, seen by the device at {@code iova}.
     *
     * @throws org.jrdma.SysException {@code EOPNOTSUPP} when the provider cannot, or what it reports
     */
    public static IbvMr registerDmabuf(IbvPd pd, long offset, long length, long iova, int fd, int access) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment raw = (MemorySegment) REG_DMABUF_MR.invokeExact(state, pd.ptr, offset, length, iova, fd,
                    access);
            return IbvMr.adopt(Errors.nonNull("ibv_reg_dmabuf_mr", raw, state), pd.isConfined());
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * verbs.h's {@code ibv_advise_mr(pd, advice, flags, &sge, 1)} over {@code length} bytes at
     * {@code addr} of the region with {@code lkey}.
     *
     * @throws org.jrdma.SysException {@code EOPNOTSUPP} when the provider has no {@code advise_mr},
     *                                or what it reports
     */
    public static void advise(IbvPd pd, int advice, int flags, long addr, int length, int lkey) {
        MemorySegment function = IbvContextEx.requireOp(pd.context, "advise_mr", "ibv_advise_mr");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment sge = arena.allocate(Structs.IBV_SGE);
            SGE_ADDR.set(sge, 0L, addr);
            SGE_LENGTH.set(sge, 0L, length);
            SGE_LKEY.set(sge, 0L, lkey);
            Errors.zero("ibv_advise_mr", (int) ADVISE_MR.invokeExact(function, pd.ptr, advice, flags, sge, 1));
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }
}

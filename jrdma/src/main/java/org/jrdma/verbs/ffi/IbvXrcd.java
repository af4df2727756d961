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
 * {@code struct ibv_xrcd}: an XRC domain ({@code ibv_open_xrcd}, {@code ibv_close_xrcd}, inlines of
 * verbs.h calling {@code verbs_context->open_xrcd} and {@code ->close_xrcd}).
 */
public final class IbvXrcd extends NativeObject {
    private static final MethodHandle OPEN_XRCD = Ibv.pointerCapturingErrno(
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle CLOSE_XRCD = Ibv.pointer(FunctionDescriptor.of(JAVA_INT, ADDRESS));
    private static final VarHandle COMP_MASK = Structs.handle(StructsEx.IBV_XRCD_INIT_ATTR, "comp_mask");
    private static final VarHandle FD = Structs.handle(StructsEx.IBV_XRCD_INIT_ATTR, "fd");
    private static final VarHandle OFLAGS = Structs.handle(StructsEx.IBV_XRCD_INIT_ATTR, "oflags");
    /** {@code IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS}. */
    private static final int FD_AND_OFLAGS = 3;
    /** {@code O_CREAT}. */
    private static final int O_CREAT = 0100;

    private final MemorySegment closeXrcd;

    private IbvXrcd(MemorySegment raw, IbvContext context, MemorySegment closeXrcd) {
        super(raw, StructsEx.IBV_XRCD, "XRC domain", context.isConfined());
        this.closeXrcd = closeXrcd;
    }

    /**
     * verbs.h's {@code ibv_open_xrcd} of a domain of its own ({@code fd} -1, {@code O_CREAT}).
     *
     * @throws org.jrdma.SysException {@code EOPNOTSUPP} when the provider has no {@code open_xrcd},
     *                                or what it reports
     */
    public static IbvXrcd open(IbvContext context) {
        MemorySegment open = IbvContextEx.requireOp(context, "open_xrcd", "ibv_open_xrcd");
        MemorySegment close = IbvContextEx.requireOp(context, "close_xrcd", "ibv_close_xrcd");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment init = arena.allocate(StructsEx.IBV_XRCD_INIT_ATTR);
            COMP_MASK.set(init, 0L, FD_AND_OFLAGS);
            FD.set(init, 0L, -1);
            OFLAGS.set(init, 0L, O_CREAT);
            MemorySegment raw = (MemorySegment) OPEN_XRCD.invokeExact(open, state, context.ptr, init);
            return new IbvXrcd(Errors.nonNull("ibv_open_xrcd", raw, state), context, close);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    @Override
    void destroy(MemorySegment raw) {
        try {
            Errors.zero("ibv_close_xrcd", (int) CLOSE_XRCD.invokeExact(closeXrcd, raw));
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }
}

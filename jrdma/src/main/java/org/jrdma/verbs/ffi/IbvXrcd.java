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
    public static final int INIT_ATTR_FD_AND_OFLAGS = 3;
    private static final MethodHandle CREATE_QP_EX = Ibv.pointerCapturingErrno(
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle OPEN_QP = Ibv.pointerCapturingErrno(
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
    private static final VarHandle QP_INIT_QP_TYPE = Structs.handle(StructsEx.IBV_QP_INIT_ATTR_EX, "qp_type");
    private static final VarHandle QP_INIT_COMP_MASK = Structs.handle(StructsEx.IBV_QP_INIT_ATTR_EX, "comp_mask");
    private static final VarHandle QP_INIT_XRCD = Structs.handle(StructsEx.IBV_QP_INIT_ATTR_EX, "xrcd");
    private static final VarHandle OPEN_COMP_MASK = Structs.handle(StructsEx.IBV_QP_OPEN_ATTR, "comp_mask");
    private static final VarHandle OPEN_QP_NUM = Structs.handle(StructsEx.IBV_QP_OPEN_ATTR, "qp_num");
    private static final VarHandle OPEN_ATTR_XRCD = Structs.handle(StructsEx.IBV_QP_OPEN_ATTR, "xrcd");
    private static final VarHandle OPEN_QP_TYPE = Structs.handle(StructsEx.IBV_QP_OPEN_ATTR, "qp_type");
    /** {@code IBV_QPT_XRC_RECV}: the target of the extended reliable connected transport. */
    public static final int QPT_XRC_RECV = 10;
    /** {@code IBV_QP_OPEN_ATTR_NUM | IBV_QP_OPEN_ATTR_XRCD | IBV_QP_OPEN_ATTR_TYPE}. */
    public static final int OPEN_ATTR_NUM_XRCD_TYPE = 1 | 1 << 1 | 1 << 3;
    private static final IbvQpCap NO_QUEUES = new IbvQpCap(0, 0, 0, 0, 0);

    private final MemorySegment closeXrcd;

    private IbvXrcd(MemorySegment raw, IbvContext context, MemorySegment closeXrcd) {
        super(raw, StructsEx.IBV_XRCD, "XRC domain", context.isConfined());
        this.closeXrcd = closeXrcd;
    }

    /**
     * verbs.h's {@code ibv_open_xrcd} with {@code IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS}:
     * the domain of the file open as {@code fd} (shared with the processes that open the same
     * file), or one of its own when {@code fd} is -1; {@code oflags} of {@code open(2)}
     * ({@code O_CREAT}, {@code O_EXCL}).
     *
     * @throws org.jrdma.SysException {@code EOPNOTSUPP} when the provider has no {@code open_xrcd},
     *                                or what it reports
     */
    public static IbvXrcd open(IbvContext context, int fd, int oflags) {
        MemorySegment open = IbvContextEx.requireOp(context, "open_xrcd", "ibv_open_xrcd");
        MemorySegment close = IbvContextEx.requireOp(context, "close_xrcd", "ibv_close_xrcd");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment init = arena.allocate(StructsEx.IBV_XRCD_INIT_ATTR);
            COMP_MASK.set(init, 0L, INIT_ATTR_FD_AND_OFLAGS);
            FD.set(init, 0L, fd);
            OFLAGS.set(init, 0L, oflags);
            MemorySegment raw = (MemorySegment) OPEN_XRCD.invokeExact(open, state, context.ptr, init);
            return new IbvXrcd(Errors.nonNull("ibv_open_xrcd", raw, state), context, close);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * verbs.h's {@code ibv_create_qp_ex} of an XRC target QP ({@code IBV_QPT_XRC_RECV},
     * {@code IBV_QP_INIT_ATTR_XRCD}): no PD, no CQs, no queues of its own; its receives come from
     * the XRC SRQs of {@code xrcd}. {@code xrcd} may be null only to ask the provider what it does
     * without a domain (a provider that supports XRC would read through it).
     *
     * @throws org.jrdma.SysException {@code EOPNOTSUPP} when the provider has no {@code create_qp_ex}
     *                                or refuses the type, or what it reports
     */
    public static IbvQp createTargetQp(IbvContext context, IbvXrcd xrcd) {
        MemorySegment function = IbvContextEx.requireOp(context, "create_qp_ex", "ibv_create_qp_ex");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment init = arena.allocate(StructsEx.IBV_QP_INIT_ATTR_EX);
            QP_INIT_QP_TYPE.set(init, 0L, QPT_XRC_RECV);
            QP_INIT_COMP_MASK.set(init, 0L, IbvQpEx.INIT_ATTR_XRCD);
            QP_INIT_XRCD.set(init, 0L, xrcd == null ? MemorySegment.NULL : xrcd.ptr);
            MemorySegment raw = (MemorySegment) CREATE_QP_EX.invokeExact(function, state, context.ptr, init);
            return IbvQp.adopt(Errors.nonNull("ibv_create_qp_ex", raw, state), context, NO_QUEUES, true);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * verbs.h's {@code ibv_open_qp}: another handle on the XRC target QP {@code qpNum} of
     * {@code xrcd} (made by this or another process sharing the domain), destroyed by
     * {@code ibv_destroy_qp} as its own. {@code xrcd} may be null only to ask the provider what it
     * does without a domain.
     *
     * @throws org.jrdma.SysException {@code EOPNOTSUPP} when the provider has no {@code open_qp}, or
     *                                what it reports
     */
    public static IbvQp openQp(IbvContext context, IbvXrcd xrcd, int qpNum) {
        MemorySegment function = IbvContextEx.requireOp(context, "open_qp", "ibv_open_qp");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment attr = arena.allocate(StructsEx.IBV_QP_OPEN_ATTR);
            OPEN_COMP_MASK.set(attr, 0L, OPEN_ATTR_NUM_XRCD_TYPE);
            OPEN_QP_NUM.set(attr, 0L, qpNum);
            OPEN_ATTR_XRCD.set(attr, 0L, xrcd == null ? MemorySegment.NULL : xrcd.ptr);
            OPEN_QP_TYPE.set(attr, 0L, QPT_XRC_RECV);
            MemorySegment raw = (MemorySegment) OPEN_QP.invokeExact(function, state, context.ptr, attr);
            return IbvQp.adopt(Errors.nonNull("ibv_open_qp", raw, state), context, NO_QUEUES, true);
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

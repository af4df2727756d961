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
 * {@code struct ibv_srq}: a shared receive queue ({@code ibv_create_srq}, {@code ibv_modify_srq},
 * {@code ibv_query_srq}, {@code ibv_destroy_srq}), with its staging area for
 * {@code ibv_post_srq_recv}.
 */
public final class IbvSrq extends NativeObject {
    private static final int MAX_STAGED = 64;

    private static final MethodHandle CREATE_SRQ = Ibv.function("ibv_create_srq",
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS), true);
    private static final MethodHandle MODIFY_SRQ = Ibv.function("ibv_modify_srq",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT), false);
    private static final MethodHandle QUERY_SRQ = Ibv.function("ibv_query_srq",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS), false);
    private static final MethodHandle DESTROY_SRQ = Ibv.function("ibv_destroy_srq",
            FunctionDescriptor.of(JAVA_INT, ADDRESS), false);
    private static final long INIT_ATTR = Structs.offset(Structs.IBV_SRQ_INIT_ATTR, "attr");
    private static final VarHandle MAX_WR = Structs.handle(Structs.IBV_SRQ_ATTR, "max_wr");
    private static final VarHandle MAX_SGE = Structs.handle(Structs.IBV_SRQ_ATTR, "max_sge");
    private static final VarHandle SRQ_LIMIT = Structs.handle(Structs.IBV_SRQ_ATTR, "srq_limit");
    private static final MethodHandle CREATE_SRQ_EX = Ibv.pointerCapturingErrno(
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle GET_SRQ_NUM = Ibv.pointer(FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    private static final long EX_ATTR = Structs.offset(StructsEx.IBV_SRQ_INIT_ATTR_EX, "attr");
    private static final VarHandle EX_COMP_MASK = Structs.handle(StructsEx.IBV_SRQ_INIT_ATTR_EX, "comp_mask");
    private static final VarHandle EX_SRQ_TYPE = Structs.handle(StructsEx.IBV_SRQ_INIT_ATTR_EX, "srq_type");
    private static final VarHandle EX_PD = Structs.handle(StructsEx.IBV_SRQ_INIT_ATTR_EX, "pd");
    private static final VarHandle EX_XRCD = Structs.handle(StructsEx.IBV_SRQ_INIT_ATTR_EX, "xrcd");
    private static final VarHandle EX_CQ = Structs.handle(StructsEx.IBV_SRQ_INIT_ATTR_EX, "cq");
    private static final VarHandle EX_MAX_NUM_TAGS = Structs.handle(StructsEx.IBV_SRQ_INIT_ATTR_EX, "tm_cap.max_num_tags");

    /** {@code IBV_SRQT_BASIC}: a plain shared receive queue. */
    public static final int SRQT_BASIC = 0;
    /** {@code IBV_SRQT_XRC}: the receive queue of XRC target QPs, found by its SRQ number. */
    public static final int SRQT_XRC = 1;
    /** {@code IBV_SRQT_TM}: a tag-matching receive queue. */
    public static final int SRQT_TM = 2;
    /** {@code IBV_SRQ_INIT_ATTR_TYPE}. */
    public static final int INIT_ATTR_TYPE = 1;
    /** {@code IBV_SRQ_INIT_ATTR_PD}. */
    public static final int INIT_ATTR_PD = 1 << 1;
    /** {@code IBV_SRQ_INIT_ATTR_XRCD}. */
    public static final int INIT_ATTR_XRCD = 1 << 2;
    /** {@code IBV_SRQ_INIT_ATTR_CQ}. */
    public static final int INIT_ATTR_CQ = 1 << 3;
    /** {@code IBV_SRQ_INIT_ATTR_TM}. */
    public static final int INIT_ATTR_TM = 1 << 4;

    private final IbvSrqAttr granted;
    private final IbvContext context;
    private final RecvWrs recvWrs;

    private IbvSrq(MemorySegment raw, IbvContext context, IbvSrqAttr granted) {
        super(raw, Structs.IBV_SRQ, "shared receive queue", context.isConfined());
        this.granted = granted;
        this.context = context;
        this.recvWrs = newRecvWrs(Math.clamp(granted.maxWr(), 1, MAX_STAGED));
    }

    /** {@code ibv_create_srq}; the device may grant more than {@code attr} asks. */
    public static IbvSrq create(IbvPd pd, IbvSrqAttr attr) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment init = arena.allocate(Structs.IBV_SRQ_INIT_ATTR);
            write(init, INIT_ATTR, attr);
            MemorySegment raw = (MemorySegment) CREATE_SRQ.invokeExact(state, pd.ptr, init);
            return new IbvSrq(Errors.nonNull("ibv_create_srq", raw, state), pd.context, read(init, INIT_ATTR));
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * verbs.h's {@code ibv_create_srq_ex} of {@code enum ibv_srq_type} {@code srqType} with
     * {@code IBV_SRQ_INIT_ATTR_TYPE | IBV_SRQ_INIT_ATTR_PD}, {@code IBV_SRQ_INIT_ATTR_CQ} when
     * {@code cq} is given, {@code IBV_SRQ_INIT_ATTR_XRCD} when {@code xrcd} is, and
     * {@code IBV_SRQ_INIT_ATTR_TM} with {@code maxNumTags} for a tag-matching queue. As the inline
     * does, a basic queue without a CQ goes to {@code ibv_create_srq}, anything else to the
     * provider's {@code create_srq_ex}. The caller gives the domain an XRC queue needs (libibverbs
     * reads through it).
     *
     * @throws org.jrdma.SysException {@code EOPNOTSUPP} when the provider has no
     *                                {@code create_srq_ex}, or what it or the kernel reports
     */
    public static IbvSrq createEx(IbvPd pd, int srqType, IbvCq cq, IbvXrcd xrcd, int maxNumTags, IbvSrqAttr attr) {
        int mask = INIT_ATTR_TYPE | INIT_ATTR_PD | (cq == null ? 0 : INIT_ATTR_CQ) | (xrcd == null ? 0 : INIT_ATTR_XRCD)
                | (srqType == SRQT_TM ? INIT_ATTR_TM : 0);
        if (srqType == SRQT_BASIC && cq == null && xrcd == null) {
            return create(pd, attr);
        }
        MemorySegment function = IbvContextEx.requireOp(pd.context, "create_srq_ex", "ibv_create_srq_ex");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment init = arena.allocate(StructsEx.IBV_SRQ_INIT_ATTR_EX);
            write(init, EX_ATTR, attr);
            EX_COMP_MASK.set(init, 0L, mask);
            EX_SRQ_TYPE.set(init, 0L, srqType);
            EX_PD.set(init, 0L, pd.ptr);
            EX_XRCD.set(init, 0L, xrcd == null ? MemorySegment.NULL : xrcd.ptr);
            EX_CQ.set(init, 0L, cq == null ? MemorySegment.NULL : cq.ptr);
            EX_MAX_NUM_TAGS.set(init, 0L, srqType == SRQT_TM ? maxNumTags : 0);
            MemorySegment raw = (MemorySegment) CREATE_SRQ_EX.invokeExact(function, state, pd.context.ptr, init);
            return new IbvSrq(Errors.nonNull("ibv_create_srq_ex", raw, state), pd.context, read(init, EX_ATTR));
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * verbs.h's {@code ibv_get_srq_num}: the number an XRC initiator names this (XRC) queue by
     * ({@code wr_set_xrc_srqn}).
     *
     * @throws org.jrdma.SysException {@code EOPNOTSUPP} when the provider has no
     *                                {@code get_srq_num}, or what it returns
     */
    public int srqNum() {
        MemorySegment function = IbvContextEx.requireOp(context, "get_srq_num", "ibv_get_srq_num");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment num = arena.allocate(JAVA_INT);
            Errors.zero("ibv_get_srq_num", (int) GET_SRQ_NUM.invokeExact(function, ptr, num));
            return num.get(JAVA_INT, 0L);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    private static void write(MemorySegment s, long offset, IbvSrqAttr attr) {
        MAX_WR.set(s, offset, attr.maxWr());
        MAX_SGE.set(s, offset, attr.maxSge());
        SRQ_LIMIT.set(s, offset, attr.srqLimit());
    }

    private static IbvSrqAttr read(MemorySegment s, long offset) {
        return new IbvSrqAttr((int) MAX_WR.get(s, offset), (int) MAX_SGE.get(s, offset), (int) SRQ_LIMIT.get(s, offset));
    }

    /** The attributes granted at creation. */
    public IbvSrqAttr granted() {
        return granted;
    }

    /** The staging area of {@code ibv_post_srq_recv}. */
    public RecvWrs recvWrs() {
        return recvWrs;
    }

    /**
     * A further staging area of {@code ibv_post_srq_recv} with room for {@code capacity}
     * requests, in the queue's memory (freed when it is destroyed): for requests prepared once
     * and posted many times.
     */
    public RecvWrs newRecvWrs(int capacity) {
        return new RecvWrs(arena, ptr, context.postSrqRecv, capacity, granted.maxSge());
    }

    /** {@code ibv_modify_srq(srq, attr, mask)}, {@code mask} of {@code IBV_SRQ_MAX_WR}, {@code IBV_SRQ_LIMIT}. */
    public void modify(IbvSrqAttr attr, int mask) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(Structs.IBV_SRQ_ATTR);
            write(a, 0, attr);
            Errors.zero("ibv_modify_srq", (int) MODIFY_SRQ.invokeExact(ptr, a, mask));
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code ibv_query_srq}. */
    public IbvSrqAttr query() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(Structs.IBV_SRQ_ATTR);
            Errors.zero("ibv_query_srq", (int) QUERY_SRQ.invokeExact(ptr, a));
            return read(a, 0);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    @Override
    void destroy(MemorySegment raw) {
        try {
            Errors.zero("ibv_destroy_srq", (int) DESTROY_SRQ.invokeExact(raw));
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }
}

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

package org.jrdma.verbs.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.lang.ref.Reference;
import org.jrdma.ffi.Errors;

/**
 * {@code struct ibv_cq}: a completion queue ({@code ibv_create_cq}, {@code ibv_resize_cq},
 * {@code ibv_destroy_cq}), polled and armed through {@code context->ops.poll_cq} and
 * {@code ops.req_notify_cq}, as verbs.h's inline {@code ibv_poll_cq} and
 * {@code ibv_req_notify_cq} do.
 */
public final class IbvCq extends NativeObject {
    private static final MethodHandle CREATE_CQ = Ibv.function("ibv_create_cq",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT), true);
    private static final MethodHandle RESIZE_CQ = Ibv.function("ibv_resize_cq",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT), false);
    private static final MethodHandle DESTROY_CQ = Ibv.function("ibv_destroy_cq",
            FunctionDescriptor.of(JAVA_INT, ADDRESS), false);
    /** {@code int (*poll_cq)(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc)}. */
    private static final MethodHandle POLL_CQ = Ibv.pointer(FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG));
    /** {@link #POLL_CQ} with the queue by address, for {@link #pollByAddress}. */
    private static final MethodHandle POLL_CQ_BY_ADDRESS = Ibv.pointer(FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_LONG));
    /** {@code int (*req_notify_cq)(struct ibv_cq *cq, int solicited_only)}. */
    private static final MethodHandle REQ_NOTIFY_CQ = Ibv.pointer(FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
    private static final VarHandle CQE = Structs.handle(Structs.IBV_CQ, "cqe");

    private final MemorySegment pollCq;
    private final MemorySegment reqNotifyCq;

    private IbvCq(MemorySegment raw, IbvContext context) {
        super(raw, Structs.IBV_CQ, "completion queue", context.isConfined());
        this.pollCq = context.pollCq;
        this.reqNotifyCq = context.reqNotifyCq;
    }

    /**
     * {@code ibv_create_cq(context, cqe, NULL, channel, compVector)}.
     *
     * @param channel the completion channel for events, or null
     */
    public static IbvCq create(IbvContext context, int cqe, IbvCompChannel channel, int compVector) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment channelPtr = channel == null ? MemorySegment.NULL : channel.ptr;
            MemorySegment raw = (MemorySegment) CREATE_CQ.invokeExact(state, context.ptr, cqe, MemorySegment.NULL,
                    channelPtr, compVector);
            return new IbvCq(Errors.nonNull("ibv_create_cq", raw, state), context);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** Takes ownership of the CQ at {@code raw} made by another constructor ({@code ibv_create_cq_ex}). */
    static IbvCq adopt(MemorySegment raw, IbvContext context) {
        return new IbvCq(raw, context);
    }

    /** {@code cq->cqe}: the entries the queue really has. */
    public int cqe() {
        return (int) CQE.get(ptr, 0L);
    }

    /** {@code ibv_resize_cq}. */
    public void resize(int cqe) {
        try {
            Errors.zero("ibv_resize_cq", (int) RESIZE_CQ.invokeExact(ptr, cqe));
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * {@code ibv_poll_cq(cq, wcs.capacity, wcs)}: takes up to the array's capacity of
     * completions. Allocates nothing.
     *
     * @return how many were taken, 0 when the queue is empty
     */
    public int poll(WcArray wcs) {
        return poll(wcs, wcs.capacity);
    }

    /**
     * {@code ibv_poll_cq(cq, max, wcs)}: takes up to {@code max} completions, 1 to the array's
     * capacity (unchecked). Allocates nothing.
     *
     * @return how many were taken, 0 when the queue is empty
     */
    public int poll(WcArray wcs, int max) {
        try {
            // the array goes by address: as a segment of its automatic arena it would cost a session
            // acquire and release per poll; keeping it reachable across the call keeps it allocated
            int n = (int) POLL_CQ.invokeExact(pollCq, ptr, max, wcs.wcs.address());
            Reference.reachabilityFence(wcs);
            return taken(n);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * {@code ibv_poll_cq(cq, wcs.capacity, wcs)} as {@link #poll(WcArray)}, with the queue by
     * address: the call takes no hold on the queue's memory, so the caller must make sure the
     * queue is not destroyed during the call (a lock that its destruction takes too). Saves a
     * shared queue's two atomic operations a poll. Allocates nothing.
     *
     * @return how many were taken, 0 when the queue is empty
     */
    public int pollByAddress(WcArray wcs) {
        try {
            int n = (int) POLL_CQ_BY_ADDRESS.invokeExact(pollCq, ptr.address(), wcs.capacity, wcs.wcs.address());
            Reference.reachabilityFence(wcs);
            return taken(n);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code ibv_poll_cq}'s result: how many completions were taken, or an exception for a negative errno. */
    private static int taken(int n) {
        if (n < 0) {
            Errors.zero("ibv_poll_cq", n);
        }
        return n;
    }

    /** {@code ibv_req_notify_cq}: arms the queue for one completion event. Allocates nothing. */
    public void reqNotify(boolean solicitedOnly) {
        try {
            Errors.zero("ibv_req_notify_cq", (int) REQ_NOTIFY_CQ.invokeExact(reqNotifyCq, ptr, solicitedOnly ? 1 : 0));
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    @Override
    void destroy(MemorySegment raw) {
        try {
            Errors.zero("ibv_destroy_cq", (int) DESTROY_CQ.invokeExact(raw));
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }
}

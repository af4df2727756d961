package org.jrdma.verbs.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.GroupLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import org.jrdma.ffi.Errors;

/**
 * Native room for posting work requests: a fixed array of {@code struct ibv_send_wr} or
 * {@code struct ibv_recv_wr}, each with its own {@code struct ibv_sge} list, filled field by field
 * and posted as one linked list through a {@code context->ops} function of the verbs
 * {@code post_send}/{@code post_recv}/{@code post_srq_recv} signature
 * {@code int (*)(void *queue, struct ibv_*_wr *wr, struct ibv_*_wr **bad_wr)}. Both request
 * structs begin with {@code wr_id, next, sg_list, num_sge}. Allocates nothing after construction;
 * not thread-safe (the owner serialises posts).
 */
public abstract sealed class WrStaging permits SendWrs, RecvWrs {
    private static final MethodHandle POST = Ibv.pointer(FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG));
    /** {@link #POST} with the queue by address, for {@link #postByAddress}. */
    private static final MethodHandle POST_BY_ADDRESS = Ibv.pointer(FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    private static final long SGE = Structs.IBV_SGE.byteSize();
    private static final VarHandle SGE_ADDR = Structs.handle(Structs.IBV_SGE, "addr");
    private static final VarHandle SGE_LENGTH = Structs.handle(Structs.IBV_SGE, "length");
    private static final VarHandle SGE_LKEY = Structs.handle(Structs.IBV_SGE, "lkey");

    /** The request array, {@link #wrSize} bytes a request. */
    protected final MemorySegment wrs;
    private final long wrSize;
    private final long wrIdOffset;
    /** Pointers are written as 64-bit integers (x86-64), so that no segment is made per post. */
    private final long nextOffset;
    private final MemorySegment queue;
    private final MemorySegment postFunction;
    private final MemorySegment sges;
    private final MemorySegment badWr;
    private final int capacity;
    private final int maxSge;
    private int lastError;

    /**
     * Room for {@code capacity} requests of layout {@code wr}, each with up to {@code maxSge}
     * elements, in {@code arena}, posted to {@code queue} (a QP or an SRQ) through {@code postFunction};
     * {@code arena} must be the one {@code queue} is bound to.
     */
    WrStaging(Arena arena, GroupLayout wr, MemorySegment queue, MemorySegment postFunction, int capacity, int maxSge) {
        this.wrs = arena.allocate(wr, capacity);
        this.wrSize = wr.byteSize();
        this.wrIdOffset = Structs.offset(wr, "wr_id");
        this.nextOffset = Structs.offset(wr, "next");
        this.queue = queue;
        this.postFunction = postFunction;
        this.capacity = capacity;
        this.maxSge = maxSge;
        this.sges = arena.allocate(Structs.IBV_SGE, (long) capacity * Math.max(1, maxSge));
        this.badWr = arena.allocate(ADDRESS);
        long sgList = Structs.offset(wr, "sg_list");
        for (int i = 0; i < capacity; i++) {
            wrs.set(JAVA_LONG, i * wrSize + sgList, sges.address() + (long) i * maxSge * SGE);
        }
    }

    /** How many work requests one {@link #post} takes at most. */
    public final int capacity() {
        return capacity;
    }

    /** How many scatter/gather elements each work request may have. */
    public final int maxSge() {
        return maxSge;
    }

    /** The byte offset of request {@code i}, after pointing its {@code next} at request {@code i + 1}. */
    protected final long link(int i) {
        long base = i * wrSize;
        wrs.set(JAVA_LONG, base + nextOffset, wrs.address() + base + wrSize);
        return base;
    }

    /** Sets {@code wr_id} of work request {@code i}. */
    public final void wrId(int i, long wrId) {
        wrs.set(JAVA_LONG, i * wrSize + wrIdOffset, wrId);
    }

    /** Sets {@code addr} of element {@code j} of work request {@code i}'s scatter/gather list. */
    public final void sgeAddr(int i, int j, long addr) {
        SGE_ADDR.set(sges, ((long) i * maxSge + j) * SGE, addr);
    }

    /** Sets element {@code j} of work request {@code i}'s scatter/gather list. */
    public final void sge(int i, int j, long addr, int length, int lkey) {
        long offset = ((long) i * maxSge + j) * SGE;
        SGE_ADDR.set(sges, offset, addr);
        SGE_LENGTH.set(sges, offset, length);
        SGE_LKEY.set(sges, offset, lkey);
    }

    /**
     * Posts work requests 0 to {@code count - 1} as one list.
     *
     * @return -1 when all were posted, else the index of the first one that was not, the error
     *         number being {@link #lastError()}
     */
    public final int post(int count) {
        wrs.set(JAVA_LONG, (count - 1) * wrSize + nextOffset, 0L);
        int rc;
        try {
            // wrs and badWr go by address: they live in the queue's own arena, which the call keeps
            // open through its queue argument, so as segments they would only add unboxing
            rc = (int) POST.invokeExact(postFunction, queue, wrs.address(), badWr.address());
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
        return result(rc, count);
    }

    /**
     * Posts work requests 0 to {@code count - 1} as {@link #post} does, but hands the provider
     * the queue by address: the call takes no hold on the queue's memory, so the caller must make
     * sure the queue is not destroyed during the call (a lock that its destruction takes too).
     * Saves a shared queue's two atomic operations a post.
     *
     * @return as {@link #post}
     */
    public final int postByAddress(int count) {
        wrs.set(JAVA_LONG, (count - 1) * wrSize + nextOffset, 0L);
        int rc;
        try {
            rc = (int) POST_BY_ADDRESS.invokeExact(postFunction, queue.address(), wrs.address(), badWr.address());
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
        return result(rc, count);
    }

    private int result(int rc, int count) {
        if (rc == 0) {
            return -1;
        }
        lastError = rc;
        return badIndex(count);
    }

    /** The error number of the last failed {@link #post}, as the provider returned it. */
    public final int lastError() {
        return lastError;
    }

    /** The index of the request {@code *bad_wr} points at; 0 when the provider left it outside the {@code count} posted. */
    private int badIndex(int count) {
        long offset = badWr.get(JAVA_LONG, 0) - wrs.address();
        return offset >= 0 && offset < count * wrSize && offset % wrSize == 0 ? (int) (offset / wrSize) : 0;
    }
}

package org.jrdma.vtools;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jrdma.path.IBPath;
import org.jrdma.verbs.Access;
import org.jrdma.verbs.Mr;
import org.jrdma.verbs.Pd;
import org.jrdma.verbs.RecvQueue;
import org.jrdma.verbs.RecvWr;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWr;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.Wc;
import org.jrdma.verbs.WcBuffer;
import org.jrdma.verbs.WcOpcode;
import org.jrdma.verbs.WrException;
import org.jrdma.verbs.WrOpcode;

/**
 * A pool of {@link #count()} buffers of {@link #size()} bytes in one memory region, to send
 * from and receive into: python-rdma's {@code rdma.vtools.BufferPool}. Buffers are named by
 * index; {@link #pop()} takes a free one, {@link #push} returns it. Work requests carry the index
 * in their {@code wr_id} (receives or {@link #RECV_FLAG} in), so {@link #finishWcs} can take the
 * buffers of completed work back and post receives again.
 *
 * <pre>{@code
 * BufferPool pool = new BufferPool(pd, 100, 1024);
 * pool.postRecvs(qp, 50);
 * int buf = pool.pop();
 * pool.copyTo(buf, 0, "Hello message!".getBytes());
 * qp.postSend(pool.makeSendWr(buf, 14, path));     // path null on a connected QP
 * ...
 * pool.finishWcs(qp, wcs);                         // after polling: recover buffers, re-post receives
 * }</pre>
 *
 * <p>Posting receives and finishing completions allocate nothing. Not thread-safe: one pool per
 * thread, or the caller's lock; {@link #close()} alone may be called from any thread. Closing the
 * pool deregisters the region and frees its memory; closing the protection domain first leaves
 * only the memory for {@link #close()}.
 */
public final class BufferPool implements AutoCloseable {
    /** The {@code wr_id} of a request that carries no buffer of the pool. */
    public static final long NO_WR_ID = 0xFFFF_FFFFL;
    /** Or'ed into the {@code wr_id} of a receive the pool posted. */
    public static final long RECV_FLAG = 1L << 32;
    /** Masks a {@code wr_id} down to its buffer index. */
    public static final long BUF_ID_MASK = 0xFFFF_FFFFL;

    /** Receives posted per {@code ibv_post_recv} call. */
    private static final int RECV_BATCH = 16;
    private static final long ALIGNMENT = 4096;

    private final int count;
    private final int size;
    private final Arena arena = Arena.ofShared();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final MemorySegment memory;
    private final Mr mr;
    private final int lkey;
    /** The free buffers, a stack: {@code free[0..top)}. */
    private final int[] free;
    private final boolean[] isFree;
    private int top;
    private final RecvWr[] recvs = new RecvWr[RECV_BATCH];
    private final Sge[] recvSges = new Sge[RECV_BATCH];

    /**
     * Registers {@code count} buffers of {@code size} bytes in {@code pd}, with local write
     * access (the device writes received data into them).
     *
     * @throws IllegalArgumentException if {@code count} or {@code size} is not positive
     * @throws org.jrdma.SysException   if the memory cannot be registered
     */
    public BufferPool(Pd pd, int count, int size) {
        Objects.requireNonNull(pd, "pd");
        if (count < 1 || size < 1) {
            throw new IllegalArgumentException("a pool needs at least one buffer of at least one byte, not "
                    + count + " x " + size);
        }
        this.count = count;
        this.size = size;
        this.memory = arena.allocate((long) count * size, ALIGNMENT);
        try {
            this.mr = pd.mr(memory, Access.LOCAL_WRITE);
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
        this.lkey = mr.lkey();
        this.free = new int[count];
        this.isFree = new boolean[count];
        for (int i = 0; i < count; i++) {
            free[i] = count - 1 - i;
            isFree[i] = true;
        }
        this.top = count;
        for (int i = RECV_BATCH - 1; i >= 0; i--) {
            recvSges[i] = new Sge(0, size, lkey);
            recvs[i] = new RecvWr().sge(recvSges[i]).next(i + 1 < RECV_BATCH ? recvs[i + 1] : null);
        }
    }

    /** The buffer index a {@code wr_id} of the pool's requests carries. */
    public static int bufIdx(long wrId) {
        return (int) (wrId & BUF_ID_MASK);
    }

    /** How many buffers the pool has. */
    public int count() {
        return count;
    }

    /** The size of one buffer, in bytes. */
    public int size() {
        return size;
    }

    /** How many buffers are free. */
    public int available() {
        return top;
    }

    /** The memory region holding every buffer. */
    public Mr mr() {
        return mr;
    }

    /** The local key of the region, for scatter/gather elements. */
    public int lkey() {
        return lkey;
    }

    /** The address of buffer {@code bufIdx}, for a scatter/gather element. */
    public long address(int bufIdx) {
        return memory.address() + (long) Objects.checkIndex(bufIdx, count) * size;
    }

    /** Buffer {@code bufIdx} as a segment of {@link #size()} bytes. */
    public MemorySegment segment(int bufIdx) {
        return memory.asSlice((long) Objects.checkIndex(bufIdx, count) * size, size);
    }

    /**
     * Takes a free buffer.
     *
     * @return its index
     * @throws IllegalStateException if every buffer is in use
     */
    public int pop() {
        if (top == 0) {
            throw new IllegalStateException("all " + count + " buffers of the pool are in use");
        }
        int bufIdx = free[--top];
        isFree[bufIdx] = false;
        return bufIdx;
    }

    /**
     * Returns buffer {@code bufIdx} to the pool.
     *
     * @throws IndexOutOfBoundsException if there is no such buffer
     * @throws IllegalStateException     if it is free already
     */
    public void push(int bufIdx) {
        if (isFree[Objects.checkIndex(bufIdx, count)]) {
            throw new IllegalStateException("buffer " + bufIdx + " is free already");
        }
        isFree[bufIdx] = true;
        free[top++] = bufIdx;
    }

    /**
     * Copies {@code source} into buffer {@code bufIdx} from byte {@code offset}.
     *
     * @throws IndexOutOfBoundsException if it does not fit
     */
    public void copyTo(int bufIdx, int offset, byte[] source) {
        copyTo(bufIdx, offset, source, 0, source.length);
    }

    /**
     * Copies {@code length} bytes of {@code source} from {@code from} into buffer {@code bufIdx}
     * from byte {@code offset}.
     *
     * @throws IndexOutOfBoundsException if the ranges are not inside the array and the buffer
     */
    public void copyTo(int bufIdx, int offset, byte[] source, int from, int length) {
        Objects.checkFromIndexSize(offset, length, size);
        MemorySegment.copy(source, from, memory, ValueLayout.JAVA_BYTE, start(bufIdx) + offset, length);
    }

    /**
     * A copy of {@code length} bytes of buffer {@code bufIdx} from byte {@code offset}.
     *
     * @throws IndexOutOfBoundsException if the range is not inside the buffer
     */
    public byte[] copyFrom(int bufIdx, int offset, int length) {
        byte[] bytes = new byte[length];
        copyFrom(bufIdx, offset, bytes, 0, length);
        return bytes;
    }

    /**
     * Copies {@code length} bytes of buffer {@code bufIdx} from byte {@code offset} into
     * {@code target} from {@code to}; allocates nothing.
     *
     * @throws IndexOutOfBoundsException if the ranges are not inside the buffer and the array
     */
    public void copyFrom(int bufIdx, int offset, byte[] target, int to, int length) {
        Objects.checkFromIndexSize(offset, length, size);
        MemorySegment.copy(memory, ValueLayout.JAVA_BYTE, start(bufIdx) + offset, target, to, length);
    }

    /**
     * A scatter/gather element over the first {@code length} bytes of buffer {@code bufIdx}.
     *
     * @throws IndexOutOfBoundsException if {@code length} exceeds the buffer
     */
    public Sge makeSge(int bufIdx, int length) {
        Objects.checkFromIndexSize(0, length, size);
        return new Sge(address(bufIdx), length, lkey);
    }

    /**
     * A signaled SEND of the first {@code length} bytes of buffer {@code bufIdx}, whose
     * {@code wr_id} is the index: {@link #finishWcs} takes the buffer back when it completes.
     * With a {@code path} (UD), it goes to the path's {@code dqpn} with its {@code qkey}
     * through the address handle {@link Pd#ah(IBPath)} caches; without (null), the request has
     * no destination, as a connected queue pair needs.
     *
     * @throws IllegalArgumentException if {@code path} has no dqpn or qkey
     */
    public SendWr makeSendWr(int bufIdx, int length, IBPath path) {
        SendWr wr = new SendWr().wrId(bufIdx).opcode(WrOpcode.SEND).sge(makeSge(bufIdx, length))
                .flags(SendFlags.SIGNALED);
        if (path != null) {
            int dqpn = path.dqpn().orElseThrow(() -> new IllegalArgumentException("the path has no dqpn: " + path));
            int qkey = path.qkey().orElseThrow(() -> new IllegalArgumentException("the path has no qkey: " + path));
            wr.ud(mr.pd().ah(path), dqpn, qkey);
        }
        return wr;
    }

    /**
     * Posts {@code n} free buffers as whole-buffer receives to {@code queue} (a queue pair or a
     * shared receive queue), each with {@code wr_id} = index | {@link #RECV_FLAG}. Allocates
     * nothing.
     *
     * @throws IllegalStateException if fewer than {@code n} buffers are free
     * @throws WrException           if a request could not be posted; its buffer and those after it are free again
     */
    public void postRecvs(RecvQueue queue, int n) {
        Objects.requireNonNull(queue, "queue");
        if (n > top || n < 0) {
            throw new IllegalStateException("cannot post " + n + " receives: " + top + " of " + count
                    + " buffers are free");
        }
        while (n > 0) {
            int batch = Math.min(n, RECV_BATCH);
            for (int i = 0; i < batch; i++) {
                int bufIdx = pop();
                recvs[i].wrId(bufIdx | RECV_FLAG);
                recvSges[i].addr(memory.address() + (long) bufIdx * size);
            }
            recvs[batch - 1].next(null);
            try {
                queue.postRecv(recvs[0]);
            } catch (WrException e) {
                for (int i = e.badIndex(); i < batch; i++) {
                    push(bufIdx(recvs[i].wrId()));
                }
                throw e;
            } finally {
                recvs[batch - 1].next(batch < RECV_BATCH ? recvs[batch] : null);
            }
            n -= batch;
        }
    }

    /**
     * Finishes every completion in {@code wcs} ({@link #finishWc}), then posts as many receives
     * to {@code queue} as receives completed: python-rdma's {@code finish_wcs}. Every request
     * with a buffer of the pool must be signaled, or its buffer is never recovered. Allocates
     * nothing.
     *
     * @throws org.jrdma.verbs.WcException at the first completion with an error, before re-posting
     */
    public void finishWcs(RecvQueue queue, WcBuffer wcs) {
        int received = 0;
        for (int i = 0; i < wcs.count(); i++) {
            received += recover(wcs, i);
        }
        postRecvs(queue, received);
    }

    /**
     * Finishes one completion: takes its buffer back (a receive the pool posted, or a SEND, RDMA
     * write or RDMA read whose {@code wr_id} is a buffer index, not {@link #NO_WR_ID}), and for
     * a receive posts a new one to {@code queue}. Allocates nothing.
     *
     * @throws org.jrdma.verbs.WcException if the completion has an error
     */
    public void finishWc(RecvQueue queue, Wc wc) {
        postRecvs(queue, recover(wc.buffer(), wc.index()));
    }

    /** Takes back the buffer of completion {@code i}; returns 1 for a receive of the pool, else 0. */
    private int recover(WcBuffer wcs, int i) {
        wcs.check(i);
        long wrId = wcs.wrId(i);
        if ((wrId & RECV_FLAG) != 0) {
            push(bufIdx(wrId));
            return 1;
        }
        if (wrId != NO_WR_ID) {
            WcOpcode opcode = wcs.opcode(i);
            if (opcode == WcOpcode.SEND || opcode == WcOpcode.RDMA_WRITE || opcode == WcOpcode.RDMA_READ) {
                push(bufIdx(wrId));
            }
        }
        return 0;
    }

    private long start(int bufIdx) {
        return (long) Objects.checkIndex(bufIdx, count) * size;
    }

    /**
     * Deregisters the memory region and frees the buffers. Only the first call does it, whichever
     * thread makes it; the others return at once. When {@code ibv_dereg_mr} fails the memory is
     * left allocated on purpose (leaked), since the device may still write to it, and the pool
     * counts as closed. When the region cannot be closed at all (a call on it runs in another
     * thread, or its context is confined to another thread) nothing changes: the pool stays open,
     * to be closed again.
     *
     * @throws org.jrdma.SysException if {@code ibv_dereg_mr} fails
     * @throws IllegalStateException  if the region cannot be closed now
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            mr.close();
        } catch (IllegalStateException notClosed) {
            closed.set(false);
            throw notClosed;
        }
        arena.close();
    }

    @Override
    public String toString() {
        return "BufferPool[" + count + " x " + size + " bytes, " + top + " free, " + mr + "]";
    }
}

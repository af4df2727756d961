package org.jrdma.endpoint;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.jrdma.verbs.Mr;
import org.jrdma.verbs.PreparedRecv;
import org.jrdma.verbs.Qp;
import org.jrdma.verbs.RecvWr;
import org.jrdma.verbs.Sge;

/**
 * An endpoint's receive side: its {@link RdmaEndpoint#RECEIVES} registered receive buffers on the
 * queue pair's receive queue, each with a receive work request prepared once; the messages
 * arrived in them and not yet taken ({@link Arrivals}); and the receives asked for in the
 * asynchronous form, completed in order. A buffer goes back on the receive queue once its message
 * is taken (copied out, or released after {@link RdmaEndpoint#receiveInPlace() a loan}), and every
 * {@value Credits#BATCH} reposts the credits go back to the peer ({@link SendChain#writeCredits}).
 * Everything but the futures' queue is guarded by the endpoint's {@link PostingLock}.
 */
final class ReceiveSide {
    private final RdmaEndpoint endpoint;
    private final PostingLock lock;
    private final MemorySegment buffers;
    private final Credits credits;
    private final SendChain sendChain;
    private final LentBuffers lent;
    private final CallerWait waiting;
    private final Arrivals arrivals = new Arrivals();
    /** Receive buffer {@code i}'s work request, prepared once, with the id {@code RECV_ID | i}. */
    private final PreparedRecv[] preparedRecvs = new PreparedRecv[RdmaEndpoint.RECEIVES];
    private final Queue<CompletableFuture<ByteBuffer>> receives = new ConcurrentLinkedQueue<>();

    /**
     * The receive side of {@code endpoint}, whose receive buffers are the first
     * {@link RdmaEndpoint#RECEIVES} × {@link RdmaEndpoint#MAX_MESSAGE} bytes of {@code mr};
     * nothing is posted until {@link #postAll}.
     */
    ReceiveSide(RdmaEndpoint endpoint, Qp qp, Mr mr, PostingLock lock, Credits credits, SendChain sendChain,
            LentBuffers lent, CallerWait waiting) {
        this.endpoint = endpoint;
        this.lock = lock;
        this.buffers = mr.memory();
        this.credits = credits;
        this.sendChain = sendChain;
        this.lent = lent;
        this.waiting = waiting;
        for (int i = 0; i < RdmaEndpoint.RECEIVES; i++) {
            preparedRecvs[i] = qp.prepareRecv(new RecvWr().wrId(RdmaEndpoint.RECV_ID | i)
                    .sge(new Sge(mr.addr() + RdmaEndpoint.receiveOffset(i), RdmaEndpoint.MAX_MESSAGE, mr.lkey())));
        }
    }

    /** Posts every receive buffer, the peer's first credits. */
    void postAll() {
        lock.lock();
        try {
            for (int i = 0; i < RdmaEndpoint.RECEIVES; i++) {
                preparedRecvs[i].postGuarded();
                credits.postedInitially();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Whether a message has arrived and waits to be taken; read without the lock. */
    boolean anyArrived() {
        return arrivals.any();
    }

    /** Adds the next future of the asynchronous form and delivers to it if its message is here. */
    CompletableFuture<ByteBuffer> receive() {
        CompletableFuture<ByteBuffer> next = new CompletableFuture<>();
        receives.add(next);
        deliver();
        return next;
    }

    /** {@link RdmaEndpoint#receive(MemorySegment)}. */
    int receive(MemorySegment into) throws ClosedChannelException {
        lockArrival();
        try {
            int length = arrivals.nextLength();
            if (length > into.byteSize()) {
                throw new IllegalArgumentException("message of " + length + " bytes, buffer of " + into.byteSize());
            }
            int slot = arrivals.take();
            MemorySegment.copy(buffers, RdmaEndpoint.receiveOffset(slot), into, 0, length);
            repostLocked(slot);
            return length;
        } finally {
            lock.unlock();
        }
    }

    /** {@link RdmaEndpoint#receiveInPlace()}. */
    ReceivedMessage receiveInPlace() throws ClosedChannelException {
        lockArrival();
        try {
            int length = arrivals.nextLength();
            return lent.lendReceive(arrivals.take(), length);
        } finally {
            lock.unlock();
        }
    }

    /** {@link RdmaEndpoint#tryReceiveInPlace()}. */
    ReceivedMessage tryReceiveInPlace() throws ClosedChannelException {
        endpoint.throwIfEnded();
        if (!arrivals.any() && !(waiting.pollOnce() && arrivals.any())) {
            return null;
        }
        lock.lock();
        try {
            if (!arrivals.any()) {
                return null;
            }
            int length = arrivals.nextLength();
            return lent.lendReceive(arrivals.take(), length);
        } finally {
            lock.unlock();
        }
    }

    /** {@link RdmaEndpoint#release(ReceivedMessage)}. */
    void release(ReceivedMessage message) {
        lock.lock();
        try {
            repostLocked(lent.returnReceive(endpoint, message));
        } finally {
            lock.unlock();
        }
    }

    /**
     * The completion of receive buffer {@code slot}'s receive: a message of {@code length} bytes
     * arrived. Queues it, delivers it if a future waits, and wakes a parked receiver.
     */
    void arrived(int slot, int length) {
        lock.lock();
        try {
            arrivals.arrived(slot, length);
        } finally {
            lock.unlock();
        }
        if (!receives.isEmpty()) {
            deliver();
        }
        waiting.wakeReceiver();
    }

    /**
     * Hands arrived messages to waiting futures, in order: copies each out of its receive
     * buffer, reposts the buffer and returns the credit. A message nobody asked for keeps its
     * buffer, so a slow receiver stops the sender. Returns whether it delivered any.
     */
    boolean deliver() {
        // no future waits (the blocking form, or none asked yet): nothing to do, and no lock taken;
        // a receive() adding one delivers itself
        if (endpoint.isDone() || receives.isEmpty()) {
            return false;
        }
        boolean delivered = false;
        while (true) {
            CompletableFuture<ByteBuffer> next;
            byte[] data;
            lock.lock();
            try {
                if (!arrivals.any() || receives.isEmpty() || (next = receives.poll()) == null) {
                    break;
                }
                data = new byte[arrivals.nextLength()];
                int slot = arrivals.take();
                MemorySegment.copy(buffers, ValueLayout.JAVA_BYTE, RdmaEndpoint.receiveOffset(slot), data, 0,
                        data.length);
                repostLocked(slot);
            } finally {
                lock.unlock();
            }
            next.complete(ByteBuffer.wrap(data));
            delivered = true;
        }
        return delivered;
    }

    /** Fails every future still waiting for a message with {@code cause}. */
    void failWaiting(Throwable cause) {
        for (CompletableFuture<ByteBuffer> r; (r = receives.poll()) != null;) {
            r.completeExceptionally(cause);
        }
    }

    /** Waits until a message has arrived; returns with {@link #lock} held and one in {@link #arrivals}. */
    private void lockArrival() throws ClosedChannelException {
        while (true) {
            endpoint.throwIfEnded();
            if (arrivals.any()) {
                lock.lock();
                if (arrivals.any()) {
                    return;
                }
                lock.unlock();
            }
            waiting.await(CallerWait.ARRIVAL);
        }
    }

    /**
     * Reposts receive buffer {@code slot} once its message is taken, and returns the credits when
     * a batch is due; the caller holds {@link #lock}. A failure to post ends the endpoint.
     */
    private void repostLocked(int slot) {
        try {
            if (endpoint.isDone()) {
                return;
            }
            preparedRecvs[slot].postGuarded();
            if (credits.reposted()) {
                sendChain.writeCredits();
            }
        } catch (RuntimeException e) {
            endpoint.fail(e);
        }
    }
}

package org.jrdma.endpoint;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.IntSupplier;
import org.jrdma.verbs.Mr;
import org.jrdma.verbs.PreparedSend;
import org.jrdma.verbs.Qp;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWr;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WrOpcode;

/**
 * What an endpoint puts on its queue pair's send queue, and how: one-sided operations (RDMA
 * WRITE, READ) and messages (SEND) waiting for a send slot or a credit, posted in chains of one
 * {@code ibv_post_send} each, and the credit write (an RDMA WRITE of our posted receives into the
 * peer's counter). A send is signaled only every {@value #SIGNAL_EVERY}, when a future waits for
 * it, or when it ends a chain with few slots free or with the last credit: a signaled completion
 * retires every send posted before it ({@link SendSlots#retire}). A chain of one message, and every credit write,
 * go out as a work request prepared once ({@link PreparedSend}), by the queue pair's address.
 *
 * <p>Posting, and what it changes, is guarded by the endpoint's lock; the queues take work from
 * any thread.
 */
final class SendChain {
    /** At least one send in this many is signaled. */
    static final int SIGNAL_EVERY = 8;
    private static final ValueLayout.OfLong COUNTER = ValueLayout.JAVA_LONG;

    private final Qp qp;
    private final Mr mr;
    private final SendSlots slots;
    private final Credits credits;
    /** A free send slot or -1: the endpoint's, which retires completed sends first when none is free. */
    private final IntSupplier claimSlot;
    /** Where in {@link #mr} the value the credit write carries is staged. */
    private final long stagedCreditsOffset;
    private final Queue<Pending> messages = new ConcurrentLinkedQueue<>();
    private final Queue<OneSided> oneSided = new ConcurrentLinkedQueue<>();
    private final SendWr[] chain = new SendWr[SendSlots.COUNT];
    private final Sge[] chainSges = new Sge[SendSlots.COUNT];
    /** A message's SEND, prepared once: a chain of one goes out through it. */
    private final PreparedSend messageSend;
    /** The credit write, prepared once the peer's counter is known ({@link #startCredits}). */
    private PreparedSend creditWrite;
    private int sinceSignal;

    /** A message copied by {@link RdmaEndpoint#send(ByteBuffer)}, and the future its acknowledgement completes. */
    private record Pending(ByteBuffer message, CompletableFuture<Void> done) {
    }

    /** An RDMA WRITE or READ between local {@code sge} and the peer's {@code remoteAddr}. */
    private record OneSided(WrOpcode opcode, Sge sge, long remoteAddr, int rkey, CompletableFuture<Void> done) {
    }

    SendChain(Qp qp, Mr mr, SendSlots slots, Credits credits, long stagedCreditsOffset, IntSupplier claimSlot) {
        this.qp = qp;
        this.mr = mr;
        this.slots = slots;
        this.credits = credits;
        this.stagedCreditsOffset = stagedCreditsOffset;
        this.claimSlot = claimSlot;
        this.messageSend = qp.prepareSend(new SendWr().opcode(WrOpcode.SEND).sge(new Sge(mr.addr(), 0, mr.lkey())));
        for (int i = 0; i < SendSlots.COUNT; i++) {
            chain[i] = new SendWr();
            chainSges[i] = new Sge(0, 0, 0);
        }
    }

    /** Prepares the credit write once {@link #credits} knows the peer's counter; the caller holds the lock. */
    void startCredits() {
        creditWrite = qp.prepareSend(new SendWr().opcode(WrOpcode.RDMA_WRITE)
                .sge(new Sge(mr.addr() + stagedCreditsOffset, 8, mr.lkey())).flags(SendFlags.SIGNALED)
                .rdma(credits.peerCounterAddr(), credits.peerCounterRkey()));
    }

    /** Queues a message (a copy the caller no longer touches) for a slot and a credit. */
    void queueMessage(ByteBuffer copy, CompletableFuture<Void> done) {
        messages.add(new Pending(copy, done));
    }

    /** Queues an RDMA WRITE or READ for a slot. */
    void queueOneSided(WrOpcode opcode, Sge sge, long remoteAddr, int rkey, CompletableFuture<Void> done) {
        oneSided.add(new OneSided(opcode, sge, remoteAddr, rkey, done));
    }

    /** Whether queued messages or one-sided operations wait (read without the lock). */
    boolean hasQueued() {
        return !messages.isEmpty() || !oneSided.isEmpty();
    }

    /**
     * RDMA-writes how many receives we have posted into the peer's counter, its credits;
     * signaled, so its completion also retires the sends posted before it. The caller holds the lock.
     */
    void writeCredits() {
        mr.memory().set(COUNTER, stagedCreditsOffset, credits.receivesPosted());
        creditWrite.wrId(RdmaEndpoint.CREDIT_WRITE_ID | slots.nextSeq()).postGuarded();
        sinceSignal = 0;
    }

    /**
     * Posts, in one chain, queued one-sided operations while send slots are free, then, while
     * there are credits, the messages blocking sends filled slots with and queued messages for
     * which a slot is free. Returns whether it posted any. The caller holds the lock.
     */
    boolean post() {
        int n = 0;
        boolean messagesOnly = true;
        while (!oneSided.isEmpty()) {
            int slot = claimSlot.getAsInt();
            if (slot < 0) {
                break;
            }
            OneSided op = oneSided.poll();
            if (op == null) {
                slots.release(slot);
                break;
            }
            chain[n++].wrId(slots.posted(slot, op.done())).opcode(op.opcode()).sge(op.sge())
                    .flags(SendFlags.SIGNALED).rdma(op.remoteAddr(), op.rkey());
            messagesOnly = false;
        }
        for (long available = credits.available(); available > 0; available--) {
            int slot;
            int length;
            CompletableFuture<Void> done = null;
            long filled = slots.takeFilled();
            if (filled >= 0) {
                slot = (int) (filled >>> 32);
                length = (int) filled;
            } else {
                if (messages.isEmpty() || (slot = claimSlot.getAsInt()) < 0) {
                    break;
                }
                Pending p = messages.poll();
                if (p == null) {
                    slots.release(slot);
                    break;
                }
                length = p.message().remaining();
                MemorySegment.copy(MemorySegment.ofBuffer(p.message()), 0, mr.memory(), RdmaEndpoint.sendOffset(slot),
                        length);
                done = p.done();
            }
            chainSges[n].set(mr.addr() + RdmaEndpoint.sendOffset(slot), length, mr.lkey());
            chain[n++].wrId(slots.posted(slot, done)).opcode(WrOpcode.SEND).sge(chainSges[n - 1])
                    .flags(done != null ? SendFlags.SIGNALED : 0);
            credits.sent();
        }
        if (n == 0) {
            return false;
        }
        // the last of the chain is signaled when few slots are left, or when it took the last
        // credit: nothing more can be posted until credits come, and the unsignaled sends before
        // it would hold their slots until then, so a sender filling slots meanwhile could run out
        // of them although every send posted is done (and wait for ever if it is the one who must
        // take the peer's messages for the credits to come)
        boolean signalLast = slots.freeCount() < SIGNAL_EVERY || credits.available() <= 0;
        for (int i = 0; i < n; i++) {
            SendWr wr = chain[i];
            if (wr.flags() == SendFlags.SIGNALED || ++sinceSignal >= SIGNAL_EVERY || (i == n - 1 && signalLast)) {
                wr.flags(SendFlags.SIGNALED);
                sinceSignal = 0;
            }
            wr.next(i < n - 1 ? chain[i + 1] : null);
        }
        if (n == 1 && messagesOnly) {
            messageSend.wrId(chain[0].wrId()).flags(chain[0].flags()).sge(0, chainSges[0]).postGuarded();
        } else {
            qp.postSend(chain[0]);
        }
        return true;
    }

    /** Fails the futures of what is queued and not posted. */
    void failQueued(Throwable cause) {
        for (Pending p; (p = messages.poll()) != null;) {
            p.done().completeExceptionally(cause);
        }
        for (OneSided op; (op = oneSided.poll()) != null;) {
            op.done().completeExceptionally(cause);
        }
    }
}

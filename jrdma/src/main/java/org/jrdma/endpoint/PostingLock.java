package org.jrdma.endpoint;

import java.util.concurrent.locks.ReentrantLock;

/**
 * An endpoint's one lock over posting to its queue pair (and the queue pair's destruction:
 * {@link org.jrdma.verbs.Qp#guardWith} takes {@link #guard()}) and what posting changes: the
 * reused work requests, the credits, the send slots and the arrivals. One lock for all, so that
 * a send or a receive takes it once.
 *
 * <p>It never queues: a {@link ReentrantLock} that must wait allocates a queue node, so
 * {@link #lock()} retries, yielding its CPU to the holder after a few tries.
 *
 * <p>A send's completion does not wait for it at all. A caller holds the lock through a post,
 * whose doorbell is a system call in which soft-RoCE does the message's work, and a poller of
 * the completion queue that waited for it would take the CPU from it. So the poller records how
 * far the queue pair's sends are done ({@link #sendsCompleted}) and whoever holds the lock
 * retires them ({@link SendSlots#retire}) before letting go: a poller records, then tries the
 * lock; a holder releases, then looks; one of the two always sees the other, so no completion
 * is left unretired.
 */
final class PostingLock {
    private final ReentrantLock lock = new ReentrantLock();
    private final SendSlots slots;
    /** Run after a release that retired sends (a waiting sender may go on); allocated once. */
    private final Runnable slotsFreed;
    /**
     * The end (the sequence number after the last) of the sends a signaled completion showed
     * done. Written by the thread polling the completion queue, one at a time.
     */
    private volatile long completedSends;
    /** The end of the sends retired so far: {@link #completedSends} as last applied under the lock. */
    private volatile long retiredSends;

    PostingLock(SendSlots slots, Runnable slotsFreed) {
        this.slots = slots;
        this.slotsFreed = slotsFreed;
    }

    /** The lock itself, for {@link org.jrdma.verbs.Qp#guardWith}. */
    ReentrantLock guard() {
        return lock;
    }

    /** Takes the lock without ever queueing for it. */
    void lock() {
        for (int tries = 0; !lock.tryLock(); tries++) {
            if (tries < 16) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }

    /** Takes the lock if it is free now. */
    boolean tryLock() {
        return lock.tryLock();
    }

    /**
     * Releases the lock, first retiring the sends a poller found complete while it was held;
     * takes it back to retire more if a poller recorded more meanwhile and nobody holds it.
     */
    void unlock() {
        do {
            boolean freed = retirementPending() && retireCompleted();
            lock.unlock();
            if (freed) {
                slotsFreed.run();
            }
        } while (retirementPending() && lock.tryLock());
    }

    /**
     * The poller of the completion queue saw a signaled completion: the sends before sequence
     * number {@code end} are done. Retires them now if the lock is free, else leaves them to its
     * holder.
     */
    void sendsCompleted(long end) {
        if (end > completedSends) {
            completedSends = end;
        }
        retireIfFree();
    }

    /** Retires completed sends now if the lock is free; else its holder will as it lets go. */
    void retireIfFree() {
        if (lock.tryLock()) {
            unlock();
        }
    }

    /** Whether completed sends wait to be retired (read without the lock). */
    boolean retirementPending() {
        return retiredSends < completedSends;
    }

    /** A free send slot, retiring completed sends first if none is free, or -1; the caller holds the lock. */
    int claimSlot() {
        int slot = slots.claim();
        if (slot < 0 && retirementPending()) {
            retireCompleted();
            slot = slots.claim();
        }
        return slot;
    }

    /** Retires the sends up to {@link #completedSends}; the caller holds the lock. */
    private boolean retireCompleted() {
        long end = completedSends;
        retiredSends = end;
        return slots.retire(end);
    }
}

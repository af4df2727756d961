package org.jrdma.verbs;

import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The lock a caller may give a queue ({@link Cq#guardWith}, {@link Qp#guardWith}) to serialise
 * the calls it makes by address (no hold on the queue's memory) with the queue's destruction:
 * set once, held by the caller around each such call, and taken by the destruction too.
 */
final class DestroyGuard {
    private volatile ReentrantLock lock;

    /**
     * Makes {@code lock} the guard.
     *
     * @throws IllegalStateException {@code "<what> is guarded already"} if a guard is set
     */
    synchronized void set(ReentrantLock lock, String what) {
        if (this.lock != null) {
            throw new IllegalStateException(what + " is guarded already");
        }
        this.lock = Objects.requireNonNull(lock, "lock");
    }

    /** Whether a guard is set and the calling thread holds it. */
    boolean heldByCaller() {
        ReentrantLock held = lock;
        return held != null && held.isHeldByCurrentThread();
    }

    /** Runs {@code destroy} holding the guard, if one is set (waiting for a guarded call under way). */
    void destroy(Runnable destroy) {
        ReentrantLock held = lock;
        if (held == null) {
            destroy.run();
            return;
        }
        held.lock();
        try {
            destroy.run();
        } finally {
            held.unlock();
        }
    }
}

package org.jrdma.verbs;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.jrdma.SysException;
import org.jrdma.verbs.ffi.NativeObject;

/**
 * The lifecycle every verbs object shares, as python-rdma's objects keep track of their
 * children: an object depends on the objects it was made from or refers to (a QP on its PD, its
 * CQs and its SRQ; a CQ on its context and its completion channel), and {@link #close()} first
 * closes everything that depends on it, newest first, then destroys itself. Closing is
 * idempotent; using a closed object throws {@link IllegalStateException}.
 */
abstract sealed class Resource implements AutoCloseable permits Context, Pd, Mr, CompChannel, Cq, Qp, Srq, Ah, Mw, Xrcd, Td,
        Flow, XrcTargetQp {
    /** Guards {@link #dependents} and {@link #accepting}; never held while calling out. */
    private final Object lock = new Object();
    private final Set<Resource> dependents = new LinkedHashSet<>();
    private boolean accepting = true;
    private List<Resource> owners = List.of();
    private volatile boolean closed;

    /** An open object that depends on nothing yet; see {@link #register}. */
    Resource() {
    }

    /** What this object is, for messages: {@code "QP 0x000011 on rxe0"}. */
    abstract String describe();

    /**
     * Frees the native object: first makes it unusable (which fails with
     * {@link IllegalStateException}, changing nothing, while a call on it runs in another
     * thread), then destroys it ({@link SysException} if libibverbs refuses).
     */
    abstract void release();

    /** Called once the object is closed, even when destroying it failed. */
    void afterClose() {
    }

    /**
     * Records that this new object depends on {@code owners} (nulls skipped). When one of them is
     * closed or closing, destroys this object and throws.
     *
     * @throws IllegalStateException if an owner is closed
     */
    final void register(Resource... owners) {
        List<Resource> done = new ArrayList<>();
        for (Resource owner : owners) {
            if (owner == null) {
                continue;
            }
            if (!owner.adopt(this)) {
                done.forEach(o -> o.forget(this));
                IllegalStateException e = new IllegalStateException(owner.describe() + " is closed");
                try {
                    release();
                } catch (RuntimeException r) {
                    e.addSuppressed(r);
                }
                closed = true;
                throw e;
            }
            done.add(owner);
        }
        this.owners = List.copyOf(done);
    }

    /**
     * Makes this object depend on {@code owner} too, as {@link #register} does: for an object that
     * moves to another owner ({@code ibv_rereg_mr} into another domain), before the move.
     *
     * @throws IllegalStateException if {@code owner} is closed
     */
    final synchronized void addOwner(Resource owner) {
        if (!owner.adopt(this)) {
            throw new IllegalStateException(owner.describe() + " is closed");
        }
        owners = Stream.concat(owners.stream(), Stream.of(owner)).toList();
    }

    /** Ends this object's dependence on {@code owner}: after a move, or when it failed. */
    final synchronized void dropOwner(Resource owner) {
        owner.forget(this);
        owners = owners.stream().filter(o -> o != owner).toList();
    }

    private boolean adopt(Resource dependent) {
        synchronized (lock) {
            if (!accepting) {
                return false;
            }
            dependents.add(dependent);
            return true;
        }
    }

    private void forget(Resource dependent) {
        synchronized (lock) {
            dependents.remove(dependent);
        }
    }

    /**
     * Throws unless the object is open: the check at the start of every operation.
     *
     * @throws IllegalStateException if it is closed
     */
    final void checkOpen() {
        if (closed) {
            throw new IllegalStateException(describe() + " is closed");
        }
    }

    /**
     * Whether the calling thread holds the lock that guards this object's destruction and the
     * object is open: then a call may pass the object by address. Objects without a guard: false.
     */
    boolean guardedByCaller() {
        return false;
    }

    /**
     * The exception a call on this object gives for {@code e}, raised on {@code handle}'s native
     * memory: when another thread's close freed that memory after the call's {@link #checkOpen},
     * the closed object's exception (with {@code e} as its cause) rather than the JDK's bare
     * "Already closed"; otherwise {@code e}.
     */
    final IllegalStateException closedDuringCall(IllegalStateException e, NativeObject handle) {
        return handle.isOpen() ? e : new IllegalStateException(describe() + " is closed", e);
    }

    /** Whether {@link #close()} has completed. */
    public final boolean isClosed() {
        return closed;
    }

    /**
     * Closes the objects that depend on this one, newest first, then destroys this one. Does
     * nothing when already closed.
     *
     * @throws IllegalStateException when a call on this object or a dependent is running in
     *                               another thread: what could not be closed stays open
     * @throws SysException          when libibverbs failed to destroy an object; it counts as
     *                               closed all the same. Several failures come as one, the
     *                               others suppressed.
     */
    @Override
    public final void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            RuntimeException failure = null;
            List<Resource> snapshot;
            synchronized (lock) {
                snapshot = new ArrayList<>(dependents);
            }
            for (Resource dependent : snapshot.reversed()) {
                try {
                    dependent.close();
                } catch (RuntimeException e) {
                    failure = collect(failure, e);
                }
            }
            synchronized (lock) {
                if (!dependents.isEmpty()) {
                    IllegalStateException e = new IllegalStateException(describe() + " not closed: "
                            + dependents.size() + " object(s) depending on it could not be closed");
                    if (failure != null) {
                        e.addSuppressed(failure);
                    }
                    throw e;
                }
                accepting = false;
            }
            try {
                release();
            } catch (IllegalStateException busy) {
                synchronized (lock) {
                    accepting = true;
                }
                throw busy;
            } catch (RuntimeException e) {
                failure = collect(failure, e);
            }
            closed = true;
            owners.forEach(owner -> owner.forget(this));
            afterClose();
            if (failure != null) {
                throw failure;
            }
        }
    }

    private static RuntimeException collect(RuntimeException first, RuntimeException next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }

    @Override
    public String toString() {
        return describe() + (closed ? " (closed)" : "");
    }
}

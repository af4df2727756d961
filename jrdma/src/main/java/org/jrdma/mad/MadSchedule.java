package org.jrdma.mad;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jrdma.RdmaException;

/**
 * The seed's parallel MAD scheduler ({@code rdma.sched.MADSchedule}) on virtual threads: work is
 * plain blocking code that calls the ordinary RPC methods ({@link MadTransactor}, {@link SmpClient}, {@link GmpClient});
 * every piece of queued work runs on its own virtual thread, and the engine's
 * {@code maxOutstanding} bounds how many MADs are on the wire at once.
 *
 * <p>The seed's patterns: {@link #queue} starts one piece of work and returns a handle whose
 * {@link Task#join()} waits for its result (a coroutine yielding another coroutine is simply a
 * method call); {@link #mqueue} starts the work an iterator yields, pulling more as earlier work
 * finishes, so a generator of millions of items never holds more than a window of them;
 * {@link #run} waits until all work, including work queued by work, is done. A failure in any
 * work is rethrown by {@code run} (others suppressed into it), after the rest has finished.
 *
 * <pre>{@code
 * try (MadSchedule sched = new MadSchedule(64)) {
 *     sched.mqueue(nodes.stream().map(n -> () -> n.info = smp.get(new SmpNodeInfo(), n.route, 0)).iterator());
 *     sched.run();
 * }
 * }</pre>
 */
public final class MadSchedule implements AutoCloseable {
    private final int window;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition idle = lock.newCondition();
    private final List<Throwable> failures = new ArrayList<>();
    private int running;
    private boolean closed;

    /**
     * @param window how many pieces of work an {@link #mqueue} keeps started ahead at most (use the
     *               engine's {@code maxOutstanding} or a small multiple of it)
     */
    public MadSchedule(int window) {
        if (window < 1) {
            throw new IllegalArgumentException("window must be at least 1, not " + window);
        }
        this.window = window;
    }

    /** How many pieces of work an {@link #mqueue} keeps started ahead at most. */
    public int window() {
        return window;
    }

    /** A piece of queued work. */
    public static final class Task<T> {
        private final CompletableFuture<T> future;

        private Task(CompletableFuture<T> future) {
            this.future = future;
        }

        /** Waits for the work and returns its result, or rethrows its failure. */
        public T join() {
            try {
                return future.join();
            } catch (CompletionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : new RdmaException("scheduled work failed", e.getCause());
            }
        }

        /** Whether the work has finished, successfully or not. */
        public boolean isDone() {
            return future.isDone();
        }
    }

    /** Starts {@code work} on its own virtual thread. */
    public <T> Task<T> queue(Callable<T> work) {
        CompletableFuture<T> future = new CompletableFuture<>();
        begin();
        Thread.ofVirtual().name("jrdma-sched").start(() -> {
            try {
                future.complete(work.call());
            } catch (Throwable t) {
                future.completeExceptionally(t);
                fail(t);
            } finally {
                end();
            }
        });
        return new Task<>(future);
    }

    /** Starts {@code work} with no result. */
    public Task<Void> queue(Runnable work) {
        return queue(() -> {
            work.run();
            return null;
        });
    }

    /**
     * Starts every piece of work {@code works} yields, at most the window at a time; the returned
     * task finishes when the iterator is exhausted and all its work has finished.
     */
    public Task<Void> mqueue(Iterator<? extends Callable<?>> works) {
        Semaphore slots = new Semaphore(window);
        return queue(() -> {
            List<Task<?>> started = new ArrayList<>();
            while (works.hasNext()) {
                slots.acquire();
                Callable<?> next = works.next();
                started.add(queue(() -> {
                    try {
                        return next.call();
                    } finally {
                        slots.release();
                    }
                }));
            }
            for (Task<?> t : started) {
                t.future.exceptionally(e -> null).join();
            }
            return null;
        });
    }

    /**
     * Waits until every piece of queued work has finished.
     *
     * @throws RuntimeException the first failure of any work, the others suppressed into it
     */
    public void run() {
        lock.lock();
        try {
            while (running > 0) {
                idle.awaitUninterruptibly();
            }
            if (!failures.isEmpty()) {
                Throwable first = failures.getFirst();
                RuntimeException thrown = first instanceof RuntimeException r ? r : new RdmaException("scheduled work failed", first);
                for (Throwable other : failures.subList(1, failures.size())) {
                    thrown.addSuppressed(other);
                }
                failures.clear();
                throw thrown;
            }
        } finally {
            lock.unlock();
        }
    }

    /** Waits for all work ({@link #run}) and refuses new work. */
    @Override
    public void close() {
        try {
            run();
        } finally {
            lock.lock();
            try {
                closed = true;
            } finally {
                lock.unlock();
            }
        }
    }

    private void begin() {
        lock.lock();
        try {
            if (closed) {
                throw new IllegalStateException("MadSchedule is closed");
            }
            running++;
        } finally {
            lock.unlock();
        }
    }

    private void end() {
        lock.lock();
        try {
            if (--running == 0) {
                idle.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    private void fail(Throwable t) {
        lock.lock();
        try {
            failures.add(t);
        } finally {
            lock.unlock();
        }
    }
}

package org.jrdma.testkit;

import java.lang.management.ManagementFactory;

/**
 * The JVM's per-thread counters ({@code com.sun.management.ThreadMXBean}): the bytes a thread has
 * allocated and the CPU time it has used, for tests that measure what the code they run costs.
 * The test sources of module org.jrdma cannot read java.management; this class, in a module that
 * does, reads it for them.
 */
public final class ThreadCounters {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private ThreadCounters() {
    }

    /** A piece of work whose allocation {@link #allocatedBy} measures. */
    @FunctionalInterface
    public interface Work<E extends Exception> {
        void run() throws E;
    }

    /** The bytes {@code thread} has allocated so far (-1 once it has ended). */
    public static long allocatedBytes(Thread thread) {
        return THREADS.getThreadAllocatedBytes(thread.threadId());
    }

    /** The bytes the calling thread has allocated so far. */
    public static long allocatedBytes() {
        return THREADS.getCurrentThreadAllocatedBytes();
    }

    /** The CPU time the calling thread has used so far, in nanoseconds. */
    public static long cpuTimeNanos() {
        return THREADS.getCurrentThreadCpuTime();
    }

    /**
     * The bytes the calling thread allocates while it runs {@code work}, less what reading the
     * counter itself costs (measured just before), never below 0.
     */
    public static <E extends Exception> long allocatedBy(Work<E> work) throws E {
        long first = allocatedBytes();
        long second = allocatedBytes();
        work.run();
        long third = allocatedBytes();
        return Math.max(0, (third - second) - (second - first));
    }
}

package org.jrdma.examples;

import java.lang.management.ManagementFactory;

/**
 * Counts the bytes the current thread allocates between {@link #start()} and {@link #stop()}
 * ({@code com.sun.management.ThreadMXBean.getCurrentThreadAllocatedBytes}), less what reading
 * the counter itself costs.
 */
final class AllocationMeter {
    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private long overhead;
    private long start;

    /** Starts counting. */
    void start() {
        long first = threads.getCurrentThreadAllocatedBytes();
        long second = threads.getCurrentThreadAllocatedBytes();
        overhead = second - first;
        start = threads.getCurrentThreadAllocatedBytes();
    }

    /** The bytes allocated since {@link #start()}. */
    long stop() {
        long end = threads.getCurrentThreadAllocatedBytes();
        return Math.max(0, end - start - overhead);
    }

    /**
     * The line the Java tools print with {@code --alloc}, which {@code org.jrdma.bench.VerbsBenchmark} reads:
     * {@code "java alloc: B bytes, O ops, X bytes/op"}, where an operation is a work request
     * posted or a completion polled.
     */
    static String report(long bytes, long ops) {
        return String.format("java alloc: %d bytes, %d ops, %s bytes/op", bytes, ops,
                CFormat.fixed(ops == 0 ? 0 : (double) bytes / ops, 3));
    }
}

package org.jrdma.endpoint;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The endpoint's registered send buffers ({@link #COUNT} "slots", one message or one-sided
 * operation each) through their life: free (claimed by senders without a lock), filled by a
 * blocking send and waiting for a credit ({@link #fill}, in order), and posted until a signaled
 * completion at or after them retires them ({@link #posted}, {@link #retire}): a reliable
 * connection's send queue completes in order, so one signaled work request retires every
 * unsignaled one posted before it.
 */
final class SendSlots {
    /** Slots per endpoint: the bits of an int. */
    static final int COUNT = 32;

    private final AtomicInteger free = new AtomicInteger(-1);
    /** Filled and not posted, in order: guarded by this object's lock. */
    private final int[] filledSlots = new int[COUNT];
    private final int[] filledLengths = new int[COUNT];
    private int filledHead;
    private volatile int filledCount;
    /** Posted and not retired, in post order, with their futures: guarded by the endpoint's posting lock. */
    private final int[] postedSlots = new int[COUNT];
    private final CompletableFuture<?>[] futures = new CompletableFuture<?>[COUNT];
    private long postedSeq;
    private long retiredSeq;

    /** Takes a free slot, or returns -1 if none is free. */
    int claim() {
        while (true) {
            int bits = free.get();
            if (bits == 0) {
                return -1;
            }
            int slot = Integer.numberOfTrailingZeros(bits);
            if (free.compareAndSet(bits, bits & ~(1 << slot))) {
                return slot;
            }
        }
    }

    /** Gives back a slot claimed and not posted. */
    void release(int slot) {
        int bits;
        do {
            bits = free.get();
        } while (!free.compareAndSet(bits, bits | 1 << slot));
    }

    /** Whether a slot is free. */
    boolean anyFree() {
        return free.get() != 0;
    }

    /** How many slots are free. */
    int freeCount() {
        return Integer.bitCount(free.get());
    }

    /** Queues claimed {@code slot}, filled with a message of {@code length} bytes, for posting. */
    synchronized void fill(int slot, int length) {
        int tail = (filledHead + filledCount) % COUNT;
        filledSlots[tail] = slot;
        filledLengths[tail] = length;
        filledCount++;
    }

    /** Whether filled slots wait for posting (read without the lock). */
    boolean anyFilled() {
        return filledCount > 0;
    }

    /** The next filled slot and its length as {@code slot << 32 | length}, or -1 if none. */
    synchronized long takeFilled() {
        if (filledCount == 0) {
            return -1;
        }
        long next = (long) filledSlots[filledHead] << 32 | filledLengths[filledHead];
        filledHead = (filledHead + 1) % COUNT;
        filledCount--;
        return next;
    }

    /** Records {@code slot} as posted next, with the future its completion completes (or null); returns its sequence number. */
    long posted(int slot, CompletableFuture<?> done) {
        int i = (int) (postedSeq % COUNT);
        postedSlots[i] = slot;
        futures[i] = done;
        return postedSeq++;
    }

    /** The sequence number the next posted slot will get. */
    long nextSeq() {
        return postedSeq;
    }

    /**
     * Retires the slots posted before sequence number {@code end}: completes their futures and
     * frees them. Returns whether any was retired.
     */
    boolean retire(long end) {
        boolean any = retiredSeq < end;
        while (retiredSeq < end) {
            int i = (int) (retiredSeq++ % COUNT);
            CompletableFuture<?> done = futures[i];
            futures[i] = null;
            release(postedSlots[i]);
            if (done != null) {
                done.complete(null);
            }
        }
        return any;
    }

    /** Fails the futures of the slots posted and not retired. */
    void failPosted(Throwable cause) {
        for (int i = 0; i < COUNT; i++) {
            CompletableFuture<?> done = futures[i];
            futures[i] = null;
            if (done != null) {
                done.completeExceptionally(cause);
            }
        }
    }
}

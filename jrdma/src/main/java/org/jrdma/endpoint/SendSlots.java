package org.jrdma.endpoint;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;

/**
 * The endpoint's registered send buffers ({@link #COUNT} "slots", one message or one-sided
 * operation each) through their life: free, filled by a blocking send and waiting for a credit
 * ({@link #fill}, in order), and posted until a signaled completion at or after them retires them
 * ({@link #posted}, {@link #retire}): a reliable connection's send queue completes in order, so
 * one signaled work request retires every unsignaled one posted before it. Guarded by the
 * endpoint's lock, but for {@link #anyFree()} and {@link #anyFilled()}, which a waiting caller
 * reads without it.
 */
final class SendSlots {
    /** Slots per endpoint: the bits of an int. */
    static final int COUNT = 32;
    private static final VarHandle FREE;
    private static final VarHandle FILLED_COUNT;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            FREE = lookup.findVarHandle(SendSlots.class, "free", int.class);
            FILLED_COUNT = lookup.findVarHandle(SendSlots.class, "filledCount", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** One bit per free slot; written with release semantics, so that readers without the lock see it. */
    private int free = -1;
    /** Filled and not posted, in order. */
    private final int[] filledSlots = new int[COUNT];
    private final int[] filledLengths = new int[COUNT];
    private int filledHead;
    private int filledCount;
    /** Posted and not retired, in post order, with their futures. */
    private final int[] postedSlots = new int[COUNT];
    private final CompletableFuture<?>[] futures = new CompletableFuture<?>[COUNT];
    private long postedSeq;
    private long retiredSeq;

    /** Takes a free slot, or returns -1 if none is free. */
    int claim() {
        int bits = free;
        if (bits == 0) {
            return -1;
        }
        int slot = Integer.numberOfTrailingZeros(bits);
        FREE.setRelease(this, bits & ~(1 << slot));
        return slot;
    }

    /** Gives back a slot claimed and not posted. */
    void release(int slot) {
        FREE.setRelease(this, free | 1 << slot);
    }

    /** Whether a slot is free (read without the lock). */
    boolean anyFree() {
        return (int) FREE.getAcquire(this) != 0;
    }

    /** How many slots are free. */
    int freeCount() {
        return Integer.bitCount(free);
    }

    /** Queues claimed {@code slot}, filled with a message of {@code length} bytes, for posting. */
    void fill(int slot, int length) {
        int tail = (filledHead + filledCount) % COUNT;
        filledSlots[tail] = slot;
        filledLengths[tail] = length;
        FILLED_COUNT.setRelease(this, filledCount + 1);
    }

    /** Whether filled slots wait for posting (read without the lock). */
    boolean anyFilled() {
        return (int) FILLED_COUNT.getAcquire(this) > 0;
    }

    /** The next filled slot and its length as {@code slot << 32 | length}, or -1 if none. */
    long takeFilled() {
        if (filledCount == 0) {
            return -1;
        }
        long next = (long) filledSlots[filledHead] << 32 | filledLengths[filledHead];
        filledHead = (filledHead + 1) % COUNT;
        FILLED_COUNT.setRelease(this, filledCount - 1);
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

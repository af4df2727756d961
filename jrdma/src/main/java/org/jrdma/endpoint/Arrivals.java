package org.jrdma.endpoint;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Messages received and not yet taken by the application, in order: a ring of receive buffer
 * numbers and lengths, at most {@link RdmaEndpoint#RECEIVES}. A received message keeps its buffer
 * until it is taken, so a slow receiver holds back credits and stops the sender. Filled by
 * whichever thread polls the completion queue; taken by receives. Guarded by the endpoint's lock,
 * but for {@link #any()}, which a waiting caller reads without it.
 */
final class Arrivals {
    private static final VarHandle COUNT;

    static {
        try {
            COUNT = MethodHandles.lookup().findVarHandle(Arrivals.class, "count", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int[] slots = new int[RdmaEndpoint.RECEIVES];
    private final int[] lengths = new int[RdmaEndpoint.RECEIVES];
    private int head;
    /** Written with release semantics, so that readers without the lock see it. */
    private int count;

    /** Adds the message of {@code length} bytes that arrived in receive buffer {@code slot}. */
    void arrived(int slot, int length) {
        int tail = (head + count) % slots.length;
        slots[tail] = slot;
        lengths[tail] = length;
        COUNT.setRelease(this, count + 1);
    }

    /** Whether a message waits (read without the lock). */
    boolean any() {
        return (int) COUNT.getAcquire(this) > 0;
    }

    /** The length of the next message; there must be one. */
    int nextLength() {
        return lengths[head];
    }

    /** Removes the next message and returns its receive buffer; there must be one. */
    int take() {
        int slot = slots[head];
        head = (head + 1) % slots.length;
        COUNT.setRelease(this, count - 1);
        return slot;
    }
}

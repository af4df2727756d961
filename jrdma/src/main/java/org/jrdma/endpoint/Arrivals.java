package org.jrdma.endpoint;

/**
 * Messages received and not yet taken by the application, in order: a ring of receive buffer
 * numbers and lengths, at most {@link RdmaEndpoint#RECEIVES}. A received message keeps its buffer
 * until it is taken, so a slow receiver holds back credits and stops the sender. Filled by
 * whichever thread polls the completion queue; taken by receives. Guarded by this object's lock.
 */
final class Arrivals {
    private final int[] slots = new int[RdmaEndpoint.RECEIVES];
    private final int[] lengths = new int[RdmaEndpoint.RECEIVES];
    private int head;
    private volatile int count;

    /** Adds the message of {@code length} bytes that arrived in receive buffer {@code slot}. */
    synchronized void arrived(int slot, int length) {
        int tail = (head + count) % slots.length;
        slots[tail] = slot;
        lengths[tail] = length;
        count++;
    }

    /** Whether a message waits (read without the lock). */
    boolean any() {
        return count > 0;
    }

    /** The length of the next message; there must be one. */
    int nextLength() {
        return lengths[head];
    }

    /** Removes the next message and returns its receive buffer; there must be one. */
    int take() {
        int slot = slots[head];
        head = (head + 1) % slots.length;
        count--;
        return slot;
    }
}

package org.jrdma.endpoint;

import java.lang.foreign.MemorySegment;

/**
 * A message received into one of an endpoint's registered receive buffers and lent to the
 * application there by {@link RdmaEndpoint#receiveInPlace()}, with no copy: its
 * {@link #length()} bytes are at the start of {@link #memory()}. The buffer stays the
 * application's until {@link RdmaEndpoint#release(ReceivedMessage) released}, which posts it
 * again for the next message; a receive buffer held is a credit the peer does not have, so an
 * application that holds messages slows its sender down (flow control), and one that holds all
 * {@value RdmaEndpoint#RECEIVES} stops it. Once released it must not be touched; once the
 * endpoint is closed its memory is freed, and using it throws {@link IllegalStateException}.
 *
 * <p>Each receive buffer has one such object, made once and reused for every message it
 * receives, so receiving in place allocates nothing.
 */
public final class ReceivedMessage {
    private final RdmaEndpoint owner;
    private final int slot;
    private final MemorySegment memory;
    private int length;

    ReceivedMessage(RdmaEndpoint owner, int slot, MemorySegment memory) {
        this.owner = owner;
        this.slot = slot;
        this.memory = memory;
    }

    /** The receive buffer's registered memory, {@link RdmaEndpoint#MAX_MESSAGE} bytes, the message at its start. */
    public MemorySegment memory() {
        return memory;
    }

    /** The message's length in bytes. */
    public int length() {
        return length;
    }

    RdmaEndpoint owner() {
        return owner;
    }

    int slot() {
        return slot;
    }

    /** Lends the buffer for a message of {@code bytes}; the endpoint's lock is held. */
    ReceivedMessage lend(int bytes) {
        this.length = bytes;
        return this;
    }

    @Override
    public String toString() {
        return "ReceivedMessage[" + slot + ", " + length + " bytes]";
    }
}

package org.jrdma.endpoint;

import java.lang.foreign.MemorySegment;

/**
 * One of an endpoint's registered send buffers, lent to the application by
 * {@link RdmaEndpoint#claimSendBuffer()}: the application writes its message into
 * {@link #memory()} and {@link RdmaEndpoint#send(SendBuffer, int) sends} it from there, with no
 * copy, or {@link RdmaEndpoint#release(SendBuffer) gives it back} unsent. Once sent or given
 * back it is the endpoint's again and must not be touched; once the endpoint is closed its
 * memory is freed, and using it throws {@link IllegalStateException}.
 *
 * <p>An endpoint has {@value SendSlots#COUNT} of them, shared with its copying sends and its
 * one-sided operations; each is made once, so claiming and sending allocate nothing.
 */
public final class SendBuffer {
    private final RdmaEndpoint owner;
    private final int slot;
    private final MemorySegment memory;

    SendBuffer(RdmaEndpoint owner, int slot, MemorySegment memory) {
        this.owner = owner;
        this.slot = slot;
        this.memory = memory;
    }

    /** The buffer's registered memory, {@link RdmaEndpoint#MAX_MESSAGE} bytes, the message from its start. */
    public MemorySegment memory() {
        return memory;
    }

    RdmaEndpoint owner() {
        return owner;
    }

    int slot() {
        return slot;
    }

    @Override
    public String toString() {
        return "SendBuffer[" + slot + "]";
    }
}

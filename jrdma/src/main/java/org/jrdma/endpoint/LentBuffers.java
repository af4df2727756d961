package org.jrdma.endpoint;

import java.lang.foreign.MemorySegment;

/**
 * Which of an endpoint's registered buffers are lent to the application, with the one
 * {@link SendBuffer} and the one {@link ReceivedMessage} each buffer has, made once: a bit per
 * send slot ({@value SendSlots#COUNT}) and per receive buffer ({@value RdmaEndpoint#RECEIVES}).
 * The bits catch a buffer sent or released twice, or handed to another endpoint. Guarded by the
 * endpoint's lock.
 */
final class LentBuffers {
    private final SendBuffer[] sends = new SendBuffer[SendSlots.COUNT];
    private final ReceivedMessage[] receives = new ReceivedMessage[RdmaEndpoint.RECEIVES];
    private int lentSends;
    private long lentReceives;

    /**
     * The buffers of {@code owner}, whose registered memory {@code memory} holds receive buffer
     * and send slot {@code i} at {@link RdmaEndpoint#receiveOffset} and {@link RdmaEndpoint#sendOffset}.
     */
    LentBuffers(RdmaEndpoint owner, MemorySegment memory) {
        for (int i = 0; i < sends.length; i++) {
            sends[i] = new SendBuffer(owner, i, memory.asSlice(RdmaEndpoint.sendOffset(i), RdmaEndpoint.MAX_MESSAGE));
        }
        for (int i = 0; i < receives.length; i++) {
            receives[i] = new ReceivedMessage(owner, i,
                    memory.asSlice(RdmaEndpoint.receiveOffset(i), RdmaEndpoint.MAX_MESSAGE));
        }
    }

    /** Lends claimed send slot {@code slot}. */
    SendBuffer lendSend(int slot) {
        lentSends |= 1 << slot;
        return sends[slot];
    }

    /**
     * Takes back a lent send buffer of {@code owner}, returning its slot.
     *
     * @throws IllegalArgumentException if it is another endpoint's, or not lent now (sent or given back already)
     */
    int returnSend(RdmaEndpoint owner, SendBuffer buffer) {
        int bit = 1 << buffer.slot();
        if (buffer.owner() != owner || (lentSends & bit) == 0) {
            throw new IllegalArgumentException(buffer + (buffer.owner() != owner ? " is another endpoint's"
                    : " is not lent: it was sent or given back already"));
        }
        lentSends &= ~bit;
        return buffer.slot();
    }

    /** Lends receive buffer {@code slot}, holding a message of {@code length} bytes. */
    ReceivedMessage lendReceive(int slot, int length) {
        lentReceives |= 1L << slot;
        return receives[slot].lend(length);
    }

    /**
     * Takes back a lent receive buffer of {@code owner}, returning its number.
     *
     * @throws IllegalArgumentException if it is another endpoint's, or not lent now (released already)
     */
    int returnReceive(RdmaEndpoint owner, ReceivedMessage message) {
        long bit = 1L << message.slot();
        if (message.owner() != owner || (lentReceives & bit) == 0) {
            throw new IllegalArgumentException(message + (message.owner() != owner ? " is another endpoint's"
                    : " is not lent: it was released already"));
        }
        lentReceives &= ~bit;
        return message.slot();
    }
}

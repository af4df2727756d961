package org.jrdma.endpoint;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * Memory of the peer that its RDMA WRITE and RDMA READ requests may target: the virtual address
 * of its first byte, the R_Key of the memory region that covers it, and its length. A peer makes
 * one with {@link RegisteredBuffer#remote()} and hands it over in a message ({@link #encode},
 * {@link #decode}: {@value #BYTES} bytes, big-endian).
 *
 * @param address the virtual address in the peer's process
 * @param rkey    the R_Key of the peer's memory region
 * @param length  the number of bytes, from {@code address}
 */
public record RemoteBuffer(long address, int rkey, long length) {
    /** The encoded size: address (8), R_Key (4), length (4). */
    public static final int BYTES = 16;

    /** @throws IllegalArgumentException if {@code length} is negative or 4 GiB or more */
    public RemoteBuffer {
        if (length < 0 || length > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("remote buffer length " + length);
        }
    }

    /** Puts the {@value #BYTES} bytes of this buffer at {@code out}'s position, advancing it. */
    public ByteBuffer encode(ByteBuffer out) {
        return out.order(ByteOrder.BIG_ENDIAN).putLong(address).putInt(rkey).putInt((int) length);
    }

    /** Reads a buffer {@link #encode} wrote, at {@code in}'s position, advancing it. */
    public static RemoteBuffer decode(ByteBuffer in) {
        ByteBuffer b = Objects.requireNonNull(in, "in").order(ByteOrder.BIG_ENDIAN);
        return new RemoteBuffer(b.getLong(), b.getInt(), Integer.toUnsignedLong(b.getInt()));
    }
}

package org.jrdma.examples;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.ProtocolException;
import org.jrdma.verbs.Mr;

/**
 * A memory region as its peer needs it for RDMA reads, writes and atomics: the virtual address,
 * the remote key and the length ({@code ibv_mr}'s {@code addr}, {@code rkey}, {@code length}),
 * sent over the TCP side channel as 20 bytes, big-endian: address (8), rkey (4), length (8).
 * Step 8 of the libibverbs tutorial, "exchange memory region information".
 *
 * @param addr   the region's first byte in the owner's address space
 * @param rkey   the key that allows the remote access
 * @param length its size in bytes, at least 1
 */
record RemoteRegion(long addr, int rkey, long length) {
    /** The region of {@code mr}. */
    static RemoteRegion of(Mr mr) {
        return new RemoteRegion(mr.addr(), mr.rkey(), mr.length());
    }

    /** Sends this region and flushes. */
    void write(DataOutputStream out) throws IOException {
        out.writeLong(addr);
        out.writeInt(rkey);
        out.writeLong(length);
        out.flush();
    }

    /**
     * Reads a region.
     *
     * @throws ProtocolException if its length is not positive
     */
    static RemoteRegion read(DataInputStream in) throws IOException {
        RemoteRegion region = new RemoteRegion(in.readLong(), in.readInt(), in.readLong());
        if (region.length <= 0) {
            throw new ProtocolException("the peer sent a memory region of " + region.length + " bytes");
        }
        return region;
    }

    /** Whether {@code bytes} bytes at {@code offset} lie inside the region. */
    boolean holds(long offset, long bytes) {
        return offset >= 0 && bytes >= 0 && offset + bytes <= length;
    }

    @Override
    public String toString() {
        return String.format("addr 0x%x, rkey 0x%08x, %d bytes", addr, rkey, length);
    }
}

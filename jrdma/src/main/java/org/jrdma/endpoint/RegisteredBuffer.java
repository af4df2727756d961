package org.jrdma.endpoint;

import java.lang.foreign.MemorySegment;
import org.jrdma.verbs.Mr;
import org.jrdma.verbs.Sge;

/**
 * Memory registered with an endpoint's protection domain ({@link RdmaEndpoint#register}): a memory
 * region open to the peer's RDMA WRITE and READ ({@link #remote()}) and the local side of this
 * endpoint's {@link RdmaEndpoint#write write} and {@link RdmaEndpoint#read read}. Closing it
 * deregisters the region; closing the endpoint does too.
 */
public final class RegisteredBuffer implements AutoCloseable {
    private final Mr mr;

    RegisteredBuffer(Mr mr) {
        this.mr = mr;
    }

    /** The registered memory. */
    public MemorySegment memory() {
        return mr.memory();
    }

    /** The whole buffer as the peer addresses it: its address, the region's R_Key, its length. */
    public RemoteBuffer remote() {
        return new RemoteBuffer(mr.addr(), mr.rkey(), mr.length());
    }

    /** A scatter/gather element over {@code length} bytes from {@code offset}. */
    Sge sge(long offset, long length) {
        return mr.sge(offset, length);
    }

    /** Deregisters the memory region; the memory itself stays the caller's. */
    @Override
    public void close() {
        mr.close();
    }
}

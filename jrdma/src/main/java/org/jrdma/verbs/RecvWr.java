package org.jrdma.verbs;

import org.jrdma.verbs.ffi.RecvWrs;

/**
 * A receive work request, {@code struct ibv_recv_wr} (IBA 11.4.1.2 Post Receive Request): the
 * buffers an incoming SEND (or RDMA write with immediate) lands in. Requests chain through
 * {@link #next}. Mutable and reusable: posting copies it, allocating nothing.
 */
public final class RecvWr extends WorkRequest<RecvWr> {
    /** An empty request with no buffers. */
    public RecvWr() {
    }

    @Override
    RecvWr self() {
        return this;
    }

    /** Copies this request into slot {@code i} of {@code staging}, the common fields included. */
    void stage(RecvWrs staging, int i) {
        staging.wr(i, wrId(), numSge());
        stageSges(staging, i);
    }
}

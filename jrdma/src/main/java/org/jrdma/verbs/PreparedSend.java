package org.jrdma.verbs;

import org.jrdma.verbs.ffi.SendWrs;

/**
 * A send work request prepared for posting many times to one queue pair ({@link Qp#prepareSend});
 * see {@link PreparedWr}. Its opcode and the number of its scatter/gather elements are fixed;
 * the setters change the rest in place.
 *
 * <pre>{@code
 * PreparedSend write = qp.prepareSend(new SendWr().opcode(WrOpcode.RDMA_WRITE).sge(mr.sge(0, 4096))
 *         .flags(SendFlags.SIGNALED).rdma(remoteAddr, rkey));
 * write.post();
 * write.sgeAddr(0, mr.addr() + 4096).remoteAddr(remoteAddr + 4096, rkey).post();
 * }</pre>
 */
public final class PreparedSend extends PreparedWr<PreparedSend> {
    /** The native request, in slot 0. */
    private final SendWrs staging;
    private final WrOpcode opcode;
    private final Ah ah;

    PreparedSend(Qp qp, SendWrs staging, SendWr wr) {
        super(qp, staging, SendWr::stage, "ibv_post_send", wr);
        this.staging = staging;
        this.opcode = wr.opcode();
        this.ah = wr.ah();
    }

    @Override
    PreparedSend self() {
        return this;
    }

    @Override
    void checkReferences() {
        if (ah != null) {
            ah.checkOpen();
        }
    }

    /** {@code opcode}, fixed when the request was prepared. */
    public WrOpcode opcode() {
        return opcode;
    }

    /** {@code send_flags}: {@link SendFlags} bits. */
    public int flags() {
        return staging.sendFlags(0);
    }

    /** Sets {@code send_flags}. */
    public PreparedSend flags(int flags) {
        staging.sendFlags(0, flags);
        return this;
    }

    /** Sets {@code imm_data}, sent big-endian by the {@code *_WITH_IMM} opcodes. */
    public PreparedSend immData(int immData) {
        staging.immData(0, immData);
        return this;
    }

    /**
     * Sets {@code wr.rdma}: the remote address and key.
     *
     * @throws IllegalStateException unless the opcode is an RDMA write or read
     */
    public PreparedSend remoteAddr(long remoteAddr, int rkey) {
        if (!opcode.isRdma()) {
            throw new IllegalStateException("wr.rdma is not used by " + opcode);
        }
        staging.rdma(0, remoteAddr, rkey);
        return this;
    }

    /**
     * Sets {@code wr.atomic}: as {@link SendWr#atomic}.
     *
     * @throws IllegalStateException unless the opcode is an atomic one
     */
    public PreparedSend atomic(long remoteAddr, int rkey, long compareAdd, long swap) {
        if (!opcode.isAtomic()) {
            throw new IllegalStateException("wr.atomic is not used by " + opcode);
        }
        staging.atomic(0, remoteAddr, rkey, compareAdd, swap);
        return this;
    }
}

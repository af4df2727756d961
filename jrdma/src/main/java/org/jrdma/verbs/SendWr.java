package org.jrdma.verbs;

import java.util.Objects;
import org.jrdma.verbs.ffi.SendWrs;

/**
 * A send work request, {@code struct ibv_send_wr} (IBA 10.7.2.2 and 11.4.1.1 Post Send
 * Request): an operation ({@link WrOpcode}), its local buffers as scatter/gather elements, its
 * flags, and the fields of its {@code wr} union: {@link #rdma} for RDMA read and write,
 * {@link #atomic} for the atomics, {@link #ud} for UD sends. Requests chain through
 * {@link #next}, as in C. Mutable and reusable: posting copies it, so after
 * {@link Qp#postSend} returns it may be changed and posted again, allocating nothing.
 *
 * <pre>{@code
 * SendWr wr = new SendWr().wrId(1).opcode(WrOpcode.RDMA_WRITE).sge(mr.sge(0, 64))
 *         .flags(SendFlags.SIGNALED).rdma(remoteAddr, remoteRkey);
 * qp.postSend(wr);
 * }</pre>
 */
public final class SendWr extends WorkRequest<SendWr> {
    private WrOpcode opcode = WrOpcode.SEND;
    private int flags;
    private int immData;
    private long remoteAddr;
    private int rkey;
    private long compareAdd;
    private long swap;
    private Ah ah;
    private int remoteQpn;
    private int remoteQkey;

    /** An empty SEND request with no buffers. */
    public SendWr() {
    }

    /** {@code opcode}. */
    public WrOpcode opcode() {
        return opcode;
    }

    /** Sets {@code opcode}. */
    public SendWr opcode(WrOpcode value) {
        this.opcode = Objects.requireNonNull(value, "opcode");
        return this;
    }

    /** {@code send_flags}: {@link SendFlags} bits. */
    public int flags() {
        return flags;
    }

    /** Sets {@code send_flags}. */
    public SendWr flags(int value) {
        this.flags = value;
        return this;
    }

    /** {@code imm_data}: the immediate data of the {@code *_WITH_IMM} opcodes, sent big-endian. */
    public int immData() {
        return immData;
    }

    /** Sets {@code imm_data}. */
    public SendWr immData(int value) {
        this.immData = value;
        return this;
    }

    /** Sets {@code wr.rdma}: the remote address and key of an RDMA write or read. */
    public SendWr rdma(long remoteAddr, int rkey) {
        this.remoteAddr = remoteAddr;
        this.rkey = rkey;
        return this;
    }

    /**
     * Sets {@code wr.atomic}: the 8-byte-aligned remote address and key, and the operands: the
     * value to compare with and the value to swap in for {@link WrOpcode#ATOMIC_CMP_AND_SWP},
     * the value to add ({@code swap} unused) for {@link WrOpcode#ATOMIC_FETCH_AND_ADD}. The
     * original remote value lands in the request's 8-byte local buffer.
     */
    public SendWr atomic(long remoteAddr, int rkey, long compareAdd, long swap) {
        this.remoteAddr = remoteAddr;
        this.rkey = rkey;
        this.compareAdd = compareAdd;
        this.swap = swap;
        return this;
    }

    /** {@code wr.rdma.remote_addr} or {@code wr.atomic.remote_addr}. */
    public long remoteAddr() {
        return remoteAddr;
    }

    /** {@code wr.rdma.rkey} or {@code wr.atomic.rkey}. */
    public int rkey() {
        return rkey;
    }

    /** {@code wr.atomic.compare_add}. */
    public long compareAdd() {
        return compareAdd;
    }

    /** {@code wr.atomic.swap}. */
    public long swap() {
        return swap;
    }

    /** Sets {@code wr.ud}: the address handle, queue pair number and Q_Key of a UD destination. */
    public SendWr ud(Ah ah, int remoteQpn, int remoteQkey) {
        this.ah = Objects.requireNonNull(ah, "ah");
        this.remoteQpn = Args.unsigned("remote_qpn", remoteQpn, 24);
        this.remoteQkey = remoteQkey;
        return this;
    }

    /** {@code wr.ud.ah}, or null. */
    public Ah ah() {
        return ah;
    }

    /** {@code wr.ud.remote_qpn}. */
    public int remoteQpn() {
        return remoteQpn;
    }

    /** {@code wr.ud.remote_qkey}. */
    public int remoteQkey() {
        return remoteQkey;
    }

    @Override
    SendWr self() {
        return this;
    }

    /** Copies this request into slot {@code i} of {@code staging}, the common fields included. */
    void stage(SendWrs staging, int i) {
        staging.wr(i, wrId(), opcode.value(), flags, immData, numSge());
        if (opcode.isRdma()) {
            staging.rdma(i, remoteAddr, rkey);
        } else if (opcode.isAtomic()) {
            staging.atomic(i, remoteAddr, rkey, compareAdd, swap);
        } else if (ah != null) {
            staging.ud(i, ah.address(), remoteQpn, remoteQkey);
        }
        stageSges(staging, i);
    }
}

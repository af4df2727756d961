package org.jrdma.verbs;

import java.util.Objects;

/**
 * One work completion, {@code struct ibv_wc} (IBA 11.4.2.1 Poll for Completion), as a movable
 * view of an entry of a {@link WcBuffer}: {@link #at} points it at entry {@code i}, and the
 * accessors read that entry in place, so iterating over completions allocates nothing. What
 * python-rdma's {@code rdma.ibverbs.wc} objects are, without an object per completion: the
 * view shows whatever the buffer holds now, so read what is needed before the buffer is polled
 * again. Not thread-safe.
 */
public final class Wc {
    private final WcBuffer wcs;
    private int index;

    /** A view of entry 0 of {@code wcs}. */
    public Wc(WcBuffer wcs) {
        this.wcs = Objects.requireNonNull(wcs, "wcs");
    }

    /**
     * Points this view at entry {@code i} of its buffer; returns {@code this}.
     *
     * @throws IndexOutOfBoundsException unless {@code 0 <= i < buffer().count()}
     */
    public Wc at(int i) {
        this.index = Objects.checkIndex(i, wcs.count());
        return this;
    }

    /** The buffer this view reads. */
    public WcBuffer buffer() {
        return wcs;
    }

    /** The entry this view reads. */
    public int index() {
        return index;
    }

    /** {@code wr_id}: the work request's. */
    public long wrId() {
        return wcs.wrId(index);
    }

    /** {@code status}. */
    public WcStatus status() {
        return wcs.status(index);
    }

    /** Whether the completion succeeded. */
    public boolean isSuccess() {
        return wcs.isSuccess(index);
    }

    /**
     * Throws unless the completion succeeded, as python-rdma's {@code raise WCError(wc, cq)}.
     *
     * @throws org.jrdma.verbs.WcException with the decoded status, the queue pair and the {@code wr_id}
     */
    public void check() {
        wcs.check(index);
    }

    /** {@code opcode}, defined for a successful completion. */
    public WcOpcode opcode() {
        return wcs.opcode(index);
    }

    /** {@code vendor_err}: the device's own error code. */
    public int vendorErr() {
        return wcs.vendorErr(index);
    }

    /** {@code byte_len}: bytes received (with the 40-byte GRH area on UD), or read. */
    public int byteLen() {
        return wcs.byteLen(index);
    }

    /** {@code imm_data}, when {@link WcBuffer#WITH_IMM} is in {@link #wcFlags()}; in host order. */
    public int immData() {
        return wcs.immData(index);
    }

    /** {@code invalidated_rkey}, when {@link WcBuffer#WITH_INV} is in {@link #wcFlags()}. */
    public int invalidatedRkey() {
        return wcs.invalidatedRkey(index);
    }

    /** {@code qp_num}: the local queue pair. */
    public int qpNum() {
        return wcs.qpNum(index);
    }

    /** {@code src_qp}: the sending queue pair of a UD receive. */
    public int srcQp() {
        return wcs.srcQp(index);
    }

    /** {@code wc_flags}: {@link WcBuffer#GRH}, {@link WcBuffer#WITH_IMM}, ... */
    public int wcFlags() {
        return wcs.wcFlags(index);
    }

    /** {@code pkey_index}, defined for the GSI queue pair (QP1) only. */
    public int pkeyIndex() {
        return wcs.pkeyIndex(index);
    }

    /** {@code slid}: the source LID of a UD receive. */
    public int slid() {
        return wcs.slid(index);
    }

    /** {@code sl}: the service level of a UD receive. */
    public int sl() {
        return wcs.sl(index);
    }

    /** {@code dlid_path_bits}: the path bits of the destination LID of a UD receive. */
    public int dlidPathBits() {
        return wcs.dlidPathBits(index);
    }

    @Override
    public String toString() {
        if (index >= wcs.count()) {
            return "Wc[entry " + index + " of " + wcs.count() + "]";
        }
        if (!isSuccess()) {
            return String.format("Wc[wr_id=0x%x, status=%s, qp_num=0x%06x, vendor_err=0x%x]", wrId(), status().text(),
                    qpNum(), vendorErr());
        }
        return String.format("Wc[wr_id=0x%x, opcode=%s, byte_len=%d, qp_num=0x%06x]", wrId(), opcode(),
                Integer.toUnsignedLong(byteLen()), qpNum());
    }
}

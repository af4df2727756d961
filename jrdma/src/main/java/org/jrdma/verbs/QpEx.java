package org.jrdma.verbs;

import java.lang.foreign.MemorySegment;
import org.jrdma.SysException;
import org.jrdma.verbs.ffi.IbvQpEx;

/**
 * An extended queue pair, {@code struct ibv_qp_ex} ({@code ibv_create_qp_ex} with
 * {@code send_ops_flags}, then {@code ibv_qp_to_qp_ex}), from {@link Pd#qpEx}: send work requests
 * are built in the send queue itself, one verbs.h {@code ibv_wr_*} call per field, rather than
 * copied from {@code struct ibv_send_wr}s. A batch opens with {@link #start()}, each request sets
 * {@link #wrId} and {@link #wrFlags}, names its operation ({@link #send()}, {@link #rdmaWrite},
 * ...), then its data ({@link #sge}, {@link #inlineData}, ...), and {@link #complete()} posts them
 * all:
 *
 * <pre>{@code
 * qpx.start()
 *    .wrId(1).wrFlags(SendFlags.SIGNALED).rdmaWrite(rkey, remoteAddr).sge(mr.lkey(), mr.addr(), 64)
 *    .wrId(2).wrFlags(SendFlags.SIGNALED).sendImm(7).sge(mr.lkey(), mr.addr(), 64)
 *    .complete();
 * }</pre>
 *
 * The queue pair is a {@link Qp} as well ({@link #qp()}): it is connected, receives and is closed
 * there. One thread builds at a time. Nothing allocates. An operation the QP was not made for
 * ({@link SendOps}), or a call outside a batch, throws {@link IllegalStateException} instead of
 * reaching the provider.
 */
public final class QpEx implements AutoCloseable {
    private final Qp qp;
    private final IbvQpEx handle;
    private final long sendOps;
    private boolean building;

    private QpEx(Qp qp, IbvQpEx handle, long sendOps) {
        this.qp = qp;
        this.handle = handle;
        this.sendOps = sendOps;
    }

    /** {@code ibv_create_qp_ex} in {@code pd} as {@code init} describes, for the work requests {@code sendOps}. */
    static QpEx create(Pd pd, QpInitAttr init, long sendOps) {
        Srq srq = Qp.checkInit(pd, init);
        IbvQpEx handle;
        try {
            handle = IbvQpEx.create(pd.handle(), init.sendCq().handle(), init.recvCq().handle(),
                    srq == null ? null : srq.handle(), null, init.qpType().value(), init.cap().toIbv(),
                    init.sqSigAll(), sendOps);
        } catch (SysException e) {
            throw UnsupportedVerbException.translate(e, String.format("ibv_create_qp_ex with send_ops_flags 0x%x", sendOps));
        }
        return new QpEx(Qp.adopt(pd, init, handle.qp()), handle, sendOps);
    }

    /** The queue pair as a {@link Qp}: to connect, to post receives, to query. */
    public Qp qp() {
        return qp;
    }

    /** The {@link SendOps} it was made with. */
    public long sendOps() {
        return sendOps;
    }

    /**
     * Opens a batch ({@code ibv_wr_start}).
     *
     * @throws IllegalStateException if a batch is open already, or the queue pair is closed
     */
    public QpEx start() {
        if (building) {
            throw new IllegalStateException("a batch is open on " + qp + ": complete or abort it first");
        }
        qp.checkOpen();
        handle.start();
        building = true;
        return this;
    }

    /**
     * Posts the batch ({@code ibv_wr_complete}).
     *
     * @throws SysException when the provider refuses it: none of the batch is posted
     */
    public void complete() {
        open();
        building = false;
        int rc = handle.complete();
        if (rc != 0) {
            throw new SysException("ibv_wr_complete", rc);
        }
    }

    /**
     * Posts one send of {@code length} bytes at {@code addr} under {@code lkey}, a batch of its
     * own: {@code ibv_wr_start}, {@code wr_id}, {@code wr_flags}, {@code ibv_wr_send},
     * {@code ibv_wr_set_sge}, {@code ibv_wr_complete}, the four calls C makes, with the checks of
     * the builder made once. The same as
     * {@code start().wrId(wrId).wrFlags(wrFlags).send().sge(lkey, addr, length).complete()}, for a
     * data path that sends one message at a time. Allocates nothing.
     *
     * @throws IllegalStateException if the QP was not made with {@link SendOps#SEND}, a batch is
     *                               open, or the queue pair is closed
     * @throws SysException          when the provider refuses it: nothing is posted
     */
    public void postSend(long wrId, int wrFlags, int lkey, long addr, int length) {
        if (building) {
            throw new IllegalStateException("a batch is open on " + qp + ": complete or abort it first");
        }
        if ((sendOps & SendOps.SEND) == 0) {
            throw new IllegalStateException(qp + " was not made with SendOps.SEND");
        }
        qp.checkOpen();
        int rc = handle.postSend(wrId, wrFlags, lkey, addr, length);
        if (rc != 0) {
            throw new SysException("ibv_wr_complete", rc);
        }
    }

    /** Drops the batch ({@code ibv_wr_abort}). */
    public void abort() {
        open();
        building = false;
        handle.abort();
    }

    /** Sets the next request's {@code wr_id} ({@code qpx->wr_id}). */
    public QpEx wrId(long wrId) {
        open();
        handle.wrId(wrId);
        return this;
    }

    /** Sets the next request's {@link SendFlags} ({@code qpx->wr_flags}). */
    public QpEx wrFlags(int flags) {
        open();
        handle.wrFlags(flags);
        return this;
    }

    /** A send ({@code ibv_wr_send}). */
    public QpEx send() {
        op(SendOps.SEND, "SEND");
        handle.send();
        return this;
    }

    /** A send with immediate data {@code imm}, host order ({@code ibv_wr_send_imm}). */
    public QpEx sendImm(int imm) {
        op(SendOps.SEND_WITH_IMM, "SEND_WITH_IMM");
        handle.sendImm(imm);
        return this;
    }

    /** A send that invalidates remote key {@code invalidateRkey} at the responder ({@code ibv_wr_send_inv}). */
    public QpEx sendInv(int invalidateRkey) {
        op(SendOps.SEND_WITH_INV, "SEND_WITH_INV");
        handle.sendInv(invalidateRkey);
        return this;
    }

    /** An RDMA write to {@code remoteAddr} under {@code rkey} ({@code ibv_wr_rdma_write}). */
    public QpEx rdmaWrite(int rkey, long remoteAddr) {
        op(SendOps.RDMA_WRITE, "RDMA_WRITE");
        handle.rdmaWrite(rkey, remoteAddr);
        return this;
    }

    /** An RDMA write with immediate data {@code imm}, host order ({@code ibv_wr_rdma_write_imm}). */
    public QpEx rdmaWriteImm(int rkey, long remoteAddr, int imm) {
        op(SendOps.RDMA_WRITE_WITH_IMM, "RDMA_WRITE_WITH_IMM");
        handle.rdmaWriteImm(rkey, remoteAddr, imm);
        return this;
    }

    /** An RDMA read from {@code remoteAddr} under {@code rkey} ({@code ibv_wr_rdma_read}). */
    public QpEx rdmaRead(int rkey, long remoteAddr) {
        op(SendOps.RDMA_READ, "RDMA_READ");
        handle.rdmaRead(rkey, remoteAddr);
        return this;
    }

    /** An atomic compare and swap of the 8 bytes at {@code remoteAddr} ({@code ibv_wr_atomic_cmp_swp}). */
    public QpEx atomicCmpSwp(int rkey, long remoteAddr, long compare, long swap) {
        op(SendOps.ATOMIC_CMP_AND_SWP, "ATOMIC_CMP_AND_SWP");
        handle.atomicCmpSwp(rkey, remoteAddr, compare, swap);
        return this;
    }

    /** An atomic fetch and add on the 8 bytes at {@code remoteAddr} ({@code ibv_wr_atomic_fetch_add}). */
    public QpEx atomicFetchAdd(int rkey, long remoteAddr, long add) {
        op(SendOps.ATOMIC_FETCH_AND_ADD, "ATOMIC_FETCH_AND_ADD");
        handle.atomicFetchAdd(rkey, remoteAddr, add);
        return this;
    }

    /**
     * Binds memory window {@code mw} under its new key {@code rkey} ({@link Mw#nextRkey()}) to
     * {@code length} bytes at {@code addr} of {@code mr} with {@link Access} rights {@code access}
     * ({@code ibv_wr_bind_mw}); {@code mr} null (and 0, 0) unbinds it. The window's
     * {@link Mw#rkey()} becomes {@code rkey} at once, as the next bind must name it.
     */
    public QpEx bindMw(Mw mw, int rkey, Mr mr, long addr, long length, int access) {
        op(SendOps.BIND_MW, "BIND_MW");
        mw.checkOpen();
        handle.bindMw(mw.handle(), rkey, mr == null ? null : mr.handle(), addr, length, access);
        return this;
    }

    /** Invalidates local or window key {@code invalidateRkey} ({@code ibv_wr_local_inv}). */
    public QpEx localInv(int invalidateRkey) {
        op(SendOps.LOCAL_INV, "LOCAL_INV");
        handle.localInv(invalidateRkey);
        return this;
    }

    /** The request's one scatter/gather element ({@code ibv_wr_set_sge}). */
    public QpEx sge(int lkey, long addr, int length) {
        open();
        handle.setSge(lkey, addr, length);
        return this;
    }

    /** The request's one scatter/gather element ({@code ibv_wr_set_sge}). */
    public QpEx sge(Sge sge) {
        return sge(sge.lkey(), sge.addr(), sge.length());
    }

    /**
     * The request's first {@code count} scatter/gather elements of {@code sges}
     * ({@code ibv_wr_set_sge_list}).
     */
    public QpEx sgeList(SgeList sges, int count) {
        open();
        handle.setSgeList(sges.checkCount(count), sges.segment());
        return this;
    }

    /** The request's data, copied now into the send queue ({@code ibv_wr_set_inline_data}). */
    public QpEx inlineData(MemorySegment data) {
        open();
        if (!data.isNative()) {
            throw new IllegalArgumentException("inline data must be native memory, not " + data);
        }
        handle.setInlineData(data.address(), data.byteSize());
        return this;
    }

    /**
     * The request's data, the first {@code count} buffers of {@code bufs} one after the other,
     * copied now into the send queue ({@code ibv_wr_set_inline_data_list}).
     */
    public QpEx inlineDataList(DataBufList bufs, int count) {
        open();
        handle.setInlineDataList(bufs.checkCount(count), bufs.segment());
        return this;
    }

    /**
     * A TSO send ({@code ibv_wr_send_tso}): the device cuts the payload (set next, by
     * {@link #sge} or {@link #sgeList}) into segments of {@code mss} bytes and sends each after a
     * copy of the packet header {@code header}.
     */
    public QpEx sendTso(MemorySegment header, int mss) {
        op(SendOps.TSO, "TSO");
        if (!header.isNative()) {
            throw new IllegalArgumentException("the TSO header must be native memory, not " + header);
        }
        int size = (int) Math.min(header.byteSize(), Integer.MAX_VALUE);
        handle.sendTso(header.address(), (short) Args.unsigned("header size", size, 16),
                (short) Args.unsigned("mss", mss, 16));
        return this;
    }

    /** The UD destination of the request ({@code ibv_wr_set_ud_addr}). */
    public QpEx udAddr(Ah ah, int remoteQpn, int remoteQkey) {
        open();
        ah.checkOpen();
        handle.setUdAddr(ah.handle(), remoteQpn, remoteQkey);
        return this;
    }

    /**
     * The remote XRC SRQ number of the request ({@code ibv_wr_set_xrc_srqn}), for an XRC initiator
     * ({@link QpType#XRC_SEND}).
     *
     * @throws UnsupportedVerbException if the provider has no {@code wr_set_xrc_srqn} for this QP
     *                                  (rxe has none: C would call a null pointer)
     */
    public QpEx xrcSrqn(int remoteSrqn) {
        open();
        try {
            handle.setXrcSrqn(Args.unsigned("remote_srqn", remoteSrqn, 24));
        } catch (SysException e) {
            throw UnsupportedVerbException.translate(e, "ibv_wr_set_xrc_srqn (XRC)");
        }
        return this;
    }

    private void open() {
        if (!building) {
            throw new IllegalStateException("no batch is open on " + qp + ": start() first");
        }
    }

    private void op(int op, String name) {
        open();
        if ((sendOps & op) == 0) {
            throw new IllegalStateException(qp + " was not made with SendOps." + name);
        }
    }

    /** Closes the queue pair ({@link Qp#close()}). */
    @Override
    public void close() {
        qp.close();
    }

    @Override
    public String toString() {
        return "extended " + qp;
    }
}

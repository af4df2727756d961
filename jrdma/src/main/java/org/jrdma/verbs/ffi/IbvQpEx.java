package org.jrdma.verbs.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import org.jrdma.SysException;
import org.jrdma.ffi.Errors;

/**
 * {@code struct ibv_qp_ex}: a queue pair made by {@code ibv_create_qp_ex} (an inline of verbs.h
 * calling {@code verbs_context->create_qp_ex}) with {@code send_ops_flags}, seen through
 * {@code ibv_qp_to_qp_ex}, and its work request builder: the provider's {@code wr_*} entry points
 * stored in the structure, read once at creation and called as verbs.h's inline
 * {@code ibv_wr_*} functions do. The queue pair itself is an {@link IbvQp}, which owns its
 * lifetime: once it is closed every call here fails with {@link IllegalStateException}. Nothing
 * here allocates.
 */
@SuppressWarnings("restricted")
public final class IbvQpEx {
    private static final MethodHandle CREATE_QP_EX = Ibv.pointerCapturingErrno(
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle QP_TO_QP_EX = Ibv.function("ibv_qp_to_qp_ex",
            FunctionDescriptor.of(ADDRESS, ADDRESS), false);

    private static final MethodHandle VOID_QP = Ibv.pointer(FunctionDescriptor.ofVoid(ADDRESS));
    private static final MethodHandle INT_QP = Ibv.pointer(FunctionDescriptor.of(JAVA_INT, ADDRESS));
    private static final MethodHandle VOID_QP_I = Ibv.pointer(FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT));
    private static final MethodHandle VOID_QP_IL = Ibv.pointer(FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT, JAVA_LONG));
    private static final MethodHandle VOID_QP_ILI = Ibv.pointer(
            FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT, JAVA_LONG, JAVA_INT));
    private static final MethodHandle VOID_QP_ILL = Ibv.pointer(
            FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT, JAVA_LONG, JAVA_LONG));
    private static final MethodHandle VOID_QP_ILLL = Ibv.pointer(
            FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    private static final MethodHandle VOID_QP_AII = Ibv.pointer(
            FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, JAVA_INT, JAVA_INT));
    private static final MethodHandle VOID_QP_AIA = Ibv.pointer(
            FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, JAVA_INT, ADDRESS));
    private static final MethodHandle VOID_QP_LL = Ibv.pointer(FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG, JAVA_LONG));
    private static final MethodHandle VOID_QP_LA = Ibv.pointer(FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG, ADDRESS));
    private static final MethodHandle VOID_QP_LSS = Ibv.pointer(
            FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG, JAVA_SHORT, JAVA_SHORT));
    /** {@link #VOID_QP}, {@link #VOID_QP_ILI} and {@link #INT_QP} with the {@code ibv_qp_ex} by address, for {@link #postSend}. */
    private static final MethodHandle VOID_AT = Ibv.pointer(FunctionDescriptor.ofVoid(JAVA_LONG));
    private static final MethodHandle VOID_AT_ILI = Ibv.pointer(
            FunctionDescriptor.ofVoid(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_INT));
    private static final MethodHandle INT_AT = Ibv.pointer(FunctionDescriptor.of(JAVA_INT, JAVA_LONG));

    private static final VarHandle INIT_SEND_CQ = Structs.handle(StructsEx.IBV_QP_INIT_ATTR_EX, "send_cq");
    private static final VarHandle INIT_RECV_CQ = Structs.handle(StructsEx.IBV_QP_INIT_ATTR_EX, "recv_cq");
    private static final VarHandle INIT_SRQ = Structs.handle(StructsEx.IBV_QP_INIT_ATTR_EX, "srq");
    private static final VarHandle INIT_QP_TYPE = Structs.handle(StructsEx.IBV_QP_INIT_ATTR_EX, "qp_type");
    private static final VarHandle INIT_SQ_SIG_ALL = Structs.handle(StructsEx.IBV_QP_INIT_ATTR_EX, "sq_sig_all");
    private static final VarHandle INIT_COMP_MASK = Structs.handle(StructsEx.IBV_QP_INIT_ATTR_EX, "comp_mask");
    private static final VarHandle INIT_PD = Structs.handle(StructsEx.IBV_QP_INIT_ATTR_EX, "pd");
    private static final VarHandle INIT_XRCD = Structs.handle(StructsEx.IBV_QP_INIT_ATTR_EX, "xrcd");
    private static final VarHandle INIT_SEND_OPS_FLAGS = Structs.handle(StructsEx.IBV_QP_INIT_ATTR_EX, "send_ops_flags");
    private static final long INIT_CAP = Structs.offset(StructsEx.IBV_QP_INIT_ATTR_EX, "cap");
    private static final VarHandle CAP_MAX_SEND_WR = Structs.handle(Structs.IBV_QP_CAP, "max_send_wr");
    private static final VarHandle CAP_MAX_RECV_WR = Structs.handle(Structs.IBV_QP_CAP, "max_recv_wr");
    private static final VarHandle CAP_MAX_SEND_SGE = Structs.handle(Structs.IBV_QP_CAP, "max_send_sge");
    private static final VarHandle CAP_MAX_RECV_SGE = Structs.handle(Structs.IBV_QP_CAP, "max_recv_sge");
    private static final VarHandle CAP_MAX_INLINE_DATA = Structs.handle(Structs.IBV_QP_CAP, "max_inline_data");
    /** {@code IBV_QP_INIT_ATTR_PD}. */
    public static final int INIT_ATTR_PD = 1;
    /** {@code IBV_QP_INIT_ATTR_XRCD}. */
    public static final int INIT_ATTR_XRCD = 1 << 1;
    /** {@code IBV_QP_INIT_ATTR_SEND_OPS_FLAGS}. */
    public static final int INIT_ATTR_SEND_OPS_FLAGS = 1 << 6;

    private static final VarHandle WR_ID = Structs.handle(StructsEx.IBV_QP_EX, "wr_id");
    private static final VarHandle WR_FLAGS = Structs.handle(StructsEx.IBV_QP_EX, "wr_flags");

    private static final VarHandle BIND_MR = Structs.handle(StructsEx.IBV_MW_BIND_INFO, "mr");
    private static final VarHandle BIND_ADDR = Structs.handle(StructsEx.IBV_MW_BIND_INFO, "addr");
    private static final VarHandle BIND_LENGTH = Structs.handle(StructsEx.IBV_MW_BIND_INFO, "length");
    private static final VarHandle BIND_ACCESS = Structs.handle(StructsEx.IBV_MW_BIND_INFO, "mw_access_flags");

    private final IbvQp qp;
    /** The {@code ibv_qp_ex}, in the arena of {@link #qp}. */
    private final MemorySegment qpEx;
    /** The thread {@link #qp} is confined to, or null when it is shared. */
    private final Thread owner;
    /** A {@code struct ibv_mw_bind_info} for {@link #bindMw}, in the arena of {@link #qp}. */
    private final MemorySegment bindInfo;
    private final MemorySegment wrAtomicCmpSwp;
    private final MemorySegment wrAtomicFetchAdd;
    private final MemorySegment wrBindMw;
    private final MemorySegment wrLocalInv;
    private final MemorySegment wrRdmaRead;
    private final MemorySegment wrRdmaWrite;
    private final MemorySegment wrRdmaWriteImm;
    private final MemorySegment wrSend;
    private final MemorySegment wrSendImm;
    private final MemorySegment wrSendInv;
    private final MemorySegment wrSetUdAddr;
    private final MemorySegment wrSetXrcSrqn;
    private final MemorySegment wrSetInlineData;
    private final MemorySegment wrSetInlineDataList;
    private final MemorySegment wrSendTso;
    private final MemorySegment wrSetSge;
    private final MemorySegment wrSetSgeList;
    private final MemorySegment wrStart;
    private final MemorySegment wrComplete;
    private final MemorySegment wrAbort;

    private IbvQpEx(IbvQp qp, MemorySegment qpExAddress) {
        this.qp = qp;
        this.qpEx = MemorySegment.ofAddress(qpExAddress.address())
                .reinterpret(StructsEx.IBV_QP_EX.byteSize(), qp.arena, null);
        this.owner = qp.isConfined() ? Thread.currentThread() : null;
        this.bindInfo = qp.arena.allocate(StructsEx.IBV_MW_BIND_INFO);
        wrAtomicCmpSwp = entry("wr_atomic_cmp_swp");
        wrAtomicFetchAdd = entry("wr_atomic_fetch_add");
        wrBindMw = entry("wr_bind_mw");
        wrLocalInv = entry("wr_local_inv");
        wrRdmaRead = entry("wr_rdma_read");
        wrRdmaWrite = entry("wr_rdma_write");
        wrRdmaWriteImm = entry("wr_rdma_write_imm");
        wrSend = entry("wr_send");
        wrSendImm = entry("wr_send_imm");
        wrSendInv = entry("wr_send_inv");
        wrSetUdAddr = entry("wr_set_ud_addr");
        wrSetXrcSrqn = entry("wr_set_xrc_srqn");
        wrSetInlineData = entry("wr_set_inline_data");
        wrSetInlineDataList = entry("wr_set_inline_data_list");
        wrSendTso = entry("wr_send_tso");
        wrSetSge = entry("wr_set_sge");
        wrSetSgeList = entry("wr_set_sge_list");
        wrStart = entry("wr_start");
        wrComplete = entry("wr_complete");
        wrAbort = entry("wr_abort");
    }

    private MemorySegment entry(String name) {
        return qpEx.get(ADDRESS, Structs.offset(StructsEx.IBV_QP_EX, name));
    }

    /**
     * verbs.h's {@code ibv_create_qp_ex} with {@code IBV_QP_INIT_ATTR_PD |
     * IBV_QP_INIT_ATTR_SEND_OPS_FLAGS} (and {@code IBV_QP_INIT_ATTR_XRCD} with an XRC domain),
     * then {@code ibv_qp_to_qp_ex}.
     *
     * @param srq          the shared receive queue, or null
     * @param xrcd         the XRC domain of an XRC target QP, or null
     * @param sendOpsFlags {@code enum ibv_qp_create_send_ops_flags}: the {@code wr_*} the QP may use
     * @throws SysException {@code EOPNOTSUPP} when the provider has no {@code create_qp_ex}, or
     *                      what it reports
     */
    public static IbvQpEx create(IbvPd pd, IbvCq sendCq, IbvCq recvCq, IbvSrq srq, IbvXrcd xrcd, int qpType,
            IbvQpCap cap, boolean sqSigAll, long sendOpsFlags) {
        MemorySegment function = IbvContextEx.requireOp(pd.context, "create_qp_ex", "ibv_create_qp_ex");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment init = arena.allocate(StructsEx.IBV_QP_INIT_ATTR_EX);
            INIT_SEND_CQ.set(init, 0L, sendCq == null ? MemorySegment.NULL : sendCq.ptr);
            INIT_RECV_CQ.set(init, 0L, recvCq == null ? MemorySegment.NULL : recvCq.ptr);
            INIT_SRQ.set(init, 0L, srq == null ? MemorySegment.NULL : srq.ptr);
            CAP_MAX_SEND_WR.set(init, INIT_CAP, cap.maxSendWr());
            CAP_MAX_RECV_WR.set(init, INIT_CAP, cap.maxRecvWr());
            CAP_MAX_SEND_SGE.set(init, INIT_CAP, cap.maxSendSge());
            CAP_MAX_RECV_SGE.set(init, INIT_CAP, cap.maxRecvSge());
            CAP_MAX_INLINE_DATA.set(init, INIT_CAP, cap.maxInlineData());
            INIT_QP_TYPE.set(init, 0L, qpType);
            INIT_SQ_SIG_ALL.set(init, 0L, sqSigAll ? 1 : 0);
            INIT_COMP_MASK.set(init, 0L, INIT_ATTR_PD | INIT_ATTR_SEND_OPS_FLAGS | (xrcd == null ? 0 : INIT_ATTR_XRCD));
            INIT_PD.set(init, 0L, pd.ptr);
            INIT_XRCD.set(init, 0L, xrcd == null ? MemorySegment.NULL : xrcd.ptr);
            INIT_SEND_OPS_FLAGS.set(init, 0L, sendOpsFlags);
            MemorySegment raw = Errors.nonNull("ibv_create_qp_ex",
                    (MemorySegment) CREATE_QP_EX.invokeExact(function, state, pd.context.ptr, init), state);
            IbvQpCap granted = new IbvQpCap((int) CAP_MAX_SEND_WR.get(init, INIT_CAP),
                    (int) CAP_MAX_RECV_WR.get(init, INIT_CAP), (int) CAP_MAX_SEND_SGE.get(init, INIT_CAP),
                    (int) CAP_MAX_RECV_SGE.get(init, INIT_CAP), (int) CAP_MAX_INLINE_DATA.get(init, INIT_CAP));
            IbvQp qp = IbvQp.adopt(raw, pd.context, granted, srq != null);
            MemorySegment qpEx = (MemorySegment) QP_TO_QP_EX.invokeExact(qp.ptr);
            return new IbvQpEx(qp, qpEx);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** The queue pair as an {@code ibv_qp}: for {@code ibv_modify_qp}, receives and destruction. */
    public IbvQp qp() {
        return qp;
    }

    /** {@code ibv_wr_start}: begins a batch of work requests. */
    public void start() {
        call(wrStart, "ibv_wr_start");
    }

    /** {@code ibv_wr_complete}: posts the batch; 0, or the error number (the batch is then dropped). */
    public int complete() {
        try {
            return (int) INT_QP.invokeExact(wrComplete, qpEx);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * A batch of one send of one scatter/gather element: {@code ibv_wr_start}, {@code qpx->wr_id}
     * and {@code qpx->wr_flags}, {@code ibv_wr_send}, {@code ibv_wr_set_sge},
     * {@code ibv_wr_complete}, as C builds it, the four downcalls made from this one method. Returns
     * 0, or the error number of {@code wr_complete} (the send is then dropped).
     *
     * <p>On a confined queue pair the four calls take the {@code ibv_qp_ex} by address, after one
     * check that this thread owns it and it is open: only this thread could close it, and it
     * does nothing between the calls that could, so the structure outlives them without each call
     * keeping the arena open (a session acquire and release, and the segment's checks, four
     * times). A shared queue pair goes as a segment to every call, as everywhere else.
     *
     * @throws IllegalStateException if the queue pair is closed
     * @throws WrongThreadException  if it is confined to another thread
     */
    public int postSend(long wrId, int flags, int lkey, long addr, int length) {
        // every entry is looked at before wr_start, which takes the send queue's lock
        MemorySegment start = present(wrStart, "ibv_wr_start");
        MemorySegment send = present(wrSend, "ibv_wr_send");
        MemorySegment setSge = present(wrSetSge, "ibv_wr_set_sge");
        MemorySegment complete = present(wrComplete, "ibv_wr_complete");
        try {
            if (owner != null) {
                long at = ownedAddress();
                VOID_AT.invokeExact(start, at);
                WR_ID.set(qpEx, 0L, wrId);
                WR_FLAGS.set(qpEx, 0L, flags);
                VOID_AT.invokeExact(send, at);
                VOID_AT_ILI.invokeExact(setSge, at, lkey, addr, length);
                return (int) INT_AT.invokeExact(complete, at);
            }
            VOID_QP.invokeExact(start, qpEx);
            WR_ID.set(qpEx, 0L, wrId);
            WR_FLAGS.set(qpEx, 0L, flags);
            VOID_QP.invokeExact(send, qpEx);
            VOID_QP_ILI.invokeExact(setSge, qpEx, lkey, addr, length);
            return (int) INT_QP.invokeExact(complete, qpEx);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** The address of the confined {@link #qpEx}, once this thread is shown to own it and it is open. */
    private long ownedAddress() {
        if (Thread.currentThread() != owner) {
            throw new WrongThreadException("queue pair confined to " + owner);
        }
        if (!qpEx.scope().isAlive()) {
            throw new IllegalStateException("Already closed");
        }
        return qpEx.address();
    }

    /** {@code ibv_wr_abort}: drops the batch. */
    public void abort() {
        call(wrAbort, "ibv_wr_abort");
    }

    /** {@code qpx->wr_id}: the id of the next work request. */
    public void wrId(long wrId) {
        WR_ID.set(qpEx, 0L, wrId);
    }

    /** {@code qpx->wr_flags}: the {@code enum ibv_send_flags} of the next work request. */
    public void wrFlags(int flags) {
        WR_FLAGS.set(qpEx, 0L, flags);
    }

    /** {@code ibv_wr_send}. */
    public void send() {
        call(wrSend, "ibv_wr_send");
    }

    /** {@code ibv_wr_send_imm} with {@code imm} in host order. */
    public void sendImm(int imm) {
        try {
            VOID_QP_I.invokeExact(present(wrSendImm, "ibv_wr_send_imm"), qpEx, Integer.reverseBytes(imm));
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code ibv_wr_send_inv}: a send that invalidates {@code invalidateRkey} at the responder. */
    public void sendInv(int invalidateRkey) {
        try {
            VOID_QP_I.invokeExact(present(wrSendInv, "ibv_wr_send_inv"), qpEx, invalidateRkey);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code ibv_wr_local_inv}. */
    public void localInv(int invalidateRkey) {
        try {
            VOID_QP_I.invokeExact(present(wrLocalInv, "ibv_wr_local_inv"), qpEx, invalidateRkey);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code ibv_wr_rdma_write}. */
    public void rdmaWrite(int rkey, long remoteAddr) {
        try {
            VOID_QP_IL.invokeExact(present(wrRdmaWrite, "ibv_wr_rdma_write"), qpEx, rkey, remoteAddr);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code ibv_wr_rdma_read}. */
    public void rdmaRead(int rkey, long remoteAddr) {
        try {
            VOID_QP_IL.invokeExact(present(wrRdmaRead, "ibv_wr_rdma_read"), qpEx, rkey, remoteAddr);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code ibv_wr_rdma_write_imm} with {@code imm} in host order. */
    public void rdmaWriteImm(int rkey, long remoteAddr, int imm) {
        try {
            VOID_QP_ILI.invokeExact(present(wrRdmaWriteImm, "ibv_wr_rdma_write_imm"), qpEx, rkey, remoteAddr,
                    Integer.reverseBytes(imm));
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code ibv_wr_atomic_cmp_swp}. */
    public void atomicCmpSwp(int rkey, long remoteAddr, long compare, long swap) {
        try {
            VOID_QP_ILLL.invokeExact(present(wrAtomicCmpSwp, "ibv_wr_atomic_cmp_swp"), qpEx, rkey, remoteAddr,
                    compare, swap);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code ibv_wr_atomic_fetch_add}. */
    public void atomicFetchAdd(int rkey, long remoteAddr, long add) {
        try {
            VOID_QP_ILL.invokeExact(present(wrAtomicFetchAdd, "ibv_wr_atomic_fetch_add"), qpEx, rkey, remoteAddr,
                    add);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * {@code ibv_wr_bind_mw(qpx, mw, rkey, &bind_info)}: binds window {@code mw} under its new key
     * {@code rkey} to {@code length} bytes at {@code addr} of region {@code mr} (or unbinds it:
     * null, 0, 0) with {@code access} rights, then sets {@code mw->rkey} to {@code rkey}: a
     * provider names the window in its next bind by that field (soft-RoCE's kernel refuses a bind
     * whose window key is stale) and not every provider updates it.
     */
    public void bindMw(IbvMw mw, int rkey, IbvMr mr, long addr, long length, int access) {
        BIND_MR.set(bindInfo, 0L, mr == null ? MemorySegment.NULL : mr.ptr);
        BIND_ADDR.set(bindInfo, 0L, addr);
        BIND_LENGTH.set(bindInfo, 0L, length);
        BIND_ACCESS.set(bindInfo, 0L, access);
        try {
            VOID_QP_AIA.invokeExact(present(wrBindMw, "ibv_wr_bind_mw"), qpEx, mw.ptr, rkey, bindInfo);
            mw.setRkey(rkey);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code ibv_wr_set_ud_addr}. */
    public void setUdAddr(IbvAh ah, int remoteQpn, int remoteQkey) {
        try {
            VOID_QP_AII.invokeExact(present(wrSetUdAddr, "ibv_wr_set_ud_addr"), qpEx, ah.ptr, remoteQpn, remoteQkey);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code ibv_wr_set_xrc_srqn}. */
    public void setXrcSrqn(int remoteSrqn) {
        try {
            VOID_QP_I.invokeExact(present(wrSetXrcSrqn, "ibv_wr_set_xrc_srqn"), qpEx, remoteSrqn);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code ibv_wr_set_sge}. */
    public void setSge(int lkey, long addr, int length) {
        try {
            VOID_QP_ILI.invokeExact(present(wrSetSge, "ibv_wr_set_sge"), qpEx, lkey, addr, length);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code ibv_wr_set_sge_list} over the first {@code count} {@code struct ibv_sge} of {@code sges}. */
    public void setSgeList(long count, MemorySegment sges) {
        try {
            VOID_QP_LA.invokeExact(present(wrSetSgeList, "ibv_wr_set_sge_list"), qpEx, count, sges);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * {@code ibv_wr_set_inline_data_list} over the first {@code count} {@code struct ibv_data_buf}
     * of {@code bufs}: the provider copies the bytes now.
     */
    public void setInlineDataList(long count, MemorySegment bufs) {
        try {
            VOID_QP_LA.invokeExact(present(wrSetInlineDataList, "ibv_wr_set_inline_data_list"), qpEx, count, bufs);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * {@code ibv_wr_send_tso}: a large send cut into segments of {@code mss} bytes, each after the
     * {@code hdrSize} header bytes at {@code hdr}.
     */
    public void sendTso(long hdr, short hdrSize, short mss) {
        try {
            VOID_QP_LSS.invokeExact(present(wrSendTso, "ibv_wr_send_tso"), qpEx, hdr, hdrSize, mss);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code ibv_wr_set_inline_data}: the provider copies the bytes now. */
    public void setInlineData(long addr, long length) {
        try {
            VOID_QP_LL.invokeExact(present(wrSetInlineData, "ibv_wr_set_inline_data"), qpEx, addr, length);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    private void call(MemorySegment function, String name) {
        try {
            VOID_QP.invokeExact(present(function, name), qpEx);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code function}, unless the provider left it empty: a call through address 0 is refused. */
    private static MemorySegment present(MemorySegment function, String call) {
        if (function.address() == 0) {
            throw new SysException(call, IbvContextEx.EOPNOTSUPP);
        }
        return function;
    }
}

package org.jrdma.verbs.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import org.jrdma.ffi.Errors;
import org.jrdma.iba.Gid;

/**
 * {@code struct ibv_qp}: a queue pair ({@code ibv_create_qp}, {@code ibv_modify_qp},
 * {@code ibv_query_qp}, {@code ibv_attach_mcast}, {@code ibv_detach_mcast},
 * {@code ibv_destroy_qp}), with its staging areas for posting work requests.
 */
public final class IbvQp extends NativeObject {
    /** The most work requests staged for one provider call; longer lists take several. */
    private static final int MAX_STAGED = 64;

    private static final MethodHandle CREATE_QP = Ibv.function("ibv_create_qp",
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS), true);
    private static final MethodHandle MODIFY_QP = Ibv.function("ibv_modify_qp",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT), false);
    private static final MethodHandle QUERY_QP = Ibv.function("ibv_query_qp",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS), false);
    private static final MethodHandle DESTROY_QP = Ibv.function("ibv_destroy_qp",
            FunctionDescriptor.of(JAVA_INT, ADDRESS), false);
    private static final MethodHandle ATTACH_MCAST = Ibv.function("ibv_attach_mcast",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_SHORT), false);
    private static final MethodHandle DETACH_MCAST = Ibv.function("ibv_detach_mcast",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_SHORT), false);

    private static final VarHandle QP_NUM = Structs.handle(Structs.IBV_QP, "qp_num");
    private static final VarHandle INIT_SEND_CQ = Structs.handle(Structs.IBV_QP_INIT_ATTR, "send_cq");
    private static final VarHandle INIT_RECV_CQ = Structs.handle(Structs.IBV_QP_INIT_ATTR, "recv_cq");
    private static final VarHandle INIT_SRQ = Structs.handle(Structs.IBV_QP_INIT_ATTR, "srq");
    private static final VarHandle INIT_QP_TYPE = Structs.handle(Structs.IBV_QP_INIT_ATTR, "qp_type");
    private static final VarHandle INIT_SQ_SIG_ALL = Structs.handle(Structs.IBV_QP_INIT_ATTR, "sq_sig_all");
    private static final long INIT_CAP = Structs.offset(Structs.IBV_QP_INIT_ATTR, "cap");
    private static final VarHandle CAP_MAX_SEND_WR = Structs.handle(Structs.IBV_QP_CAP, "max_send_wr");
    private static final VarHandle CAP_MAX_RECV_WR = Structs.handle(Structs.IBV_QP_CAP, "max_recv_wr");
    private static final VarHandle CAP_MAX_SEND_SGE = Structs.handle(Structs.IBV_QP_CAP, "max_send_sge");
    private static final VarHandle CAP_MAX_RECV_SGE = Structs.handle(Structs.IBV_QP_CAP, "max_recv_sge");
    private static final VarHandle CAP_MAX_INLINE_DATA = Structs.handle(Structs.IBV_QP_CAP, "max_inline_data");

    private static final VarHandle QP_STATE = Structs.handle(Structs.IBV_QP_ATTR, "qp_state");
    private static final VarHandle CUR_QP_STATE = Structs.handle(Structs.IBV_QP_ATTR, "cur_qp_state");
    private static final VarHandle PATH_MTU = Structs.handle(Structs.IBV_QP_ATTR, "path_mtu");
    private static final VarHandle PATH_MIG_STATE = Structs.handle(Structs.IBV_QP_ATTR, "path_mig_state");
    private static final VarHandle QKEY = Structs.handle(Structs.IBV_QP_ATTR, "qkey");
    private static final VarHandle RQ_PSN = Structs.handle(Structs.IBV_QP_ATTR, "rq_psn");
    private static final VarHandle SQ_PSN = Structs.handle(Structs.IBV_QP_ATTR, "sq_psn");
    private static final VarHandle DEST_QP_NUM = Structs.handle(Structs.IBV_QP_ATTR, "dest_qp_num");
    private static final VarHandle QP_ACCESS_FLAGS = Structs.handle(Structs.IBV_QP_ATTR, "qp_access_flags");
    private static final long CAP = Structs.offset(Structs.IBV_QP_ATTR, "cap");
    private static final long AH_ATTR = Structs.offset(Structs.IBV_QP_ATTR, "ah_attr");
    private static final long ALT_AH_ATTR = Structs.offset(Structs.IBV_QP_ATTR, "alt_ah_attr");
    private static final VarHandle PKEY_INDEX = Structs.handle(Structs.IBV_QP_ATTR, "pkey_index");
    private static final VarHandle ALT_PKEY_INDEX = Structs.handle(Structs.IBV_QP_ATTR, "alt_pkey_index");
    private static final VarHandle EN_SQD_ASYNC_NOTIFY = Structs.handle(Structs.IBV_QP_ATTR, "en_sqd_async_notify");
    private static final VarHandle SQ_DRAINING = Structs.handle(Structs.IBV_QP_ATTR, "sq_draining");
    private static final VarHandle MAX_RD_ATOMIC = Structs.handle(Structs.IBV_QP_ATTR, "max_rd_atomic");
    private static final VarHandle MAX_DEST_RD_ATOMIC = Structs.handle(Structs.IBV_QP_ATTR, "max_dest_rd_atomic");
    private static final VarHandle MIN_RNR_TIMER = Structs.handle(Structs.IBV_QP_ATTR, "min_rnr_timer");
    private static final VarHandle PORT_NUM = Structs.handle(Structs.IBV_QP_ATTR, "port_num");
    private static final VarHandle TIMEOUT = Structs.handle(Structs.IBV_QP_ATTR, "timeout");
    private static final VarHandle RETRY_CNT = Structs.handle(Structs.IBV_QP_ATTR, "retry_cnt");
    private static final VarHandle RNR_RETRY = Structs.handle(Structs.IBV_QP_ATTR, "rnr_retry");
    private static final VarHandle ALT_PORT_NUM = Structs.handle(Structs.IBV_QP_ATTR, "alt_port_num");
    private static final VarHandle ALT_TIMEOUT = Structs.handle(Structs.IBV_QP_ATTR, "alt_timeout");
    private static final VarHandle RATE_LIMIT = Structs.handle(Structs.IBV_QP_ATTR, "rate_limit");

    /**
     * How a queue pair is created and destroyed when not by {@code ibv_create_qp} and
     * {@code ibv_destroy_qp}: librdmacm's {@code rdma_create_qp} and {@code rdma_destroy_qp},
     * which also tie it to a connection identifier.
     */
    public interface Maker {
        /**
         * Creates the queue pair in protection domain {@code pd} from the filled
         * {@code struct ibv_qp_init_attr} {@code initAttr} (whose {@code cap} it updates to what
         * was granted) and returns its {@code struct ibv_qp}, never {@code NULL}.
         *
         * @throws org.jrdma.SysException when the library refuses
         */
        MemorySegment create(MemorySegment pd, MemorySegment initAttr);

        /** Destroys the queue pair at {@code qp}, already unusable from Java. */
        void destroy(MemorySegment qp);
    }

    private final int qpNum;
    private final IbvQpCap cap;
    /** Null for {@code ibv_create_qp}'s queue pairs. */
    private final Maker maker;
    private final IbvContext context;
    private final SendWrs sendWrs;
    private final RecvWrs recvWrs;

    private IbvQp(MemorySegment raw, IbvContext context, IbvQpCap cap, boolean hasSrq, Maker maker) {
        super(raw, Structs.IBV_QP, "queue pair", context.isConfined());
        this.maker = maker;
        this.qpNum = (int) QP_NUM.get(ptr, 0L);
        this.cap = cap;
        this.context = context;
        this.sendWrs = new SendWrs(arena, ptr, context.postSend, staged(cap.maxSendWr()), cap.maxSendSge());
        this.recvWrs = hasSrq ? null : newRecvWrs(staged(cap.maxRecvWr()));
    }

    private static int staged(int maxWr) {
        return Math.clamp(maxWr, 1, MAX_STAGED);
    }

    /**
     * {@code ibv_create_qp}: the device may grant more than {@code cap} asks; {@link #cap()}
     * says what it granted.
     *
     * @param srq   the shared receive queue, or null for the queue pair's own
     * @param maker what creates and destroys it, or null for {@code ibv_create_qp} and
     *              {@code ibv_destroy_qp}
     */
    public static IbvQp create(IbvPd pd, IbvCq sendCq, IbvCq recvCq, IbvSrq srq, int qpType, IbvQpCap cap,
            boolean sqSigAll, Maker maker) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment init = arena.allocate(Structs.IBV_QP_INIT_ATTR);
            INIT_SEND_CQ.set(init, 0L, sendCq.ptr);
            INIT_RECV_CQ.set(init, 0L, recvCq.ptr);
            MemorySegment srqPtr = srq == null ? MemorySegment.NULL : srq.ptr;
            INIT_SRQ.set(init, 0L, srqPtr);
            CAP_MAX_SEND_WR.set(init, INIT_CAP, cap.maxSendWr());
            CAP_MAX_RECV_WR.set(init, INIT_CAP, cap.maxRecvWr());
            CAP_MAX_SEND_SGE.set(init, INIT_CAP, cap.maxSendSge());
            CAP_MAX_RECV_SGE.set(init, INIT_CAP, cap.maxRecvSge());
            CAP_MAX_INLINE_DATA.set(init, INIT_CAP, cap.maxInlineData());
            INIT_QP_TYPE.set(init, 0L, qpType);
            INIT_SQ_SIG_ALL.set(init, 0L, sqSigAll ? 1 : 0);
            MemorySegment raw = maker != null ? maker.create(pd.ptr, init)
                    : Errors.nonNull("ibv_create_qp", (MemorySegment) CREATE_QP.invokeExact(state, pd.ptr, init), state);
            return new IbvQp(raw, pd.context, readCap(init, INIT_CAP), srq != null, maker);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * Takes ownership of the QP at {@code raw} made by another constructor ({@code ibv_create_qp_ex})
     * with the queue sizes {@code cap}, its receives going to an SRQ or not.
     */
    static IbvQp adopt(MemorySegment raw, IbvContext context, IbvQpCap cap, boolean hasSrq) {
        return new IbvQp(raw, context, cap, hasSrq, null);
    }

    private static IbvQpCap readCap(MemorySegment s, long offset) {
        return new IbvQpCap((int) CAP_MAX_SEND_WR.get(s, offset), (int) CAP_MAX_RECV_WR.get(s, offset),
                (int) CAP_MAX_SEND_SGE.get(s, offset), (int) CAP_MAX_RECV_SGE.get(s, offset),
                (int) CAP_MAX_INLINE_DATA.get(s, offset));
    }

    /** {@code qp->qp_num}. */
    public int qpNum() {
        return qpNum;
    }

    /** The work queue sizes granted at creation. */
    public IbvQpCap cap() {
        return cap;
    }

    /** The staging area of {@code ibv_post_send}. */
    public SendWrs sendWrs() {
        return sendWrs;
    }

    /** The staging area of {@code ibv_post_recv}, or null when the queue pair receives from an SRQ. */
    public RecvWrs recvWrs() {
        return recvWrs;
    }

    /**
     * A further staging area of {@code ibv_post_send} with room for {@code capacity} requests,
     * in the queue pair's memory (freed when it is destroyed): for requests prepared once and
     * posted many times.
     */
    public SendWrs newSendWrs(int capacity) {
        return new SendWrs(arena, ptr, context.postSend, capacity, cap.maxSendSge());
    }

    /**
     * A further staging area of {@code ibv_post_recv} with room for {@code capacity} requests,
     * in the queue pair's memory; only for a queue pair with its own receive queue.
     */
    public RecvWrs newRecvWrs(int capacity) {
        return new RecvWrs(arena, ptr, context.postRecv, capacity, cap.maxRecvSge());
    }

    /** {@code ibv_modify_qp(qp, attr, mask)}. */
    public void modify(IbvQpAttr attr, int mask) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(Structs.IBV_QP_ATTR);
            QP_STATE.set(a, 0L, attr.qpState());
            CUR_QP_STATE.set(a, 0L, attr.curQpState());
            PATH_MTU.set(a, 0L, attr.pathMtu());
            PATH_MIG_STATE.set(a, 0L, attr.pathMigState());
            QKEY.set(a, 0L, attr.qkey());
            RQ_PSN.set(a, 0L, attr.rqPsn());
            SQ_PSN.set(a, 0L, attr.sqPsn());
            DEST_QP_NUM.set(a, 0L, attr.destQpNum());
            QP_ACCESS_FLAGS.set(a, 0L, attr.qpAccessFlags());
            CAP_MAX_SEND_WR.set(a, CAP, attr.cap().maxSendWr());
            CAP_MAX_RECV_WR.set(a, CAP, attr.cap().maxRecvWr());
            CAP_MAX_SEND_SGE.set(a, CAP, attr.cap().maxSendSge());
            CAP_MAX_RECV_SGE.set(a, CAP, attr.cap().maxRecvSge());
            CAP_MAX_INLINE_DATA.set(a, CAP, attr.cap().maxInlineData());
            AhAttrs.write(a, AH_ATTR, attr.ahAttr());
            AhAttrs.write(a, ALT_AH_ATTR, attr.altAhAttr());
            PKEY_INDEX.set(a, 0L, (short) attr.pkeyIndex());
            ALT_PKEY_INDEX.set(a, 0L, (short) attr.altPkeyIndex());
            EN_SQD_ASYNC_NOTIFY.set(a, 0L, (byte) (attr.enSqdAsyncNotify() ? 1 : 0));
            MAX_RD_ATOMIC.set(a, 0L, (byte) attr.maxRdAtomic());
            MAX_DEST_RD_ATOMIC.set(a, 0L, (byte) attr.maxDestRdAtomic());
            MIN_RNR_TIMER.set(a, 0L, (byte) attr.minRnrTimer());
            PORT_NUM.set(a, 0L, (byte) attr.portNum());
            TIMEOUT.set(a, 0L, (byte) attr.timeout());
            RETRY_CNT.set(a, 0L, (byte) attr.retryCnt());
            RNR_RETRY.set(a, 0L, (byte) attr.rnrRetry());
            ALT_PORT_NUM.set(a, 0L, (byte) attr.altPortNum());
            ALT_TIMEOUT.set(a, 0L, (byte) attr.altTimeout());
            RATE_LIMIT.set(a, 0L, attr.rateLimit());
            Errors.zero("ibv_modify_qp", (int) MODIFY_QP.invokeExact(ptr, a, mask));
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code ibv_query_qp(qp, attr, mask, init_attr)}: every attribute of {@code attr}. */
    public IbvQpAttr query(int mask) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(Structs.IBV_QP_ATTR);
            MemorySegment init = arena.allocate(Structs.IBV_QP_INIT_ATTR);
            Errors.zero("ibv_query_qp", (int) QUERY_QP.invokeExact(ptr, a, mask, init));
            return readAttr(a);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** The {@code struct ibv_qp_attr} at the start of {@code a}, as {@code ibv_query_qp} or {@code rdma_init_qp_attr} filled it. */
    public static IbvQpAttr readAttr(MemorySegment a) {
        return new IbvQpAttr((int) QP_STATE.get(a, 0L),
                (int) CUR_QP_STATE.get(a, 0L),
                (int) PATH_MTU.get(a, 0L),
                (int) PATH_MIG_STATE.get(a, 0L),
                (int) QKEY.get(a, 0L),
                (int) RQ_PSN.get(a, 0L),
                (int) SQ_PSN.get(a, 0L),
                (int) DEST_QP_NUM.get(a, 0L),
                (int) QP_ACCESS_FLAGS.get(a, 0L),
                readCap(a, CAP),
                AhAttrs.read(a, AH_ATTR),
                AhAttrs.read(a, ALT_AH_ATTR),
                Short.toUnsignedInt((short) PKEY_INDEX.get(a, 0L)),
                Short.toUnsignedInt((short) ALT_PKEY_INDEX.get(a, 0L)),
                (byte) EN_SQD_ASYNC_NOTIFY.get(a, 0L) != 0,
                (byte) SQ_DRAINING.get(a, 0L) != 0,
                AhAttrs.u8(MAX_RD_ATOMIC, a, 0L),
                AhAttrs.u8(MAX_DEST_RD_ATOMIC, a, 0L),
                AhAttrs.u8(MIN_RNR_TIMER, a, 0L),
                AhAttrs.u8(PORT_NUM, a, 0L),
                AhAttrs.u8(TIMEOUT, a, 0L),
                AhAttrs.u8(RETRY_CNT, a, 0L),
                AhAttrs.u8(RNR_RETRY, a, 0L),
                AhAttrs.u8(ALT_PORT_NUM, a, 0L),
                AhAttrs.u8(ALT_TIMEOUT, a, 0L),
                (int) RATE_LIMIT.get(a, 0L));
    }

    /** {@code ibv_attach_mcast}. */
    public void attachMcast(Gid gid, int lid) {
        mcast(ATTACH_MCAST, "ibv_attach_mcast", gid, lid);
    }

    /** {@code ibv_detach_mcast}. */
    public void detachMcast(Gid gid, int lid) {
        mcast(DETACH_MCAST, "ibv_detach_mcast", gid, lid);
    }

    private void mcast(MethodHandle function, String call, Gid gid, int lid) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment raw = arena.allocate(Structs.IBV_GID);
            gid.writeTo(raw, 0);
            Errors.zero(call, (int) function.invokeExact(ptr, raw, (short) lid));
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    @Override
    void destroy(MemorySegment raw) {
        if (maker != null) {
            maker.destroy(raw);
            return;
        }
        try {
            Errors.zero("ibv_destroy_qp", (int) DESTROY_QP.invokeExact(raw));
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }
}

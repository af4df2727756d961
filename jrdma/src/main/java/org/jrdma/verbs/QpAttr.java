package org.jrdma.verbs;

import java.time.Duration;
import java.util.Objects;
import org.jrdma.devices.EndPort;
import org.jrdma.iba.Mtu;
import org.jrdma.path.IBPath;
import org.jrdma.verbs.ffi.IbvQpAttr;

/**
 * Queue pair attributes, {@code struct ibv_qp_attr}, for {@link Qp#modify} (IBA 11.2.5.2 Modify
 * QP) and from {@link Qp#query}. A mutable builder: each setter checks its range, records its
 * {@code enum ibv_qp_attr_mask} bit in {@link #mask()} and returns {@code this}, so
 * {@code qp.modify(new QpAttr().qpState(QpState.INIT).pkeyIndex(0).portNum(1).qpAccessFlags(0))}
 * sends exactly the four attributes set. The mask constants below are verbs.h's {@code IBV_QP_*}.
 * A query result has every attribute set, so it is passed back to {@link Qp#modify(QpAttr, int)}
 * with the mask of the attributes to change.
 *
 * <p>{@link #forInit}, {@link #forRtr} and {@link #forRts} make the attributes of each state
 * change from an {@link IBPath}, by the seed's table (python-rdma "Verbs and IBPath"), as
 * {@link Qp#modifyToInit}, {@link Qp#modifyToRtr} and {@link Qp#modifyToRts} send them:
 * <table>
 *   <caption>IBPath attribute, {@code ibv_qp_attr} field, and the transitions that set it</caption>
 *   <tr><th>path</th><th>qp_attr</th><th>set for</th></tr>
 *   <tr><td>end_port.port_id</td><td>port_num</td><td>INIT</td></tr>
 *   <tr><td>pkey</td><td>pkey_index: its index in the end port's P_Key table</td><td>INIT</td></tr>
 *   <tr><td>qkey</td><td>qkey</td><td>INIT of UD</td></tr>
 *   <tr><td>(the access argument)</td><td>qp_access_flags</td><td>INIT of RC, UC</td></tr>
 *   <tr><td>MTU</td><td>path_mtu</td><td>RTR of RC, UC</td></tr>
 *   <tr><td>dqpn</td><td>dest_qp_num</td><td>RTR of RC, UC</td></tr>
 *   <tr><td>dqpsn</td><td>rq_psn</td><td>RTR of RC, UC</td></tr>
 *   <tr><td>(the path as an address vector, {@link AhAttr#fromPath})</td><td>ah_attr</td><td>RTR of RC, UC</td></tr>
 *   <tr><td>drdatomic</td><td>max_dest_rd_atomic</td><td>RTR of RC</td></tr>
 *   <tr><td>min_rnr_timer</td><td>min_rnr_timer</td><td>RTR of RC</td></tr>
 *   <tr><td>sqpsn</td><td>sq_psn</td><td>RTS</td></tr>
 *   <tr><td>packet_life_time, dack_resp_time</td><td>timeout: the IBA timer value covering
 *       {@link IBPath#qpTimeout()}</td><td>RTS of RC</td></tr>
 *   <tr><td>retries</td><td>retry_cnt (at most 7, the field's 3 bits)</td><td>RTS of RC</td></tr>
 *   <tr><td>srdatomic</td><td>max_rd_atomic</td><td>RTS of RC</td></tr>
 *   <tr><td>(none: python-rdma's fixed value)</td><td>rnr_retry = 7, retry for ever</td><td>RTS of RC</td></tr>
 * </table>
 * sack_resp_time and sqpn have no QP attribute: they describe the local side to the remote one.
 */
public final class QpAttr {
    /** {@code IBV_QP_STATE}: {@link #qpState}. */
    public static final int STATE = 1;
    /** {@code IBV_QP_CUR_STATE}: {@link #curQpState}. */
    public static final int CUR_STATE = 1 << 1;
    /** {@code IBV_QP_EN_SQD_ASYNC_NOTIFY}: {@link #enSqdAsyncNotify}. */
    public static final int EN_SQD_ASYNC_NOTIFY = 1 << 2;
    /** {@code IBV_QP_ACCESS_FLAGS}: {@link #qpAccessFlags}. */
    public static final int ACCESS_FLAGS = 1 << 3;
    /** {@code IBV_QP_PKEY_INDEX}: {@link #pkeyIndex}. */
    public static final int PKEY_INDEX = 1 << 4;
    /** {@code IBV_QP_PORT}: {@link #portNum}. */
    public static final int PORT = 1 << 5;
    /** {@code IBV_QP_QKEY}: {@link #qkey}. */
    public static final int QKEY = 1 << 6;
    /** {@code IBV_QP_AV}: {@link #ahAttr}. */
    public static final int AV = 1 << 7;
    /** {@code IBV_QP_PATH_MTU}: {@link #pathMtu}. */
    public static final int PATH_MTU = 1 << 8;
    /** {@code IBV_QP_TIMEOUT}: {@link #timeout}. */
    public static final int TIMEOUT = 1 << 9;
    /** {@code IBV_QP_RETRY_CNT}: {@link #retryCnt}. */
    public static final int RETRY_CNT = 1 << 10;
    /** {@code IBV_QP_RNR_RETRY}: {@link #rnrRetry}. */
    public static final int RNR_RETRY = 1 << 11;
    /** {@code IBV_QP_RQ_PSN}: {@link #rqPsn}. */
    public static final int RQ_PSN = 1 << 12;
    /** {@code IBV_QP_MAX_QP_RD_ATOMIC}: {@link #maxRdAtomic}. */
    public static final int MAX_QP_RD_ATOMIC = 1 << 13;
    /** {@code IBV_QP_ALT_PATH}: {@link #altAhAttr}, {@link #altPkeyIndex}, {@link #altPortNum}, {@link #altTimeout}. */
    public static final int ALT_PATH = 1 << 14;
    /** {@code IBV_QP_MIN_RNR_TIMER}: {@link #minRnrTimer}. */
    public static final int MIN_RNR_TIMER = 1 << 15;
    /** {@code IBV_QP_SQ_PSN}: {@link #sqPsn}. */
    public static final int SQ_PSN = 1 << 16;
    /** {@code IBV_QP_MAX_DEST_RD_ATOMIC}: {@link #maxDestRdAtomic}. */
    public static final int MAX_DEST_RD_ATOMIC = 1 << 17;
    /** {@code IBV_QP_PATH_MIG_STATE}: {@link #pathMigState}. */
    public static final int PATH_MIG_STATE = 1 << 18;
    /** {@code IBV_QP_CAP}: {@link #cap}. */
    public static final int CAP = 1 << 19;
    /** {@code IBV_QP_DEST_QPN}: {@link #destQpNum}. */
    public static final int DEST_QPN = 1 << 20;
    /** {@code IBV_QP_RATE_LIMIT}: {@link #rateLimit}. */
    public static final int RATE_LIMIT = 1 << 25;

    private int mask;
    private QpState qpState = QpState.RESET;
    private QpState curQpState = QpState.RESET;
    private Mtu pathMtu = Mtu.MTU_256;
    private int pathMigState;
    private int qkey;
    private int rqPsn;
    private int sqPsn;
    private int destQpNum;
    private int qpAccessFlags;
    private QpCap cap = new QpCap(0, 0, 0, 0, 0);
    private AhAttr ahAttr = new AhAttr();
    private AhAttr altAhAttr = new AhAttr();
    private int pkeyIndex;
    private int altPkeyIndex;
    private boolean enSqdAsyncNotify;
    private boolean sqDraining;
    private int maxRdAtomic;
    private int maxDestRdAtomic;
    private int minRnrTimer;
    private int portNum;
    private int timeout;
    private int retryCnt;
    private int rnrRetry;
    private int altPortNum;
    private int altTimeout;
    private int rateLimit;

    /** {@code rnr_retry} of a connection made from a path: 7, retry for ever, as python-rdma does. */
    private static final int PATH_RNR_RETRY = 7;
    /** The largest {@code retry_cnt}, 3 bits. */
    private static final int MAX_RETRY_CNT = 7;
    /** The largest IBA timer value, 5 bits. */
    private static final int MAX_TIMER = 31;
    /** The IBA timer unit, 4.096 us, in nanoseconds. */
    private static final long TIMER_UNIT_NANOS = 4096;

    /** Attributes with nothing set: an empty mask. */
    public QpAttr() {
    }

    /**
     * The attributes of RESET to INIT for a {@code type} queue pair on {@code path}
     * (python-rdma's {@code modify_to_init}): state, {@code pkey_index} and {@code port_num}, and
     * {@code qkey} for UD or {@code qp_access_flags} = {@code access} for RC and UC.
     *
     * @param access {@link Access} bits of the remote operations allowed; unused for UD
     * @throws IllegalStateException    if the path has no end port
     * @throws IllegalArgumentException if a UD path has no qkey
     * @throws org.jrdma.RdmaException  if the path's P_Key is not in the end port's table
     */
    public static QpAttr forInit(QpType type, IBPath path, int access) {
        EndPort endPort = requireEndPort(path);
        QpAttr attr = new QpAttr().qpState(QpState.INIT).pkeyIndex(path.pkeyIndex()).portNum(endPort.portNumber());
        if (type == QpType.UD) {
            return attr.qkey(path.qkey().orElseThrow(
                    () -> new IllegalArgumentException("a UD queue pair needs the path's qkey; none in " + path)));
        }
        return attr.qpAccessFlags(access);
    }

    /**
     * The attributes of INIT to RTR for a {@code type} queue pair on {@code path}
     * (python-rdma's {@code modify_to_rtr}): the state alone for UD; {@code path_mtu},
     * {@code dest_qp_num}, {@code rq_psn} and {@code ah_attr} for UC; those and
     * {@code max_dest_rd_atomic} and {@code min_rnr_timer} for RC.
     *
     * @throws IllegalArgumentException if a connected path has no dqpn
     * @throws IllegalStateException    if a connected path has no end port, or a GRH but no SGID
     */
    public static QpAttr forRtr(QpType type, IBPath path) {
        QpAttr attr = new QpAttr().qpState(QpState.RTR);
        if (type == QpType.UD) {
            return attr;
        }
        attr.pathMtu(path.mtu()).destQpNum(path.dqpn().orElseThrow(
                () -> new IllegalArgumentException("a connection needs the path's dqpn; none in " + path)))
                .rqPsn(path.dqpsn()).ahAttr(AhAttr.fromPath(path));
        if (type == QpType.RC) {
            attr.maxDestRdAtomic(path.drdatomic()).minRnrTimer(path.minRnrTimer());
        }
        return attr;
    }

    /**
     * The attributes of RTR to RTS for a {@code type} queue pair on {@code path}
     * (python-rdma's {@code modify_to_rts}): state and {@code sq_psn}; for RC also
     * {@code timeout}, {@code retry_cnt}, {@code rnr_retry} (7: retry for ever, as python-rdma
     * does) and {@code max_rd_atomic}.
     */
    public static QpAttr forRts(QpType type, IBPath path) {
        QpAttr attr = new QpAttr().qpState(QpState.RTS).sqPsn(path.sqpsn());
        if (type == QpType.RC) {
            attr.timeout(timerValue(path.qpTimeout())).retryCnt(Math.min(path.retries(), MAX_RETRY_CNT))
                    .rnrRetry(PATH_RNR_RETRY).maxRdAtomic(path.srdatomic());
        }
        return attr;
    }

    /**
     * The smallest IBA timer value {@code t} (0 to 31) with 4.096 us * 2<sup>t</sup> at least
     * {@code time}, 31 when none is: python-rdma's {@code IBA.to_timer}.
     */
    static int timerValue(Duration time) {
        for (int t = 0; t < MAX_TIMER; t++) {
            if (Duration.ofNanos(TIMER_UNIT_NANOS << t).compareTo(time) >= 0) {
                return t;
            }
        }
        return MAX_TIMER;
    }

    private static EndPort requireEndPort(IBPath path) {
        return path.endPort().orElseThrow(
                () -> new IllegalStateException("a queue pair needs the path's end port; none in " + path));
    }

    /** The {@code enum ibv_qp_attr_mask} bits of the attributes set so far (or returned by a query). */
    public int mask() {
        return mask;
    }

    private QpAttr set(int bit) {
        mask |= bit;
        return this;
    }

    /** {@code qp_state}: the state to move to, or the current one in a query. */
    public QpState qpState() {
        return qpState;
    }

    /** Sets {@code qp_state} ({@link #STATE}). */
    public QpAttr qpState(QpState value) {
        this.qpState = Objects.requireNonNull(value, "qpState");
        return set(STATE);
    }

    /** {@code cur_qp_state}: the state the caller believes the QP is in. */
    public QpState curQpState() {
        return curQpState;
    }

    /** Sets {@code cur_qp_state} ({@link #CUR_STATE}). */
    public QpAttr curQpState(QpState value) {
        this.curQpState = Objects.requireNonNull(value, "curQpState");
        return set(CUR_STATE);
    }

    /** {@code path_mtu}. */
    public Mtu pathMtu() {
        return pathMtu;
    }

    /** Sets {@code path_mtu} ({@link #PATH_MTU}). */
    public QpAttr pathMtu(Mtu value) {
        this.pathMtu = Objects.requireNonNull(value, "pathMtu");
        return set(PATH_MTU);
    }

    /** {@code path_mig_state}: {@code enum ibv_mig_state}, 0 migrated, 1 rearm, 2 armed. */
    public int pathMigState() {
        return pathMigState;
    }

    /** Sets {@code path_mig_state} ({@link #PATH_MIG_STATE}). */
    public QpAttr pathMigState(int value) {
        if (value < 0 || value > 2) {
            throw new IllegalArgumentException("path_mig_state must be 0 to 2, not " + value);
        }
        this.pathMigState = value;
        return set(PATH_MIG_STATE);
    }

    /** {@code qkey}: the Q_Key of a UD queue pair, unsigned 32 bits. */
    public int qkey() {
        return qkey;
    }

    /** Sets {@code qkey} ({@link #QKEY}). */
    public QpAttr qkey(int value) {
        this.qkey = value;
        return set(QKEY);
    }

    /** {@code rq_psn}: the first packet sequence number expected, 24 bits. */
    public int rqPsn() {
        return rqPsn;
    }

    /** Sets {@code rq_psn} ({@link #RQ_PSN}). */
    public QpAttr rqPsn(int value) {
        this.rqPsn = Args.unsigned("rq_psn", value, 24);
        return set(RQ_PSN);
    }

    /** {@code sq_psn}: the first packet sequence number sent, 24 bits. */
    public int sqPsn() {
        return sqPsn;
    }

    /** Sets {@code sq_psn} ({@link #SQ_PSN}). */
    public QpAttr sqPsn(int value) {
        this.sqPsn = Args.unsigned("sq_psn", value, 24);
        return set(SQ_PSN);
    }

    /** {@code dest_qp_num}: the remote queue pair number of a connection, 24 bits. */
    public int destQpNum() {
        return destQpNum;
    }

    /** Sets {@code dest_qp_num} ({@link #DEST_QPN}). */
    public QpAttr destQpNum(int value) {
        this.destQpNum = Args.unsigned("dest_qp_num", value, 24);
        return set(DEST_QPN);
    }

    /** {@code qp_access_flags}: the remote operations allowed, {@link Access} bits. */
    public int qpAccessFlags() {
        return qpAccessFlags;
    }

    /** Sets {@code qp_access_flags} ({@link #ACCESS_FLAGS}). */
    public QpAttr qpAccessFlags(int value) {
        this.qpAccessFlags = value;
        return set(ACCESS_FLAGS);
    }

    /** {@code cap}: the work queue sizes. */
    public QpCap cap() {
        return cap;
    }

    /** Sets {@code cap} ({@link #CAP}): resizes the work queues, where the device allows it. */
    public QpAttr cap(QpCap value) {
        this.cap = Objects.requireNonNull(value, "cap");
        return set(CAP);
    }

    /**
     * Sets {@code ah_attr} ({@link #AV}) to the address of {@code path}
     * ({@link AhAttr#fromPath}), python-rdma's {@code qp_attr.ah_attr = path}.
     */
    public QpAttr ahAttr(IBPath path) {
        return ahAttr(AhAttr.fromPath(path));
    }

    /** {@code ah_attr}: the primary path of a connected queue pair. */
    public AhAttr ahAttr() {
        return ahAttr;
    }

    /** Sets {@code ah_attr} ({@link #AV}). */
    public QpAttr ahAttr(AhAttr value) {
        this.ahAttr = Objects.requireNonNull(value, "ahAttr");
        return set(AV);
    }

    /** {@code alt_ah_attr}: the alternate path (automatic path migration). */
    public AhAttr altAhAttr() {
        return altAhAttr;
    }

    /**
     * Sets the alternate path ({@link #ALT_PATH}): {@code alt_ah_attr}, {@code alt_pkey_index},
     * {@code alt_port_num} and {@code alt_timeout}, which go together.
     */
    public QpAttr altPath(AhAttr altAhAttr, int altPkeyIndex, int altPortNum, int altTimeout) {
        this.altAhAttr = Objects.requireNonNull(altAhAttr, "altAhAttr");
        this.altPkeyIndex = Args.unsigned("alt_pkey_index", altPkeyIndex, 16);
        this.altPortNum = Args.unsigned("alt_port_num", altPortNum, 8);
        this.altTimeout = Args.unsigned("alt_timeout", altTimeout, 5);
        return set(ALT_PATH);
    }

    /** {@code pkey_index}: the P_Key table entry of the primary path. */
    public int pkeyIndex() {
        return pkeyIndex;
    }

    /** Sets {@code pkey_index} ({@link #PKEY_INDEX}). */
    public QpAttr pkeyIndex(int value) {
        this.pkeyIndex = Args.unsigned("pkey_index", value, 16);
        return set(PKEY_INDEX);
    }

    /** {@code alt_pkey_index}. */
    public int altPkeyIndex() {
        return altPkeyIndex;
    }

    /** {@code en_sqd_async_notify}: raise an event when the send queue has drained. */
    public boolean enSqdAsyncNotify() {
        return enSqdAsyncNotify;
    }

    /** Sets {@code en_sqd_async_notify} ({@link #EN_SQD_ASYNC_NOTIFY}). */
    public QpAttr enSqdAsyncNotify(boolean value) {
        this.enSqdAsyncNotify = value;
        return set(EN_SQD_ASYNC_NOTIFY);
    }

    /** {@code sq_draining}, from a query: the send queue is draining (state SQD). */
    public boolean sqDraining() {
        return sqDraining;
    }

    /** Sets {@code sq_draining}, an output of {@link Qp#query} that {@link Qp#modify} ignores; no mask bit. */
    public QpAttr sqDraining(boolean value) {
        this.sqDraining = value;
        return this;
    }

    /** {@code max_rd_atomic}: RDMA reads and atomics this side may have outstanding. */
    public int maxRdAtomic() {
        return maxRdAtomic;
    }

    /** Sets {@code max_rd_atomic} ({@link #MAX_QP_RD_ATOMIC}). */
    public QpAttr maxRdAtomic(int value) {
        this.maxRdAtomic = Args.unsigned("max_rd_atomic", value, 8);
        return set(MAX_QP_RD_ATOMIC);
    }

    /** {@code max_dest_rd_atomic}: responder resources for the remote side's reads and atomics. */
    public int maxDestRdAtomic() {
        return maxDestRdAtomic;
    }

    /** Sets {@code max_dest_rd_atomic} ({@link #MAX_DEST_RD_ATOMIC}). */
    public QpAttr maxDestRdAtomic(int value) {
        this.maxDestRdAtomic = Args.unsigned("max_dest_rd_atomic", value, 8);
        return set(MAX_DEST_RD_ATOMIC);
    }

    /** {@code min_rnr_timer}: the RNR NAK timer field (IBA table 45), 5 bits. */
    public int minRnrTimer() {
        return minRnrTimer;
    }

    /** Sets {@code min_rnr_timer} ({@link #MIN_RNR_TIMER}). */
    public QpAttr minRnrTimer(int value) {
        this.minRnrTimer = Args.unsigned("min_rnr_timer", value, 5);
        return set(MIN_RNR_TIMER);
    }

    /** {@code port_num}: the local port, from 1. */
    public int portNum() {
        return portNum;
    }

    /** Sets {@code port_num} ({@link #PORT}). */
    public QpAttr portNum(int value) {
        this.portNum = Args.unsigned("port_num", value, 8);
        return set(PORT);
    }

    /** {@code timeout}: the local ack timeout, 4.096 us * 2^value, 0 for infinite; 5 bits. */
    public int timeout() {
        return timeout;
    }

    /** Sets {@code timeout} ({@link #TIMEOUT}). */
    public QpAttr timeout(int value) {
        this.timeout = Args.unsigned("timeout", value, 5);
        return set(TIMEOUT);
    }

    /** {@code retry_cnt}: retries after a timeout, 3 bits. */
    public int retryCnt() {
        return retryCnt;
    }

    /** Sets {@code retry_cnt} ({@link #RETRY_CNT}). */
    public QpAttr retryCnt(int value) {
        this.retryCnt = Args.unsigned("retry_cnt", value, 3);
        return set(RETRY_CNT);
    }

    /** {@code rnr_retry}: retries after a receiver-not-ready NAK, 3 bits, 7 for infinite. */
    public int rnrRetry() {
        return rnrRetry;
    }

    /** Sets {@code rnr_retry} ({@link #RNR_RETRY}). */
    public QpAttr rnrRetry(int value) {
        this.rnrRetry = Args.unsigned("rnr_retry", value, 3);
        return set(RNR_RETRY);
    }

    /** {@code alt_port_num}. */
    public int altPortNum() {
        return altPortNum;
    }

    /** {@code alt_timeout}. */
    public int altTimeout() {
        return altTimeout;
    }

    /** {@code rate_limit}: the packet pacing rate, kbps, 0 unlimited. */
    public int rateLimit() {
        return rateLimit;
    }

    /** Sets {@code rate_limit} ({@link #RATE_LIMIT}). */
    public QpAttr rateLimit(int value) {
        this.rateLimit = value;
        return set(RATE_LIMIT);
    }

    /**
     * The attributes libibverbs reported in a {@code struct ibv_qp_attr}, each set as by its
     * setter (so {@link #mask()} names them all); a {@code path_mtu} that is no IBA MTU is left
     * at its default. Public for the connection manager's {@code rdma_init_qp_attr}; its
     * parameter's type is not exported: no one outside the module can call it.
     */
    @SuppressWarnings("exports")
    public static QpAttr of(IbvQpAttr raw) {
        QpAttr attr = new QpAttr()
                .qpState(QpState.fromValue(raw.qpState()))
                .curQpState(QpState.fromValue(raw.curQpState()))
                .pathMigState(raw.pathMigState())
                .qkey(raw.qkey())
                .rqPsn(raw.rqPsn())
                .sqPsn(raw.sqPsn())
                .destQpNum(raw.destQpNum())
                .qpAccessFlags(raw.qpAccessFlags())
                .cap(QpCap.of(raw.cap()))
                .ahAttr(AhAttr.of(raw.ahAttr()))
                .altPath(AhAttr.of(raw.altAhAttr()), raw.altPkeyIndex(), raw.altPortNum(), raw.altTimeout())
                .pkeyIndex(raw.pkeyIndex())
                .enSqdAsyncNotify(raw.enSqdAsyncNotify())
                .sqDraining(raw.sqDraining())
                .maxRdAtomic(raw.maxRdAtomic())
                .maxDestRdAtomic(raw.maxDestRdAtomic())
                .minRnrTimer(raw.minRnrTimer())
                .portNum(raw.portNum())
                .timeout(raw.timeout())
                .retryCnt(raw.retryCnt())
                .rnrRetry(raw.rnrRetry())
                .rateLimit(raw.rateLimit());
        Mtu mtu = Mtu.fromValueOrNull(raw.pathMtu());
        return mtu == null ? attr : attr.pathMtu(mtu);
    }

    /** These attributes, every one of them whatever the mask, as a {@code struct ibv_qp_attr}. */
    IbvQpAttr toIbv() {
        return new IbvQpAttr(qpState.value(), curQpState.value(), pathMtu.value(), pathMigState, qkey, rqPsn, sqPsn,
                destQpNum, qpAccessFlags, cap.toIbv(), ahAttr.toIbv(), altAhAttr.toIbv(), pkeyIndex, altPkeyIndex,
                enSqdAsyncNotify, sqDraining, maxRdAtomic, maxDestRdAtomic, minRnrTimer, portNum, timeout, retryCnt,
                rnrRetry, altPortNum, altTimeout, rateLimit);
    }
}

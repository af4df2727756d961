package org.jrdma.verbs;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.ReentrantLock;
import org.jrdma.devices.EndPort;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Mtu;
import org.jrdma.path.IBPath;
import org.jrdma.verbs.ffi.IbvFlow;
import org.jrdma.verbs.ffi.IbvQp;
import org.jrdma.verbs.ffi.RecvWrs;

/**
 * A queue pair, {@code struct ibv_qp} ({@code ibv_create_qp}; IBA 10.2.4): a send queue and a
 * receive queue (or a shared one) of one transport type. python-rdma's {@code rdma.ibverbs.QP},
 * from {@link Pd#qp}. Connect it with {@link #modify} through INIT, RTR and RTS, then post work
 * requests: {@link #postSend} and {@link #postRecv} allocate nothing and are safe from several
 * threads (posts to one queue pair are serialised).
 *
 * <pre>{@code
 * qp.modify(new QpAttr().qpState(QpState.INIT).pkeyIndex(0).portNum(1)
 *         .qpAccessFlags(Access.REMOTE_WRITE | Access.REMOTE_READ));
 * qp.modify(new QpAttr().qpState(QpState.RTR).pathMtu(Mtu.MTU_1024).destQpNum(remoteQpn).rqPsn(0)
 *         .maxDestRdAtomic(1).minRnrTimer(12).ahAttr(new AhAttr().grh(remoteGid, 0, 1).portNum(1)));
 * qp.modify(new QpAttr().qpState(QpState.RTS).sqPsn(0).timeout(14).retryCnt(7).rnrRetry(7).maxRdAtomic(1));
 * }</pre>
 *
 * <p>Or, as python-rdma does, from an {@link IBPath} that holds every parameter:
 * {@link #establish(IBPath, int)} (or {@link #modifyToInit}, {@link #modifyToRtr} and
 * {@link #modifyToRts} one by one) takes the attributes of each transition from the path by the
 * seed's table ({@link QpAttr#forInit}), and {@link #fillPath} puts this queue pair's own
 * parameters into a path first:
 * <pre>{@code
 * IBPath path = qp.fillPath(IBPath.builder(endPort).hasGrh(true).sgid(endPort.defaultGid())
 *         .dgid(remoteGid).hopLimit(64).dqpn(remoteQpn).build());
 * qp.establish(path, Access.REMOTE_WRITE);
 * }</pre>
 */
public final class Qp extends Resource implements RecvQueue {
    /** The largest {@code max_rd_atomic} and {@code max_dest_rd_atomic} a path can ask for. */
    private static final int MAX_RD_ATOMIC = 255;
    /** Packet sequence numbers are 24 bits. */
    private static final int PSN_LIMIT = 1 << 24;

    /** Every attribute {@code ibv_query_qp} answers: the mask bits below {@code IBV_QP_RATE_LIMIT}. */
    private static final int QUERYABLE = (QpAttr.DEST_QPN << 1) - 1;

    private final Pd pd;
    private final QpType type;
    private final Cq sendCq;
    private final Cq recvCq;
    private final Srq srq;
    private final IbvQp handle;
    private final boolean sqSigAll;
    /** The lock serialising {@link PreparedWr#postGuarded} with the queue pair's destruction ({@link #guardWith}). */
    private final DestroyGuard guard = new DestroyGuard();

    private Qp(Pd pd, QpInitAttr init, IbvQp handle) {
        this.sqSigAll = init.sqSigAll();
        this.pd = pd;
        this.type = init.qpType();
        this.sendCq = init.sendCq();
        this.recvCq = init.recvCq();
        this.srq = init.srq();
        this.handle = handle;
    }

    /** {@code ibv_create_qp}, registered as a dependent of what it uses and findable by events. */
    static Qp create(Pd pd, QpInitAttr init) {
        return create(pd, init, null);
    }

    /**
     * Internal, for {@code org.jrdma.cm}: a queue pair that {@code maker} creates and destroys
     * (librdmacm's {@code rdma_create_qp} on a connection identifier), otherwise like
     * {@link Pd#qp(QpInitAttr)}'s. Its parameter's type is not exported: no one outside the
     * module can call it.
     */
    @SuppressWarnings("exports")
    public static Qp create(Pd pd, QpInitAttr init, IbvQp.Maker maker) {
        Context context = pd.context();
        Srq srq = checkInit(pd, init);
        IbvQp handle = IbvQp.create(pd.handle(), init.sendCq().handle(), init.recvCq().handle(),
                srq == null ? null : srq.handle(), init.qpType().value(), init.cap().toIbv(), init.sqSigAll(), maker);
        Qp qp = new Qp(pd, init, handle);
        qp.register(pd, init.sendCq(), init.recvCq(), srq);
        context.map(handle.address(), qp);
        return qp;
    }

    /**
     * Checks that the CQs and SRQ {@code init} names are open and belong to {@code pd}'s context
     * and to {@code pd}, as {@code ibv_create_qp} and {@code ibv_create_qp_ex} require; returns the SRQ or null.
     */
    static Srq checkInit(Pd pd, QpInitAttr init) {
        for (Cq cq : new Cq[] {init.sendCq(), init.recvCq()}) {
            cq.checkOpen();
            if (cq.context() != pd.context()) {
                throw new IllegalArgumentException(cq + " belongs to another context than " + pd);
            }
        }
        Srq srq = init.srq();
        if (srq != null) {
            srq.checkOpen();
            if (srq.pd() != pd) {
                throw new IllegalArgumentException(srq + " belongs to another protection domain");
            }
        }
        return srq;
    }

    /**
     * Wraps {@code handle}, a queue pair {@code ibv_create_qp_ex} made as {@code init} describes
     * ({@link QpEx}), as {@link #create} wraps one of its own: a dependent of what it uses,
     * findable by events.
     */
    static Qp adopt(Pd pd, QpInitAttr init, IbvQp handle) {
        Qp qp = new Qp(pd, init, handle);
        qp.register(pd, init.sendCq(), init.recvCq(), init.srq());
        pd.context().map(handle.address(), qp);
        return qp;
    }

    /** The queue pair number ({@code qp_num}), 24 bits, what the remote side sends to. */
    public int qpNum() {
        return handle.qpNum();
    }

    /** The transport type. */
    public QpType type() {
        return type;
    }

    /** The work queue sizes the device granted. */
    public QpCap cap() {
        return QpCap.of(handle.cap());
    }

    /** The protection domain of this queue pair. */
    public Pd pd() {
        return pd;
    }

    /** The completion queue of the send queue. */
    public Cq sendCq() {
        return sendCq;
    }

    /** The completion queue of the receive queue. */
    public Cq recvCq() {
        return recvCq;
    }

    /** The shared receive queue, or null. */
    public Srq srq() {
        return srq;
    }

    /** Changes the attributes set in {@code attr}, by its {@link QpAttr#mask()} ({@code ibv_modify_qp}). */
    public void modify(QpAttr attr) {
        modify(attr, attr.mask());
    }

    /** Changes the attributes {@code mask} selects ({@code ibv_modify_qp}, {@code QpAttr} mask bits). */
    public void modify(QpAttr attr, int mask) {
        Objects.requireNonNull(attr, "attr");
        checkOpen();
        handle.modify(attr.toIbv(), mask);
    }

    /**
     * Moves the queue pair from RESET to INIT on {@code path} (python-rdma's
     * {@code modify_to_init}), allowing no remote operations: see
     * {@link #modifyToInit(IBPath, int)}.
     */
    public void modifyToInit(IBPath path) {
        modifyToInit(path, 0);
    }

    /**
     * Moves the queue pair from RESET to INIT on {@code path} (python-rdma's
     * {@code modify_to_init}): the port and P_Key index of the path, and its qkey for UD or
     * {@code access} for RC and UC ({@link QpAttr#forInit}).
     *
     * @param access {@link Access} bits: the remote operations allowed (RC and UC)
     * @throws IllegalArgumentException if the path's end port is on another device, or a UD path
     *                                  has no qkey
     * @throws org.jrdma.SysException  if {@code ibv_modify_qp} refuses
     */
    public void modifyToInit(IBPath path, int access) {
        modify(QpAttr.forInit(type, checkPath(path), access));
    }

    /**
     * Moves the queue pair from INIT to RTR on {@code path} (python-rdma's
     * {@code modify_to_rtr}): for RC and UC the path MTU, destination QP, receive PSN and the
     * path as address vector, for RC also responder resources and the RNR timer
     * ({@link QpAttr#forRtr}).
     *
     * @throws IllegalArgumentException if the path's end port is on another device, or a
     *                                  connected path has no dqpn
     * @throws org.jrdma.SysException  if {@code ibv_modify_qp} refuses
     */
    public void modifyToRtr(IBPath path) {
        modify(QpAttr.forRtr(type, checkPath(path)));
    }

    /**
     * Moves the queue pair from RTR to RTS on {@code path} (python-rdma's
     * {@code modify_to_rts}): the send PSN, for RC also the ack timeout, retry counts and
     * outstanding reads and atomics ({@link QpAttr#forRts}).
     *
     * @throws IllegalArgumentException if the path's end port is on another device
     * @throws org.jrdma.SysException  if {@code ibv_modify_qp} refuses
     */
    public void modifyToRts(IBPath path) {
        modify(QpAttr.forRts(type, checkPath(path)));
    }

    /** {@link #establish(IBPath, int)} allowing no remote operations: enough for UD and for sends. */
    public void establish(IBPath path) {
        establish(path, 0);
    }

    /**
     * Moves the queue pair from RESET through INIT and RTR to RTS on {@code path}, python-rdma's
     * {@code establish}: {@link #modifyToInit(IBPath, int)}, {@link #modifyToRtr},
     * {@link #modifyToRts}. A UD queue pair needs only the path's end port, P_Key and qkey; a
     * connected one the whole path to its peer, which must be in RTR before this side sends (see
     * {@link org.jrdma.vtools.NoCmExchange}).
     *
     * @param access {@link Access} bits: the remote operations allowed (RC and UC)
     * @throws IllegalArgumentException if the path does not fit this queue pair (see above)
     * @throws org.jrdma.SysException  if {@code ibv_modify_qp} refuses a transition
     */
    public void establish(IBPath path, int access) {
        modifyToInit(path, access);
        modifyToRtr(path);
        modifyToRts(path);
    }

    /** {@link #fillPath(IBPath, int)} provisioning as many reads and atomics as the device allows. */
    public IBPath fillPath(IBPath path) {
        return fillPath(path, MAX_RD_ATOMIC);
    }

    /**
     * {@code path} with this queue pair's side of a connection filled in, python-rdma's
     * {@code rdma.path.fill_path(qp, path, max_rd_atomic)}: the parameters {@link #establish}
     * takes from a path that come from the local QP and device rather than from a path record.
     * <ul>
     *   <li>sqpn: this queue pair's number;</li>
     *   <li>sack_resp_time: the device's {@code local_ca_ack_delay};</li>
     *   <li>srdatomic: at most the path's, the device's {@code max_qp_init_rd_atom} and
     *       {@code maxRdAtomic} (reads and atomics this side issues);</li>
     *   <li>drdatomic: at most the path's, the device's {@code max_qp_rd_atom} and
     *       {@code maxRdAtomic} (responder resources for the remote side's);</li>
     *   <li>sqpsn and dqpsn: a random 24-bit PSN each, where the path's is 0;</li>
     *   <li>MTU: the port's active MTU ({@code ibv_query_port}), and rate: the end port's rate
     *       when known. python-rdma leaves both to the path record; without a subnet
     *       administrator (RoCE) the local port is what there is. A path record resolved
     *       afterwards, or the peer's values (the no-CM exchange takes the smaller), refine
     *       them.</li>
     * </ul>
     *
     * @param maxRdAtomic the most RDMA reads and atomics to provision, 0 to 255: 0 when none
     *                    will be used, else at least the send queue depth; responder resources
     *                    are scarce
     * @throws IllegalArgumentException if the path's end port is on another device
     * @throws IllegalStateException    if the path has no end port
     */
    public IBPath fillPath(IBPath path, int maxRdAtomic) {
        EndPort endPort = checkPath(path).endPort().orElseThrow();
        Args.unsigned("max_rd_atomic", maxRdAtomic, 8);
        Context context = pd.context();
        DeviceAttr device = context.queryDevice();
        Mtu activeMtu = context.queryPort(endPort.portNumber()).activeMtu();
        int srdatomic = Math.min(path.srdatomic(), Math.min(device.maxQpInitRdAtom(), maxRdAtomic));
        int drdatomic = Math.min(path.drdatomic(), Math.min(device.maxQpRdAtom(), maxRdAtomic));
        return path.copy(b -> {
            b.sqpn(qpNum()).sackRespTime(Math.min(device.localCaAckDelay(), 31)).srdatomic(srdatomic)
                    .drdatomic(drdatomic);
            if (path.sqpsn() == 0) {
                b.sqpsn(randomPsn());
            }
            if (path.dqpsn() == 0) {
                b.dqpsn(randomPsn());
            }
            if (activeMtu != null) {
                b.mtu(activeMtu);
            }
            endPort.rate().ifPresent(b::rate);
        });
    }

    /** A random initial packet sequence number, 1 to 2<sup>24</sup>-1. */
    private static int randomPsn() {
        return ThreadLocalRandom.current().nextInt(1, PSN_LIMIT);
    }

    /**
     * {@code path} when it can set up this queue pair: it has an end port, on this queue pair's
     * device.
     *
     * @throws IllegalStateException    if it has no end port
     * @throws IllegalArgumentException if its end port is on another device
     */
    private IBPath checkPath(IBPath path) {
        Objects.requireNonNull(path, "path");
        checkOpen();
        EndPort endPort = path.endPort().orElseThrow(
                () -> new IllegalStateException("a queue pair needs the path's end port; none in " + path));
        String device = pd.context().deviceName();
        if (!endPort.deviceName().equals(device)) {
            throw new IllegalArgumentException("the path's end port " + endPort + " is not on " + device
                    + ", the device of " + describe());
        }
        return path;
    }

    /** The current attributes ({@code ibv_query_qp} with every mask bit it accepts). */
    public QpAttr query() {
        return query(QUERYABLE);
    }

    /** The current state ({@code ibv_query_qp} of {@code qp_state}), python-rdma's {@code qp.state}. */
    public QpState state() {
        return query(QpAttr.STATE).qpState();
    }

    /**
     * The attributes {@code mask} selects and the creation attributes, as python-rdma's
     * {@code qp.query(mask)} returns them: {@code ibv_query_qp}'s {@code qp_attr} and
     * {@code qp_init_attr} (type, CQs, SRQ, the capabilities as the device set them,
     * {@code sq_sig_all}).
     */
    public Query queryWithInit(int mask) {
        QpAttr attr = query(mask | QpAttr.CAP);
        QpInitAttr init = new QpInitAttr(type, sendCq, recvCq).cap(attr.cap()).sqSigAll(sqSigAll);
        return new Query(attr, srq == null ? init : init.srq(srq));
    }

    /**
     * What {@link #queryWithInit} returns.
     *
     * @param attr the attributes asked for
     * @param init the creation attributes
     */
    public record Query(QpAttr attr, QpInitAttr init) {
    }

    /** The attributes {@code mask} selects ({@code ibv_query_qp}); the others may be left 0. */
    public QpAttr query(int mask) {
        checkOpen();
        return QpAttr.of(handle.query(mask));
    }

    /**
     * Posts {@code first} and the requests linked after it by {@link SendWr#next} to the send
     * queue ({@code ibv_post_send}). Allocates nothing.
     *
     * @throws WrException when a request could not be posted; those before it were
     */
    public void postSend(SendWr first) {
        checkOpen();
        Objects.requireNonNull(first, "first");
        try {
            WorkRequest.post(handle.sendWrs(), SendWr::stage, "ibv_post_send", first, null);
        } catch (IllegalStateException e) {
            throw closedDuringCall(e, handle);
        }
    }

    /**
     * Posts {@code wrs} in order to the send queue ({@code ibv_post_send}), ignoring their
     * {@link SendWr#next} links.
     *
     * @throws WrException when a request could not be posted; those before it were
     */
    public void postSend(List<SendWr> wrs) {
        checkOpen();
        if (!wrs.isEmpty()) {
            try {
                WorkRequest.post(handle.sendWrs(), SendWr::stage, "ibv_post_send", null, wrs);
            } catch (IllegalStateException e) {
                throw closedDuringCall(e, handle);
            }
        }
    }

    /**
     * Posts {@code first} and the requests linked after it to the receive queue
     * ({@code ibv_post_recv}). Allocates nothing.
     *
     * @throws IllegalStateException if the queue pair receives from a shared receive queue
     * @throws WrException           when a request could not be posted; those before it were
     */
    @Override
    public void postRecv(RecvWr first) {
        checkOpen();
        Objects.requireNonNull(first, "first");
        RecvWrs staging = recvWrs();
        try {
            WorkRequest.post(staging, RecvWr::stage, "ibv_post_recv", first, null);
        } catch (IllegalStateException e) {
            throw closedDuringCall(e, handle);
        }
    }

    /**
     * Posts {@code wrs} in order to the receive queue ({@code ibv_post_recv}).
     *
     * @throws IllegalStateException if the queue pair receives from a shared receive queue
     * @throws WrException           when a request could not be posted; those before it were
     */
    public void postRecv(List<RecvWr> wrs) {
        checkOpen();
        if (!wrs.isEmpty()) {
            RecvWrs staging = recvWrs();
            try {
                WorkRequest.post(staging, RecvWr::stage, "ibv_post_recv", null, wrs);
            } catch (IllegalStateException e) {
                throw closedDuringCall(e, handle);
            }
        }
    }

    /**
     * Has {@code lock} guard this queue pair: from now on destroying it takes {@code lock}
     * (waiting for a guarded post under way), and its prepared requests' {@link PreparedWr#postGuarded}
     * posts, while the caller holds {@code lock}, without keeping the queue pair's memory open for
     * the call (on a context shared between threads, that costs two atomic operations a post).
     * Once per queue pair.
     *
     * @throws IllegalStateException if the queue pair is closed or guarded already
     */
    public void guardWith(ReentrantLock lock) {
        checkOpen();
        guard.set(lock, describe());
    }

    @Override
    boolean guardedByCaller() {
        return guard.heldByCaller() && handle.isOpen();
    }

    /**
     * Copies {@code wr} (one request, no chain) into native memory of its own, to be posted
     * again and again with {@link PreparedSend#post()}, one downcall a post and no copying.
     * Allocates in the queue pair's memory, which is freed when it is closed.
     *
     * @throws IllegalArgumentException when {@code wr} is a chain or has more elements than the queue pair allows
     */
    public PreparedSend prepareSend(SendWr wr) {
        checkOpen();
        return new PreparedSend(this, handle.newSendWrs(1), wr);
    }

    /**
     * Copies {@code wr} (one request, no chain) into native memory of its own, to be posted
     * again and again with {@link PreparedRecv#post()}.
     *
     * @throws IllegalStateException    if the queue pair receives from a shared receive queue
     * @throws IllegalArgumentException when {@code wr} is a chain or has more elements than the queue pair allows
     */
    @Override
    public PreparedRecv prepareRecv(RecvWr wr) {
        checkOpen();
        recvWrs();
        return new PreparedRecv(this, handle.newRecvWrs(1), "ibv_post_recv", wr);
    }

    private RecvWrs recvWrs() {
        RecvWrs staging = handle.recvWrs();
        if (staging == null) {
            throw new IllegalStateException(describe() + " receives from " + srq + "; post there");
        }
        return staging;
    }

    /** Joins the multicast group {@code gid} with LID {@code lid} ({@code ibv_attach_mcast}; UD only). */
    public void attachMcast(Gid gid, int lid) {
        Objects.requireNonNull(gid, "gid");
        checkOpen();
        handle.attachMcast(gid, Args.unsigned("lid", lid, 16));
    }

    /**
     * Joins the multicast group {@code path} leads to, its DGID and DLID (python-rdma's
     * {@code attach_mcast(path)}).
     *
     * @throws IllegalArgumentException if the path has no DGID
     */
    public void attachMcast(IBPath path) {
        attachMcast(mcastGid(path), path.dlid());
    }

    /** Leaves the multicast group {@code path} leads to, its DGID and DLID (python-rdma's {@code detach_mcast(path)}). */
    public void detachMcast(IBPath path) {
        detachMcast(mcastGid(path), path.dlid());
    }

    private static Gid mcastGid(IBPath path) {
        return path.dgid().orElseThrow(() -> new IllegalArgumentException("a multicast group needs the path's DGID: " + path));
    }

    /** Leaves the multicast group {@code gid} with LID {@code lid} ({@code ibv_detach_mcast}). */
    public void detachMcast(Gid gid, int lid) {
        Objects.requireNonNull(gid, "gid");
        checkOpen();
        handle.detachMcast(gid, Args.unsigned("lid", lid, 16));
    }

    /**
     * A flow steering rule of {@link Flow} type {@code type} ({@link Flow#ALL_DEFAULT},
     * {@link Flow#MC_DEFAULT}, {@link Flow#SNIFFER}) on port {@code port} steering to this queue
     * pair ({@code ibv_create_flow} with a rule without specifications); closed with it.
     *
     * @throws UnsupportedVerbException if the device has no flow steering
     */
    public Flow flow(int type, int priority, int port, int flags) {
        checkOpen();
        return Flow.create(this, Args.unsigned("type", type, 32), Args.unsigned("priority", priority, 16),
                Args.unsigned("port", port, 8), flags, List.of());
    }

    /**
     * A rule steering the packets {@code specs} match on port {@code port} to this queue pair
     * ({@code ibv_create_flow} of type {@link Flow#NORMAL} with specifications: the filters, e.g.
     * {@link FlowSpec.Eth} then {@link FlowSpec.Ipv4} then {@link FlowSpec.TcpUdp}, and actions,
     * {@link FlowSpec.Tag}, {@link FlowSpec.Drop}); closed with it.
     *
     * @throws IllegalArgumentException if there are no specifications or more than 255
     * @throws UnsupportedVerbException if the device has no flow steering
     */
    public Flow flow(int priority, int port, int flags, FlowSpec... specs) {
        if (specs.length == 0 || specs.length > 255) {
            throw new IllegalArgumentException("a rule of type NORMAL has 1 to 255 specifications, not " + specs.length);
        }
        List<IbvFlow.Spec> ibv = new ArrayList<>(specs.length);
        for (FlowSpec spec : specs) {
            ibv.add(Flow.toIbv(Objects.requireNonNull(spec, "spec")));
        }
        Args.unsigned("priority", priority, 16);
        Args.unsigned("port", port, 8);
        checkOpen();
        return Flow.create(this, Flow.NORMAL, priority, port, flags, ibv);
    }

    /** The native object, for the extended verbs ({@link QpEx}, {@link Mw}). */
    IbvQp handle() {
        return handle;
    }

    @Override
    String describe() {
        return String.format("%s QP 0x%06x on %s", type, handle.qpNum(), pd.context().deviceName());
    }

    @Override
    void release() {
        guard.destroy(handle::close);
    }

    @Override
    void afterClose() {
        pd.context().unmap(handle.address(), this);
    }
}

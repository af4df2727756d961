package org.jrdma.mad.verbs;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import org.jrdma.RdmaException;
import org.jrdma.devices.EndPort;
import org.jrdma.devices.LinkLayer;
import org.jrdma.iba.Iba;
import org.jrdma.iba.Mad;
import org.jrdma.iba.wire.Bits;
import org.jrdma.mad.MadAddress;
import org.jrdma.mad.MadTransport;
import org.jrdma.mad.ReceivedMad;
import org.jrdma.path.IBPath;
import org.jrdma.verbs.CompChannel;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Cq;
import org.jrdma.verbs.Pd;
import org.jrdma.verbs.Qp;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.Verbs;
import org.jrdma.verbs.Wc;
import org.jrdma.verbs.WcPath;
import org.jrdma.vtools.BufferPool;
import org.jrdma.vtools.CqPoller;

/**
 * MADs on a user UD queue pair, python-rdma's {@code rdma.vmad.VMAD}: GMPs (every management
 * class but the subnet management classes 0x01 and 0x81, which only QP0 sends) sent through
 * verbs from a QP of our own instead of the kernel's QP1. IBA allows a GSI agent on any QP
 * (13.5.1, the redirection of ClassPortInfo); the peers see the MADs come from this QP's number
 * and answer there, so SA queries and other GMP RPCs work over it without {@code ib_umad}:
 *
 * <pre>{@code
 * try (MadEngine engine = new MadEngine(new VMad(endPort), 16)) {
 *     MadTransactor mt = new MadTransactor(engine, endPort);
 *     List<SaPathRecord> paths = mt.subnAdmGetTable(new SaPathRecord().dgid(gid), SaPathRecord.DGID_COMPONENT_MASK);
 * }
 * }</pre>
 *
 * <p><b>Keys.</b> The path given when opening sets the P_Key and the Q_Key of the QP, and so of
 * every MAD sent. The default Q_Key is the GSI's well-known {@code 0x80010000}
 * ({@link Iba#IB_DEFAULT_QP1_QKEY}), which QP1 requires of every datagram it accepts; a send
 * request to a Q_Key with the high bit set carries the QP's own Q_Key (IBA 10.2.4), and setting a
 * QP to such a controlled Q_Key needs {@code CAP_NET_RAW} (root).
 *
 * <p><b>Sending.</b> {@link #sendto} sends a MAD of up to 256 bytes to a path's DQPN (QP1 when
 * the path has none) through the address handle {@link Pd#ah(IBPath)} makes and caches for the
 * path. On RoCE every datagram has a GRH: a path without one is refused. {@link #send} does the
 * same for a {@link MadAddress}, with a GRH from source GID index 0 and hop limit 255 when it has
 * a GID, as the kernel's umad does. Any number of threads may send.
 *
 * <p><b>Receiving.</b> {@code depth} receive buffers of {@link WcPath#GRH_BYTES} + 256 bytes stay
 * posted. {@link #recvfrom} returns the next MAD with the path it came on ({@link WcPath}: the
 * GRH in the first 40 bytes of the buffer, this QP's P_Key and Q_Key); reversed, it is the path to
 * answer on. {@link #receive} gives responses, and requests only of the classes, versions and
 * methods {@link #registerServer} asked for, dropping other requests as the kernel does for
 * classes no agent serves. One thread at a time receives. The transport does no RMPP: the
 * {@link org.jrdma.mad.MadEngine} does it.
 *
 * <p>{@link #close()} destroys the QP, its completion queues, buffers and protection domain, and
 * the context when this transport opened it; it waits for a send or receive under way to end.
 */
public final class VMad implements MadTransport {
    /** The receive and send queue depth used unless told otherwise, python-rdma's {@code depth=16}. */
    public static final int DEFAULT_DEPTH = 16;

    private static final int MAD_SIZE = 256;
    private static final int MAD_HEADER_SIZE = 24;
    private static final int VENDOR_OUI_OFFSET = 37;
    private static final int HOP_LIMIT = 255;
    /** How long a send waits for a send buffer to come back from the device. */
    private static final Duration SEND_WAIT = Duration.ofSeconds(5);

    private final EndPort endPort;
    private final int pkey;
    private final int qkey;
    /** What close() closes, in the order made: closed in reverse. */
    private final List<AutoCloseable> owned = new ArrayList<>();
    private final Qp qp;
    private final int qpNum;
    private final BufferPool sendPool;
    private final BufferPool recvPool;
    private final CqPoller sendPoller;
    private final CqPoller recvPoller;
    private final ReentrantLock sendLock = new ReentrantLock();
    private final ReentrantLock recvLock = new ReentrantLock();
    /** The agents {@link #registerServer} added; guarded by itself. */
    private final List<Agent> agents = new ArrayList<>();
    private volatile boolean closed;

    /** A MAD and the path it arrived on (received semantics: the sender is the source). */
    public record Datagram(byte[] mad, IBPath path) {
        public Datagram {
            Objects.requireNonNull(mad, "mad");
            Objects.requireNonNull(path, "path");
        }
    }

    /** A registration of {@link #registerServer}. */
    private record Agent(int mgmtClass, int classVersion, long methodMask, int oui) {
        boolean serves(byte[] mad) {
            int c = mad[1] & 0xFF;
            boolean vendorOui = c >= Mad.CLASS_VENDOR_RANGE2_START && c <= Mad.CLASS_VENDOR_RANGE2_END;
            return c == mgmtClass && (mad[2] & 0xFF) == classVersion && (methodMask >>> (mad[3] & 0x7F) & 1) != 0
                    && (!vendorOui || Bits.get(mad, VENDOR_OUI_OFFSET, 0, 24) == oui);
        }
    }

    /** A transport on {@code endPort} with the default P_Key, the GSI Q_Key and {@value #DEFAULT_DEPTH} buffers each way. */
    public VMad(EndPort endPort) {
        this(endPort, IBPath.builder(endPort).qkey(Iba.IB_DEFAULT_QP1_QKEY).build(), DEFAULT_DEPTH);
    }

    /**
     * A transport on {@code endPort}, in a context of its own ({@link Verbs#open(EndPort)}).
     *
     * @param path  gives the P_Key (its index in the end port's table) and the Q_Key (the GSI's
     *              {@code 0x80010000} when it has none) of every MAD sent
     * @param depth how many MADs may be posted for sending, and how many receive buffers stay posted
     */
    public VMad(EndPort endPort, IBPath path, int depth) {
        this(Verbs.open(Objects.requireNonNull(endPort, "endPort")), true, endPort, path, depth);
    }

    /**
     * A transport in {@code context}, which stays the caller's, on the end port of {@code path}
     * (else of the context).
     *
     * @throws IllegalArgumentException if neither names an end port
     */
    public VMad(Context context, IBPath path, int depth) {
        this(context, false, path.endPort().or(context::endPort).orElseThrow(
                () -> new IllegalArgumentException("neither the path nor the context names an end port: " + path)), path, depth);
    }

    private VMad(Context context, boolean ownsContext, EndPort endPort, IBPath path, int depth) {
        if (depth < 1) {
            throw new IllegalArgumentException("depth must be at least 1, not " + depth);
        }
        this.endPort = endPort;
        this.pkey = path.pkey();
        this.qkey = path.qkey().orElse(Iba.IB_DEFAULT_QP1_QKEY);
        if (ownsContext) {
            owned.add(context);
        }
        try {
            Pd pd = own(context.pd());
            CompChannel channel = own(context.compChannel());
            Cq sendCq = own(context.cq(depth));
            Cq recvCq = own(context.cq(depth, channel));
            qp = own(pd.qp(new QpInitAttr(QpType.UD, sendCq, recvCq).cap(new QpCap(depth, depth, 1, 1, 0))));
            qpNum = qp.qpNum();
            qp.establish(IBPath.builder(endPort).pkey(pkey).qkey(qkey).build());
            sendPool = own(new BufferPool(pd, depth, MAD_SIZE));
            recvPool = own(new BufferPool(pd, depth, WcPath.GRH_BYTES + MAD_SIZE));
            recvPool.postRecvs(qp, depth);
            sendPoller = new CqPoller(sendCq, false, false);
            recvPoller = new CqPoller(recvCq, ownsContext, false);
        } catch (RuntimeException e) {
            closeOwned(e);
            throw e;
        }
    }

    private <T extends AutoCloseable> T own(T resource) {
        owned.add(resource);
        return resource;
    }

    /** The end port this transport sends from, python-rdma's {@code end_port}; never empty. */
    @Override
    public Optional<EndPort> endPort() {
        return Optional.of(endPort);
    }

    /** The number of the UD queue pair the MADs leave from and arrive at. */
    public int qpNum() {
        return qpNum;
    }

    /** The Q_Key of the queue pair. */
    public int qkey() {
        return qkey;
    }

    /** The P_Key of the queue pair. */
    public int pkey() {
        return pkey;
    }

    /**
     * Sends {@code mad}, starting with the common MAD header, to {@code path}: python-rdma's
     * {@code sendto(buf, path)}. The datagram goes to the path's DQPN (QP1 when it has none) with
     * its Q_Key (the GSI's when none; a controlled one means this QP's), and a GRH when the path
     * has one, from its SGID (the port's GID 0 when it has none).
     *
     * @throws IllegalArgumentException if the MAD is longer than 256 bytes or of an SMP class, the
     *                                  path goes to QP0, or has no GRH on RoCE, or a GRH without DGID
     * @throws IllegalStateException    if this transport is closed
     * @throws org.jrdma.verbs.WcException    if a send failed on the device
     */
    public void sendto(byte[] mad, IBPath path) {
        if (mad.length < MAD_HEADER_SIZE || mad.length > MAD_SIZE) {
            throw new IllegalArgumentException("a MAD on a UD QP is " + MAD_HEADER_SIZE + " to " + MAD_SIZE + " bytes, not " + mad.length);
        }
        int mgmtClass = mad[1] & 0xFF;
        if (mgmtClass == Mad.CLASS_SUBN_LID_ROUTED || mgmtClass == Mad.CLASS_SUBN_DIRECTED_ROUTE) {
            throw new IllegalArgumentException("SMPs (class 0x" + Integer.toHexString(mgmtClass) + ") leave from QP0 only, not from a UD QP");
        }
        IBPath to = route(path);
        sendLock.lock();
        try {
            checkOpen();
            int buf = takeSendBuffer();
            sendPool.copyTo(buf, 0, mad);
            qp.postSend(sendPool.makeSendWr(buf, mad.length, to));
        } finally {
            sendLock.unlock();
        }
    }

    /** {@code path} checked, with the end port, SGID and defaults an address handle needs. */
    private IBPath route(IBPath path) {
        if (path.dqpn().orElse(Iba.QP1) == Iba.QP0) {
            throw new IllegalArgumentException("QP0 accepts SMPs only, from QP0: " + path);
        }
        if (!path.hasGrh() && endPort.linkLayer() == LinkLayer.ETHERNET) {
            throw new IllegalArgumentException("on RoCE (" + endPort + ") every datagram has a GRH: the path needs has_grh and a DGID: " + path);
        }
        if (path.hasGrh() && path.dgid().isEmpty()) {
            throw new IllegalArgumentException("the path has a GRH but no DGID: " + path);
        }
        boolean thisPort = path.endPort().filter(endPort::isSamePort).isPresent();
        if (thisPort && (!path.hasGrh() || path.sgid().isPresent()) && path.dqpn().isPresent() && path.qkey().isPresent()) {
            return path;
        }
        return path.copy(b -> {
            b.endPort(endPort);
            if (path.dqpn().isEmpty()) {
                b.dqpn(Iba.QP1);
            }
            if (path.hasGrh() && path.sgid().isEmpty()) {
                b.sgidIndex(0);
            }
            if (path.qkey().isEmpty()) {
                b.qkey(Iba.IB_DEFAULT_QP1_QKEY);
            }
        });
    }

    /** A free send buffer, taking back those of finished sends; waits for one when all are in flight. */
    private int takeSendBuffer() {
        for (Wc wc : sendPoller.iterwc(Long.MAX_VALUE, Duration.ZERO)) {
            sendPool.finishWc(qp, wc);
        }
        if (sendPool.available() == 0) {
            for (Wc wc : sendPoller.iterwc(1, SEND_WAIT)) {
                sendPool.finishWc(qp, wc);
            }
            if (sendPool.available() == 0) {
                throw new RdmaException("no send of " + describe() + " completed within " + SEND_WAIT);
            }
        }
        return sendPool.pop();
    }

    /**
     * Receives the next MAD, python-rdma's {@code recvfrom(wakeat)}.
     *
     * @param deadlineNanos when to give up, in {@link System#nanoTime()} time
     * @return the MAD (as many bytes as came, normally 256) and the path it came on, or null if
     *         none came before the deadline
     * @throws IllegalStateException if this transport is closed
     * @throws org.jrdma.verbs.WcException if a receive failed on the device
     */
    public Datagram recvfrom(long deadlineNanos) {
        recvLock.lock();
        try {
            checkOpen();
            for (Wc wc : recvPoller.iterwcUntil(1, deadlineNanos)) {
                wc.check();
                int buf = BufferPool.bufIdx(wc.wrId());
                int length = Math.min(wc.byteLen() - WcPath.GRH_BYTES, MAD_SIZE);
                byte[] mad = recvPool.copyFrom(buf, WcPath.GRH_BYTES, Math.max(length, 0));
                IBPath path = WcPath.of(endPort, wc, recvPool.segment(buf), 0, b -> b.pkey(pkey).qkey(qkey));
                recvPool.finishWc(qp, wc);
                return new Datagram(mad, path);
            }
            return null;
        } finally {
            recvLock.unlock();
        }
    }

    /**
     * Sends {@code mad} to {@code to} ({@link #sendto}): its LID, SL, QP and Q_Key, and with a GID
     * a GRH from GID index 0 with hop limit 255. Every MAD carries this QP's P_Key, whatever
     * P_Key index the address names.
     */
    @Override
    public void send(byte[] mad, MadAddress to) {
        IBPath.Builder<? extends IBPath> b = IBPath.builder(endPort).dlid(to.lid()).sl(to.sl()).dqpn(to.qpn()).qkey(to.qkey());
        if (to.gid() != null) {
            b.hasGrh(true).dgid(to.gid()).sgidIndex(0).hopLimit(HOP_LIMIT);
        }
        sendto(mad, b.build());
    }

    /**
     * The next response, or request an agent of {@link #registerServer} serves, from
     * {@link #recvfrom}: 256 bytes (zero past what came), from the sender's LID, QP, SL and GID,
     * this QP's P_Key index, and the Q_Key to answer with (the GSI's for QP1, else this QP's: the
     * completion does not carry the sender's).
     */
    @Override
    public ReceivedMad receive(int timeoutMillis) {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        while (true) {
            Datagram in = recvfrom(deadline);
            if (in == null) {
                return null;
            }
            byte[] mad = in.mad();
            if (mad.length >= 4 && (Mad.isResponse(mad[3] & 0xFF) || served(mad))) {
                IBPath p = in.path();
                int sqpn = p.sqpn().orElseThrow();
                MadAddress from = new MadAddress(p.slid(), sqpn, sqpn == Iba.QP1 ? Iba.IB_DEFAULT_QP1_QKEY : qkey, p.sl(),
                        p.pkeyIndex(), p.hasGrh() ? p.sgid().orElse(null) : null);
                return new ReceivedMad(Arrays.copyOf(mad, MAD_SIZE), mad.length, from, false);
            }
        }
    }

    private boolean served(byte[] mad) {
        synchronized (agents) {
            return agents.stream().anyMatch(a -> a.serves(mad));
        }
    }

    /**
     * Lets {@link #receive} return the requests of a management class and version whose method
     * is in {@code methodMask} and, for vendor classes 0x30-0x4F, whose OUI is {@code oui}: the
     * peers send them to this QP (a ClassPortInfo redirection names it).
     *
     * @throws IllegalArgumentException if the class is an SMP class, or a value is out of range
     */
    @Override
    public void registerServer(int mgmtClass, int classVersion, long methodMask, int oui) {
        if (mgmtClass == Mad.CLASS_SUBN_LID_ROUTED || mgmtClass == Mad.CLASS_SUBN_DIRECTED_ROUTE
                || mgmtClass >>> 8 != 0 || classVersion >>> 8 != 0 || oui >>> 24 != 0) {
            throw new IllegalArgumentException(String.format(
                    "cannot serve class 0x%x version %d OUI 0x%x on a UD QP", mgmtClass, classVersion, oui));
        }
        checkOpen();
        synchronized (agents) {
            agents.add(new Agent(mgmtClass, classVersion, methodMask, oui));
        }
    }

    @Override
    public String describe() {
        return "verbs UD QP " + qpNum + " on " + endPort;
    }

    /**
     * Destroys the queue pair and what this transport made for it, python-rdma's
     * {@code close()}, after a send or receive under way ends. Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        sendLock.lock();
        recvLock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            closeOwned(null);
        } finally {
            recvLock.unlock();
            sendLock.unlock();
        }
    }

    /** Closes what this transport owns, newest first; throws the first failure, or adds them to {@code pending}. */
    private void closeOwned(RuntimeException pending) {
        RuntimeException failure = pending;
        for (AutoCloseable resource : owned.reversed()) {
            try {
                resource.close();
            } catch (Exception e) {
                RuntimeException r = e instanceof RuntimeException re ? re : new RdmaException("closing " + resource, e);
                if (failure == null) {
                    failure = r;
                } else {
                    failure.addSuppressed(r);
                }
            }
        }
        owned.clear();
        if (pending == null && failure != null) {
            throw failure;
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException(describe() + " is closed");
        }
    }

    @Override
    public String toString() {
        return "VMad[" + describe() + String.format(", P_Key 0x%04x, Q_Key 0x%08x]", pkey, qkey);
    }
}

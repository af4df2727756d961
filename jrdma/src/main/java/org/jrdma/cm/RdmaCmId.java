package org.jrdma.cm;

import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.jrdma.cm.ffi.CmId;
import org.jrdma.cm.ffi.RawPathRec;
import org.jrdma.cm.ffi.Sockaddr;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Mtu;
import org.jrdma.iba.StaticRate;
import org.jrdma.path.IBPath;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.EventType;
import org.jrdma.verbs.Pd;
import org.jrdma.verbs.Qp;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.ffi.IbvContext;

/**
 * A connection identifier of the RDMA connection manager ({@code struct rdma_cm_id}, rdma_cm(7)):
 * what a socket is to TCP. An active side resolves an IP address and port to a device and a
 * path ({@link #resolveAddr}, {@link #resolveRoute}), makes its queue pair ({@link #createQp})
 * and {@link #connect}s; a passive side {@link #bindAddr binds}, {@link #listen}s, and gets a new
 * identifier per connect request, which it {@link #accept}s or {@link #reject}s. On an
 * {@link EventChannel} each step's outcome is an event; a synchronous identifier
 * ({@link #createSync}) waits for it in the call instead.
 *
 * <p>Once bound, the identifier is on a device: {@link #context()} is jrdma's {@link Context}
 * for it (the {@code ibv_context} librdmacm opened), where the protection domain, completion
 * queues and memory regions are made, and {@link #qp()} the queue pair librdmacm drives through
 * its states. Closing the identifier closes its queue pair first. Use after close throws
 * {@link IllegalStateException}.
 */
public final class RdmaCmId implements AutoCloseable {
    /** {@code RDMA_UDP_QKEY}: the Q_Key librdmacm gives the UD queue pairs it makes. */
    public static final int UDP_QKEY = 0x01234567;
    /** jrdma's contexts on the devices librdmacm opened, by the address of their {@code ibv_context}. */
    private static final Map<Long, Context> CONTEXTS = new ConcurrentHashMap<>();
    private static final AtomicLong SERIALS = new AtomicLong();
    /** A path record's selector "exactly" (IBA 15.2.5.16). */
    private static final int SELECTOR_EXACTLY = 2;
    private static final Gid NO_GID = new Gid(0, 0);
    /** The 20 bits of a GRH flow label (IBA 8.3.1). */
    private static final int FLOW_LABEL_BITS = 0xF_FFFF;

    private final CmId handle;
    private final long address;
    private volatile EventChannel channel;
    private final long serial = SERIALS.incrementAndGet();
    private volatile Qp qp;
    private volatile boolean closed;

    RdmaCmId(CmId handle, EventChannel channel) {
        this.handle = handle;
        this.address = handle.address();
        this.channel = channel;
    }

    /**
     * A synchronous identifier ({@code rdma_create_id} without a channel): each call waits for
     * its outcome and throws {@link org.jrdma.SysException} when it is an error (for example
     * {@code ECONNREFUSED} for a rejected connect).
     */
    public static RdmaCmId createSync(PortSpace ps) {
        RdmaCm.requireAvailable();
        return new RdmaCmId(CmId.create(null, ps.value()), null);
    }

    long address() {
        return address;
    }

    long serial() {
        return serial;
    }

    /** The channel whose events report on this identifier, or null for a synchronous one. */
    public EventChannel channel() {
        return channel;
    }

    /** The port space ({@code id->ps}). */
    public PortSpace portSpace() {
        checkOpen();
        return PortSpace.fromValue(handle.ps());
    }

    /**
     * Resolves {@code dst} (and {@code src}, when not null) to a local device, port and address
     * ({@code rdma_resolve_addr}); each an {@link InetSocketAddress} or an {@link IbSocketAddress}: {@link CmEventType#ADDR_RESOLVED} or
     * {@link CmEventType#ADDR_ERROR} follows within {@code timeout}.
     */
    public void resolveAddr(SocketAddress src, SocketAddress dst, Duration timeout) {
        checkOpen();
        handle.resolveAddr(raw(src), raw(Objects.requireNonNull(dst, "dst")), millis(timeout));
    }

    /** Resolves the route to the resolved address ({@code rdma_resolve_route}): ROUTE_RESOLVED or ROUTE_ERROR follows. */
    public void resolveRoute(Duration timeout) {
        checkOpen();
        handle.resolveRoute(millis(timeout));
    }

    /**
     * Binds to a local address and port, 0 for any ({@code rdma_bind_addr}): an
     * {@link InetSocketAddress} or an {@link IbSocketAddress}.
     */
    public void bindAddr(SocketAddress address) {
        checkOpen();
        handle.bindAddr(raw(Objects.requireNonNull(address, "address")));
    }

    /** Listens for connect requests (or UD SIDR requests) on the bound address ({@code rdma_listen}). */
    public void listen(int backlog) {
        checkOpen();
        handle.listen(backlog);
    }

    /**
     * Waits for the next connect request on a synchronous listening identifier
     * ({@code rdma_get_request}) and returns its new, synchronous identifier.
     */
    public RdmaCmId getRequest() {
        checkOpen();
        if (channel != null) {
            throw new IllegalStateException("rdma_get_request needs a synchronous identifier; read the channel's events");
        }
        return new RdmaCmId(CmId.adopt(handle.getRequest()), null);
    }

    /**
     * Sends a connect request ({@code rdma_connect}) with {@code param}; ESTABLISHED, REJECTED,
     * UNREACHABLE or CONNECT_ERROR follows. On a UD port space it is a SIDR request, and
     * ESTABLISHED carries the remote QPN and Q_Key.
     */
    public void connect(ConnParam param) {
        checkOpen();
        handle.connect(param == null ? null : param.toRaw());
    }

    /** Accepts the connect request this identifier came with ({@code rdma_accept}). */
    public void accept(ConnParam param) {
        checkOpen();
        handle.accept(param == null ? null : param.toRaw());
    }

    /** Rejects the connect request this identifier came with, sending {@code privateData} ({@code rdma_reject}). */
    public void reject(byte[] privateData) {
        checkOpen();
        handle.reject(Objects.requireNonNull(privateData, "privateData"));
    }

    /**
     * Disconnects ({@code rdma_disconnect}) and moves the queue pair to the error state. The
     * first side to call it sends a DREQ, and the peer gets DISCONNECTED; the peer then calls it
     * too (its DREP), and the first side gets DISCONNECTED in turn (or after a time-out when the
     * peer never answers).
     */
    public void disconnect() {
        checkOpen();
        handle.disconnect();
    }

    /**
     * Tells the CM of a queue pair event ({@code rdma_notify}), {@link EventType#COMM_EST} when a
     * receive completes before the connection is established (the RTU lost).
     */
    public void notify(EventType event) {
        checkOpen();
        handle.notify(event.value());
    }

    /** Completes an active connection whose queue pair librdmacm did not make ({@code rdma_establish}). */
    public void establish() {
        checkOpen();
        handle.establish();
    }

    /** Joins the multicast group at {@code group} ({@code rdma_join_multicast}): MULTICAST_JOIN follows. */
    public void joinMulticast(SocketAddress group) {
        checkOpen();
        handle.joinMulticast(raw(Objects.requireNonNull(group, "group")));
    }

    /**
     * Joins the multicast group at {@code group} as {@code join} says ({@code
     * rdma_join_multicast_ex} with the address and join flags in its {@code comp_mask}):
     * MULTICAST_JOIN follows. A send-only member's address handle reaches the group, and it
     * receives nothing sent there.
     */
    public void joinMulticast(SocketAddress group, MulticastJoin join) {
        checkOpen();
        handle.joinMulticastEx(raw(Objects.requireNonNull(group, "group")), join.value());
    }

    /** Leaves the multicast group at {@code group} ({@code rdma_leave_multicast}). */
    public void leaveMulticast(SocketAddress group) {
        checkOpen();
        handle.leaveMulticast(raw(Objects.requireNonNull(group, "group")));
    }

    /**
     * Sets the type of service (RFC 2474) of the connection ({@code RDMA_OPTION_ID_TOS}): on
     * RoCE the traffic class of the resolved route's path and of the queue pair's GRH. Before
     * {@link #resolveRoute} to count.
     */
    public void setTypeOfService(int tos) {
        checkOpen();
        handle.setOptionU8(CmId.OPTION_ID, CmId.OPTION_ID_TOS, tos);
    }

    /**
     * Lets this identifier bind a port other identifiers that allow it are bound to
     * ({@code RDMA_OPTION_ID_REUSEADDR}, as {@code SO_REUSEADDR}); only before it listens.
     */
    public void setReuseAddress(boolean reuse) {
        checkOpen();
        handle.setOptionInt(CmId.OPTION_ID, CmId.OPTION_ID_REUSEADDR, reuse ? 1 : 0);
    }

    /**
     * Whether an IPv6 identifier is for IPv6 only ({@code RDMA_OPTION_ID_AFONLY}, as
     * {@code IPV6_V6ONLY}); only before it is bound.
     */
    public void setAfOnly(boolean afOnly) {
        checkOpen();
        handle.setOptionInt(CmId.OPTION_ID, CmId.OPTION_ID_AFONLY, afOnly ? 1 : 0);
    }

    /**
     * Sets the local ACK timeout of the connection's queue pair, 4.096 µs × 2<sup>value</sup>
     * ({@code RDMA_OPTION_ID_ACK_TIMEOUT}; IBA 9.7.6.1.3), in place of the one derived from
     * the path's packet lifetime. Reliable connected identifiers only.
     */
    public void setAckTimeout(int timeout) {
        checkOpen();
        handle.setOptionU8(CmId.OPTION_ID, CmId.OPTION_ID_ACK_TIMEOUT, timeout);
    }

    /**
     * Sets the route of an identifier whose address is resolved to {@code path}
     * ({@code RDMA_OPTION_IB_PATH}, one primary bidirectional path record), in place of
     * {@link #resolveRoute}: ROUTE_RESOLVED follows. The path's GIDs, LIDs, P_Key, SL, traffic
     * class, flow label, hop limit, MTU, rate and packet lifetime are used.
     */
    public void setIbPath(IBPath path) {
        checkOpen();
        Objects.requireNonNull(path, "path");
        handle.setIbPath(new RawPathRec(path.dgid().orElse(NO_GID), path.sgid().orElse(NO_GID), path.dlid(),
                path.slid(), 0, path.flowLabel(), path.hopLimit(), path.trafficClass(), 1, 1, path.pkey(), path.sl(),
                SELECTOR_EXACTLY, path.mtu().value(), SELECTOR_EXACTLY, path.rate().value(), SELECTOR_EXACTLY,
                path.packetLifeTime(), 0));
    }

    /**
     * The paths of the resolved route ({@code route.path_rec}, {@code ibv_sa_path_rec}) as
     * jrdma paths: GIDs (and a GRH when the path has a hop limit above 1 or no LIDs, as on
     * RoCE), LIDs, SL, P_Key, traffic class, flow label (its 20 bits: rxe reports a random
     * value with bits above), hop limit, MTU, rate (when the record names one; 0, the port's
     * current rate, leaves IBPath's default) and packet lifetime; no end port, QP numbers or
     * Q_Key. Empty before the route is resolved.
     */
    public List<IBPath> paths() {
        checkOpen();
        return handle.pathRecords().stream().map(RdmaCmId::path).toList();
    }

    private static IBPath path(RawPathRec r) {
        IBPath.Builder<? extends IBPath> b = IBPath.builder(null).dgid(r.dgid()).sgid(r.sgid()).dlid(r.dlid())
                .slid(r.slid()).sl(r.sl()).pkey(r.pkey()).trafficClass(r.trafficClass()).flowLabel(r.flowLabel() & FLOW_LABEL_BITS)
                .hopLimit(r.hopLimit()).hasGrh(r.hopLimit() > 1 || r.dlid() == 0).packetLifeTime(r.packetLifeTime());
        Mtu mtu = Mtu.fromValueOrNull(r.mtu());
        if (mtu != null) {
            b.mtu(mtu);
        }
        StaticRate rate = StaticRate.fromValueOrNull(r.rate());
        if (rate != null) {
            b.rate(rate);
        }
        return b.build();
    }

    /**
     * The attributes that move a queue pair made without {@link #createQp} (a verbs {@code Qp}
     * of {@link #context()}) to {@code state} for this identifier's connection
     * ({@code rdma_init_qp_attr}): INIT after the address is resolved, RTR and RTS once the
     * connect request or reply is in.
     */
    public InitQpAttr initQpAttr(QpState state) {
        checkOpen();
        CmId.InitQpAttr raw = handle.initQpAttr(state.value());
        return new InitQpAttr(QpAttr.of(raw.attr()), raw.mask());
    }

    /**
     * Moves {@code qp} to {@code state} with the attributes the connection manager gives for
     * this connection ({@link #initQpAttr}, then {@code ibv_modify_qp} with its mask): what
     * librdmacm does itself for a queue pair made by {@link #createQp}.
     */
    public void modifyQp(Qp qp, QpState state) {
        InitQpAttr init = initQpAttr(state);
        qp.modify(init.attr(), init.mask());
    }

    /**
     * What {@link #initQpAttr} returns.
     *
     * @param attr the attributes
     * @param mask the {@code ibv_qp_attr_mask} bits ({@link QpAttr} constants) of those to apply
     */
    public record InitQpAttr(QpAttr attr, int mask) {
    }

    /** {@code address} as the connection manager's C form, null for null. */
    static Sockaddr raw(SocketAddress address) {
        return switch (address) {
            case null -> null;
            case InetSocketAddress ip -> new Sockaddr.Ip(ip);
            case IbSocketAddress ib -> new Sockaddr.Ib(ib.pkey(), ib.flowLabel(), ib.gid(), ib.serviceId(),
                    ib.serviceIdMask(), ib.scopeId());
            default -> throw new IllegalArgumentException("neither an InetSocketAddress nor an IbSocketAddress: "
                    + address.getClass().getName());
        };
    }

    /** {@code address} as Java's, null for null. */
    static SocketAddress socketAddress(Sockaddr address) {
        return switch (address) {
            case null -> null;
            case Sockaddr.Ip(InetSocketAddress ip) -> ip;
            case Sockaddr.Ib ib -> new IbSocketAddress(ib.gid(), ib.pkey(), ib.flowInfo(), ib.serviceId(),
                    ib.serviceIdMask(), ib.scopeId());
        };
    }

    /** Moves this identifier's events to {@code to} ({@code rdma_migrate_id}). */
    public void migrate(EventChannel to) {
        checkOpen();
        Objects.requireNonNull(to, "to");
        if (channel == null) {
            throw new IllegalStateException("a synchronous identifier cannot migrate");
        }
        handle.migrate(to.handle());
        channel.remove(this);
        channel = to;
        to.add(this);
    }

    /**
     * jrdma's context on the device this identifier is bound to (the {@code ibv_context}
     * librdmacm opened, {@code id->verbs}), shared by every identifier on that device. Closing
     * it closes what was made from it, not the device.
     *
     * @throws IllegalStateException before the identifier is bound (address resolved, bound to a
     *                               device address, or made for a connect request)
     */
    public Context context() {
        checkOpen();
        MemorySegment verbs = handle.verbs();
        if (verbs.address() == 0) {
            throw new IllegalStateException(this + " is not bound to a device yet");
        }
        return CONTEXTS.compute(verbs.address(), (a, known) -> known != null && !known.isClosed() ? known
                : Context.borrowed(IbvContext.borrow(verbs), IbvContext.deviceName(verbs)));
    }

    /** The device port this identifier is bound to ({@code id->port_num}), 0 before. */
    public int portNum() {
        checkOpen();
        return handle.portNum();
    }

    /** The local address ({@code rdma_get_local_addr}), or null when not IP. */
    public InetSocketAddress localAddress() {
        return localSocketAddress() instanceof InetSocketAddress ip ? ip : null;
    }

    /** The remote address ({@code rdma_get_peer_addr}), or null when not IP. */
    public InetSocketAddress peerAddress() {
        return peerSocketAddress() instanceof InetSocketAddress ip ? ip : null;
    }

    /** The local address, an {@link InetSocketAddress} or an {@link IbSocketAddress}, or null before there is one. */
    public SocketAddress localSocketAddress() {
        checkOpen();
        return socketAddress(handle.localAddress());
    }

    /** The remote address, an {@link InetSocketAddress} or an {@link IbSocketAddress}, or null before there is one. */
    public SocketAddress peerSocketAddress() {
        checkOpen();
        return socketAddress(handle.peerAddress());
    }

    /** The source GID the address resolved to ({@code route.addr.addr.ibaddr.sgid}). */
    public Gid sgid() {
        checkOpen();
        return handle.sgid();
    }

    /** The destination GID the address resolved to. */
    public Gid dgid() {
        checkOpen();
        return handle.dgid();
    }

    /** The number of path records of the resolved route ({@code route.num_paths}). */
    public int numPaths() {
        checkOpen();
        return handle.numPaths();
    }

    /**
     * Makes this identifier's queue pair ({@code rdma_create_qp}) in {@code pd}, which must be of
     * {@link #context()}: librdmacm moves it to INIT now and through RTR and RTS as the
     * connection is made (for UD at once, with Q_Key {@link #UDP_QKEY}). The queue pair is a
     * dependent of {@code pd} and its completion queues like any other, and of this identifier.
     */
    public Qp createQp(Pd pd, QpInitAttr init) {
        checkOpen();
        Objects.requireNonNull(pd, "pd");
        if (pd.context() != context()) {
            throw new IllegalArgumentException(pd + " is not of " + context() + ", the device of " + this);
        }
        if (qp != null && !qp.isClosed()) {
            throw new IllegalStateException(this + " has a queue pair already");
        }
        qp = Qp.create(pd, init, handle.qpMaker());
        return qp;
    }

    /** The queue pair made by {@link #createQp}, or null. */
    public Qp qp() {
        checkOpen();
        Qp q = qp;
        return q == null || q.isClosed() ? null : q;
    }

    /** Whether {@link #close()} has completed. */
    public boolean isClosed() {
        return closed;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException(this + " is closed");
        }
    }

    /**
     * Closes the queue pair, then the identifier ({@code rdma_destroy_id}); a connection still up
     * is torn down (the peer gets DISCONNECTED). Does nothing when already closed.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        Qp q = qp;
        if (q != null) {
            q.close();
        }
        handle.close();
        closed = true;
        EventChannel ch = channel;
        if (ch != null) {
            ch.remove(this);
        }
    }

    /** {@code timeout} in milliseconds, at most {@code Integer.MAX_VALUE}. */
    static int millis(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must not be negative: " + timeout);
        }
        return (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
    }

    @Override
    public String toString() {
        return "rdma_cm_id 0x" + Long.toHexString(address) + (closed ? " (closed)" : "");
    }
}

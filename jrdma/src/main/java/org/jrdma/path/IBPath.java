package org.jrdma.path;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jrdma.NoSuchDeviceException;
import org.jrdma.RdmaException;
import org.jrdma.devices.EndPort;
import org.jrdma.devices.LinkLayer;
import org.jrdma.devices.RdmaDevice;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Iba;
import org.jrdma.iba.Lid;
import org.jrdma.iba.Mtu;
import org.jrdma.iba.StaticRate;

/**
 * A path in an InfiniBand network: the fields of the local route header (LRH, IBA 7.7), the
 * global route header (GRH, IBA 8.3), the base and datagram extended transport headers (BTH,
 * DETH, IBA 9.2-9.3) of the packets on it, and the parameters a MAD or a queue pair needs on top;
 * python-rdma's {@code rdma.path.IBPath}. Immutable (see {@link Path} on the write-once rule):
 * build one with {@link #builder}, derive others with {@link #copy}, {@link #reverse} and
 * {@link #copyQpParams}.
 *
 * <p><b>Direction.</b> A path describes the headers as they are on the wire in the context it is
 * used: a path to send on has {@code SGID}, {@code SLID} and {@code sqpn} of the local end, and a
 * path of a received packet has them of the remote end. {@link #reverse(boolean)} turns one into
 * the other (IBA 13.5.4).
 *
 * <p><b>Names.</b> Accessors are camelCase forms of python-rdma's attribute names, which the path
 * specification ({@link #toString()}) keeps:
 * <table>
 *   <caption>Java accessor, python-rdma attribute, header field or use</caption>
 *   <tr><th>Java</th><th>seed</th><th>holds</th></tr>
 *   <tr><td>{@link #endPort()}</td><td>end_port</td><td>the local end port</td></tr>
 *   <tr><td>{@link #retries()}</td><td>retries</td><td>MAD resends; QP retry_cnt</td></tr>
 *   <tr><td>{@link #dlid()}</td><td>DLID</td><td>LRH DLID</td></tr>
 *   <tr><td>{@link #slid()}</td><td>SLID</td><td>LRH SLID</td></tr>
 *   <tr><td>{@link #sl()}</td><td>SL</td><td>LRH SL</td></tr>
 *   <tr><td>{@link #pkey()}</td><td>pkey</td><td>BTH P_Key</td></tr>
 *   <tr><td>{@link #hasGrh()}</td><td>has_grh</td><td>LRH LNH: a GRH follows</td></tr>
 *   <tr><td>{@link #sgid()}</td><td>SGID</td><td>GRH SGID</td></tr>
 *   <tr><td>{@link #dgid()}</td><td>DGID</td><td>GRH DGID</td></tr>
 *   <tr><td>{@link #hopLimit()}</td><td>hop_limit</td><td>GRH HopLmt</td></tr>
 *   <tr><td>{@link #trafficClass()}</td><td>traffic_class</td><td>GRH TClass</td></tr>
 *   <tr><td>{@link #flowLabel()}</td><td>flow_label</td><td>GRH FlowLabel</td></tr>
 *   <tr><td>{@link #dqpn()}</td><td>dqpn</td><td>BTH DestQP</td></tr>
 *   <tr><td>{@link #sqpn()}</td><td>sqpn</td><td>DETH SrcQP</td></tr>
 *   <tr><td>{@link #qkey()}</td><td>qkey</td><td>DETH Q_Key</td></tr>
 *   <tr><td>{@link #mtu()}</td><td>MTU</td><td>largest payload; QP path_mtu</td></tr>
 *   <tr><td>{@link #rate()}</td><td>rate</td><td>injection rate; AH static_rate</td></tr>
 *   <tr><td>{@link #umadAgentId()}</td><td>umad_agent_id</td><td>umad agent to send with</td></tr>
 *   <tr><td>{@link #respTime()}</td><td>resp_time</td><td>responder's RespTimeValue, for {@link #madTimeout()}</td></tr>
 *   <tr><td>{@link #packetLifeTime()}</td><td>packet_life_time</td><td>PathRecord PacketLifeTime</td></tr>
 *   <tr><td>{@link #minRnrTimer()}</td><td>min_rnr_timer</td><td>AETH RNR NAK timer; QP min_rnr_timer</td></tr>
 *   <tr><td>{@link #dackRespTime()}</td><td>dack_resp_time</td><td>remote ack delay, for {@link #qpTimeout()}</td></tr>
 *   <tr><td>{@link #sackRespTime()}</td><td>sack_resp_time</td><td>local ack delay</td></tr>
 *   <tr><td>{@link #dqpsn()}</td><td>dqpsn</td><td>remote initial PSN; QP rq_psn</td></tr>
 *   <tr><td>{@link #sqpsn()}</td><td>sqpsn</td><td>BTH PSN, initial; QP sq_psn</td></tr>
 *   <tr><td>{@link #drdatomic()}</td><td>drdatomic</td><td>QP max_dest_rd_atomic</td></tr>
 *   <tr><td>{@link #srdatomic()}</td><td>srdatomic</td><td>QP max_rd_atomic</td></tr>
 *   <tr><td>{@link #mKey()}</td><td>MKey</td><td>SMP M_Key</td></tr>
 *   <tr><td>{@link #smKey()}</td><td>SMKey</td><td>SA SM_Key</td></tr>
 *   <tr><td>{@link #pkeyIndex()}</td><td>pkey_index</td><td>index of pkey in the end port's table</td></tr>
 *   <tr><td>{@link #sgidIndex()}</td><td>SGID_index</td><td>index of SGID in the end port's table</td></tr>
 *   <tr><td>{@link #slidBits()}</td><td>SLID_bits</td><td>path bits of SLID; AH src_path_bits</td></tr>
 *   <tr><td>{@link #dlidBits()}</td><td>DLID_bits</td><td>path bits of DLID</td></tr>
 *   <tr><td>{@link #madTimeout()}</td><td>mad_timeout</td><td>time to wait for a MAD reply</td></tr>
 *   <tr><td>{@link #qpTimeout()}</td><td>qp_timeout</td><td>RC/RD ack timeout</td></tr>
 *   <tr><td>{@link #forwardPath()}, {@link #returnPath()}</td><td>forward_path, return_path</td><td>the path each way</td></tr>
 *   <tr><td>{@link #withEndPortOn}</td><td>set_end_port</td><td>the end port of a node matching the source</td></tr>
 *   <tr><td>{@link #copyQpParams}</td><td>copy_qp_params</td><td>the QP parameters of another path</td></tr>
 * </table>
 * The derived values in the last rows are computed on first use and cached, which immutability
 * keeps correct.
 */
public sealed class IBPath extends Path permits IBDRPath, LazyIBPath {
    /** The default value of {@link #respTime()}, {@link #dackRespTime()} and {@link #sackRespTime()} (IBA C13-13.1.1). */
    public static final int DEFAULT_RESP_TIME = 20;

    /** The values of a path, in one immutable record: what equality and the specification compare. */
    record Values(EndPort endPort, int retries, int dlid, int slid, int sl, int pkey, boolean hasGrh,
            Gid sgid, Gid dgid, int hopLimit, int trafficClass, int flowLabel, Integer dqpn, Integer sqpn,
            Integer qkey, Mtu mtu, StaticRate rate, Integer umadAgentId, int respTime, Integer packetLifeTime,
            int minRnrTimer, int dackRespTime, int sackRespTime, int dqpsn, int sqpsn, int drdatomic,
            int srdatomic, long mKey, long smKey) {
    }

    /** The values of a new IBPath: python-rdma's class attribute defaults. */
    static final Values DEFAULTS = new Values(null, 0, 0, 0, 0, Iba.DEFAULT_PKEY, false, null, null, 0, 0, 0,
            null, null, null, Mtu.MTU_256, StaticRate.RATE_2_5_GBPS, null, DEFAULT_RESP_TIME, null, 0,
            DEFAULT_RESP_TIME, DEFAULT_RESP_TIME, 0, 0, 255, 255, 0, 0);

    /** An index not known yet. */
    static final int UNKNOWN = -1;

    private final Values values;
    // Caches of derived values. A racy single check is enough: each is computed from immutable
    // values, the same every time, and ints and Durations (final fields) publish safely.
    private int pkeyIndex;
    private int sgidIndex;
    private Duration madTimeout;
    private Duration qpTimeout;
    private IBPath returnPath;

    /** A path of {@code values}; the indexes are known ones or {@link #UNKNOWN}. Null values for a lazy path. */
    IBPath(Values values, int pkeyIndex, int sgidIndex) {
        this.values = values;
        this.pkeyIndex = pkeyIndex;
        this.sgidIndex = sgidIndex;
    }

    /**
     * A builder of an IB path from {@code endPort} (null for none), every other attribute at
     * python-rdma's default: LIDs and SL 0, the default P_Key 0xFFFF, no GRH, no QP numbers or
     * Q_Key, MTU 256, rate 2.5 Gb/s, response times 20, RD atomics 255, the rest 0.
     */
    public static Builder<? extends IBPath> builder(EndPort endPort) {
        return new Builder<IBPath>(false, IBPath::of, DEFAULTS).endPort(endPort);
    }

    /**
     * The path to the subnet administrator of {@code endPort} (IBA 15.4.2), python-rdma's
     * {@code EndPort.sa_path}: to the master SM's LID and SL, QP1 to QP1 with the well-known
     * Q_Key, the default P_Key (full, else limited membership), and the port's subnet timeout as
     * packet lifetime. Use it for SA GMPs only.
     *
     * @throws RdmaException if the port's P_Key table holds neither 0xFFFF nor 0x7FFF
     */
    public static IBPath saPath(EndPort endPort) {
        int index = endPort.pkeys().indexOf(Iba.DEFAULT_PKEY);
        if (index < 0) {
            index = endPort.pkeys().indexOf(Iba.PKEY_PARTIAL_DEFAULT);
        }
        if (index < 0) {
            throw new RdmaException("Could not find the SA default P_Key 0xffff or 0x7fff on " + endPort);
        }
        return builder(endPort).dlid(endPort.smLid()).slid(endPort.lid()).sl(endPort.smSl()).dqpn(Iba.QP1)
                .sqpn(Iba.QP1).qkey(Iba.IB_DEFAULT_QP1_QKEY).pkeyIndex(index)
                .packetLifeTime(endPort.subnetTimeout()).build();
    }

    private static IBPath of(Builder<IBPath> builder) {
        return new IBPath(builder.values(), builder.pkeyIndex, builder.sgidIndex);
    }

    /** The values; a lazy path unpacks them first. */
    Values values() {
        return values;
    }

    /** The P_Key index if it is known already, else {@link #UNKNOWN}. */
    int pkeyIndexIfKnown() {
        return pkeyIndex;
    }

    /** The name of this kind of path in a specification: {@code IBPath}. */
    String specName() {
        return "IBPath";
    }

    @Override
    public Optional<EndPort> endPort() {
        return Optional.ofNullable(values().endPort());
    }

    @Override
    public int retries() {
        return values().retries();
    }

    /** LRH DLID, the destination LID. */
    public int dlid() {
        return values().dlid();
    }

    /** LRH SLID, the source LID. */
    public int slid() {
        return values().slid();
    }

    /** LRH SL, the service level, 0 to 15. */
    public int sl() {
        return values().sl();
    }

    /** BTH P_Key, the partition key, 16 bits. */
    public int pkey() {
        return values().pkey();
    }

    /** True if the packets carry a GRH: LRH LNH is IBA global. */
    public boolean hasGrh() {
        return values().hasGrh();
    }

    /** GRH SGID, the source GID, if set. */
    public Optional<Gid> sgid() {
        return Optional.ofNullable(values().sgid());
    }

    /** GRH DGID, the destination GID, if set. */
    public Optional<Gid> dgid() {
        return Optional.ofNullable(values().dgid());
    }

    /** GRH HopLmt, 0 to 255. */
    public int hopLimit() {
        return values().hopLimit();
    }

    /** GRH TClass, 0 to 255. */
    public int trafficClass() {
        return values().trafficClass();
    }

    /** GRH FlowLabel, 20 bits. */
    public int flowLabel() {
        return values().flowLabel();
    }

    /** BTH DestQP, the destination QP number (24 bits), if set. */
    public OptionalInt dqpn() {
        return optional(values().dqpn());
    }

    /** DETH SrcQP, the source QP number (24 bits), if set. */
    public OptionalInt sqpn() {
        return optional(values().sqpn());
    }

    /** DETH Q_Key (32 bits, as an {@code int}), if set. */
    public OptionalInt qkey() {
        return optional(values().qkey());
    }

    /** The largest MTU to use on this path. */
    public Mtu mtu() {
        return values().mtu();
    }

    /** The largest injection rate on this path. */
    public StaticRate rate() {
        return values().rate();
    }

    /** The umad agent to send with instead of the transport's own choice, if set. */
    public OptionalInt umadAgentId() {
        return optional(values().umadAgentId());
    }

    /**
     * The responder's response time value, 0 to 31 (4.096 µs × 2<sup>value</sup>, IBA 13.4.6.2),
     * used for {@link #madTimeout()}.
     */
    public int respTime() {
        return values().respTime();
    }

    /**
     * The packet lifetime of the path, 0 to 63: the expected one-way transit time is 4.096 µs ×
     * 2<sup>value</sup> (PathRecord:PacketLifeTime, IBA 15.2.5.16). When the path was built without
     * one, the end port's subnet timeout, and without an end port
     * {@link EndPort#DEFAULT_SUBNET_TIMEOUT}.
     */
    public int packetLifeTime() {
        Integer value = values().packetLifeTime();
        if (value != null) {
            return value;
        }
        EndPort endPort = values().endPort();
        return endPort != null ? endPort.subnetTimeout() : EndPort.DEFAULT_SUBNET_TIMEOUT;
    }

    /** The smallest RNR NAK timer value (AETH syndrome, IBA 9.7.5.2.8), 0 to 31: QP min_rnr_timer. */
    public int minRnrTimer() {
        return values().minRnrTimer();
    }

    /** The destination's ack response time (its CA ack delay), 0 to 31, used for {@link #qpTimeout()}. */
    public int dackRespTime() {
        return values().dackRespTime();
    }

    /** The source's ack response time, verbs' {@code local_ca_ack_delay}, 0 to 31. */
    public int sackRespTime() {
        return values().sackRespTime();
    }

    /** The destination's initial PSN, 24 bits: QP rq_psn. */
    public int dqpsn() {
        return values().dqpsn();
    }

    /** The source's initial PSN (BTH PSN), 24 bits: QP sq_psn. */
    public int sqpsn() {
        return values().sqpsn();
    }

    /** RDMA reads and atomics the destination may have outstanding, 0 to 255: QP max_dest_rd_atomic. */
    public int drdatomic() {
        return values().drdatomic();
    }

    /** RDMA reads and atomics the source may issue at once, 0 to 255: QP max_rd_atomic. */
    public int srdatomic() {
        return values().srdatomic();
    }

    /** The M_Key to put in SMPs on this path (IBA 14.2.4), 64 bits; 0 when none. */
    public long mKey() {
        return values().mKey();
    }

    /** The SM_Key to put in SA MADs on this path (IBA 15.2.1.1), 64 bits; 0 when none. */
    public long smKey() {
        return values().smKey();
    }

    /**
     * The index of {@link #pkey()} in the end port's P_Key table, as verbs' {@code pkey_index}
     * wants it; cached.
     *
     * @throws IllegalStateException if the path has no end port
     * @throws RdmaException         if the end port's table does not hold the P_Key
     */
    public int pkeyIndex() {
        int index = pkeyIndex;
        if (index == UNKNOWN) {
            EndPort endPort = requireEndPort("pkey_index");
            index = endPort.pkeys().indexOf(pkey());
            if (index < 0) {
                throw new RdmaException(String.format("P_Key 0x%04x not available on %s", pkey(), endPort));
            }
            pkeyIndex = index;
        }
        return index;
    }

    /**
     * The index of {@link #sgid()} in the end port's GID table, as verbs' {@code sgid_index}
     * wants it; cached.
     *
     * @throws IllegalStateException if the path has no end port or no SGID
     * @throws RdmaException         if the end port's table does not hold the SGID
     */
    public int sgidIndex() {
        int index = sgidIndex;
        if (index == UNKNOWN) {
            EndPort endPort = requireEndPort("SGID_index");
            Gid sgid = values().sgid();
            if (sgid == null) {
                throw new IllegalStateException("SGID_index needs an SGID; the path has none: " + this);
            }
            index = endPort.gids().indexOf(sgid);
            if (index < 0) {
                throw new RdmaException("GID " + sgid + " not available on " + endPort);
            }
            sgidIndex = index;
        }
        return index;
    }

    /**
     * The path bits of {@link #slid()}: its low LMC bits (IBA 7.11.1), verbs'
     * {@code src_path_bits}; with the end port's LMC, or all 7 bits an LMC can cover when the path
     * has no end port.
     */
    public int slidBits() {
        return slid() & lmcMask();
    }

    /** The path bits of {@link #dlid()}, as {@link #slidBits()} takes them. */
    public int dlidBits() {
        return dlid() & lmcMask();
    }

    private int lmcMask() {
        EndPort endPort = values().endPort();
        return (1 << (endPort != null ? endPort.lmc() : Lid.LMC_MAX)) - 1;
    }

    /**
     * How long to wait for the reply to a MAD on this path: a round trip plus the responder's
     * time, 4.096 µs × (2<sup>packetLifeTime+1</sup> + 2<sup>respTime</sup>); cached.
     */
    public Duration madTimeout() {
        Duration timeout = madTimeout;
        if (timeout == null) {
            timeout = timeValue(packetLifeTime() + 1).plus(timeValue(respTime()));
            madTimeout = timeout;
        }
        return timeout;
    }

    /**
     * The local ACK timeout of an RC or RD connection on this path: a round trip plus the
     * destination's ack delay, 4.096 µs × (2<sup>packetLifeTime+1</sup> +
     * 2<sup>dackRespTime</sup>); cached.
     */
    public Duration qpTimeout() {
        Duration timeout = qpTimeout;
        if (timeout == null) {
            timeout = timeValue(packetLifeTime() + 1).plus(timeValue(dackRespTime()));
            qpTimeout = timeout;
        }
        return timeout;
    }

    /** 4.096 µs × 2<sup>exponent</sup> = 2<sup>exponent+12</sup> ns, for exponents 0 to 64. */
    static Duration timeValue(int exponent) {
        int shift = exponent + 12;
        return shift < 63 ? Duration.ofNanos(1L << shift) : Duration.ofNanos(1L << 62).multipliedBy(1L << (shift - 62));
    }

    /**
     * True if the path can be used as it is: it has an end port, and its destination is
     * addressed: by DLID on InfiniBand (and by SGID and DGID too when it has a GRH), by SGID and
     * DGID with a GRH on Ethernet (RoCE). A path from a bare GID, for example, is not complete
     * until a path record query fills in its LIDs.
     */
    @Override
    public boolean complete() {
        EndPort endPort = values().endPort();
        if (endPort == null) {
            return false;
        }
        boolean gids = hasGrh() && values().sgid() != null && values().dgid() != null;
        if (endPort.linkLayer() == LinkLayer.ETHERNET) {
            return gids;
        }
        return dlid() != 0 && (!hasGrh() || gids);
    }

    /**
     * A builder holding this path's values, to change some and build another path of the same
     * kind.
     */
    public Builder<? extends IBPath> toBuilder() {
        return new Builder<IBPath>(false, IBPath::of, values()).knownIndexes(pkeyIndex, sgidIndex);
    }

    /**
     * A path like this one with {@code overrides} applied to its builder, python-rdma's
     * {@code path.copy(**kwargs)}: {@code path.copy(b -> b.sl(3).dqpn(1))}.
     */
    public IBPath copy(Consumer<Builder<?>> overrides) {
        Builder<? extends IBPath> builder = toBuilder();
        overrides.accept(builder);
        return builder.build();
    }

    /**
     * This path reversed per IBA 13.5.4: source and destination LIDs, GIDs, QP numbers, initial
     * PSNs, ack response times and RD atomic limits swapped; SL, P_Key, Q_Key, traffic class and
     * flow label kept, as a responder uses the request's. With {@code forReply} the hop limit of a
     * path with a GRH becomes 255, as a reply's must; without, the path is only reversed (as the
     * no-CM connection exchange sends it). The reverse of a received path is the path to answer on.
     */
    public IBPath reverse(boolean forReply) {
        Builder<? extends IBPath> builder = toBuilder();
        builder.reverse(forReply);
        return builder.build();
    }

    /** {@code reverse(true)}: the path to reply on, python-rdma's {@code reverse()}. */
    public IBPath reverse() {
        return reverse(true);
    }

    /**
     * The path in the forward direction: this path. python-rdma keeps {@code forward_path} and
     * {@code return_path} for asymmetric paths; all paths here are symmetric.
     */
    public IBPath forwardPath() {
        return this;
    }

    /** The path in the return direction: {@code reverse(false)}, cached. */
    public IBPath returnPath() {
        IBPath path = returnPath;
        if (path == null) {
            path = reverse(false);
            returnPath = path;
        }
        return path;
    }

    /**
     * This path with its end port set to the end port of {@code device} that matches its source,
     * python-rdma's {@code set_end_port(node)}: the port whose GID table holds the SGID when the
     * path has one, else the port whose LIDs (base LID and LMC) cover the SLID.
     *
     * @throws NoSuchDeviceException if no end port of the device matches
     */
    public IBPath withEndPortOn(RdmaDevice device) {
        Gid sgid = values().sgid();
        int slid = slid();
        for (EndPort port : device.endPorts()) {
            boolean matches = sgid != null ? port.gids().contains(sgid)
                    : port.lid() != 0 && slid >= port.lid() && slid < port.lid() + (1 << port.lmc());
            if (matches) {
                return copy(b -> b.endPort(port));
            }
        }
        throw new NoSuchDeviceException(device.name(), "No end port of " + device.name() + " has "
                + (sgid != null ? "GID " + sgid : "LID " + slid) + ", the source of " + this);
    }

    /**
     * This path with the queue pair parameters of {@code other}, python-rdma's
     * {@code copy_qp_params}: the values that come from the two QPs rather than from a path record,
     * {@code qkey}, {@code retries}, {@code min_rnr_timer}, {@code dack_resp_time},
     * {@code sack_resp_time}, {@code dqpn}, {@code sqpn}, {@code dqpsn}, {@code sqpsn},
     * {@code drdatomic} and {@code srdatomic}.
     */
    public IBPath copyQpParams(IBPath other) {
        Values from = other.values();
        return copy(b -> b.qkey(from.qkey()).retries(from.retries()).minRnrTimer(from.minRnrTimer())
                .dackRespTime(from.dackRespTime()).sackRespTime(from.sackRespTime()).dqpn(from.dqpn())
                .sqpn(from.sqpn()).dqpsn(from.dqpsn()).sqpsn(from.sqpsn()).drdatomic(from.drdatomic())
                .srdatomic(from.srdatomic()));
    }

    /**
     * Paths are equal when they are of the same kind (a {@link LazyIBPath} counts as an
     * {@link IBPath}) and hold equal values, end port snapshot included.
     */
    @Override
    public boolean equals(Object o) {
        return o instanceof IBPath other && specName().equals(other.specName()) && values().equals(other.values())
                && sameRoute(other);
    }

    /** True if the directed-route parts are equal; IB paths have none. */
    boolean sameRoute(IBPath other) {
        return true;
    }

    @Override
    public int hashCode() {
        return Objects.hash(specName(), values());
    }

    /**
     * The path specification: the kind, the end port, then every attribute whose value is not
     * the kind's default, for example {@code IBPath(end_port='mlx4_0/1', DLID=2, SL=2)}.
     */
    @Override
    public String toString() {
        return PathSpec.format(this);
    }

    private EndPort requireEndPort(String what) {
        EndPort endPort = values().endPort();
        if (endPort == null) {
            throw new IllegalStateException(what + " needs an end port; the path has none: " + this);
        }
        return endPort;
    }

    private static OptionalInt optional(Integer value) {
        return value == null ? OptionalInt.empty() : OptionalInt.of(value);
    }

    /**
     * Collects the attributes of an {@link IBPath} (or, from {@link IBDRPath#builder}, an
     * {@link IBDRPath}). Every setter checks the value against its header field at once and throws
     * an {@link IllegalArgumentException} naming the attribute by its python-rdma name. Not
     * thread-safe; {@link #build} may be called more than once.
     *
     * @param <P> the kind of path built
     */
    public static final class Builder<P extends IBPath> {
        private final boolean directedRoute;
        private final Function<Builder<P>, P> factory;
        private EndPort endPort;
        private int retries;
        private int dlid;
        private int slid;
        private int sl;
        private int pkey;
        private boolean hasGrh;
        private Gid sgid;
        private Gid dgid;
        private int hopLimit;
        private int trafficClass;
        private int flowLabel;
        private Integer dqpn;
        private Integer sqpn;
        private Integer qkey;
        private Mtu mtu;
        private StaticRate rate;
        private Integer umadAgentId;
        private int respTime;
        private Integer packetLifeTime;
        private int minRnrTimer;
        private int dackRespTime;
        private int sackRespTime;
        private int dqpsn;
        private int sqpsn;
        private int drdatomic;
        private int srdatomic;
        private long mKey;
        private long smKey;
        private int pkeyIndex = UNKNOWN;
        private int sgidIndex = UNKNOWN;
        private int drSlid;
        private int drDlid;
        private byte[] drPath;

        Builder(boolean directedRoute, Function<Builder<P>, P> factory, Values v) {
            this.directedRoute = directedRoute;
            this.factory = factory;
            endPort = v.endPort();
            retries = v.retries();
            dlid = v.dlid();
            slid = v.slid();
            sl = v.sl();
            pkey = v.pkey();
            hasGrh = v.hasGrh();
            sgid = v.sgid();
            dgid = v.dgid();
            hopLimit = v.hopLimit();
            trafficClass = v.trafficClass();
            flowLabel = v.flowLabel();
            dqpn = v.dqpn();
            sqpn = v.sqpn();
            qkey = v.qkey();
            mtu = v.mtu();
            rate = v.rate();
            umadAgentId = v.umadAgentId();
            respTime = v.respTime();
            packetLifeTime = v.packetLifeTime();
            minRnrTimer = v.minRnrTimer();
            dackRespTime = v.dackRespTime();
            sackRespTime = v.sackRespTime();
            dqpsn = v.dqpsn();
            sqpsn = v.sqpsn();
            drdatomic = v.drdatomic();
            srdatomic = v.srdatomic();
            mKey = v.mKey();
            smKey = v.smKey();
        }

        Values values() {
            return new Values(endPort, retries, dlid, slid, sl, pkey, hasGrh, sgid, dgid, hopLimit, trafficClass,
                    flowLabel, dqpn, sqpn, qkey, mtu, rate, umadAgentId, respTime, packetLifeTime, minRnrTimer,
                    dackRespTime, sackRespTime, dqpsn, sqpsn, drdatomic, srdatomic, mKey, smKey);
        }

        Builder<P> knownIndexes(int pkeyIndex, int sgidIndex) {
            this.pkeyIndex = pkeyIndex;
            this.sgidIndex = sgidIndex;
            return this;
        }

        Builder<P> route(int drSlid, int drDlid, byte[] drPath) {
            this.drSlid = drSlid;
            this.drDlid = drDlid;
            this.drPath = drPath.clone();
            return this;
        }

        int drSlid() {
            return drSlid;
        }

        int drDlid() {
            return drDlid;
        }

        byte[] drPath() {
            return drPath.clone();
        }

        int pkeyIndex() {
            return pkeyIndex;
        }

        /** Swaps the source and destination attributes, IBA 13.5.4; see {@link IBPath#reverse(boolean)}. */
        void reverse(boolean forReply) {
            int lid = dlid;
            dlid = slid;
            slid = lid;
            Gid gid = dgid;
            dgid = sgid;
            sgid = gid;
            sgidIndex = UNKNOWN;
            Integer qpn = dqpn;
            dqpn = sqpn;
            sqpn = qpn;
            int time = dackRespTime;
            dackRespTime = sackRespTime;
            sackRespTime = time;
            int psn = dqpsn;
            dqpsn = sqpsn;
            sqpsn = psn;
            int atomics = drdatomic;
            drdatomic = srdatomic;
            srdatomic = atomics;
            if (forReply && hasGrh) {
                hopLimit = 0xFF;
            }
        }

        /** Sets the end port; null for none. Forgets indexes found in the previous end port's tables. */
        public Builder<P> endPort(EndPort endPort) {
            this.endPort = endPort;
            pkeyIndex = UNKNOWN;
            sgidIndex = UNKNOWN;
            return this;
        }

        /** Sets retries, 0 to 255. */
        public Builder<P> retries(int retries) {
            this.retries = check("retries", retries, 0xFF);
            return this;
        }

        /** Sets DLID, 0 to 0xFFFF. */
        public Builder<P> dlid(int dlid) {
            this.dlid = check("DLID", dlid, 0xFFFF);
            return this;
        }

        /** Sets SLID, 0 to 0xFFFF. */
        public Builder<P> slid(int slid) {
            this.slid = check("SLID", slid, 0xFFFF);
            return this;
        }

        /** Sets SL, 0 to 15. */
        public Builder<P> sl(int sl) {
            this.sl = check("SL", sl, 15);
            return this;
        }

        /** Sets pkey, 0 to 0xFFFF. */
        public Builder<P> pkey(int pkey) {
            this.pkey = check("pkey", pkey, 0xFFFF);
            pkeyIndex = UNKNOWN;
            return this;
        }

        /**
         * Sets pkey to entry {@code index} of the end port's P_Key table, and remembers the index.
         *
         * @throws IllegalStateException    if no end port is set
         * @throws IllegalArgumentException if the table has no such entry
         */
        public Builder<P> pkeyIndex(int index) {
            List<Integer> pkeys = requireEndPort("pkey_index").pkeys();
            checkIndex("pkey_index", index, pkeys.size());
            pkey = pkeys.get(index);
            pkeyIndex = index;
            return this;
        }

        /**
         * Sets has_grh.
         *
         * @throws IllegalStateException if set true on a directed-route path, which has no GRH
         */
        public Builder<P> hasGrh(boolean hasGrh) {
            if (hasGrh && directedRoute) {
                throw new IllegalStateException("has_grh: GID addressing is not possible for DR paths");
            }
            this.hasGrh = hasGrh;
            return this;
        }

        /** Sets SGID; null for none. */
        public Builder<P> sgid(Gid sgid) {
            this.sgid = sgid;
            sgidIndex = UNKNOWN;
            return this;
        }

        /**
         * Sets SGID to entry {@code index} of the end port's GID table, and remembers the index.
         *
         * @throws IllegalStateException    if no end port is set, or on a directed-route path
         * @throws IllegalArgumentException if the table has no such entry
         */
        public Builder<P> sgidIndex(int index) {
            if (directedRoute) {
                throw new IllegalStateException("SGID_index: GID addressing is not possible for DR paths");
            }
            List<Gid> gids = requireEndPort("SGID_index").gids();
            checkIndex("SGID_index", index, gids.size());
            sgid = gids.get(index);
            sgidIndex = index;
            return this;
        }

        /** Sets DGID; null for none. */
        public Builder<P> dgid(Gid dgid) {
            this.dgid = dgid;
            return this;
        }

        /** Sets hop_limit, 0 to 255. */
        public Builder<P> hopLimit(int hopLimit) {
            this.hopLimit = check("hop_limit", hopLimit, 0xFF);
            return this;
        }

        /** Sets traffic_class, 0 to 255. */
        public Builder<P> trafficClass(int trafficClass) {
            this.trafficClass = check("traffic_class", trafficClass, 0xFF);
            return this;
        }

        /** Sets flow_label, 0 to 0xFFFFF. */
        public Builder<P> flowLabel(int flowLabel) {
            this.flowLabel = check("flow_label", flowLabel, 0xF_FFFF);
            return this;
        }

        /** Sets dqpn, 0 to 0xFFFFFF; null for none. */
        public Builder<P> dqpn(Integer dqpn) {
            this.dqpn = checkOptional("dqpn", dqpn, 0xFF_FFFF);
            return this;
        }

        /** Sets sqpn, 0 to 0xFFFFFF; null for none. */
        public Builder<P> sqpn(Integer sqpn) {
            this.sqpn = checkOptional("sqpn", sqpn, 0xFF_FFFF);
            return this;
        }

        /** Sets qkey, any 32 bits (read as an unsigned number in text); null for none. */
        public Builder<P> qkey(Integer qkey) {
            this.qkey = qkey;
            return this;
        }

        /** Sets MTU. */
        public Builder<P> mtu(Mtu mtu) {
            this.mtu = Objects.requireNonNull(mtu, "MTU");
            return this;
        }

        /** Sets rate. */
        public Builder<P> rate(StaticRate rate) {
            this.rate = Objects.requireNonNull(rate, "rate");
            return this;
        }

        /** Sets umad_agent_id, 0 to 2<sup>31</sup>-1; null for none. */
        public Builder<P> umadAgentId(Integer umadAgentId) {
            this.umadAgentId = checkOptional("umad_agent_id", umadAgentId, Integer.MAX_VALUE);
            return this;
        }

        /** Sets resp_time, 0 to 31. */
        public Builder<P> respTime(int respTime) {
            this.respTime = check("resp_time", respTime, 31);
            return this;
        }

        /** Sets packet_life_time, 0 to 63; null to use the end port's subnet timeout. */
        public Builder<P> packetLifeTime(Integer packetLifeTime) {
            this.packetLifeTime = checkOptional("packet_life_time", packetLifeTime, 63);
            return this;
        }

        /** Sets min_rnr_timer, 0 to 31. */
        public Builder<P> minRnrTimer(int minRnrTimer) {
            this.minRnrTimer = check("min_rnr_timer", minRnrTimer, 31);
            return this;
        }

        /** Sets dack_resp_time, 0 to 31. */
        public Builder<P> dackRespTime(int dackRespTime) {
            this.dackRespTime = check("dack_resp_time", dackRespTime, 31);
            return this;
        }

        /** Sets sack_resp_time, 0 to 31. */
        public Builder<P> sackRespTime(int sackRespTime) {
            this.sackRespTime = check("sack_resp_time", sackRespTime, 31);
            return this;
        }

        /** Sets dqpsn, 0 to 0xFFFFFF. */
        public Builder<P> dqpsn(int dqpsn) {
            this.dqpsn = check("dqpsn", dqpsn, 0xFF_FFFF);
            return this;
        }

        /** Sets sqpsn, 0 to 0xFFFFFF. */
        public Builder<P> sqpsn(int sqpsn) {
            this.sqpsn = check("sqpsn", sqpsn, 0xFF_FFFF);
            return this;
        }

        /** Sets drdatomic, 0 to 255. */
        public Builder<P> drdatomic(int drdatomic) {
            this.drdatomic = check("drdatomic", drdatomic, 0xFF);
            return this;
        }

        /** Sets srdatomic, 0 to 255. */
        public Builder<P> srdatomic(int srdatomic) {
            this.srdatomic = check("srdatomic", srdatomic, 0xFF);
            return this;
        }

        /** Sets MKey, any 64 bits. */
        public Builder<P> mKey(long mKey) {
            this.mKey = mKey;
            return this;
        }

        /** Sets SMKey, any 64 bits. */
        public Builder<P> smKey(long smKey) {
            this.smKey = smKey;
            return this;
        }

        /**
         * Sets SLID to the end port's base LID with path bits {@code bits} (0 to 127) or'ed in,
         * python-rdma's {@code SLID_bits} assignment.
         *
         * @throws IllegalStateException if no end port is set
         */
        public Builder<P> slidBits(int bits) {
            return slid(requireEndPort("SLID_bits").lid() | check("SLID_bits", bits, 0x7F));
        }

        /**
         * Sets DLID to the end port's base LID with path bits {@code bits} (0 to 127) or'ed in,
         * python-rdma's {@code DLID_bits} assignment (for paths back to the local port).
         *
         * @throws IllegalStateException if no end port is set
         */
        public Builder<P> dlidBits(int bits) {
            return dlid(requireEndPort("DLID_bits").lid() | check("DLID_bits", bits, 0x7F));
        }

        /**
         * Sets drSLID, 0 to 0xFFFF: SMPFormatDirected:DrSLID.
         *
         * @throws IllegalStateException on a builder of an IB path that is not directed-route
         */
        public Builder<P> drSlid(int drSlid) {
            requireDirectedRoute("drSLID");
            this.drSlid = check("drSLID", drSlid, 0xFFFF);
            return this;
        }

        /**
         * Sets drDLID, 0 to 0xFFFF: SMPFormatDirected:DrDLID.
         *
         * @throws IllegalStateException on a builder of an IB path that is not directed-route
         */
        public Builder<P> drDlid(int drDlid) {
            requireDirectedRoute("drDLID");
            this.drDlid = check("drDLID", drDlid, 0xFFFF);
            return this;
        }

        /**
         * Sets drPath, SMPFormatDirected:InitialPath: {@code ports[0]} must be 0 (the local node)
         * and each following entry the output port (0 to 254) to take at the next hop; 1 to 64
         * entries, so 0 to 63 hops. {@code drPath(0)} is the local port, {@code drPath(0, 1)}
         * the node behind its port 1.
         *
         * @throws IllegalStateException    on a builder of an IB path that is not directed-route
         * @throws IllegalArgumentException if the route is not as described
         */
        public Builder<P> drPath(int... ports) {
            requireDirectedRoute("drPath");
            if (ports.length == 0 || ports.length > IBDRPath.MAX_HOPS + 1) {
                throw new IllegalArgumentException("drPath must have 1 to " + (IBDRPath.MAX_HOPS + 1)
                        + " entries (0 to " + IBDRPath.MAX_HOPS + " hops), not " + ports.length);
            }
            if (ports[0] != 0) {
                throw new IllegalArgumentException("drPath must start with 0, the local node, not " + ports[0]);
            }
            byte[] path = new byte[ports.length];
            for (int i = 0; i < ports.length; i++) {
                check("drPath entry " + i, ports[i], EndPort.MAX_PORT_NUMBER);
                path[i] = (byte) ports[i];
            }
            this.drPath = path;
            return this;
        }

        /**
         * The path.
         *
         * @throws IllegalArgumentException if the values do not make a path of this kind
         */
        public P build() {
            return factory.apply(this);
        }

        private void requireDirectedRoute(String what) {
            if (!directedRoute) {
                throw new IllegalStateException(what + " is an attribute of IBDRPath, not of IBPath");
            }
        }

        private EndPort requireEndPort(String what) {
            if (endPort == null) {
                throw new IllegalStateException(what + " needs an end port; none is set");
            }
            return endPort;
        }

        private static int check(String name, int value, int max) {
            if (value < 0 || value > max) {
                throw new IllegalArgumentException(name + " " + value + " is outside 0 to " + max);
            }
            return value;
        }

        private static Integer checkOptional(String name, Integer value, int max) {
            return value == null ? null : check(name, value, max);
        }

        private void checkIndex(String name, int index, int size) {
            if (index < 0 || index >= size) {
                throw new IllegalArgumentException(name + " " + index + " is outside the " + size
                        + " entries of the table of " + endPort);
            }
        }
    }
}

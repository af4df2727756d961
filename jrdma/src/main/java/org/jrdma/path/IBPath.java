package org.jrdma.path;

import java.time.Duration;
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
 * <p><b>Names.</b> Accessors are camelCase forms of python-rdma's attribute names, which the
 * builder's setters, their error messages and the path specification ({@link #toString()}) keep:
 * {@link #dlid()} is {@code DLID}, {@link #hopLimit()} {@code hop_limit}, {@link #mKey()}
 * {@code MKey}. Each accessor says which header field or verbs parameter it holds.
 *
 * <p><b>Threads.</b> A path may be handed to other threads in any way, even through a data race:
 * its values are final, and the values it derives on first use ({@link #pkeyIndex()},
 * {@link #sgidIndex()}, the timeouts, {@link #returnPath()}) are cached in fields whose default
 * means "not found yet", so a thread that does not see another's cached value finds it again.
 */
public sealed class IBPath extends Path permits IBDRPath, LazyIBPath {
    /** The default value of {@link #respTime()}, {@link #dackRespTime()} and {@link #sackRespTime()} (IBA C13-13.1.1). */
    public static final int DEFAULT_RESP_TIME = 20;

    /** An index not known yet. */
    static final int UNKNOWN = -1;

    private final PathValues values;
    /** Indexes the builder knew (the caller's choice when a table holds the value twice), or {@link #UNKNOWN}. */
    private final int knownPkeyIndex;
    private final int knownSgidIndex;
    // Caches of derived values, each computed from the final values, the same every time. Racy
    // single checks: a field's default, 0 or null, means "not computed", so a thread that reads
    // it through a data race at worst computes the value again. The indexes are kept plus one.
    private int foundPkeyIndex;
    private int foundSgidIndex;
    private Duration madTimeout;
    private Duration qpTimeout;
    private IBPath returnPath;

    /**
     * A path of {@code values}, which it takes over (null for a lazy path); the indexes are
     * known ones or {@link #UNKNOWN}.
     */
    IBPath(PathValues values, int pkeyIndex, int sgidIndex) {
        this.values = values;
        this.knownPkeyIndex = pkeyIndex;
        this.knownSgidIndex = sgidIndex;
    }

    /**
     * A builder of an IB path from {@code endPort} (null for none), every other attribute at
     * python-rdma's default: LIDs and SL 0, the default P_Key 0xFFFF, no GRH, no QP numbers or
     * Q_Key, MTU 256, rate 2.5 Gb/s, response times 20, RD atomics 255, the rest 0.
     */
    public static Builder<? extends IBPath> builder(EndPort endPort) {
        return new Builder<IBPath>(false, IBPath::of, new PathValues()).endPort(endPort);
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

    private static IBPath of(PathBuilder<IBPath> builder) {
        return new IBPath(builder.values(), builder.pkeyIndex(), builder.sgidIndex());
    }

    /** The values, not to be changed; a lazy path unpacks them first. */
    PathValues values() {
        return values;
    }

    /** The P_Key index the builder knew, else {@link #UNKNOWN}. */
    int knownPkeyIndex() {
        return knownPkeyIndex;
    }

    /** The name of this kind of path in a specification: {@code IBPath}. */
    String specName() {
        return "IBPath";
    }

    @Override
    public Optional<EndPort> endPort() {
        return Optional.ofNullable(values().endPort);
    }

    @Override
    public int retries() {
        return values().retries;
    }

    /** LRH DLID, the destination LID. */
    public int dlid() {
        return values().dlid;
    }

    /** LRH SLID, the source LID. */
    public int slid() {
        return values().slid;
    }

    /** LRH SL, the service level, 0 to 15. */
    public int sl() {
        return values().sl;
    }

    /** BTH P_Key, the partition key, 16 bits. */
    public int pkey() {
        return values().pkey;
    }

    /** True if the packets carry a GRH: LRH LNH is IBA global. */
    public boolean hasGrh() {
        return values().hasGrh;
    }

    /** GRH SGID, the source GID, if set. */
    public Optional<Gid> sgid() {
        return Optional.ofNullable(values().sgid);
    }

    /** GRH DGID, the destination GID, if set. */
    public Optional<Gid> dgid() {
        return Optional.ofNullable(values().dgid);
    }

    /** GRH HopLmt, 0 to 255. */
    public int hopLimit() {
        return values().hopLimit;
    }

    /** GRH TClass, 0 to 255. */
    public int trafficClass() {
        return values().trafficClass;
    }

    /** GRH FlowLabel, 20 bits. */
    public int flowLabel() {
        return values().flowLabel;
    }

    /** BTH DestQP, the destination QP number (24 bits), if set. */
    public OptionalInt dqpn() {
        return optional(values().dqpn);
    }

    /** DETH SrcQP, the source QP number (24 bits), if set. */
    public OptionalInt sqpn() {
        return optional(values().sqpn);
    }

    /** DETH Q_Key (32 bits, as an {@code int}), if set. */
    public OptionalInt qkey() {
        return optional(values().qkey);
    }

    /** The largest MTU to use on this path. */
    public Mtu mtu() {
        return values().mtu;
    }

    /** The largest injection rate on this path. */
    public StaticRate rate() {
        return values().rate;
    }

    /** The umad agent to send with instead of the transport's own choice, if set. */
    public OptionalInt umadAgentId() {
        return optional(values().umadAgentId);
    }

    /**
     * The responder's response time value, 0 to 31 (4.096 µs × 2<sup>value</sup>, IBA 13.4.6.2),
     * used for {@link #madTimeout()}.
     */
    public int respTime() {
        return values().respTime;
    }

    /**
     * The packet lifetime of the path, 0 to 63: the expected one-way transit time is 4.096 µs ×
     * 2<sup>value</sup> (PathRecord:PacketLifeTime, IBA 15.2.5.16). When the path was built without
     * one, the end port's subnet timeout, and without an end port
     * {@link EndPort#DEFAULT_SUBNET_TIMEOUT}.
     */
    public int packetLifeTime() {
        Integer value = values().packetLifeTime;
        if (value != null) {
            return value;
        }
        EndPort endPort = values().endPort;
        return endPort != null ? endPort.subnetTimeout() : EndPort.DEFAULT_SUBNET_TIMEOUT;
    }

    /** The smallest RNR NAK timer value (AETH syndrome, IBA 9.7.5.2.8), 0 to 31: QP min_rnr_timer. */
    public int minRnrTimer() {
        return values().minRnrTimer;
    }

    /** The destination's ack response time (its CA ack delay), 0 to 31, used for {@link #qpTimeout()}. */
    public int dackRespTime() {
        return values().dackRespTime;
    }

    /** The source's ack response time, verbs' {@code local_ca_ack_delay}, 0 to 31. */
    public int sackRespTime() {
        return values().sackRespTime;
    }

    /** The destination's initial PSN, 24 bits: QP rq_psn. */
    public int dqpsn() {
        return values().dqpsn;
    }

    /** The source's initial PSN (BTH PSN), 24 bits: QP sq_psn. */
    public int sqpsn() {
        return values().sqpsn;
    }

    /** RDMA reads and atomics the destination may have outstanding, 0 to 255: QP max_dest_rd_atomic. */
    public int drdatomic() {
        return values().drdatomic;
    }

    /** RDMA reads and atomics the source may issue at once, 0 to 255: QP max_rd_atomic. */
    public int srdatomic() {
        return values().srdatomic;
    }

    /** The M_Key to put in SMPs on this path (IBA 14.2.4), 64 bits; 0 when none. */
    public long mKey() {
        return values().mKey;
    }

    /** The SM_Key to put in SA MADs on this path (IBA 15.2.1.1), 64 bits; 0 when none. */
    public long smKey() {
        return values().smKey;
    }

    /**
     * The index of {@link #pkey()} in the end port's P_Key table, as verbs' {@code pkey_index}
     * wants it; cached.
     *
     * @throws IllegalStateException if the path has no end port
     * @throws RdmaException         if the end port's table does not hold the P_Key
     */
    public int pkeyIndex() {
        if (knownPkeyIndex != UNKNOWN) {
            return knownPkeyIndex;
        }
        int index = foundPkeyIndex - 1;
        if (index == UNKNOWN) {
            EndPort endPort = requireEndPort("pkey_index");
            index = endPort.pkeys().indexOf(pkey());
            if (index < 0) {
                throw new RdmaException(String.format("P_Key 0x%04x not available on %s", pkey(), endPort));
            }
            foundPkeyIndex = index + 1;
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
        if (knownSgidIndex != UNKNOWN) {
            return knownSgidIndex;
        }
        int index = foundSgidIndex - 1;
        if (index == UNKNOWN) {
            EndPort endPort = requireEndPort("SGID_index");
            Gid sgid = values().sgid;
            if (sgid == null) {
                throw new IllegalStateException("SGID_index needs an SGID; the path has none: " + this);
            }
            index = endPort.gids().indexOf(sgid);
            if (index < 0) {
                throw new RdmaException("GID " + sgid + " not available on " + endPort);
            }
            foundSgidIndex = index + 1;
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
        EndPort endPort = values().endPort;
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
        EndPort endPort = values().endPort;
        if (endPort == null) {
            return false;
        }
        boolean gids = hasGrh() && values().sgid != null && values().dgid != null;
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
        return new Builder<IBPath>(false, IBPath::of, values().copy()).knownIndexes(knownPkeyIndex, knownSgidIndex);
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
        Gid sgid = values().sgid;
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
        PathValues from = other.values();
        return copy(b -> b.qkey(from.qkey).retries(from.retries).minRnrTimer(from.minRnrTimer)
                .dackRespTime(from.dackRespTime).sackRespTime(from.sackRespTime).dqpn(from.dqpn)
                .sqpn(from.sqpn).dqpsn(from.dqpsn).sqpsn(from.sqpsn).drdatomic(from.drdatomic)
                .srdatomic(from.srdatomic));
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
        EndPort endPort = values().endPort;
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
     * {@link IBDRPath}; its methods are in {@code PathBuilder.java}). Every setter checks the value
     * against its header field at once and throws an {@link IllegalArgumentException} naming the
     * attribute by its python-rdma name. Not thread-safe; {@link #build} may be called more than
     * once.
     *
     * @param <P> the kind of path built
     */
    public static final class Builder<P extends IBPath> extends PathBuilder<P> {
        Builder(boolean directedRoute, Function<PathBuilder<P>, P> factory, PathValues values) {
            super(directedRoute, factory, values);
        }
    }
}

package org.jrdma.path;

import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.jrdma.devices.EndPort;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Mtu;
import org.jrdma.iba.StaticRate;

/**
 * The body of {@link IBPath.Builder}, in a file of its own: it sets the attributes in one
 * {@link PathValues} of its own, and each path it builds gets a copy. Sealed to that one subclass,
 * so its setters can return it.
 *
 * @param <P> the kind of path built
 */
abstract sealed class PathBuilder<P extends IBPath> permits IBPath.Builder {
    private final boolean directedRoute;
    private final Function<PathBuilder<P>, P> factory;
    private final PathValues values;
    private int pkeyIndex = IBPath.UNKNOWN;
    private int sgidIndex = IBPath.UNKNOWN;
    private int drSlid;
    private int drDlid;
    private byte[] drPath;

    /** A builder of a path made by {@code factory}, starting from {@code values}, which it takes over. */
    PathBuilder(boolean directedRoute, Function<PathBuilder<P>, P> factory, PathValues values) {
        this.directedRoute = directedRoute;
        this.factory = factory;
        this.values = values;
    }

    /** A copy of the values, for a path to keep. */
    PathValues values() {
        return values.copy();
    }

    /** Remembers indexes known from the tables of the end port, or {@link IBPath#UNKNOWN}. */
    IBPath.Builder<P> knownIndexes(int pkeyIndex, int sgidIndex) {
        this.pkeyIndex = pkeyIndex;
        this.sgidIndex = sgidIndex;
        return self();
    }

    IBPath.Builder<P> route(int drSlid, int drDlid, byte[] drPath) {
        this.drSlid = drSlid;
        this.drDlid = drDlid;
        this.drPath = drPath.clone();
        return self();
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

    int sgidIndex() {
        return sgidIndex;
    }

    /** Swaps the source and destination attributes, IBA 13.5.4; see {@link IBPath#reverse(boolean)}. */
    void reverse(boolean forReply) {
        values.reverse(forReply);
        sgidIndex = IBPath.UNKNOWN;
    }

    /** This builder as what it is, the only kind there is. */
    private IBPath.Builder<P> self() {
        return (IBPath.Builder<P>) this;
    }

    /** Sets the end port; null for none. Forgets indexes found in the previous end port's tables. */
    public IBPath.Builder<P> endPort(EndPort endPort) {
        values.endPort = endPort;
        pkeyIndex = IBPath.UNKNOWN;
        sgidIndex = IBPath.UNKNOWN;
        return self();
    }

    /** Sets retries, 0 to 255. */
    public IBPath.Builder<P> retries(int retries) {
        values.retries = check("retries", retries, 0xFF);
        return self();
    }

    /** Sets DLID, 0 to 0xFFFF. */
    public IBPath.Builder<P> dlid(int dlid) {
        values.dlid = check("DLID", dlid, 0xFFFF);
        return self();
    }

    /** Sets SLID, 0 to 0xFFFF. */
    public IBPath.Builder<P> slid(int slid) {
        values.slid = check("SLID", slid, 0xFFFF);
        return self();
    }

    /** Sets SL, 0 to 15. */
    public IBPath.Builder<P> sl(int sl) {
        values.sl = check("SL", sl, 15);
        return self();
    }

    /** Sets pkey, 0 to 0xFFFF. */
    public IBPath.Builder<P> pkey(int pkey) {
        values.pkey = check("pkey", pkey, 0xFFFF);
        pkeyIndex = IBPath.UNKNOWN;
        return self();
    }

    /**
     * Sets pkey to entry {@code index} of the end port's P_Key table, and remembers the index.
     *
     * @throws IllegalStateException    if no end port is set
     * @throws IllegalArgumentException if the table has no such entry
     */
    public IBPath.Builder<P> pkeyIndex(int index) {
        List<Integer> pkeys = requireEndPort("pkey_index").pkeys();
        checkIndex("pkey_index", index, pkeys.size());
        values.pkey = pkeys.get(index);
        pkeyIndex = index;
        return self();
    }

    /**
     * Sets has_grh.
     *
     * @throws IllegalStateException if set true on a directed-route path, which has no GRH
     */
    public IBPath.Builder<P> hasGrh(boolean hasGrh) {
        if (hasGrh && directedRoute) {
            throw new IllegalStateException("has_grh: GID addressing is not possible for DR paths");
        }
        values.hasGrh = hasGrh;
        return self();
    }

    /** Sets SGID; null for none. */
    public IBPath.Builder<P> sgid(Gid sgid) {
        values.sgid = sgid;
        sgidIndex = IBPath.UNKNOWN;
        return self();
    }

    /**
     * Sets SGID to entry {@code index} of the end port's GID table, and remembers the index.
     *
     * @throws IllegalStateException    if no end port is set, or on a directed-route path
     * @throws IllegalArgumentException if the table has no such entry
     */
    public IBPath.Builder<P> sgidIndex(int index) {
        if (directedRoute) {
            throw new IllegalStateException("SGID_index: GID addressing is not possible for DR paths");
        }
        List<Gid> gids = requireEndPort("SGID_index").gids();
        checkIndex("SGID_index", index, gids.size());
        values.sgid = gids.get(index);
        sgidIndex = index;
        return self();
    }

    /** Sets DGID; null for none. */
    public IBPath.Builder<P> dgid(Gid dgid) {
        values.dgid = dgid;
        return self();
    }

    /** Sets hop_limit, 0 to 255. */
    public IBPath.Builder<P> hopLimit(int hopLimit) {
        values.hopLimit = check("hop_limit", hopLimit, 0xFF);
        return self();
    }

    /** Sets traffic_class, 0 to 255. */
    public IBPath.Builder<P> trafficClass(int trafficClass) {
        values.trafficClass = check("traffic_class", trafficClass, 0xFF);
        return self();
    }

    /** Sets flow_label, 0 to 0xFFFFF. */
    public IBPath.Builder<P> flowLabel(int flowLabel) {
        values.flowLabel = check("flow_label", flowLabel, 0xF_FFFF);
        return self();
    }

    /** Sets dqpn, 0 to 0xFFFFFF; null for none. */
    public IBPath.Builder<P> dqpn(Integer dqpn) {
        values.dqpn = checkOptional("dqpn", dqpn, 0xFF_FFFF);
        return self();
    }

    /** Sets sqpn, 0 to 0xFFFFFF; null for none. */
    public IBPath.Builder<P> sqpn(Integer sqpn) {
        values.sqpn = checkOptional("sqpn", sqpn, 0xFF_FFFF);
        return self();
    }

    /** Sets qkey, any 32 bits (read as an unsigned number in text); null for none. */
    public IBPath.Builder<P> qkey(Integer qkey) {
        values.qkey = qkey;
        return self();
    }

    /** Sets MTU. */
    public IBPath.Builder<P> mtu(Mtu mtu) {
        values.mtu = Objects.requireNonNull(mtu, "MTU");
        return self();
    }

    /** Sets rate. */
    public IBPath.Builder<P> rate(StaticRate rate) {
        values.rate = Objects.requireNonNull(rate, "rate");
        return self();
    }

    /** Sets umad_agent_id, 0 to 2<sup>31</sup>-1; null for none. */
    public IBPath.Builder<P> umadAgentId(Integer umadAgentId) {
        values.umadAgentId = checkOptional("umad_agent_id", umadAgentId, Integer.MAX_VALUE);
        return self();
    }

    /** Sets resp_time, 0 to 31. */
    public IBPath.Builder<P> respTime(int respTime) {
        values.respTime = check("resp_time", respTime, 31);
        return self();
    }

    /** Sets packet_life_time, 0 to 63; null to use the end port's subnet timeout. */
    public IBPath.Builder<P> packetLifeTime(Integer packetLifeTime) {
        values.packetLifeTime = checkOptional("packet_life_time", packetLifeTime, 63);
        return self();
    }

    /** Sets min_rnr_timer, 0 to 31. */
    public IBPath.Builder<P> minRnrTimer(int minRnrTimer) {
        values.minRnrTimer = check("min_rnr_timer", minRnrTimer, 31);
        return self();
    }

    /** Sets dack_resp_time, 0 to 31. */
    public IBPath.Builder<P> dackRespTime(int dackRespTime) {
        values.dackRespTime = check("dack_resp_time", dackRespTime, 31);
        return self();
    }

    /** Sets sack_resp_time, 0 to 31. */
    public IBPath.Builder<P> sackRespTime(int sackRespTime) {
        values.sackRespTime = check("sack_resp_time", sackRespTime, 31);
        return self();
    }

    /** Sets dqpsn, 0 to 0xFFFFFF. */
    public IBPath.Builder<P> dqpsn(int dqpsn) {
        values.dqpsn = check("dqpsn", dqpsn, 0xFF_FFFF);
        return self();
    }

    /** Sets sqpsn, 0 to 0xFFFFFF. */
    public IBPath.Builder<P> sqpsn(int sqpsn) {
        values.sqpsn = check("sqpsn", sqpsn, 0xFF_FFFF);
        return self();
    }

    /** Sets drdatomic, 0 to 255. */
    public IBPath.Builder<P> drdatomic(int drdatomic) {
        values.drdatomic = check("drdatomic", drdatomic, 0xFF);
        return self();
    }

    /** Sets srdatomic, 0 to 255. */
    public IBPath.Builder<P> srdatomic(int srdatomic) {
        values.srdatomic = check("srdatomic", srdatomic, 0xFF);
        return self();
    }

    /** Sets MKey, any 64 bits. */
    public IBPath.Builder<P> mKey(long mKey) {
        values.mKey = mKey;
        return self();
    }

    /** Sets SMKey, any 64 bits. */
    public IBPath.Builder<P> smKey(long smKey) {
        values.smKey = smKey;
        return self();
    }

    /**
     * Sets SLID to the end port's base LID with path bits {@code bits} (0 to 127) or'ed in,
     * python-rdma's {@code SLID_bits} assignment.
     *
     * @throws IllegalStateException if no end port is set
     */
    public IBPath.Builder<P> slidBits(int bits) {
        return slid(requireEndPort("SLID_bits").lid() | check("SLID_bits", bits, 0x7F));
    }

    /**
     * Sets DLID to the end port's base LID with path bits {@code bits} (0 to 127) or'ed in,
     * python-rdma's {@code DLID_bits} assignment (for paths back to the local port).
     *
     * @throws IllegalStateException if no end port is set
     */
    public IBPath.Builder<P> dlidBits(int bits) {
        return dlid(requireEndPort("DLID_bits").lid() | check("DLID_bits", bits, 0x7F));
    }

    /**
     * Sets drSLID, 0 to 0xFFFF: SMPFormatDirected:DrSLID.
     *
     * @throws IllegalStateException on a builder of an IB path that is not directed-route
     */
    public IBPath.Builder<P> drSlid(int drSlid) {
        requireDirectedRoute("drSLID");
        this.drSlid = check("drSLID", drSlid, 0xFFFF);
        return self();
    }

    /**
     * Sets drDLID, 0 to 0xFFFF: SMPFormatDirected:DrDLID.
     *
     * @throws IllegalStateException on a builder of an IB path that is not directed-route
     */
    public IBPath.Builder<P> drDlid(int drDlid) {
        requireDirectedRoute("drDLID");
        this.drDlid = check("drDLID", drDlid, 0xFFFF);
        return self();
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
    public IBPath.Builder<P> drPath(int... ports) {
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
            if (ports[i] < 0 || ports[i] > EndPort.MAX_PORT_NUMBER) {
                check("drPath entry " + i, ports[i], EndPort.MAX_PORT_NUMBER); // the name is made only to fail: this runs per SMP
            }
            path[i] = (byte) ports[i];
        }
        this.drPath = path;
        return self();
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
        if (values.endPort == null) {
            throw new IllegalStateException(what + " needs an end port; none is set");
        }
        return values.endPort;
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
                    + " entries of the table of " + values.endPort);
        }
    }
}

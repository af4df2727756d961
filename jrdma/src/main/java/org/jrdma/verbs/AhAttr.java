package org.jrdma.verbs;

import java.util.Objects;
import org.jrdma.devices.EndPort;
import org.jrdma.iba.Gid;
import org.jrdma.path.IBPath;
import org.jrdma.verbs.ffi.IbvAhAttr;

/**
 * An address vector, {@code struct ibv_ah_attr} with its {@code struct ibv_global_route}
 * (IBA 11.2.2.1): where packets go, for {@link Pd#ah} and for a connected queue pair's
 * {@link QpAttr#ahAttr}. A mutable builder: setters check ranges and return {@code this}.
 *
 * <p>On RoCE (soft-RoCE included) every address needs a GRH: {@link #grh} with the destination
 * GID and the index of the local GID to send from.
 *
 * <p>{@link #fromPath} makes the address vector of an {@link IBPath}, as python-rdma uses a path
 * wherever an {@code ah_attr} goes.
 */
public final class AhAttr {
    private Gid dgid = new Gid(0, 0);
    private int flowLabel;
    private int sgidIndex;
    private int hopLimit;
    private int trafficClass;
    private int dlid;
    private int sl;
    private int srcPathBits;
    private int staticRate;
    private boolean isGlobal;
    private int portNum;

    /** An all-zero address vector. */
    public AhAttr() {
    }

    /**
     * The address vector of {@code path}, by the seed's table (python-rdma "Verbs and IBPath"):
     * <table>
     *   <caption>IBPath attribute, {@code ibv_ah_attr} field</caption>
     *   <tr><th>path</th><th>ah_attr</th></tr>
     *   <tr><td>has_grh</td><td>is_global</td></tr>
     *   <tr><td>DGID</td><td>grh.dgid (when the path has one)</td></tr>
     *   <tr><td>SGID</td><td>grh.sgid_index: its index in the end port's GID table (with a GRH)</td></tr>
     *   <tr><td>flow_label</td><td>grh.flow_label</td></tr>
     *   <tr><td>hop_limit</td><td>grh.hop_limit</td></tr>
     *   <tr><td>traffic_class</td><td>grh.traffic_class</td></tr>
     *   <tr><td>DLID</td><td>dlid</td></tr>
     *   <tr><td>SLID</td><td>src_path_bits: SLID_bits, the path bits under the port's LMC</td></tr>
     *   <tr><td>SL</td><td>sl</td></tr>
     *   <tr><td>rate</td><td>static_rate ({@code enum ibv_rate} numbers are IBA's rate codes)</td></tr>
     *   <tr><td>end_port.port_id</td><td>port_num</td></tr>
     * </table>
     *
     * @throws IllegalStateException       if the path has no end port, or has a GRH but no SGID
     * @throws org.jrdma.RdmaException     if the SGID is not in the end port's GID table
     */
    public static AhAttr fromPath(IBPath path) {
        EndPort endPort = path.endPort().orElseThrow(
                () -> new IllegalStateException("an address vector needs the path's end port; none in " + path));
        AhAttr attr = new AhAttr().isGlobal(path.hasGrh()).flowLabel(path.flowLabel()).hopLimit(path.hopLimit())
                .trafficClass(path.trafficClass()).dlid(path.dlid()).srcPathBits(path.slidBits()).sl(path.sl())
                .staticRate(path.rate().value()).portNum(endPort.portNumber());
        path.dgid().ifPresent(attr::dgid);
        if (path.hasGrh()) {
            attr.sgidIndex(path.sgidIndex());
        }
        return attr;
    }

    /**
     * Sets the global route: {@code is_global = 1}, {@code grh.dgid}, {@code grh.sgid_index} and
     * {@code grh.hop_limit}.
     *
     * @throws IllegalArgumentException if {@code sgidIndex} or {@code hopLimit} exceed 8 bits
     */
    public AhAttr grh(Gid dgid, int sgidIndex, int hopLimit) {
        this.dgid = Objects.requireNonNull(dgid, "dgid");
        this.sgidIndex = Args.unsigned("grh.sgid_index", sgidIndex, 8);
        this.hopLimit = Args.unsigned("grh.hop_limit", hopLimit, 8);
        this.isGlobal = true;
        return this;
    }

    /** {@code is_global}: whether packets carry a GRH. */
    public boolean isGlobal() {
        return isGlobal;
    }

    /** Sets {@code is_global}. */
    public AhAttr isGlobal(boolean value) {
        this.isGlobal = value;
        return this;
    }

    /** {@code grh.dgid}: the destination GID. */
    public Gid dgid() {
        return dgid;
    }

    /** Sets {@code grh.dgid}. */
    public AhAttr dgid(Gid value) {
        this.dgid = Objects.requireNonNull(value, "dgid");
        return this;
    }

    /** {@code grh.flow_label}, 20 bits. */
    public int flowLabel() {
        return flowLabel;
    }

    /** Sets {@code grh.flow_label}. */
    public AhAttr flowLabel(int value) {
        this.flowLabel = Args.unsigned("grh.flow_label", value, 20);
        return this;
    }

    /** {@code grh.sgid_index}: the local GID table entry to send from. */
    public int sgidIndex() {
        return sgidIndex;
    }

    /** Sets {@code grh.sgid_index}. */
    public AhAttr sgidIndex(int value) {
        this.sgidIndex = Args.unsigned("grh.sgid_index", value, 8);
        return this;
    }

    /** {@code grh.hop_limit}. */
    public int hopLimit() {
        return hopLimit;
    }

    /** Sets {@code grh.hop_limit}. */
    public AhAttr hopLimit(int value) {
        this.hopLimit = Args.unsigned("grh.hop_limit", value, 8);
        return this;
    }

    /** {@code grh.traffic_class}. */
    public int trafficClass() {
        return trafficClass;
    }

    /** Sets {@code grh.traffic_class}. */
    public AhAttr trafficClass(int value) {
        this.trafficClass = Args.unsigned("grh.traffic_class", value, 8);
        return this;
    }

    /** {@code dlid}: the destination LID. */
    public int dlid() {
        return dlid;
    }

    /** Sets {@code dlid}. */
    public AhAttr dlid(int value) {
        this.dlid = Args.unsigned("dlid", value, 16);
        return this;
    }

    /** {@code sl}: the service level, 4 bits. */
    public int sl() {
        return sl;
    }

    /** Sets {@code sl}. */
    public AhAttr sl(int value) {
        this.sl = Args.unsigned("sl", value, 4);
        return this;
    }

    /** {@code src_path_bits}: the low bits of the source LID (under the port's LMC). */
    public int srcPathBits() {
        return srcPathBits;
    }

    /** Sets {@code src_path_bits}. */
    public AhAttr srcPathBits(int value) {
        this.srcPathBits = Args.unsigned("src_path_bits", value, 7);
        return this;
    }

    /** {@code static_rate}: {@code enum ibv_rate} ({@link org.jrdma.iba.StaticRate}), 0 for the port rate. */
    public int staticRate() {
        return staticRate;
    }

    /** Sets {@code static_rate}. */
    public AhAttr staticRate(int value) {
        this.staticRate = Args.unsigned("static_rate", value, 8);
        return this;
    }

    /** {@code port_num}: the local port, from 1. */
    public int portNum() {
        return portNum;
    }

    /** Sets {@code port_num}. */
    public AhAttr portNum(int value) {
        this.portNum = Args.unsigned("port_num", value, 8);
        return this;
    }

    @Override
    public String toString() {
        return "AhAttr[dlid=" + dlid + ", sl=" + sl + ", srcPathBits=" + srcPathBits + ", staticRate=" + staticRate
                + ", portNum=" + portNum + (isGlobal ? ", dgid=" + dgid + ", sgidIndex=" + sgidIndex + ", hopLimit="
                + hopLimit + ", flowLabel=" + flowLabel + ", trafficClass=" + trafficClass : "") + "]";
    }

    /** The address vector libibverbs reported in a {@code struct ibv_ah_attr}. */
    static AhAttr of(IbvAhAttr raw) {
        return new AhAttr()
                .dgid(raw.dgid())
                .flowLabel(raw.flowLabel())
                .sgidIndex(raw.sgidIndex())
                .hopLimit(raw.hopLimit())
                .trafficClass(raw.trafficClass())
                .dlid(raw.dlid())
                .sl(raw.sl())
                .srcPathBits(raw.srcPathBits())
                .staticRate(raw.staticRate())
                .isGlobal(raw.isGlobal())
                .portNum(raw.portNum());
    }

    /** This address vector as a {@code struct ibv_ah_attr}. */
    IbvAhAttr toIbv() {
        return new IbvAhAttr(dgid, flowLabel, sgidIndex, hopLimit, trafficClass, dlid, sl, srcPathBits, staticRate,
                isGlobal, portNum);
    }
}

package org.jrdma.path;

import java.util.Arrays;
import java.util.Objects;
import java.util.function.Consumer;
import org.jrdma.devices.EndPort;
import org.jrdma.iba.Iba;
import org.jrdma.iba.Lid;

/**
 * A directed-route path (IBA 14.2.2): a subnet management packet on QP0 and VL15 that finds its
 * way by a list of output port numbers rather than by LIDs, so it reaches nodes before the subnet
 * manager has assigned any; python-rdma's {@code rdma.path.IBDRPath}. On top of an {@link IBPath}
 * it holds the fields of SMPFormatDirected: {@link #drSlid()} ({@code drSLID}), {@link #drDlid()}
 * ({@code drDLID}) and {@link #drPath()} ({@code drPath}, the InitialPath, whose length less one
 * is the hop count).
 *
 * <p>By default it is the directed route to the local port: DLID and SLID permissive (0xFFFF),
 * drSLID and drDLID permissive, drPath {@code [0]}, QP0 to QP0 with Q_Key 0. A directed-route path
 * has no GRH: {@link #hasGrh()} is always false and {@link #sgidIndex()} throws. A route may start
 * or end LID-routed (IBA 14.2.2.1): DLID and drSLID for the first part, drDLID for the last.
 */
public final class IBDRPath extends IBPath {
    /** The most hops a directed route can take: HopCount is 6 bits and InitialPath 64 bytes. */
    public static final int MAX_HOPS = 63;

    /** The Q_Key of QP0, python-rdma's {@code IB_DEFAULT_QP0_QKEY}. */
    private static final int QP0_QKEY = 0;

    private static final byte[] LOCAL = {0};

    private final int drSlid;
    private final int drDlid;
    private final byte[] drPath;

    private IBDRPath(PathBuilder<IBDRPath> builder) {
        super(builder.values(), builder.pkeyIndex(), UNKNOWN);
        this.drSlid = builder.drSlid();
        this.drDlid = builder.drDlid();
        this.drPath = builder.drPath();
    }

    /**
     * A builder of the directed route to the local port from {@code endPort} (null for none);
     * set {@link Builder#drPath} for another node.
     */
    public static Builder<IBDRPath> builder(EndPort endPort) {
        return new Builder<IBDRPath>(true, IBDRPath::new, new PathValues()).dlid(Lid.PERMISSIVE)
                .slid(Lid.PERMISSIVE).dqpn(Iba.QP0).sqpn(Iba.QP0).qkey(QP0_QKEY)
                .route(Lid.PERMISSIVE, Lid.PERMISSIVE, LOCAL).endPort(endPort);
    }

    @Override
    String specName() {
        return "IBDRPath";
    }

    /** SMPFormatDirected:DrSLID: the LID the LID-routed first part starts from, or permissive. */
    public int drSlid() {
        return drSlid;
    }

    /** SMPFormatDirected:DrDLID: the LID the LID-routed last part goes to, or permissive. */
    public int drDlid() {
        return drDlid;
    }

    /**
     * SMPFormatDirected:InitialPath, a copy: entry 0 is 0, entry <i>i</i> the output port of hop
     * <i>i</i>.
     */
    public byte[] drPath() {
        return drPath.clone();
    }

    /** The number of hops, SMPFormatDirected:HopCount: the length of {@link #drPath()} less one. */
    public int hopCount() {
        return drPath.length - 1;
    }

    /**
     * Never returns: GID addressing is not possible for directed-route paths.
     *
     * @throws UnsupportedOperationException always
     */
    @Override
    public int sgidIndex() {
        throw new UnsupportedOperationException("SGID_index: GID addressing is not possible for DR paths");
    }

    /** True if the path has an end port: a directed route needs nothing else. */
    @Override
    public boolean complete() {
        return endPort().isPresent();
    }

    @Override
    public Builder<IBDRPath> toBuilder() {
        return new Builder<IBDRPath>(true, IBDRPath::new, values().copy()).route(drSlid, drDlid, drPath)
                .knownIndexes(knownPkeyIndex(), UNKNOWN);
    }

    @Override
    public IBDRPath copy(Consumer<Builder<?>> overrides) {
        Builder<IBDRPath> builder = toBuilder();
        overrides.accept(builder);
        return builder.build();
    }

    /**
     * This path reversed as {@link IBPath#reverse(boolean)} does; the route fields stay, since a
     * directed-route response retraces the request's route by its direction bit (IBA 14.2.2.2).
     */
    @Override
    public IBDRPath reverse(boolean forReply) {
        Builder<IBDRPath> builder = toBuilder();
        builder.reverse(forReply);
        return builder.build();
    }

    @Override
    public IBDRPath reverse() {
        return reverse(true);
    }

    @Override
    boolean sameRoute(IBPath other) {
        return other instanceof IBDRPath dr && drSlid == dr.drSlid && drDlid == dr.drDlid
                && Arrays.equals(drPath, dr.drPath);
    }

    @Override
    public int hashCode() {
        return 31 * super.hashCode() + Objects.hash(drSlid, drDlid, Arrays.hashCode(drPath));
    }
}

package org.jrdma.mad;

import org.jrdma.devices.EndPort;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Guid;
import org.jrdma.iba.Iba;
import org.jrdma.iba.Mad;
import org.jrdma.iba.Mtu;
import org.jrdma.iba.StaticRate;
import org.jrdma.iba.sa.SaPathRecord;
import org.jrdma.path.IBDRPath;
import org.jrdma.path.IBPath;
import org.jrdma.path.Path;

/**
 * Paths from the subnet administrator's PathRecords (IBA 15.2.5.16), python-rdma's
 * {@code rdma.path.resolve_path} and {@code get_mad_path}: a path with only a destination (a DLID
 * or a DGID) becomes a complete path, with both LIDs and GIDs, SL, P_Key, MTU, rate, packet
 * lifetime and the GRH fields the SA chose.
 */
public final class PathResolver {
    private PathResolver() {
    }

    /**
     * The path {@code path} describes, completed from the SA's PathRecord: a SubnAdmGet, on the
     * transactor's {@linkplain MadTransactor#saPath() SA path}, of the record from the path's SGID
     * (the end port's default GID when it has none) to its DGID, or its DLID when it has no DGID;
     * with {@code reversible} the record must be usable both ways (a reply can go back on it, as UD
     * and MAD traffic needs). The result has the path's end port, else the transactor's.
     *
     * @throws SaPathNotFoundException if the SA has no record (status No Records or Invalid GID)
     * @throws MadException            if the query failed otherwise
     * @throws IllegalArgumentException if the path has neither DLID nor DGID
     * @throws IllegalStateException    if neither the path nor the transactor knows the end port
     */
    public static IBPath resolvePath(MadTransactor transactor, IBPath path, boolean reversible) {
        return resolvePath(transactor, path, reversible, PathProperties.NONE);
    }

    /**
     * {@link #resolvePath(MadTransactor, IBPath, boolean)} asking the SA also for the components
     * {@code properties} gives (P_Key, SL, MTU, rate, ...), python-rdma's
     * {@code resolve_path(mad, path, reversible, properties)}: the query's ComponentMask has the
     * addresses, Reversible when asked, and each property given.
     *
     * @throws SaPathNotFoundException if the SA has no record matching them all
     */
    public static IBPath resolvePath(MadTransactor transactor, IBPath path, boolean reversible, PathProperties properties) {
        EndPort endPort = path.endPort().or(transactor::endPort)
                .orElseThrow(() -> new IllegalStateException("resolving a path needs an end port: " + path));
        SaPathRecord query = new SaPathRecord().sgid(path.sgid().orElseGet(endPort::defaultGid));
        long mask = SaPathRecord.SGID_COMPONENT_MASK;
        if (path.dgid().isPresent()) {
            query.dgid(path.dgid().get());
            mask |= SaPathRecord.DGID_COMPONENT_MASK;
        } else if (path.dlid() != 0) {
            query.dlid(path.dlid());
            mask |= SaPathRecord.DLID_COMPONENT_MASK;
        } else {
            throw new IllegalArgumentException("a path to resolve needs a DLID or a DGID: " + path);
        }
        if (reversible) {
            query.reversible(1);
            mask |= SaPathRecord.REVERSIBLE_COMPONENT_MASK;
        }
        mask |= properties.applyTo(query);
        SaPathRecord record;
        try {
            record = transactor.subnAdmGet(query, mask);
        } catch (MadClassException e) {
            int code = e.status().orElse(0) & Mad.STATUS_CLASS_MASK;
            if (code == Mad.STATUS_SA_NO_RECORDS || code == Mad.STATUS_SA_INVALID_GID) {
                throw new SaPathNotFoundException("Failed getting path record for path " + path, e.status().getAsInt(),
                        new MadException.Exchange(e.request().orElse(null), e.reply().orElse(null), e.path().orElse(null)));
            }
            throw e;
        }
        return fill(path, endPort, record);
    }

    /**
     * A reversible path to QP1 at {@code dgid} for GMPs, from the SA: {@link #resolvePath} with the
     * GSI's QP numbers and well-known Q_Key.
     */
    public static IBPath getMadPath(MadTransactor transactor, Gid dgid) {
        return madPath(transactor, IBPath.builder(endPort(transactor)).dgid(dgid).build());
    }

    /** A reversible path to QP1 at {@code dlid} for GMPs, from the SA. */
    public static IBPath getMadPath(MadTransactor transactor, int dlid) {
        return madPath(transactor, IBPath.builder(endPort(transactor)).dlid(dlid).build());
    }

    /**
     * A reversible path to QP1 at port GUID {@code portGuid} for GMPs, from the SA: the DGID is the
     * GUID under the default subnet prefix fe80::/64, as {@link Path#fromString} reads a port GUID.
     */
    public static IBPath getMadPath(MadTransactor transactor, Guid portGuid) {
        return getMadPath(transactor, Gid.of(portGuid));
    }

    /**
     * A reversible path to QP1 at the end port {@code address} names, for GMPs, from the SA:
     * python-rdma's {@code get_mad_path(mad, "...")}, the address read by {@link Path#fromString}
     * (a GID, a port GUID, a LID in decimal or hex, or a path spec; the transactor's end port
     * unless a scope names another).
     *
     * @throws IllegalArgumentException if the text is no address, or a directed route (which the SA cannot resolve)
     */
    public static IBPath getMadPath(MadTransactor transactor, String address) {
        IBPath destination = Path.fromString(address, endPort(transactor));
        if (destination instanceof IBDRPath) {
            throw new IllegalArgumentException("a directed route has no path record at the SA: " + address);
        }
        return madPath(transactor, destination);
    }

    private static IBPath madPath(MadTransactor transactor, IBPath destination) {
        return resolvePath(transactor, destination, true)
                .copy(b -> b.dqpn(Iba.QP1).sqpn(Iba.QP1).qkey(Iba.IB_DEFAULT_QP1_QKEY));
    }

    private static EndPort endPort(MadTransactor transactor) {
        return transactor.endPort().orElseThrow(() -> new IllegalStateException("a MAD path needs the transactor's end port"));
    }

    /** {@code path} with the record's values, as python-rdma fills them; a GRH when the record's HopLimit is above 1. */
    private static IBPath fill(IBPath path, EndPort endPort, SaPathRecord record) {
        Mtu mtu = Mtu.fromValueOrNull(record.mtu());
        StaticRate rate = StaticRate.fromValueOrNull(record.rate());
        if (mtu == null || rate == null) {
            throw new MadException("the SA's path record for " + path + " has MTU code " + record.mtu() + " and rate code "
                    + record.rate() + ", not both valid");
        }
        return path.copy(b -> b.endPort(endPort).dgid(record.dgid()).sgid(record.sgid()).dlid(record.dlid())
                .slid(record.slid()).flowLabel(record.flowLabel()).hopLimit(record.hopLimit()).trafficClass(record.tClass())
                .pkey(record.pKey()).sl(record.sl()).mtu(mtu).rate(rate).hasGrh(record.hopLimit() > 1)
                .packetLifeTime(record.packetLifeTime()));
    }
}

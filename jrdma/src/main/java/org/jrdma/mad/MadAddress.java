package org.jrdma.mad;

import org.jrdma.devices.EndPort;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Iba;
import org.jrdma.iba.Mad;
import org.jrdma.path.IBDRPath;
import org.jrdma.path.IBPath;
import org.jrdma.path.LazyIBPath;

/**
 * Where a MAD goes or came from: the UD address fields a MAD transport needs (IBA 13.5.1,
 * {@code struct ib_mad_addr} of umad). The GID is null when there is no GRH.
 *
 * @param lid       the destination (or source) LID; 0xFFFF, the permissive LID, for directed-route SMPs
 * @param qpn       the QP number (0 for SMPs, 1 for GMPs, or a redirected QP)
 * @param qkey      the Q_Key (0 for QP0, {@code 0x80010000} for QP1)
 * @param sl        the service level
 * @param pkeyIndex the P_Key table index to send with
 * @param gid       the GID for a GRH, or null
 * @param agentId   the umad agent to send through, overriding the one the transport picks for
 *                  the MAD's class (the path's {@link IBPath#umadAgentId()}, python-rdma's
 *                  {@code umad_agent_id}); -1 for none. Only {@code UmadTransport} reads it.
 */
public record MadAddress(int lid, int qpn, int qkey, int sl, int pkeyIndex, Gid gid, int agentId) {
    /** The permissive LID directed-route SMPs are sent to (IBA 14.2.2). */
    public static final int PERMISSIVE_LID = 0xFFFF;

    public MadAddress {
        if (lid < 0 || lid > 0xFFFF) {
            throw new IllegalArgumentException("LID " + lid + " outside 0..0xFFFF");
        }
        if (qpn < 0 || qpn > 0xFFFFFF) {
            throw new IllegalArgumentException("QP number " + qpn + " outside 0..0xFFFFFF");
        }
        if (sl < 0 || sl > 15) {
            throw new IllegalArgumentException("SL " + sl + " outside 0..15");
        }
        if (agentId < -1) {
            throw new IllegalArgumentException("umad agent " + agentId + " is negative");
        }
    }

    /** An address without an agent override. */
    public MadAddress(int lid, int qpn, int qkey, int sl, int pkeyIndex, Gid gid) {
        this(lid, qpn, qkey, sl, pkeyIndex, gid, -1);
    }

    /** QP0 at a LID, as SMPs are addressed. */
    public static MadAddress smp(int lid) {
        return new MadAddress(lid, 0, 0, 0, 0, null);
    }

    /** QP1 at a LID with the well-known GSI Q_Key, as GMPs are addressed. */
    public static MadAddress gmp(int lid) {
        return new MadAddress(lid, 1, Iba.IB_DEFAULT_QP1_QKEY, 0, 0, null);
    }

    /** True for the subnet management classes, whose MADs travel between QP0s (IBA 13.5.1). */
    static boolean isSmp(int mgmtClass) {
        return mgmtClass == Mad.CLASS_SUBN_LID_ROUTED || mgmtClass == Mad.CLASS_SUBN_DIRECTED_ROUTE;
    }

    /**
     * The address a MAD of {@code mgmtClass} goes to on {@code path} (IBA 13.5.1). An SMP goes to
     * QP0 of the path's DLID (the permissive LID of a directed route by default) with Q_Key 0 and
     * P_Key index 0, whatever the path's QP fields say. A GMP goes to the path's DLID and SL, its
     * destination QP (QP1 when the path has none) and Q_Key (the GSI's well-known one when none),
     * its P_Key's index in the end port's table (index 0, where IBA C10-116 puts the default P_Key,
     * when the path has no end port and the default P_Key), and its DGID when it has a GRH. Either
     * carries the path's umad agent, if it names one.
     *
     * @throws IllegalArgumentException if a GMP is sent on a directed-route path or to QP0, or the
     *                                  path has a GRH without a DGID, or a P_Key other than the default without an end port
     */
    public static MadAddress forPath(IBPath path, int mgmtClass) {
        if (isSmp(mgmtClass)) {
            return new MadAddress(path.dlid(), 0, 0, 0, 0, null, path.umadAgentId().orElse(-1));
        }
        if (path instanceof IBDRPath) {
            throw new IllegalArgumentException("A directed-route path carries SMPs only, not class 0x"
                    + Integer.toHexString(mgmtClass) + ": " + path);
        }
        int qpn = path.dqpn().orElse(Iba.QP1);
        if (qpn == Iba.QP0) {
            throw new IllegalArgumentException("QP0 accepts SMPs only, not class 0x" + Integer.toHexString(mgmtClass) + ": " + path);
        }
        Gid gid = null;
        if (path.hasGrh()) {
            gid = path.dgid().orElseThrow(() -> new IllegalArgumentException("The path has a GRH but no DGID: " + path));
        }
        return new MadAddress(path.dlid(), qpn, path.qkey().orElse(Iba.IB_DEFAULT_QP1_QKEY), path.sl(), pkeyIndex(path), gid,
                path.umadAgentId().orElse(-1));
    }

    private static int pkeyIndex(IBPath path) {
        if (path.endPort().isPresent()) {
            return path.pkeyIndex();
        }
        if (path.pkey() == Iba.DEFAULT_PKEY || path.pkey() == Iba.PKEY_PARTIAL_DEFAULT) {
            return 0;
        }
        throw new IllegalArgumentException(String.format("P_Key 0x%04x needs an end port to find its index: %s", path.pkey(), path));
    }

    /**
     * The path a MAD of {@code mgmtClass} from this address arrived on at {@code endPort} (null if
     * unknown), with received semantics (IBA 13.5.4): SLID, SQPN and SGID are the sender's, DLID,
     * DQPN and DGID this port's; the P_Key is entry {@link #pkeyIndex} of the port's table. Decoded
     * when first used ({@link LazyIBPath}); {@code reverse()} of it is the path to reply on.
     */
    public IBPath receivedPath(EndPort endPort, int mgmtClass) {
        return new LazyIBPath(() -> {
            var b = IBPath.builder(endPort).slid(lid).sl(sl).sqpn(qpn).dqpn(isSmp(mgmtClass) ? Iba.QP0 : Iba.QP1).qkey(qkey);
            if (endPort != null) {
                b.dlid(endPort.lid());
                if (pkeyIndex < endPort.pkeys().size()) {
                    b.pkeyIndex(pkeyIndex);
                }
            }
            if (gid != null) {
                b.hasGrh(true).sgid(gid);
                if (endPort != null && !endPort.gids().isEmpty()) {
                    b.dgid(endPort.defaultGid());
                }
            }
            return b.build();
        });
    }
}

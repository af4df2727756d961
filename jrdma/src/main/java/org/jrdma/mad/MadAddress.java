package org.jrdma.mad;

import org.jrdma.iba.Gid;

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
 */
public record MadAddress(int lid, int qpn, int qkey, int sl, int pkeyIndex, Gid gid) {
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
    }

    /** QP0 at a LID, as SMPs are addressed. */
    public static MadAddress smp(int lid) {
        return new MadAddress(lid, 0, 0, 0, 0, null);
    }

    /** QP1 at a LID with the well-known GSI Q_Key, as GMPs are addressed. */
    public static MadAddress gmp(int lid) {
        return new MadAddress(lid, 1, org.jrdma.iba.Iba.IB_DEFAULT_QP1_QKEY, 0, 0, null);
    }
}

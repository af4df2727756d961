package org.jrdma.verbs;

import org.jrdma.iba.Gid;
import org.jrdma.verbs.ffi.IbvContextEx;

/**
 * An entry of a port's GID table with its type and network device, {@code struct ibv_gid_entry}
 * ({@code ibv_query_gid_ex}, {@code ibv_query_gid_table}).
 *
 * @param gid         the GID
 * @param gidIndex    its index in the port's table
 * @param portNum     the port
 * @param gidType     {@code enum ibv_gid_type}: {@link #IB}, {@link #ROCE_V1}, {@link #ROCE_V2}
 * @param ndevIfindex the interface index of the network device the GID belongs to (RoCE), 0 for none
 */
public record GidEntry(Gid gid, int gidIndex, int portNum, int gidType, int ndevIfindex) {
    /** {@code IBV_GID_TYPE_IB}. */
    public static final int IB = 0;
    /** {@code IBV_GID_TYPE_ROCE_V1}. */
    public static final int ROCE_V1 = 1;
    /** {@code IBV_GID_TYPE_ROCE_V2}. */
    public static final int ROCE_V2 = 2;

    static GidEntry of(IbvContextEx.GidEntry e) {
        return new GidEntry(e.gid(), e.gidIndex(), e.portNum(), e.gidType(), e.ndevIfindex());
    }
}

package org.jrdma.cm;

import org.jrdma.cm.ffi.CmId;

/**
 * {@code enum rdma_cm_mc_join_flags}: how {@link RdmaCmId#joinMulticast(java.net.SocketAddress,
 * MulticastJoin)} joins a group, the JoinState of the MCMemberRecord (IBA 15.2.5.17) on
 * InfiniBand.
 */
public enum MulticastJoin {
    /** {@code RDMA_MC_JOIN_FLAG_FULLMEMBER}: send to and receive from the group. */
    FULL_MEMBER(CmId.MC_JOIN_FLAG_FULLMEMBER),
    /** {@code RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER}: send only; nothing sent to the group is received. */
    SEND_ONLY_FULL_MEMBER(CmId.MC_JOIN_FLAG_SENDONLY_FULLMEMBER);

    private final int value;

    MulticastJoin(int value) {
        this.value = value;
    }

    /** The C value. */
    public int value() {
        return value;
    }
}

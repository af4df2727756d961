package org.jrdma.verbs;

/**
 * Access rights of a memory region or queue pair, the bits of {@code enum ibv_access_flags}
 * (IBA 10.6.3.1), or-ed together. Remote write and remote atomic need {@link #LOCAL_WRITE}.
 */
public final class Access {
    /** {@code IBV_ACCESS_LOCAL_WRITE}: the device may write (receives, RDMA read results). */
    public static final int LOCAL_WRITE = 1;
    /** {@code IBV_ACCESS_REMOTE_WRITE}: remote RDMA writes. */
    public static final int REMOTE_WRITE = 1 << 1;
    /** {@code IBV_ACCESS_REMOTE_READ}: remote RDMA reads. */
    public static final int REMOTE_READ = 1 << 2;
    /** {@code IBV_ACCESS_REMOTE_ATOMIC}: remote atomic operations. */
    public static final int REMOTE_ATOMIC = 1 << 3;
    /** {@code IBV_ACCESS_MW_BIND}: memory windows may be bound. */
    public static final int MW_BIND = 1 << 4;
    /** {@code IBV_ACCESS_ZERO_BASED}: remote addresses count from the region's start. */
    public static final int ZERO_BASED = 1 << 5;
    /** {@code IBV_ACCESS_ON_DEMAND}: on-demand paging. */
    public static final int ON_DEMAND = 1 << 6;
    /** {@code IBV_ACCESS_HUGETLB}: the memory is huge pages. */
    public static final int HUGETLB = 1 << 7;

    /** Every flag above: what the exported {@code ibv_reg_mr} accepts. */
    static final int ALL = LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ | REMOTE_ATOMIC | MW_BIND | ZERO_BASED
            | ON_DEMAND | HUGETLB;
    /** The flags that let the device write to the memory. */
    static final int WRITES = LOCAL_WRITE | REMOTE_WRITE | REMOTE_ATOMIC;

    private Access() {
    }
}

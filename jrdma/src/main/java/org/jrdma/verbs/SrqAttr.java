package org.jrdma.verbs;

import org.jrdma.verbs.ffi.IbvSrqAttr;

/**
 * The attributes of a shared receive queue, {@code struct ibv_srq_attr} (IBA 11.2.3).
 *
 * @param maxWr    outstanding receive work requests
 * @param maxSge   scatter/gather elements per receive work request
 * @param srqLimit the limit: when fewer requests than this remain, the SRQ raises
 *                 {@link EventType#SRQ_LIMIT_REACHED} once and disarms; 0 is disarmed
 */
public record SrqAttr(int maxWr, int maxSge, int srqLimit) {
    /**
     * Checks the values.
     *
     * @throws IllegalArgumentException if one is negative
     */
    public SrqAttr {
        if (maxWr < 0 || maxSge < 0 || srqLimit < 0) {
            throw new IllegalArgumentException("negative shared receive queue attribute: " + this);
        }
    }

    /** The attributes libibverbs reported in a {@code struct ibv_srq_attr}. */
    static SrqAttr of(IbvSrqAttr raw) {
        return new SrqAttr(raw.maxWr(), raw.maxSge(), raw.srqLimit());
    }

    /** These attributes as a {@code struct ibv_srq_attr}. */
    IbvSrqAttr toIbv() {
        return new IbvSrqAttr(maxWr, maxSge, srqLimit);
    }
}

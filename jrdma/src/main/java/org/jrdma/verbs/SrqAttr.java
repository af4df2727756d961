package org.jrdma.verbs;

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
}

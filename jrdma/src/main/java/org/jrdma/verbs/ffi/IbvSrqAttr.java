package org.jrdma.verbs.ffi;

/**
 * The content of a {@code struct ibv_srq_attr}: a shared receive queue's size and limit.
 *
 * @param maxWr    {@code max_wr}
 * @param maxSge   {@code max_sge}
 * @param srqLimit {@code srq_limit}
 */
public record IbvSrqAttr(int maxWr, int maxSge, int srqLimit) {
}

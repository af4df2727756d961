package org.jrdma.verbs;

import org.jrdma.verbs.ffi.IbvQpCap;

/**
 * The sizes of a queue pair's work queues, {@code struct ibv_qp_cap}: asked for at creation,
 * and what the device actually granted (at least as much) afterwards.
 *
 * @param maxSendWr     outstanding send work requests
 * @param maxRecvWr     outstanding receive work requests (0 with a shared receive queue)
 * @param maxSendSge    scatter/gather elements per send work request
 * @param maxRecvSge    scatter/gather elements per receive work request
 * @param maxInlineData bytes a send work request may carry inline ({@link SendFlags#INLINE})
 */
public record QpCap(int maxSendWr, int maxRecvWr, int maxSendSge, int maxRecvSge, int maxInlineData) {
    /**
     * Checks the sizes.
     *
     * @throws IllegalArgumentException if one is negative
     */
    public QpCap {
        if (maxSendWr < 0 || maxRecvWr < 0 || maxSendSge < 0 || maxRecvSge < 0 || maxInlineData < 0) {
            throw new IllegalArgumentException("negative queue pair capacity: " + this);
        }
    }

    /** The sizes libibverbs reported in a {@code struct ibv_qp_cap}. */
    static QpCap of(IbvQpCap raw) {
        return new QpCap(raw.maxSendWr(), raw.maxRecvWr(), raw.maxSendSge(), raw.maxRecvSge(), raw.maxInlineData());
    }

    /** These sizes as a {@code struct ibv_qp_cap}. */
    IbvQpCap toIbv() {
        return new IbvQpCap(maxSendWr, maxRecvWr, maxSendSge, maxRecvSge, maxInlineData);
    }
}

package org.jrdma.verbs.ffi;

/**
 * The content of a {@code struct ibv_qp_cap}: the sizes of a queue pair's work queues.
 *
 * @param maxSendWr     {@code max_send_wr}
 * @param maxRecvWr     {@code max_recv_wr}
 * @param maxSendSge    {@code max_send_sge}
 * @param maxRecvSge    {@code max_recv_sge}
 * @param maxInlineData {@code max_inline_data}
 */
public record IbvQpCap(int maxSendWr, int maxRecvWr, int maxSendSge, int maxRecvSge, int maxInlineData) {
}

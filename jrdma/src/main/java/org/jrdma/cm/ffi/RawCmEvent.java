package org.jrdma.cm.ffi;

import org.jrdma.verbs.ffi.IbvAhAttr;

/**
 * The content of a {@code struct rdma_cm_event}, copied before it was acknowledged.
 *
 * @param id       {@code event->id}: the identifier the event is for (a new one for a connect request)
 * @param listenId {@code event->listen_id}: the listening identifier of a connect request, else 0
 * @param event    {@code enum rdma_cm_event_type}
 * @param status   {@code event->status}: 0, a negative errno, or for REJECTED the IB CM reject reason
 * @param conn     {@code param.conn} when the identifier's port space is connected, else null
 * @param ud       {@code param.ud} for UD port spaces and multicast events, else null
 */
public record RawCmEvent(long id, long listenId, int event, int status, RawConnParam conn, RawUdParam ud) {
    /**
     * {@code struct rdma_conn_param}.
     *
     * @param privateData {@code private_data}, {@code private_data_len} bytes (empty for none)
     */
    public record RawConnParam(byte[] privateData, int responderResources, int initiatorDepth, int flowControl,
            int retryCount, int rnrRetryCount, int srq, int qpNum) {
    }

    /**
     * {@code struct rdma_ud_param}.
     *
     * @param privateData {@code private_data}, {@code private_data_len} bytes (empty for none)
     */
    public record RawUdParam(byte[] privateData, IbvAhAttr ahAttr, int qpNum, int qkey) {
    }
}

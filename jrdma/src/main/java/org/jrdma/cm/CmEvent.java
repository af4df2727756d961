package org.jrdma.cm;

/**
 * An event of the connection manager ({@code struct rdma_cm_event}), read from an
 * {@link EventChannel} and already acknowledged.
 *
 * @param type     what happened
 * @param id       the identifier it happened to; for {@link CmEventType#CONNECT_REQUEST} a new
 *                 one, for the application to {@link RdmaCmId#accept accept} or
 *                 {@link RdmaCmId#reject reject} and to close
 * @param listenId the listening identifier of a connect request, else null
 * @param status   0, or a negative errno (for example {@code -ETIMEDOUT} with
 *                 {@link CmEventType#ADDR_ERROR}), or for {@link CmEventType#REJECTED} the IB
 *                 CM's reject reason (IBA 12.6.7.2; 28 consumer reject, 8 invalid service ID)
 * @param conn     the connection parameters of a connected port space's event, else null
 * @param ud       the UD parameters of a UD port space's or multicast event, else null
 */
public record CmEvent(CmEventType type, RdmaCmId id, RdmaCmId listenId, int status, ConnParam conn, UdParam ud) {
    /** The private data the event carried, from {@link #conn} or {@link #ud}; empty for none. */
    public byte[] privateData() {
        return conn != null ? conn.privateData() : ud != null ? ud.privateData() : new byte[0];
    }

    @Override
    public String toString() {
        return type.text() + " status " + status + " on " + id + (conn != null ? " " + conn : "")
                + (ud != null ? " qpn 0x" + Integer.toHexString(ud.qpNum()) + " qkey 0x" + Integer.toHexString(ud.qkey()) : "");
    }
}

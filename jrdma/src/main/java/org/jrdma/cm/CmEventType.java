package org.jrdma.cm;

/**
 * {@code enum rdma_cm_event_type}: what an event of the connection manager reports (rdma_cm(7),
 * {@code rdma_get_cm_event(3)}), in the header's order, so that {@link #value()} is the C value.
 */
public enum CmEventType {
    /** Address resolution ({@code rdma_resolve_addr}) completed: the identifier is bound to a device. */
    ADDR_RESOLVED,
    /** Address resolution failed: no route, no ARP/ND answer in time, or no RDMA device for the address. */
    ADDR_ERROR,
    /** Route resolution ({@code rdma_resolve_route}) completed. */
    ROUTE_RESOLVED,
    /** Route resolution failed. */
    ROUTE_ERROR,
    /** A passive side received a connection request (a new identifier for it comes with the event). */
    CONNECT_REQUEST,
    /** An active side received a reply, for a QP it did not create with {@code rdma_create_qp}. */
    CONNECT_RESPONSE,
    /** An error occurred while establishing the connection. */
    CONNECT_ERROR,
    /** The remote side did not answer the request, or a UD (SIDR) request failed. */
    UNREACHABLE,
    /** The remote side rejected the request ({@code status} is the IB CM reject reason). */
    REJECTED,
    /** A connection (or a UD SIDR resolution) is established. */
    ESTABLISHED,
    /** The connection was disconnected, by either side. */
    DISCONNECTED,
    /** The device the identifier is bound to was removed. */
    DEVICE_REMOVAL,
    /** A multicast join ({@code rdma_join_multicast}) completed. */
    MULTICAST_JOIN,
    /** A multicast join failed, or the group went away. */
    MULTICAST_ERROR,
    /** The network address the identifier is bound to changed. */
    ADDR_CHANGE,
    /** The QP of a disconnected connection left the time-wait state and may be reused. */
    TIMEWAIT_EXIT;

    private static final CmEventType[] VALUES = values();

    /** The C value. */
    public int value() {
        return ordinal();
    }

    /** The C name, {@code RDMA_CM_EVENT_...}, as {@code rdma_event_str} prints it. */
    public String text() {
        return "RDMA_CM_EVENT_" + name();
    }

    /**
     * The type of C value {@code value}.
     *
     * @throws IllegalArgumentException for a value librdmacm does not define
     */
    public static CmEventType fromValue(int value) {
        if (value < 0 || value >= VALUES.length) {
            throw new IllegalArgumentException("unknown rdma_cm_event_type " + value);
        }
        return VALUES[value];
    }
}

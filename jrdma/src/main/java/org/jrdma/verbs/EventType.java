package org.jrdma.verbs;

/**
 * The kind of an asynchronous event, {@code enum ibv_event_type} (IBA 11.6.3), with the text of
 * {@code ibv_event_type_str}, what it concerns, and whether it reports a failure.
 */
public enum EventType {
    /** {@code IBV_EVENT_CQ_ERR}: a completion queue overran or failed. */
    CQ_ERR("CQ error", Element.CQ, true),
    /** {@code IBV_EVENT_QP_FATAL}: a queue pair failed and moved to the error state. */
    QP_FATAL("local work queue catastrophic error", Element.QP, true),
    /** {@code IBV_EVENT_QP_REQ_ERR}: a queue pair received an invalid request. */
    QP_REQ_ERR("invalid request local work queue error", Element.QP, true),
    /** {@code IBV_EVENT_QP_ACCESS_ERR}: a queue pair received a request violating access rights. */
    QP_ACCESS_ERR("local access violation work queue error", Element.QP, true),
    /** {@code IBV_EVENT_COMM_EST}: the first packet arrived on a queue pair in RTR. */
    COMM_EST("communication established", Element.QP, false),
    /** {@code IBV_EVENT_SQ_DRAINED}: a queue pair in SQD has no outstanding send request. */
    SQ_DRAINED("send queue drained", Element.QP, false),
    /** {@code IBV_EVENT_PATH_MIG}: a connection moved to its alternate path. */
    PATH_MIG("path migrated", Element.QP, false),
    /** {@code IBV_EVENT_PATH_MIG_ERR}: a path migration failed. */
    PATH_MIG_ERR("path migration request error", Element.QP, true),
    /** {@code IBV_EVENT_DEVICE_FATAL}: the device failed; it must be closed. */
    DEVICE_FATAL("local catastrophic error", Element.NONE, true),
    /** {@code IBV_EVENT_PORT_ACTIVE}: a port became active. */
    PORT_ACTIVE("port active", Element.PORT, false),
    /** {@code IBV_EVENT_PORT_ERR}: a port left the active state. */
    PORT_ERR("port error", Element.PORT, true),
    /** {@code IBV_EVENT_LID_CHANGE}: a port's LID changed. */
    LID_CHANGE("LID change", Element.PORT, false),
    /** {@code IBV_EVENT_PKEY_CHANGE}: a port's P_Key table changed. */
    PKEY_CHANGE("P_Key change", Element.PORT, false),
    /** {@code IBV_EVENT_SM_CHANGE}: a port's subnet manager changed. */
    SM_CHANGE("SM change", Element.PORT, false),
    /** {@code IBV_EVENT_SRQ_ERR}: a shared receive queue failed. */
    SRQ_ERR("SRQ catastrophic error", Element.SRQ, true),
    /** {@code IBV_EVENT_SRQ_LIMIT_REACHED}: a shared receive queue fell below its armed limit. */
    SRQ_LIMIT_REACHED("SRQ limit reached", Element.SRQ, false),
    /** {@code IBV_EVENT_QP_LAST_WQE_REACHED}: a queue pair on an SRQ will consume no more receives. */
    QP_LAST_WQE_REACHED("last WQE reached", Element.QP, false),
    /** {@code IBV_EVENT_CLIENT_REREGISTER}: the subnet manager asks clients to register again. */
    CLIENT_REREGISTER("client reregistration", Element.PORT, false),
    /** {@code IBV_EVENT_GID_CHANGE}: a port's GID table changed. */
    GID_CHANGE("GID table change", Element.PORT, false),
    /** {@code IBV_EVENT_WQ_FATAL}: a work queue failed. */
    WQ_FATAL("WQ fatal", Element.NONE, true);

    /** What {@code ibv_async_event.element} holds for an event type. */
    enum Element {
        /** A completion queue. */
        CQ,
        /** A queue pair. */
        QP,
        /** A shared receive queue. */
        SRQ,
        /** A port number. */
        PORT,
        /** Nothing jrdma tracks. */
        NONE
    }

    private static final EventType[] VALUES = values();

    private final String text;
    private final Element element;
    private final boolean error;

    EventType(String text, Element element, boolean error) {
        this.text = text;
        this.element = element;
        this.error = error;
    }

    /** The {@code enum ibv_event_type} number: the ordinal. */
    public int value() {
        return ordinal();
    }

    /** The text {@code ibv_event_type_str} gives. */
    public String text() {
        return text;
    }

    /** Whether the event reports a failure, which {@link Context#handleAsyncEvent} raises. */
    public boolean isError() {
        return error;
    }

    /** What {@code element} holds for this type. */
    Element element() {
        return element;
    }

    /**
     * The event type numbered {@code value}.
     *
     * @throws IllegalArgumentException for a number verbs.h does not define
     */
    public static EventType fromValue(int value) {
        if (value < 0 || value >= VALUES.length) {
            throw new IllegalArgumentException("unknown ibv_event_type " + value);
        }
        return VALUES[value];
    }
}

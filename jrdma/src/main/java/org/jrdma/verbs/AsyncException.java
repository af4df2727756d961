package org.jrdma.verbs;

import java.util.Objects;
import org.jrdma.RdmaException;

/**
 * The device reported an asynchronous error event ({@code ibv_get_async_event}; IBA 11.6):
 * a queue pair, completion queue, port or the whole device failed outside any call;
 * python-rdma's {@code rdma.ibverbs.AsyncError}.
 */
public final class AsyncException extends RdmaException {
    private static final long serialVersionUID = 1L;

    private final int eventType;
    private final String eventText;

    /**
     * An asynchronous event of type {@code eventType} ({@code enum ibv_event_type}) described by
     * {@code eventText} ({@code ibv_event_type_str}).
     */
    public AsyncException(int eventType, String eventText) {
        super("Asynchronous error event: " + Objects.requireNonNull(eventText, "eventText")
                + " (type " + eventType + ")");
        this.eventType = eventType;
        this.eventText = eventText;
    }

    /** The {@code ibv_event_type} number, for example 1 for {@code IBV_EVENT_QP_FATAL}. */
    public int eventType() {
        return eventType;
    }

    /** The text of the event type, for example {@code local work queue catastrophic error}. */
    public String eventText() {
        return eventText;
    }
}

package org.jrdma.verbs;

import java.util.Objects;

/**
 * An asynchronous event, {@code struct ibv_async_event} (IBA 11.6.3), already acknowledged:
 * its type and the object it concerns, which the type determines ({@link EventType}).
 *
 * @param type    the event type
 * @param cq      the completion queue of a {@link EventType#CQ_ERR}, else null
 * @param qp      the queue pair of a QP event, else null
 * @param srq     the shared receive queue of an SRQ event, else null
 * @param portNum the port of a port event, else 0
 */
public record AsyncEvent(EventType type, Cq cq, Qp qp, Srq srq, int portNum) {
    /** Checks that the type is given. */
    public AsyncEvent {
        Objects.requireNonNull(type, "type");
    }

    /** What the event concerns, in words: {@code "QP 0x000011 on rxe0"}, {@code "port 1"}, or {@code "the device"}. */
    public String subject() {
        if (cq != null) {
            return cq.toString();
        }
        if (qp != null) {
            return qp.toString();
        }
        if (srq != null) {
            return srq.toString();
        }
        return portNum != 0 ? "port " + portNum : "the device";
    }
}

package org.jrdma.verbs;

import java.util.Objects;
import org.jrdma.devices.EndPort;
import org.jrdma.devices.RdmaDevice;

/**
 * An asynchronous event, {@code struct ibv_async_event} (IBA 11.6.3), already acknowledged:
 * its type and the object it concerns, which the type determines ({@link EventType}).
 *
 * @param type    the event type
 * @param cq      the completion queue of a {@link EventType#CQ_ERR}, else null
 * @param qp      the queue pair of a QP event, else null
 * @param srq     the shared receive queue of an SRQ event, else null
 * @param portNum the port of a port event, else 0
 * @param endPort the end port of a port event as the system reports it after the event (python-rdma
 *                names the {@code EndPort}), or null when not a port event or not known
 * @param device  the device of a device or port event (python-rdma's {@code RDMADevice}), or null
 *                when not such an event or not known
 */
public record AsyncEvent(EventType type, Cq cq, Qp qp, Srq srq, int portNum, EndPort endPort, RdmaDevice device) {
    /** Checks that the type is given. */
    public AsyncEvent {
        Objects.requireNonNull(type, "type");
    }

    /** An event naming no end port or device. */
    public AsyncEvent(EventType type, Cq cq, Qp qp, Srq srq, int portNum) {
        this(type, cq, qp, srq, portNum, null, null);
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

package org.jrdma.cm;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jrdma.cm.ffi.CmEventChannel;
import org.jrdma.cm.ffi.CmId;
import org.jrdma.cm.ffi.RawCmEvent;

/**
 * An event channel of the connection manager ({@code rdma_create_event_channel}): the identifiers
 * made on it ({@link #createId}) report their events here, read by {@link #getEvent} (or wait for
 * {@link #fd()} to be readable with poll/epoll first). Closing it closes every identifier on it.
 *
 * <pre>{@code
 * try (EventChannel channel = EventChannel.create()) {
 *     RdmaCmId id = channel.createId(PortSpace.TCP);
 *     id.resolveAddr(null, new InetSocketAddress("10.0.0.1", 7174), Duration.ofSeconds(2));
 *     CmEvent e = channel.getEvent(Duration.ofSeconds(5));   // ADDR_RESOLVED
 *     ...
 * }
 * }</pre>
 */
public final class EventChannel implements AutoCloseable {
    private static final long NANOS_PER_MILLI = 1_000_000L;

    private final CmEventChannel handle;
    /** The open identifiers on this channel by the address of their C structure. */
    private final Map<Long, RdmaCmId> ids = new ConcurrentHashMap<>();
    private volatile boolean closed;

    private EventChannel(CmEventChannel handle) {
        this.handle = handle;
    }

    /**
     * A new event channel.
     *
     * @throws UnsupportedOperationException when librdmacm cannot be used here (see {@link RdmaCm#unavailabilityCause()})
     */
    public static EventChannel create() {
        RdmaCm.requireAvailable();
        return new EventChannel(CmEventChannel.create());
    }

    /** The file descriptor that becomes readable when an event waits ({@code channel->fd}). */
    public int fd() {
        checkOpen();
        return handle.fd();
    }

    /** A new connection identifier in port space {@code ps} whose events come to this channel ({@code rdma_create_id}). */
    public RdmaCmId createId(PortSpace ps) {
        checkOpen();
        RdmaCmId id = new RdmaCmId(CmId.create(handle, ps.value()), this);
        add(id);
        return id;
    }

    /**
     * Waits up to {@code timeout} for the next event ({@code rdma_get_cm_event}), and acknowledges
     * it ({@code rdma_ack_cm_event}). One thread at a time. A connect request's new identifier
     * joins this channel. A platform thread waits in {@code poll(2)}; a virtual thread, which
     * would pin its carrier there, looks without waiting and sleeps a millisecond in between.
     *
     * @return the event, or null when none came in time (or a virtual thread was interrupted)
     */
    public CmEvent getEvent(Duration timeout) {
        checkOpen();
        int millis = RdmaCmId.millis(timeout);
        if (!Thread.currentThread().isVirtual()) {
            return decode(handle.getEvent(millis));
        }
        long deadline = System.nanoTime() + millis * NANOS_PER_MILLI;
        while (true) {
            RawCmEvent raw = handle.getEvent(0);
            if (raw != null || System.nanoTime() - deadline >= 0) {
                return decode(raw);
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
    }

    private CmEvent decode(RawCmEvent raw) {
        if (raw == null) {
            return null;
        }
        CmEventType type = CmEventType.fromValue(raw.event());
        RdmaCmId id = ids.get(raw.id());
        if (id == null && raw.id() != 0) {
            id = new RdmaCmId(CmId.adopt(raw.id()), this);
            add(id);
        }
        return new CmEvent(type, id, raw.listenId() == 0 ? null : ids.get(raw.listenId()), raw.status(),
                raw.conn() == null ? null : ConnParam.of(raw.conn()), raw.ud() == null ? null : UdParam.of(raw.ud()));
    }

    /**
     * Waits up to {@code timeout} for the next event and checks that it is of type {@code expected}.
     *
     * @throws CmEventException when none came in time or it is of another type
     */
    public CmEvent expect(CmEventType expected, Duration timeout) {
        CmEvent event = getEvent(timeout);
        if (event == null || event.type() != expected) {
            throw new CmEventException(expected, event, timeout);
        }
        return event;
    }

    CmEventChannel handle() {
        checkOpen();
        return handle;
    }

    void add(RdmaCmId id) {
        ids.put(id.address(), id);
    }

    void remove(RdmaCmId id) {
        ids.remove(id.address(), id);
    }

    /** Whether {@link #close()} has completed. */
    public boolean isClosed() {
        return closed;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("event channel is closed");
        }
    }

    /**
     * Closes the identifiers on this channel, newest first, then the channel
     * ({@code rdma_destroy_event_channel}). Does nothing when already closed.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        RuntimeException failure = null;
        List<RdmaCmId> open = new ArrayList<>(ids.values());
        open.sort((a, b) -> Long.compare(b.serial(), a.serial()));
        for (RdmaCmId id : open) {
            try {
                id.close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
        handle.close();
        closed = true;
    }

    @Override
    public String toString() {
        return "event channel" + (closed ? " (closed)" : " fd " + handle.fd());
    }
}

package org.jrdma.endpoint;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import org.jrdma.cm.CmEvent;
import org.jrdma.cm.CmEventType;
import org.jrdma.cm.EventChannel;
import org.jrdma.cm.PortSpace;
import org.jrdma.cm.RdmaCmId;

/**
 * A listening address for {@link RdmaEndpoint}s (rdma_cm over RC): {@link #accept} takes the next
 * connect request, moves its identifier to an event channel of its own ({@code rdma_migrate_id})
 * and accepts it.
 */
public final class RdmaServer implements AutoCloseable {
    private final EventChannel channel;

    private RdmaServer(EventChannel channel) {
        this.channel = channel;
    }

    /** Binds to {@code address} (port 0 for any) and listens. */
    public static RdmaServer listen(InetSocketAddress address) {
        EventChannel channel = EventChannel.create();
        try {
            RdmaCmId listener = channel.createId(PortSpace.TCP);
            listener.bindAddr(address);
            listener.listen(16);
            return new RdmaServer(channel);
        } catch (RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /**
     * Waits up to {@code timeout} for a connect request and accepts it.
     *
     * @throws org.jrdma.cm.CmEventException when none came in time, or the event was another
     */
    public RdmaEndpoint accept(Duration timeout) {
        EndpointGroup own = new EndpointGroup(1);
        try {
            return accept(own, true, timeout);
        } catch (RuntimeException e) {
            own.close();
            throw e;
        }
    }

    /**
     * Accepts as {@link #accept(Duration)} does, with the endpoint in {@code group}.
     *
     * @throws IllegalStateException when the group is full or closed
     */
    public RdmaEndpoint accept(EndpointGroup group, Duration timeout) {
        return accept(Objects.requireNonNull(group, "group"), false, timeout);
    }

    private RdmaEndpoint accept(EndpointGroup group, boolean ownGroup, Duration timeout) {
        CmEvent request = channel.expect(CmEventType.CONNECT_REQUEST, timeout);
        EventChannel own = EventChannel.create();
        try {
            request.id().migrate(own);
            return EndpointConnector.accept(request.id(), own, request.privateData(), group, ownGroup, timeout);
        } catch (RuntimeException e) {
            own.close();
            throw e;
        }
    }

    /** Stops listening; endpoints already accepted stay open. */
    @Override
    public void close() {
        channel.close();
    }
}

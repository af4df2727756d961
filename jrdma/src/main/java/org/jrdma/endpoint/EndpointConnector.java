package org.jrdma.endpoint;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import org.jrdma.RdmaException;
import org.jrdma.cm.CmEvent;
import org.jrdma.cm.CmEventType;
import org.jrdma.cm.EventChannel;
import org.jrdma.cm.PortSpace;
import org.jrdma.cm.RdmaCmId;

/**
 * How an {@link RdmaEndpoint} is connected over rdma_cm ({@code RDMA_PS_TCP}): the active side
 * resolves the address and route, makes the endpoint (its queue pair with {@code rdma_create_qp})
 * and connects with its {@link Hello} as private data; the passive side accepts a connect request
 * whose private data is a hello with its own, and rejects any other. Each side then starts the
 * endpoint with the peer's hello: its first credits and the counter to return credits to.
 */
final class EndpointConnector {
    /** The private data of a reject sent to a connect request that is not an endpoint's. */
    private static final byte[] NOT_AN_ENDPOINT = "not an endpoint hello".getBytes(StandardCharsets.US_ASCII);

    private EndpointConnector() {
    }

    /**
     * The active side: connects to an {@link RdmaServer} at {@code remote} with an endpoint in
     * {@code group} ({@code ownGroup}: made for it alone).
     *
     * @throws org.jrdma.cm.CmEventException when a step's event is not the expected one in time
     * @throws RdmaException when the server accepted with private data that is not a hello
     */
    static RdmaEndpoint connect(InetSocketAddress remote, EndpointGroup group, boolean ownGroup,
            Duration timeout) {
        EventChannel channel = EventChannel.create();
        try {
            RdmaCmId id = channel.createId(PortSpace.TCP);
            id.resolveAddr(null, Objects.requireNonNull(remote, "remote"), timeout);
            channel.expect(CmEventType.ADDR_RESOLVED, timeout);
            id.resolveRoute(timeout);
            channel.expect(CmEventType.ROUTE_RESOLVED, timeout);
            RdmaEndpoint endpoint = new RdmaEndpoint(id, channel, group, ownGroup);
            try {
                id.connect(endpoint.param());
                CmEvent established = channel.expect(CmEventType.ESTABLISHED, timeout);
                endpoint.start(Hello.decode(established.privateData()).orElseThrow(() -> new RdmaException(
                        "the server at " + remote + " accepted with private data that is not an endpoint's hello")));
                return endpoint;
            } catch (RuntimeException e) {
                endpoint.close();
                throw e;
            }
        } catch (RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /**
     * The passive side of a connect request that {@link RdmaServer} moved to {@code channel}:
     * accepts it, or rejects it when its private data is not an endpoint's {@link Hello}.
     *
     * @throws RdmaException when the request was not an endpoint's (it is rejected)
     */
    static RdmaEndpoint accept(RdmaCmId request, EventChannel channel, byte[] privateData, EndpointGroup group,
            boolean ownGroup, Duration timeout) {
        Hello peer = Hello.decode(privateData).orElse(null);
        if (peer == null) {
            request.reject(NOT_AN_ENDPOINT);
            throw new RdmaException("rejected a connect request from " + request.peerAddress()
                    + ": its private data is not an endpoint's hello (" + Hello.BYTES + " bytes, magic first)");
        }
        RdmaEndpoint endpoint = new RdmaEndpoint(request, channel, group, ownGroup);
        try {
            request.accept(endpoint.param());
            channel.expect(CmEventType.ESTABLISHED, timeout);
            endpoint.start(peer);
            return endpoint;
        } catch (RuntimeException e) {
            endpoint.close();
            throw e;
        }
    }
}

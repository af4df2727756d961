package org.jrdma.examples;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.function.Function;
import org.jrdma.cm.CmEvent;
import org.jrdma.cm.CmEventType;
import org.jrdma.cm.ConnParam;
import org.jrdma.cm.EventChannel;
import org.jrdma.cm.PortSpace;
import org.jrdma.cm.RdmaCmId;
import org.jrdma.iba.Gid;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Qp;

/**
 * perftest's {@code -R} ({@code create_rdma_cm_connection} in {@code perftest_communication.c},
 * perftest 6.06): the test's RC queue pair is connected by the RDMA connection manager instead of
 * by the destinations exchanged on the TCP side channel, which stays for everything else. Both
 * sides handshake once (all-zero destinations, in the GID form), then the server listens on the
 * test's port in the {@code RDMA_PS_TCP} port space (any address) while the client resolves the
 * server's address and route (2 s each), makes its queue pair with {@code rdma_create_qp} and
 * connects with 7 retries and 7 RNR retries and no private data, trying again up to ten times
 * 100 ms apart as perftest does (the server may not listen yet); the server (listening already
 * before the first handshake) makes its queue pair on
 * the connect request's identifier and accepts with the same counts. Then one more zero
 * handshake. librdmacm has taken the queue pairs to RTS, so the destinations exchanged afterwards
 * are only printed (and give the write test the peer's buffer). At the end the client disconnects
 * and waits for DISCONNECTED, as perftest's {@code rdma_cm_disconnect_nodes}; the server tears
 * down by destroying its identifier.
 */
final class PerftestCm implements AutoCloseable {
    /** What perftest exchanges before its destinations are known: zeros, in the GID form ({@code gid_index} 0). */
    static final PerftestDest NO_DEST = new PerftestDest(0, 0, 0, 0, 0, 0, Gid.fromBytes(new byte[Gid.BYTES], 0), 0);
    private static final Duration RESOLVE = Duration.ofSeconds(2);
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Duration WAIT_FOR_CLIENT = Duration.ofMinutes(2);
    private static final int CONNECT_TRIES = 10;
    private static final long RETRY_DELAY_MILLIS = 100;
    private static final int RETRY_COUNT = 7;

    private final EventChannel events;
    private final RdmaCmId id;
    private final boolean client;

    private PerftestCm(EventChannel events, RdmaCmId id, boolean client) {
        this.events = events;
        this.id = id;
        this.client = client;
    }

    /**
     * The client's side: connects to {@code server:port} with the queue pair {@code makeQp} makes
     * on each try's identifier (it is closed with the identifier when the try fails).
     */
    static PerftestCm connect(PerftestChannel channel, String server, int port, Function<RdmaCmId, Qp> makeQp)
            throws IOException {
        channel.handshake(NO_DEST);
        EventChannel events = EventChannel.create();
        try {
            InetSocketAddress address = new InetSocketAddress(InetAddress.getByName(server), port);
            String failure = "";
            for (int attempt = 0; attempt < CONNECT_TRIES; attempt++) {
                RdmaCmId id = events.createId(PortSpace.TCP);
                CmEvent event = connectOnce(events, id, address, makeQp);
                if (event.type() == CmEventType.ESTABLISHED) {
                    channel.handshake(NO_DEST);
                    return new PerftestCm(events, id, true);
                }
                failure = "RDMA CM event error:\nEvent: " + event.type().text() + "; error: " + event.status() + ".";
                id.close();
                sleep();
            }
            throw new IOException(failure + "\nFailed to connect RDMA CM client, tried " + CONNECT_TRIES + " times.");
        } catch (IOException | RuntimeException e) {
            events.close();
            throw e;
        }
    }

    private static CmEvent connectOnce(EventChannel events, RdmaCmId id, InetSocketAddress address,
            Function<RdmaCmId, Qp> makeQp) {
        id.resolveAddr(null, address, RESOLVE);
        CmEvent event = events.getEvent(WAIT);
        if (event == null || event.type() != CmEventType.ADDR_RESOLVED) {
            return orTimeout(event);
        }
        id.resolveRoute(RESOLVE);
        event = events.getEvent(WAIT);
        if (event == null || event.type() != CmEventType.ROUTE_RESOLVED) {
            return orTimeout(event);
        }
        makeQp.apply(id);
        id.connect(new ConnParam().retryCount(RETRY_COUNT).rnrRetryCount(RETRY_COUNT));
        return orTimeout(events.getEvent(WAIT));
    }

    private static CmEvent orTimeout(CmEvent event) {
        return event != null ? event : new CmEvent(CmEventType.CONNECT_ERROR, null, null, -110, null, null);
    }

    /**
     * The server's side: listens on {@code port}, makes the queue pair of the first connect request
     * with {@code makeQp}, accepts it and waits for ESTABLISHED. It listens before the first
     * handshake, where perftest listens after it: the C client connects as soon as it has the
     * server's handshake and gives up after ten tries in about a second, which a JVM still
     * compiling its listening code on an emulated CPU can miss.
     */
    static PerftestCm accept(PerftestChannel channel, int port, Function<RdmaCmId, Qp> makeQp) throws IOException {
        EventChannel events = EventChannel.create();
        try {
            RdmaCmId id;
            try (RdmaCmId listener = events.createId(PortSpace.TCP)) {
                listener.bindAddr(new InetSocketAddress(port));
                listener.listen(1);
                channel.handshake(NO_DEST);
                id = expect(events, CmEventType.CONNECT_REQUEST, WAIT_FOR_CLIENT).id();
                makeQp.apply(id);
                id.accept(new ConnParam().retryCount(RETRY_COUNT).rnrRetryCount(RETRY_COUNT));
            }
            expect(events, CmEventType.ESTABLISHED, WAIT);
            channel.handshake(NO_DEST);
            return new PerftestCm(events, id, false);
        } catch (IOException | RuntimeException e) {
            events.close();
            throw e;
        }
    }

    private static CmEvent expect(EventChannel events, CmEventType type, Duration timeout) throws IOException {
        CmEvent event = events.getEvent(timeout);
        if (event == null || event.type() != type) {
            throw new IOException("RDMA CM: expected " + type.text() + ", got "
                    + (event == null ? "nothing in " + timeout.toSeconds() + " s" : event));
        }
        return event;
    }

    private static void sleep() throws IOException {
        try {
            Thread.sleep(RETRY_DELAY_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while connecting", e);
        }
    }

    /** The device context librdmacm chose for the connection, on which the test's resources are made. */
    Context context() {
        return id.context();
    }

    /** The test's queue pair, made on the connection's identifier. */
    Qp qp() {
        return id.qp();
    }

    /**
     * Disconnects (the client, waiting for DISCONNECTED), then closes the channel, the identifier
     * and its queue pair. What the test made on {@link #context()} goes with that context, which
     * the side channel's ({@link PerftestCmComm}, on the same device) closes last.
     */
    @Override
    public void close() {
        try {
            if (client) {
                id.disconnect();
                events.getEvent(WAIT);
            }
        } finally {
            events.close();
        }
    }
}

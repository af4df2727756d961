package org.jrdma.examples;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
 * perftest 6.06): the test's queue pairs are connected by the RDMA connection manager instead of
 * by the destinations exchanged on the TCP side channel, which stays for everything else. Both
 * sides handshake once (all-zero destinations, in the GID form), then the server listens on the
 * test's port (any address; backlog: the number of queue pairs) while the client resolves the
 * server's address and route (2 s each) for each queue pair, makes it with
 * {@code rdma_create_qp} and connects with 7 retries and 7 RNR retries and no private data,
 * trying again up to ten times 100 ms apart as perftest does (the server may not listen yet);
 * the server (listening already before the first handshake) makes a queue pair on each connect
 * request's identifier and accepts with the same counts. Then one more zero handshake.
 * librdmacm has taken the queue pairs to RTS, so the destinations exchanged afterwards are only
 * printed (and give the write test the peer's buffer).
 *
 * <p>RC queue pairs connect in the {@code RDMA_PS_TCP} port space. UD ones
 * ({@code RDMA_PS_UDP}, perftest's {@code -c UD}) are "connected" by SIDR: the client's
 * ESTABLISHED event carries the server's QPN, Q_Key and address (perftest's
 * {@code rdma_cm_establish_ud_connection}); what a test needs beyond that, as the latency
 * test's own QPN sent to the server, its {@link Connected} step does. The client tries each
 * queue pair's connection in turn, where perftest resolves them all at once; the server takes
 * the requests in the order they come, as perftest does, so a client's i-th queue pair need not
 * meet the server's i-th.
 *
 * <p>At the end the RC client disconnects each queue pair and waits for its DISCONNECTED, as
 * perftest's {@code rdma_cm_disconnect_nodes}; a UD client has nothing to disconnect; the
 * server tears down by destroying its identifiers.
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

    /**
     * What a test does once a queue pair is connected, before the last zero handshake: on the
     * client after its ESTABLISHED event, on the server after accepting its connect request.
     */
    @FunctionalInterface
    interface Connected {
        /**
         * Queue pair {@code index} is connected by {@code event}: the client's ESTABLISHED (for UD
         * with the server's address, QPN and Q_Key) or the server's CONNECT_REQUEST.
         */
        void connected(int index, CmEvent event) throws IOException;
    }

    private final EventChannel events;
    private final List<RdmaCmId> ids;
    private final boolean client;
    private final boolean ud;

    private PerftestCm(EventChannel events, List<RdmaCmId> ids, boolean client, boolean ud) {
        this.events = events;
        this.ids = ids;
        this.client = client;
        this.ud = ud;
    }

    /**
     * The client's side of one RC queue pair: connects to {@code server:port} with the queue
     * pair {@code makeQp} makes on each try's identifier (it is closed with the identifier when
     * the try fails).
     */
    static PerftestCm connect(PerftestChannel channel, String server, int port, Function<RdmaCmId, Qp> makeQp)
            throws IOException {
        return connect(channel, server, port, 1, false, makeQp, (index, event) -> { });
    }

    /**
     * The client's side: connects {@code qps} queue pairs (UD ones when {@code ud}) to
     * {@code server:port}, each made by {@code makeQp} on its try's identifier and, once
     * connected, handed to {@code connected}.
     */
    static PerftestCm connect(PerftestChannel channel, String server, int port, int qps, boolean ud,
            Function<RdmaCmId, Qp> makeQp, Connected connected) throws IOException {
        channel.handshake(NO_DEST);
        EventChannel events = EventChannel.create();
        try {
            InetSocketAddress address = new InetSocketAddress(InetAddress.getByName(server), port);
            List<RdmaCmId> ids = new ArrayList<>();
            for (int index = 0; index < qps; index++) {
                CmEvent established = null;
                String failure = "";
                for (int attempt = 0; attempt < CONNECT_TRIES && established == null; attempt++) {
                    RdmaCmId id = events.createId(ud ? PortSpace.UDP : PortSpace.TCP);
                    CmEvent event = connectOnce(events, id, address, makeQp);
                    if (event.type() == CmEventType.ESTABLISHED) {
                        established = event;
                        ids.add(id);
                    } else {
                        failure = "RDMA CM event error:\nEvent: " + event.type().text() + "; error: " + event.status()
                                + ".";
                        id.close();
                        sleep();
                    }
                }
                if (established == null) {
                    throw new IOException(failure + "\nFailed to connect RDMA CM client, tried " + CONNECT_TRIES
                            + " times.");
                }
                connected.connected(index, established);
            }
            channel.handshake(NO_DEST);
            return new PerftestCm(events, ids, true, ud);
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

    /** The server's side of one RC queue pair: {@link #accept(PerftestChannel, int, int, boolean, Function, Connected)}. */
    static PerftestCm accept(PerftestChannel channel, int port, Function<RdmaCmId, Qp> makeQp) throws IOException {
        return accept(channel, port, 1, false, makeQp, (index, event) -> { });
    }

    /**
     * The server's side: listens on {@code port}, makes the queue pair of each of the first
     * {@code qps} connect requests with {@code makeQp}, accepts it (for UD with its QPN), hands
     * it to {@code connected}, and for RC waits for every ESTABLISHED. It listens before the first
     * handshake, where perftest listens after it: the C client connects as soon as it has the
     * server's handshake and gives up after ten tries in about a second, which a JVM still
     * compiling its listening code on an emulated CPU can miss.
     */
    static PerftestCm accept(PerftestChannel channel, int port, int qps, boolean ud, Function<RdmaCmId, Qp> makeQp,
            Connected connected) throws IOException {
        EventChannel events = EventChannel.create();
        try {
            List<RdmaCmId> ids = new ArrayList<>();
            int established = 0;
            try (RdmaCmId listener = events.createId(ud ? PortSpace.UDP : PortSpace.TCP)) {
                listener.bindAddr(new InetSocketAddress(port));
                listener.listen(qps);
                channel.handshake(NO_DEST);
                while (ids.size() < qps) {
                    CmEvent event = next(events, ids.isEmpty() ? WAIT_FOR_CLIENT : WAIT);
                    if (event.type() == CmEventType.ESTABLISHED && !ud) {
                        established++;
                        continue;
                    }
                    if (event.type() != CmEventType.CONNECT_REQUEST) {
                        throw new IOException("RDMA CM: expected " + CmEventType.CONNECT_REQUEST.text() + ", got " + event);
                    }
                    RdmaCmId id = event.id();
                    Qp qp = makeQp.apply(id);
                    ConnParam param = new ConnParam().retryCount(RETRY_COUNT).rnrRetryCount(RETRY_COUNT);
                    id.accept(ud ? param.qpNum(qp.qpNum()) : param);
                    ids.add(id);
                    connected.connected(ids.size() - 1, event);
                }
            }
            while (!ud && established < qps) {
                CmEvent event = next(events, WAIT);
                if (event.type() != CmEventType.ESTABLISHED) {
                    throw new IOException("RDMA CM: expected " + CmEventType.ESTABLISHED.text() + ", got " + event);
                }
                established++;
            }
            channel.handshake(NO_DEST);
            return new PerftestCm(events, ids, false, ud);
        } catch (IOException | RuntimeException e) {
            events.close();
            throw e;
        }
    }

    private static CmEvent next(EventChannel events, Duration timeout) throws IOException {
        CmEvent event = events.getEvent(timeout);
        if (event == null) {
            throw new IOException("RDMA CM: no event in " + timeout.toSeconds() + " s");
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
        return ids.getFirst().context();
    }

    /** The test's first queue pair. */
    Qp qp() {
        return ids.getFirst().qp();
    }

    /** The test's queue pairs, in the order they were connected. */
    List<Qp> qps() {
        return ids.stream().map(RdmaCmId::qp).toList();
    }

    /**
     * Disconnects (an RC client, waiting for each DISCONNECTED), then closes the channel, the
     * identifiers and their queue pairs. What the test made on {@link #context()} goes with that
     * context, which the side channel's ({@link PerftestCmComm}, on the same device) closes last.
     */
    @Override
    public void close() {
        try {
            if (client && !ud) {
                for (RdmaCmId id : ids) {
                    id.disconnect();
                }
                for (int i = 0; i < ids.size(); i++) {
                    events.getEvent(WAIT);
                }
            }
        } finally {
            events.close();
        }
    }
}

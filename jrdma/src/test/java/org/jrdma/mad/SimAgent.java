package org.jrdma.mad;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jrdma.devices.EndPort;
import org.jrdma.mad.sim.IbsimTransport;
import org.jrdma.path.IBDRPath;
import org.jrdma.path.IBPath;
import org.jrdma.testkit.fabric.Fabric;

/**
 * A jrdma MAD agent attached at one node of a simulated fabric, for tests: its engine, a
 * transactor on it, paths from it, and optionally a server loop answering requests.
 */
final class SimAgent implements AutoCloseable {
    /** Packet lifetime and response time exponents of quick paths: 4.096 µs × (2^9 + 2^16), about 0.27 s per attempt. */
    static final int QUICK_PACKET_LIFE_TIME = 8;
    static final int QUICK_RESP_TIME = 16;
    private static final int PATIENT_RESP_TIME = 19;
    /** OpenSM's default subnet_timeout. */

    final IbsimTransport transport;
    final MadEngine engine;
    final MadTransactor mt;
    final EndPort endPort;
    private final List<Throwable> serverFailures = new CopyOnWriteArrayList<>();
    private volatile boolean stopped;
    private Thread server;

    /** A server's answer to one request; it may reply, reply with an error, or throw a MadException to be answered by it. */
    interface Handler {
        void handle(SimAgent agent, IncomingRequest request);
    }

    SimAgent(Fabric fabric, String node) {
        this.transport = IbsimTransport.attach(fabric.socketName(), node);
        this.engine = new MadEngine(transport, 16);
        this.endPort = transport.client().endPort();
        this.mt = new MadTransactor(engine, endPort);
    }

    /** The LID of the port this agent is attached at. */
    int lid() {
        return endPort.lid();
    }

    /** A GMP path to {@code lid} with quick timeouts and {@code retries}. */
    IBPath gmpPath(int lid, int retries) {
        return IBPath.builder(endPort).dlid(lid).slid(lid()).retries(retries).packetLifeTime(QUICK_PACKET_LIFE_TIME)
                .respTime(QUICK_RESP_TIME).build();
    }

    /**
     * A GMP path to {@code lid} for exchanges expected to succeed: 4.096 µs × (2^9 + 2^19), about
     * 2.1 s per attempt, and two retries, so that a loaded machine does not turn into resends.
     */
    IBPath patientPath(int lid) {
        return gmpPath(lid, 2).copy(b -> b.respTime(PATIENT_RESP_TIME));
    }

    /** A directed-route path from this agent's port out of {@code ports}, with quick timeouts and one retry. */
    IBDRPath dr(int... ports) {
        int[] route = new int[ports.length + 1];
        System.arraycopy(ports, 0, route, 1, ports.length);
        return IBDRPath.builder(endPort).drPath(route).retries(1).packetLifeTime(QUICK_PACKET_LIFE_TIME).respTime(QUICK_RESP_TIME)
                .build();
    }

    /**
     * Serves requests until closed: each is parsed and handed to {@code handler}; a MadException
     * from parsing or handling is answered with {@link MadTransactor#sendErrorException}.
     */
    SimAgent serve(Handler handler) {
        server = Thread.ofVirtual().name("sim-agent-server").start(() -> {
            while (!stopped) {
                ReceivedMad in = engine.receiveRequest(Duration.ofMillis(50));
                if (in == null) {
                    continue;
                }
                try {
                    handler.handle(this, mt.parseRequest(in));
                } catch (MadException e) {
                    mt.sendErrorException(in, e);
                } catch (Throwable t) {
                    serverFailures.add(t);
                }
            }
        });
        return this;
    }

    /** Failures of the server's handler other than MadExceptions. */
    List<Throwable> serverFailures() {
        return serverFailures;
    }

    /** Stops serving and closes the engine; throws the first unexpected failure of the server's handler. */
    @Override
    public void close() {
        stopped = true;
        try {
            if (server != null) {
                server.join(Duration.ofSeconds(10));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            engine.close();
        }
        if (!serverFailures.isEmpty()) {
            AssertionError error = new AssertionError("the server failed", serverFailures.getFirst());
            serverFailures.stream().skip(1).forEach(error::addSuppressed);
            throw error;
        }
    }
}

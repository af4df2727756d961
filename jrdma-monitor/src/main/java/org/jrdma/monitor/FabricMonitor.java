package org.jrdma.monitor;

import java.io.PrintStream;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.jrdma.RdmaException;
import org.jrdma.mad.GmpClient;
import org.jrdma.mad.MadAddress;
import org.jrdma.mad.MadEngine;
import org.jrdma.mad.MadTracer;
import org.jrdma.mad.MadTransactor;
import org.jrdma.mad.MadTransport;
import org.jrdma.mad.SmpClient;
import org.jrdma.subnet.SubnetDiscovery;

/**
 * The fabric monitor: a live model of the subnet kept by directed-route discovery (IBA 14.2.2,
 * the same walk as {@code ibtool ibnetdiscover}) and counter sweeps of every port, one cycle every
 * {@link MonitorConfig#interval()} on one thread of its own, served over HTTP by a
 * {@link MonitorServer} (Prometheus metrics, a JSON API and a web page). Each cycle rediscovers the
 * topology every {@link MonitorConfig#discoverEvery()} cycles (turning what changed into
 * {@link TopologyEvent}s), then reads PortCounters and PortCountersExtended of every port in
 * parallel ({@link CounterSweep}), and logs one line. {@link #close()} stops the cycles (waiting
 * for the one under way), the trap subscriptions, the server and the engine. With traps on, each
 * Report the SA forwards (trap 64, 65, 128 or 144) brings a rediscovery within
 * {@value #TRAP_DELAY_MILLIS} ms rather than at the next cycle.
 */
public final class FabricMonitor implements AutoCloseable {
    /** How long after a trap the rediscovery starts, so that a burst of traps (one per port of a link) makes one. */
    private static final long TRAP_DELAY_MILLIS = 300;
    private final MonitorConfig config;
    private final MadEngine engine;
    private final SmpClient smp;
    private final GmpClient gmp;
    private final FabricState state;
    private final PrintStream log;
    private final AtomicLong madsSent = new AtomicLong();
    private final AtomicLong madsLost = new AtomicLong();
    private final ScheduledExecutorService cycles = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "jrdma-monitor-sweep");
        t.setDaemon(true);
        return t;
    });
    private final AtomicBoolean trapPending = new AtomicBoolean();
    private MonitorServer server;
    private TrapListener traps;
    private long cycle;
    private boolean discoverNow;

    /**
     * A monitor sending its MADs through {@code transport} (which it closes with itself); nothing
     * is sent before {@link #start()} or {@link #cycle()}.
     */
    public FabricMonitor(MonitorConfig config, MadTransport transport, PrintStream log) {
        this.config = config;
        this.log = log;
        this.engine = new MadEngine(transport, config.maxOutstanding());
        engine.tracer(new MadTracer() {
            @Override
            public void sent(byte[] mad, MadAddress to) {
                madsSent.incrementAndGet();
            }

            @Override
            public void timeout(byte[] request, MadAddress to, int attempts) {
                madsLost.incrementAndGet();
            }
        });
        this.smp = new SmpClient(engine, config.timeout(), config.retries(), 0);
        this.gmp = new GmpClient(engine, config.timeout(), config.retries());
        this.state = new FabricState(config.thresholds(), config.forgetAfter().toMillis());
    }

    /**
     * Runs the first cycle, subscribes to the SM's traps (unless configured off; without an SA that
     * answers, the monitor goes on without them and says so), starts the HTTP server and schedules
     * the cycles after the first.
     */
    public void start() {
        cycle();
        if (config.traps()) {
            subscribeToTraps();
        }
        server = MonitorServer.start(config.listen(), state);
        log.printf("jrdma-monitor: serving http://%s/ (metrics at /metrics)%n", hostPort());
        long millis = config.interval().toMillis();
        cycles.scheduleWithFixedDelay(this::cycleLogged, millis, millis, TimeUnit.MILLISECONDS);
    }

    private void subscribeToTraps() {
        MadTransactor mt = new MadTransactor(engine, engine.transport().endPort()
                .orElseThrow(() -> new IllegalStateException("the transport has no end port to subscribe to traps from")));
        try {
            traps = TrapListener.subscribe(mt, engine, this::trapped);
            log.println("jrdma-monitor: subscribed to traps " + TrapListener.TRAPS + " with the SA");
        } catch (RdmaException e) {
            log.println("jrdma-monitor: no trap subscriptions (the SA did not take them: " + e.getMessage() + "); topology changes are found by the cycles alone");
        }
    }

    /** A trap came: count it, log it, and rediscover soon (once for a burst of traps) instead of at the next cycle. */
    private void trapped(TrapListener.Trap trap) {
        state.trap(trap.number());
        log.println("jrdma-monitor: trap " + trap.number() + " (" + trap.subject() + ") from LID " + trap.issuerLid());
        if (trapPending.compareAndSet(false, true)) {
            try {
                cycles.schedule(() -> {
                    trapPending.set(false);
                    synchronized (this) {
                        discoverNow = true;
                    }
                    cycleLogged();
                }, TRAP_DELAY_MILLIS, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                // Closing: no more cycles.
            }
        }
    }

    /** The address the HTTP server listens on, {@code host:port}. */
    public String hostPort() {
        return server.hostPort();
    }

    private void cycleLogged() {
        try {
            cycle();
        } catch (RuntimeException e) {
            log.println("jrdma-monitor: cycle failed: " + e);
        }
    }

    /** One cycle: a discovery when due, a counter sweep, a log line. */
    public synchronized void cycle() {
        if (cycle++ % config.discoverEvery() == 0 || state.view().nodes().isEmpty() || discoverNow) {
            discoverNow = false;
            long start = System.nanoTime();
            SubnetDiscovery discovery = SubnetDiscovery.run(smp);
            double seconds = (System.nanoTime() - start) / 1e9;
            List<TopologyEvent> events = state.discovered(FabricView.of(discovery.subnet()), seconds, System.currentTimeMillis());
            events.forEach(e -> log.println("jrdma-monitor: event " + e.kind().label() + ": " + e.text()));
        }
        CounterSweep.Result result = CounterSweep.run(gmp, engine.maxOutstanding() * 4, state.view());
        state.swept(result, System.nanoTime(), System.currentTimeMillis(), madsSent.get(), madsLost.get());
        FabricState.Stats stats = state.stats();
        log.println(String.format(Locale.ROOT, "jrdma-monitor: %s sweep %d: %d nodes, %d links, %d ports read in %.3f s (%d failed), "
                        + "discovery %.3f s, %d ports with errors, MADs sent %d lost %d",
                Instant.ofEpochMilli(stats.lastSweepEndMillis()), stats.sweeps(), state.view().nodes().size(), state.view().links().size(),
                stats.lastPortsRead(), stats.lastSweepSeconds(), stats.lastFailedPorts(), stats.lastDiscoverySeconds(),
                state.portsWithErrors(), stats.madsSent(), stats.madsLost()));
    }

    /** The live model (for the soak and benchmark commands and the tests of this module). */
    FabricState state() {
        return state;
    }

    /** MADs sent so far (every attempt). */
    public long madsSent() {
        return madsSent.get();
    }

    @Override
    public void close() {
        cycles.shutdown();
        RuntimeException failure = null;
        try {
            if (!cycles.awaitTermination(Math.max(30, config.timeout().toSeconds() * 10), TimeUnit.SECONDS)) {
                cycles.shutdownNow();
            }
        } catch (InterruptedException e) {
            cycles.shutdownNow();
            Thread.currentThread().interrupt();
        }
        if (traps != null) {
            traps.close();
        }
        if (server != null) {
            server.close();
        }
        try {
            engine.close();
        } catch (RdmaException e) {
            failure = e;
        }
        if (failure != null) {
            throw failure;
        }
    }
}

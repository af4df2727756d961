package org.jrdma.monitor;

import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
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
 * {@link TopologyEvent}s) and refreshes it cheaply in the cycles between (every switch's NodeInfo
 * and PortInfo, {@link TargetedReads#refresh}; a discovery if that finds a change), then reads PortCounters and PortCountersExtended of every port in
 * parallel ({@link CounterSweep}), and logs one line. {@link #close()} stops the cycles (waiting
 * for the one under way), the trap subscriptions, the server and the engine. With traps on, the
 * Reports the SA forwards (traps 64, 65, 128 and 144) are handled {@value #TRAP_DELAY_MILLIS} ms
 * after the first of a burst rather than at the next cycle: what each names is re-read
 * ({@link TargetedReads}: a switch's NodeInfo and PortInfo, the node beyond a port come up), and only
 * what cannot be told that way brings a full discovery.
 */
public final class FabricMonitor implements AutoCloseable {
    /** How long after a trap its re-read starts, so that a burst of traps (one per port of a link) is handled at once. */
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
    private final ConcurrentLinkedQueue<TrapListener.Trap> pendingTraps = new ConcurrentLinkedQueue<>();
    private final TargetedReads rereads;
    private long discoveryMads;
    private long rereadMads;
    private long refreshMads;
    private MonitorServer server;
    private TrapListener traps;
    private long cycle;

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
        this.rereads = new TargetedReads(smp);
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

    /** A trap came: count it, log it, and re-read what it names soon (with the rest of its burst) instead of at the next cycle. */
    private void trapped(TrapListener.Trap trap) {
        state.trap(trap.number());
        log.println("jrdma-monitor: trap " + trap.number() + " (" + trap.subject() + ") from LID " + trap.issuerLid());
        pendingTraps.add(trap);
        if (trapPending.compareAndSet(false, true)) {
            try {
                cycles.schedule(() -> {
                    trapPending.set(false);
                    try {
                        handleTraps();
                    } catch (RuntimeException e) {
                        log.println("jrdma-monitor: handling traps failed: " + e);
                    }
                }, TRAP_DELAY_MILLIS, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                // Closing: no more cycles.
            }
        }
    }

    /**
     * Re-reads what the pending traps name, one after the other on the model, or discovers the
     * whole subnet if one of them names what a re-read cannot tell (or a read fails).
     */
    private synchronized void handleTraps() {
        List<TrapListener.Trap> traps = new ArrayList<>();
        for (TrapListener.Trap t; (t = pendingTraps.poll()) != null; ) {
            traps.add(t);
        }
        if (traps.isEmpty()) {
            return;
        }
        long start = System.nanoTime();
        long sentBefore = madsSent.get();
        FabricView view = state.view();
        String why = "they name what a re-read cannot tell";
        try {
            for (TrapListener.Trap trap : traps) {
                view = view.nodes().isEmpty() ? null : rereads.reread(view, trap).orElse(null);
                if (view == null) {
                    break;
                }
            }
        } catch (RdmaException e) {
            view = null;
            why = "a re-read failed (" + e.getMessage() + ")";
        }
        List<Integer> numbers = traps.stream().map(TrapListener.Trap::number).toList();
        if (view == null) {
            log.println("jrdma-monitor: traps " + numbers + ": " + why + "; discovering the subnet");
            discover();
            return;
        }
        rereadMads = madsSent.get() - sentBefore;
        List<TopologyEvent> events = state.discovered(view, (System.nanoTime() - start) / 1e9, System.currentTimeMillis());
        log.println(String.format(Locale.ROOT, "jrdma-monitor: traps %s re-read with %d MADs in %.3f s (the last full discovery took %d MADs)",
                numbers, rereadMads, (System.nanoTime() - start) / 1e9, discoveryMads));
        events.forEach(e -> log.println("jrdma-monitor: event " + e.kind().label() + ": " + e.text()));
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
        if (cycle++ % config.discoverEvery() == 0 || state.view().nodes().isEmpty()) {
            discover();
        } else {
            refresh();
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

    /** A full directed-route discovery of the subnet, taken into the model (its changes logged as events). */
    private void discover() {
        long start = System.nanoTime();
        long sentBefore = madsSent.get();
        SubnetDiscovery discovery = SubnetDiscovery.run(smp);
        discoveryMads = madsSent.get() - sentBefore;
        rereads.discovered(discovery.subnet());
        double seconds = (System.nanoTime() - start) / 1e9;
        List<TopologyEvent> events = state.discovered(FabricView.of(discovery.subnet()), seconds, System.currentTimeMillis());
        events.forEach(e -> log.println("jrdma-monitor: event " + e.kind().label() + ": " + e.text()));
    }

    /**
     * The cheap refresh of a cycle without a discovery: every switch's NodeInfo and PortInfo re-read
     * by directed route; if that finds a link or node gone or new, or a read fails, a full discovery.
     */
    private void refresh() {
        long start = System.nanoTime();
        long sentBefore = madsSent.get();
        FabricView before = state.view();
        FabricView now;
        try {
            now = rereads.refresh(before).orElse(null);
        } catch (RdmaException e) {
            now = null;
        }
        refreshMads = madsSent.get() - sentBefore;
        if (now == null || !now.nodes().keySet().equals(before.nodes().keySet()) || !linkIds(now).equals(linkIds(before))) {
            log.println("jrdma-monitor: the refresh found a change: discovering the subnet");
            discover();
            return;
        }
        state.discovered(now, (System.nanoTime() - start) / 1e9, System.currentTimeMillis())
                .forEach(e -> log.println("jrdma-monitor: event " + e.kind().label() + ": " + e.text()));
    }

    private static Set<String> linkIds(FabricView view) {
        return view.links().stream().map(FabricView.LinkView::id).collect(Collectors.toSet());
    }

    /** MADs the last refresh sent (its reads, not the discovery a change brings). */
    synchronized long refreshMads() {
        return refreshMads;
    }

    /** MADs the last full discovery sent. */
    synchronized long discoveryMads() {
        return discoveryMads;
    }

    /** MADs the last re-read after traps sent (0 before any). */
    synchronized long rereadMads() {
        return rereadMads;
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

package org.jrdma.monitor;

import java.io.File;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Callable;
import org.jrdma.Rdma;
import org.jrdma.iba.Mad;
import org.jrdma.mad.MadTransport;
import org.jrdma.mad.sim.IbsimTransport;
import org.jrdma.mad.umad.UmadDevice;
import org.jrdma.mad.umad.UmadPortChoice;
import org.jrdma.mad.umad.UmadTransport;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code jrdma-monitor}: runs a {@link FabricMonitor} until interrupted (Ctrl-C or SIGTERM stop it
 * cleanly), or for {@code --soak MINUTES} printing how it holds up, or {@code --bench N} timing N
 * discoveries and counter sweeps. Options come from the command line and, below them, from a
 * properties file ({@code --config FILE}: one {@code option=value} line per long option, without
 * the dashes, e.g. {@code interval=30s}).
 */
@Command(name = "jrdma-monitor", mixinStandardHelpOptions = true,
        description = "Monitor an InfiniBand fabric: live topology, counter sweeps, Prometheus /metrics, JSON API and a web view.")
public final class MonitorCommand implements Callable<Integer> {
    @Option(names = "--config", paramLabel = "FILE", description = "properties file with option defaults (option=value, long names without dashes)")
    Path config;

    @Option(names = "--sim", arity = "0..1", paramLabel = "SOCKNAME", fallbackValue = "",
            description = "attach to an ibsim simulated fabric; SOCKNAME defaults to $IBSIM_SOCKNAME, else \"sim\"")
    String sim;

    @Option(names = "--sim-node", paramLabel = "NODE", description = "the simulated node to attach at (default: $SIM_HOST, else ibsim's first node)")
    String simNode;

    @Option(names = {"-C", "--Ca"}, paramLabel = "CA", description = "the RDMA device whose umad port to use (default: the first with an active port)")
    String ca;

    @Option(names = {"-P", "--Port"}, paramLabel = "PORT", description = "the port of that device")
    int port;

    @Option(names = "--listen", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:" + MonitorConfig.DEFAULT_PORT,
            description = "where the HTTP server listens (default: ${DEFAULT-VALUE}, loopback only)")
    String listen;

    @Option(names = "--interval", paramLabel = "DURATION", defaultValue = "10s", description = "time between cycles, e.g. 10s, 500ms, 1m (default: ${DEFAULT-VALUE})")
    String interval;

    @Option(names = "--discover-every", paramLabel = "N", defaultValue = "1", description = "rediscover the topology every N cycles, refreshing it cheaply (PortInfo of every switch) in the cycles between (default: ${DEFAULT-VALUE})")
    int discoverEvery;

    @Option(names = {"-t", "--timeout"}, paramLabel = "MS", defaultValue = "200", description = "timeout of each MAD in ms (default: ${DEFAULT-VALUE})")
    int timeoutMillis;

    @Option(names = "--retries", defaultValue = "2", description = "resends of an unanswered MAD (default: ${DEFAULT-VALUE})")
    int retries;

    @Option(names = "--max-outstanding", paramLabel = "N", defaultValue = "64", description = "MADs in flight at once (default: ${DEFAULT-VALUE})")
    int maxOutstanding;

    @Option(names = "--threshold-file", paramLabel = "FILE", description = "ibqueryerrors' error thresholds (default: /etc/infiniband-diags/error_thresholds)")
    Path thresholdFile = ErrorThresholds.DEFAULT_FILE;

    @Option(names = "--forget-after", paramLabel = "DURATION", defaultValue = "24h", description = "how long a node or link that went away is still shown (default: ${DEFAULT-VALUE})")
    String forgetAfter;

    @Option(names = "--traps", negatable = true, defaultValue = "true", description = "subscribe to the SM's traps 64, 65, 128, 144 and rediscover on each (default: on)")
    boolean traps;

    @Option(names = "--soak", paramLabel = "MINUTES", description = "run this long without the HTTP server, printing sweep time, MADs/s, heap after GC and lost MADs each cycle")
    Double soakMinutes;

    @Option(names = "--bench", paramLabel = "N", description = "run N cycles back to back without the HTTP server and print their times")
    Integer benchCycles;

    private final PrintStream out;

    MonitorCommand(PrintStream out) {
        this.out = out;
    }

    /** Runs the command line and exits with its status. */
    public static void main(String[] args) {
        System.exit(run(System.out, args));
    }

    /** Runs the command line, options below it from {@code --config}'s file, and returns the exit status. */
    static int run(PrintStream out, String... args) {
        CommandLine line = new CommandLine(new MonitorCommand(out));
        for (int i = 0; i < args.length - 1; i++) {
            if (args[i].equals("--config")) {
                File file = new File(args[i + 1]);
                if (!file.isFile()) {
                    System.err.println("jrdma-monitor: --config: no file " + file);
                    return 2;
                }
                line.setDefaultValueProvider(new CommandLine.PropertiesDefaultProvider(file));
            }
        }
        return line.execute(args);
    }

    @Override
    public Integer call() throws Exception {
        MonitorConfig monitorConfig = new MonitorConfig(address(listen), duration(interval), discoverEvery, Duration.ofMillis(timeoutMillis),
                retries, maxOutstanding, ErrorThresholds.read(thresholdFile), duration(forgetAfter), traps);
        try (FabricMonitor monitor = new FabricMonitor(monitorConfig, openTransport(), out)) {
            if (soakMinutes != null) {
                soak(monitor, monitorConfig, Duration.ofMillis((long) (soakMinutes * 60_000)));
            } else if (benchCycles != null) {
                bench(monitor, benchCycles);
            } else {
                CountDownLatch stop = new CountDownLatch(1);
                Thread hook = new Thread(stop::countDown, "jrdma-monitor-shutdown");
                Runtime.getRuntime().addShutdownHook(hook);
                monitor.start();
                stop.await();
                out.println("jrdma-monitor: stopping");
            }
        }
        return 0;
    }

    /** Cycles for {@code length}, each {@code interval} apart, with a line per cycle on how the monitor holds up. */
    private void soak(FabricMonitor monitor, MonitorConfig config, Duration length) throws InterruptedException {
        long end = System.nanoTime() + length.toNanos();
        long start = System.nanoTime();
        long lastSent = 0;
        long lastNanos = start;
        out.println("elapsed_s sweep_s discovery_s ports mads_per_s heap_after_gc_mb mads_lost");
        do {
            monitor.cycle();
            System.gc();
            long now = System.nanoTime();
            FabricState.Stats stats = monitor.state().stats();
            long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            out.println(String.format(Locale.ROOT, "%9.1f %7.3f %11.3f %5d %10.0f %16.1f %9d", (now - start) / 1e9, stats.lastSweepSeconds(),
                    stats.lastDiscoverySeconds(), stats.lastPortsRead(), (stats.madsSent() - lastSent) / ((now - lastNanos) / 1e9),
                    heap / 1048576.0, stats.madsLost()));
            lastSent = stats.madsSent();
            lastNanos = now;
            long sleep = Math.min(config.interval().toNanos(), end - System.nanoTime());
            if (sleep > 0) {
                Thread.sleep(Duration.ofNanos(sleep));
            }
        } while (System.nanoTime() < end);
    }

    private void bench(FabricMonitor monitor, int cycles) {
        for (int i = 0; i < cycles; i++) {
            monitor.cycle();
            FabricState.Stats stats = monitor.state().stats();
            out.println(String.format(Locale.ROOT, "cycle %d: %d nodes, discovery %.3f s; counter sweep of %d ports %.3f s (%d MADs sent, %d lost)",
                    i + 1, monitor.state().view().nodes().size(), stats.lastDiscoverySeconds(), stats.lastPortsRead(), stats.lastSweepSeconds(),
                    stats.madsSent(), stats.madsLost()));
        }
    }

    private MadTransport openTransport() {
        if (sim != null) {
            String socket = !sim.isEmpty() ? sim : System.getenv().getOrDefault("IBSIM_SOCKNAME", "sim");
            return IbsimTransport.attach(socket, simNode != null ? simNode : System.getenv("SIM_HOST"));
        }
        UmadPortChoice choice = UmadPortChoice.choose(Rdma.getDevices(), ca, port)
                .orElseThrow(() -> new CommandLine.ParameterException(new CommandLine(this), "no RDMA port that is up" + (ca == null ? "" : " on " + ca)));
        UmadTransport transport = UmadTransport.open(UmadDevice.find(choice.caName(), choice.port()), Duration.ofMillis(timeoutMillis));
        transport.registerClient(Mad.CLASS_SUBN_LID_ROUTED, 1);
        transport.registerClient(Mad.CLASS_SUBN_DIRECTED_ROUTE, 1);
        return transport;
    }

    /** {@code HOST:PORT}, {@code :PORT} (loopback) or {@code PORT}. */
    static InetSocketAddress address(String text) throws UnknownHostException {
        int colon = text.lastIndexOf(':');
        String host = colon < 0 ? "" : text.substring(0, colon);
        int number = Integer.parseInt(text.substring(colon + 1));
        InetAddress address = host.isEmpty() ? InetAddress.getLoopbackAddress() : InetAddress.getByName(host.replaceAll("^\\[|]$", ""));
        return new InetSocketAddress(address, number);
    }

    /** A duration written {@code 500ms}, {@code 10s}, {@code 5m}, {@code 24h}, or an ISO-8601 {@code PT10S}. */
    static Duration duration(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        if (t.startsWith("pt") || t.startsWith("p")) {
            return Duration.parse(text.strip());
        }
        int split = 0;
        while (split < t.length() && (Character.isDigit(t.charAt(split)) || t.charAt(split) == '.')) {
            split++;
        }
        if (split == 0) {
            throw new IllegalArgumentException("not a duration: " + text);
        }
        double value = Double.parseDouble(t.substring(0, split));
        long millis = switch (t.substring(split)) {
            case "ms" -> (long) value;
            case "s", "" -> (long) (value * 1000);
            case "m", "min" -> (long) (value * 60_000);
            case "h" -> (long) (value * 3_600_000);
            default -> throw new IllegalArgumentException("not a duration: " + text + " (use ms, s, m or h)");
        };
        return Duration.ofMillis(millis);
    }
}

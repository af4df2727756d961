package org.jrdma.testkit.fabric;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.jrdma.testkit.Executables;

/**
 * A running simulated InfiniBand fabric: an {@code ibsim} process modelling every switch, channel
 * adapter and link of a {@link Topology}, and, unless disabled, an OpenSM subnet manager that has
 * swept it (LIDs assigned, forwarding tables set, the subnet administrator answering).
 *
 * <p>Clients reach the fabric through ibsim's client protocol on abstract-namespace Unix datagram
 * sockets named after {@link #socketName()}: nothing listens on any network address, and several
 * fabrics can run side by side. The C tools attach by preloading {@code libumad2sim.so} (see
 * {@link #clientEnvironment(String)}); {@link #run(String...)} does that for you.
 *
 * <p>Every process is bounded: ibsim and OpenSM run under {@code timeout} with the fabric's
 * maximum lifetime, so they stop by themselves even if the JVM dies; {@link #close()} stops them at
 * once and deletes the working folder. Closing twice is harmless.
 */
public final class Fabric implements AutoCloseable {
    /** Where Debian's ibsim-utils installs the umad-to-ibsim shim. */
    public static final Path UMAD2SIM = Path.of("/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so");
    private static final Duration TOOL_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration POLL = Duration.ofMillis(100);
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private final Topology topology;
    private final Options options;
    private final Path workDir;
    private final String socketName;
    private final List<Process> processes = new ArrayList<>();
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * How to start a fabric.
     *
     * @param subnetManager  whether to run OpenSM and wait until the SA answers
     * @param startupTimeout how long ibsim and OpenSM may take to come up
     * @param maxLifetime    after this the processes stop by themselves
     */
    public record Options(boolean subnetManager, Duration startupTimeout, Duration maxLifetime) {
        /** OpenSM on, 60 s to come up, 30 min at most. */
        public static Options defaults() {
            return new Options(true, Duration.ofSeconds(60), Duration.ofMinutes(30));
        }

        /** These options with OpenSM on or off. */
        public Options withSubnetManager(boolean on) {
            return new Options(on, startupTimeout, maxLifetime);
        }
    }

    private Fabric(Topology topology, Options options, Path workDir) {
        this.topology = topology;
        this.options = options;
        this.workDir = workDir;
        this.socketName = "jrdma" + ProcessHandle.current().pid() + "-" + SEQUENCE.incrementAndGet();
    }

    /** Whether ibsim, OpenSM, the umad2sim shim and the C diagnostics are installed. */
    public static boolean isAvailable() {
        return unavailabilityCause().isEmpty();
    }

    /** What is missing to run a simulated fabric, or empty when nothing is. */
    public static Optional<String> unavailabilityCause() {
        List<String> missing = new ArrayList<>();
        if (!Executables.isInstalled("ibsim") || !Files.isReadable(UMAD2SIM)) {
            missing.add("ibsim and " + UMAD2SIM + " (apt-get install ibsim-utils libumad2sim0)");
        }
        if (!Executables.isInstalled("opensm")) {
            missing.add("opensm (apt-get install opensm)");
        }
        if (!Executables.isInstalled("saquery")) {
            missing.add("saquery (apt-get install infiniband-diags)");
        }
        return missing.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", missing));
    }

    /** Starts a fabric with the default options. */
    public static Fabric start(Topology topology) {
        return start(topology, Options.defaults());
    }

    /**
     * Starts ibsim on the topology and, if asked, OpenSM, and waits until they are ready.
     *
     * @throws FabricException if a process dies or is not ready within the startup timeout
     */
    public static Fabric start(Topology topology, Options options) {
        Path dir;
        try {
            dir = Files.createTempDirectory("jrdma-fabric-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Fabric fabric = new Fabric(topology, options, dir);
        try {
            fabric.startIbsim();
            if (options.subnetManager()) {
                fabric.startOpenSm();
            }
            return fabric;
        } catch (RuntimeException e) {
            try {
                fabric.close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** The topology being simulated. */
    public Topology topology() {
        return topology;
    }

    /** The base name of ibsim's sockets, passed to clients as {@code IBSIM_SOCKNAME}. */
    public String socketName() {
        return socketName;
    }

    /** The working folder holding the topology, logs and OpenSM's files; deleted by {@link #close()}. */
    public Path workDir() {
        return workDir;
    }

    /** Whether OpenSM runs on this fabric. */
    public boolean hasSubnetManager() {
        return options.subnetManager();
    }

    /**
     * The environment a libibumad program needs to attach to this fabric.
     *
     * @param node the topology node to attach at, or null for the first node
     */
    public Map<String, String> clientEnvironment(String node) {
        Map<String, String> env = new HashMap<>();
        env.put("LD_PRELOAD", UMAD2SIM.toString());
        env.put("IBSIM_SOCKNAME", socketName);
        env.put("OSM_TMP_DIR", workDir.toString());
        env.put("OSM_CACHE_DIR", workDir.toString());
        if (node != null) {
            topology.node(node);
            env.put("SIM_HOST", node);
        }
        return env;
    }

    /** Runs a libibumad program (for example {@code smpquery}) attached at the first node. */
    public ToolResult run(String... command) {
        return runAt(null, command);
    }

    /**
     * Runs a libibumad program attached at a given node, waiting at most a minute for it.
     *
     * @param node    the node name, or null for the first node
     * @param command the program and its arguments
     */
    public ToolResult runAt(String node, String... command) {
        return runAt(node, TOOL_TIMEOUT, List.of(command));
    }

    /** Runs a libibumad program attached at a given node, waiting at most {@code timeout}. */
    public ToolResult runAt(String node, Duration timeout, List<String> command) {
        checkOpen();
        // libumad2sim writes a fake sysfs tree into ./sys-<pid>, so tools run inside the working folder.
        ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile());
        pb.environment().putAll(clientEnvironment(node));
        pb.redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        try {
            Process p = pb.start();
            CompletableFuture<String> out = drain(p.getInputStream());
            CompletableFuture<String> err = drain(p.getErrorStream());
            boolean finished = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!finished) {
                p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
            return new ToolResult(command, finished ? p.exitValue() : ToolResult.TIMED_OUT, out.join(), err.join());
        } catch (IOException e) {
            throw new FabricException("cannot run " + command + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FabricException("interrupted while running " + command, e);
        }
    }

    /** Stops OpenSM and ibsim and deletes the working folder. Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        RuntimeException failure = null;
        for (Process p : processes.reversed()) {
            try {
                stop(p);
            } catch (RuntimeException e) {
                failure = addTo(failure, e);
            }
        }
        try {
            deleteTree(workDir);
        } catch (RuntimeException e) {
            failure = addTo(failure, e);
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** The processes this fabric runs (ibsim first, then OpenSM), for tests of its lifecycle. */
    public List<ProcessHandle> processes() {
        return processes.stream().map(Process::toHandle).toList();
    }

    private void startIbsim() {
        Path topo = workDir.resolve("topology.net");
        write(topo, topology.text());
        Path log = workDir.resolve("ibsim.log");
        List<String> command = new ArrayList<>(List.of("ibsim", "-n"));
        command.addAll(capacity(topology));
        command.addAll(List.of("-s", topo.toString()));
        Process p = launch(command, Map.of("IBSIM_SOCKNAME", socketName), log);
        awaitLog(p, log, "Network simulator ready", "ibsim");
    }

    /**
     * ibsim's table sizes ({@code -N} nodes, {@code -S} switches, {@code -P} ports) when the topology
     * needs more than its defaults (2048, 256, 13312), so large fabrics load.
     */
    static List<String> capacity(Topology topology) {
        int nodes = topology.nodes().size();
        int switches = topology.nodes(Topology.NodeType.SWITCH).size();
        int ports = topology.nodes().stream().mapToInt(n -> n.ports() + 1).sum();
        List<String> flags = new ArrayList<>();
        if (nodes > 2048) {
            flags.addAll(List.of("-N", Integer.toString(nodes + 64)));
        }
        if (switches > 256) {
            flags.addAll(List.of("-S", Integer.toString(switches + 16)));
        }
        if (ports > 13312) {
            flags.addAll(List.of("-P", Integer.toString(ports + 256)));
        }
        return flags;
    }

    private void startOpenSm() {
        Path out = workDir.resolve("opensm.out");
        Path log = workDir.resolve("opensm.log");
        // OpenSM buffers its log file; without this "SUBNET UP" reaches the file only when the buffer fills.
        Path conf = workDir.resolve("opensm.conf");
        write(conf, "force_log_flush TRUE\n");
        Process p = launch(List.of("opensm", "-F", conf.toString(), "-f", log.toString()), clientEnvironment(null), out);
        awaitLog(p, log, "SUBNET UP", "OpenSM");
        Instant deadline = Instant.now().plus(options.startupTimeout());
        ToolResult probe;
        do {
            probe = runAt(null, Duration.ofSeconds(10), List.of("saquery", "-s"));
            if (probe.succeeded()) {
                return;
            }
            sleep();
        } while (Instant.now().isBefore(deadline));
        throw new FabricException("OpenSM swept the subnet but the SA did not answer within "
                + options.startupTimeout() + ": " + probe.stderr() + tail(log));
    }

    private Process launch(List<String> command, Map<String, String> env, Path log) {
        List<String> bounded = new ArrayList<>(List.of("timeout", "-k", "5", options.maxLifetime().toSeconds() + "s"));
        bounded.addAll(command);
        ProcessBuilder pb = new ProcessBuilder(bounded).directory(workDir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        pb.environment().putAll(env);
        try {
            Process p = pb.start();
            processes.add(p);
            return p;
        } catch (IOException e) {
            throw new FabricException("cannot start " + command.getFirst() + ": " + e.getMessage(), e);
        }
    }

    private void awaitLog(Process p, Path log, String marker, String what) {
        Instant deadline = Instant.now().plus(options.startupTimeout());
        while (Instant.now().isBefore(deadline)) {
            if (readQuietly(log).contains(marker)) {
                return;
            }
            if (!p.isAlive()) {
                throw new FabricException(what + " exited with status " + p.exitValue() + " before it was ready"
                        + " (topology " + topology.source() + ")" + tail(log));
            }
            sleep();
        }
        throw new FabricException(what + " was not ready within " + options.startupTimeout() + tail(log));
    }

    private void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException("fabric " + socketName + " is closed");
        }
    }

    private static void stop(Process p) {
        p.destroy();
        try {
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
        }
    }

    private static CompletableFuture<String> drain(InputStream in) {
        CompletableFuture<String> result = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try (in) {
                result.complete(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                result.completeExceptionally(e);
            }
        });
        return result;
    }

    private static String tail(Path log) {
        String text = readQuietly(log);
        String[] lines = text.split("\n");
        int from = Math.max(0, lines.length - 30);
        return "\n--- last lines of " + log + " ---\n" + String.join("\n", java.util.Arrays.copyOfRange(lines, from, lines.length));
    }

    private static String readQuietly(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.ISO_8859_1) : "";
        } catch (IOException e) {
            return "";
        }
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(POLL);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FabricException("interrupted while waiting for the fabric", e);
        }
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }

    private static RuntimeException addTo(RuntimeException first, RuntimeException next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }
}

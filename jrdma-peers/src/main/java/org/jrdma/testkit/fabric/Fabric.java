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
 * <p>Faults are injected through ibsim's operator console, which the fabric keeps open on ibsim's
 * standard input: {@link #error dropped MADs}, {@link #unlink unplugged} and {@link #relink
 * replugged} links, {@link #baselid changed LIDs}, {@link #performanceSet set performance
 * counters} and {@link #guid changed GUIDs}. Each of these returns once ibsim has applied the
 * change, and throws {@link FabricException} with ibsim's reason when ibsim refuses it. The subnet
 * manager can be {@link #stopSubnetManager() stopped}, {@link #startSubnetManager() started} and
 * {@link #restartSubnetManager() restarted}, and a {@link #startStandbySubnetManager(String) standby}
 * can be attached elsewhere to take over when the master stops.
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
    /** How long ibsim may take to apply a console command; it applies them at once unless stuck. */
    private static final Duration CONSOLE_TIMEOUT = Duration.ofSeconds(10);
    /** The master OpenSM's priority (sm_priority, 0..15); a standby runs at 0. */
    private static final int MASTER_PRIORITY = 1;
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private final Topology topology;
    private final Options options;
    private final Path workDir;
    private final String socketName;
    private final List<Process> processes = new ArrayList<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicInteger subnetManagerStarts = new AtomicInteger();
    private IbsimConsole console;
    private Process subnetManager;

    /**
     * How to start a fabric.
     *
     * @param subnetManager  whether to run OpenSM and wait until the SA answers
     * @param startupTimeout how long ibsim and OpenSM may take to come up
     * @param maxLifetime    after this the processes stop by themselves
     * @param sweepSeconds   the master OpenSM's {@code sweep_interval}: seconds between its light
     *                       sweeps (OpenSM's default 10), or 0 for none after the first (it still
     *                       sweeps on a trap)
     */
    public record Options(boolean subnetManager, Duration startupTimeout, Duration maxLifetime, int sweepSeconds) {
        /** OpenSM's default sweep interval. */
        public static final int DEFAULT_SWEEP_SECONDS = 10;

        public Options {
            if (sweepSeconds < 0) {
                throw new IllegalArgumentException("sweep interval " + sweepSeconds + " s is negative");
            }
        }

        /** The options with OpenSM's default sweep interval. */
        public Options(boolean subnetManager, Duration startupTimeout, Duration maxLifetime) {
            this(subnetManager, startupTimeout, maxLifetime, DEFAULT_SWEEP_SECONDS);
        }

        /** OpenSM on, 60 s to come up, 30 min at most, a light sweep every 10 s. */
        public static Options defaults() {
            return new Options(true, Duration.ofSeconds(60), Duration.ofMinutes(30));
        }

        /** These options with OpenSM on or off. */
        public Options withSubnetManager(boolean on) {
            return new Options(on, startupTimeout, maxLifetime, sweepSeconds);
        }

        /**
         * These options with another sweep interval: 0 keeps the subnet as OpenSM's first sweep
         * configured it while faults are injected, where OpenSM's own sweeps under loss would
         * change it (on ibsim's 2,144-node fat tree at 1 % loss, within 25 s the routes to a leaf
         * were lost and the SA stopped answering).
         */
        public Options withSweepSeconds(int seconds) {
            return new Options(subnetManager, startupTimeout, maxLifetime, seconds);
        }

        /** These options with other time limits. */
        public Options withTimes(Duration startup, Duration lifetime) {
            return new Options(subnetManager, startup, lifetime, sweepSeconds);
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

    /**
     * Makes a port drop MADs at random, as a lossy link or a flaky port would: each MAD that
     * reaches the port is lost with probability {@code rate} percent (ibsim's {@code Error}
     * command). A switch answers SMPs at its port 0, so {@code error("sw1", 0, 100)} silences the
     * switch itself, while a rate on an external port loses what arrives through that port. Rate 0
     * heals the port.
     *
     * @param node a node of the {@link #topology()}
     * @param port 1..ports, or 0 for a switch's management port
     * @param rate the percentage of MADs dropped, 0..100
     * @throws IllegalArgumentException if the node is not in the topology or the port or rate is out of range
     */
    public void error(String node, int port, int rate) {
        error(node, port, rate, 0);
    }

    /**
     * Like {@link #error(String, int, int)}, but dropping only MADs of one attribute (for example
     * 0x15 PortInfo, 0x11 NodeInfo) among those the port answers; other MADs pass.
     *
     * @param attributeId the attribute ID, 1..0xFFFF, or 0 for every attribute
     */
    public void error(String node, int port, int rate, int attributeId) {
        requirePort(node, port, true);
        if (rate < 0 || rate > 100) {
            throw new IllegalArgumentException("error rate " + rate + " is not a percentage 0..100");
        }
        if (attributeId < 0 || attributeId > 0xFFFF) {
            throw new IllegalArgumentException("attribute ID " + attributeId + " is not 0..0xFFFF");
        }
        console(String.format("Error %s %d 0x%x", portId(node, port), rate, attributeId));
    }

    /**
     * Unplugs every cabled port of a node (ibsim's {@code Unlink}): the ports and their peers go
     * Down/Polling and the switches at either end send trap 128 to the subnet manager. {@link
     * #relink(String)} plugs them back.
     *
     * @throws IllegalArgumentException if the node is not in the topology
     */
    public void unlink(String node) {
        requireNode(node);
        console("Unlink " + quoted(node));
    }

    /**
     * Unplugs the cable at one port (ibsim's {@code Unlink}); both ends go Down/Polling.
     *
     * @param port 1..ports
     * @throws FabricException if the port is not cabled
     */
    public void unlink(String node, int port) {
        requirePort(node, port, false);
        console("Unlink " + portId(node, port));
    }

    /**
     * Plugs back every cable {@link #unlink unlinked} at a node (ibsim's {@code ReLink}). The
     * ports come back physically up and logically Init: the subnet manager makes them Active at
     * its next sweep.
     */
    public void relink(String node) {
        requireNode(node);
        console("ReLink " + quoted(node));
    }

    /**
     * Plugs back the cable {@link #unlink(String, int) unlinked} at one port.
     *
     * @throws FabricException if that port was not unlinked
     */
    public void relink(String node, int port) {
        requirePort(node, port, false);
        console("ReLink " + portId(node, port));
    }

    /**
     * Changes a port's base LID behind the subnet manager's back (ibsim's {@code Baselid}), as a
     * misbehaving agent would; the subnet manager may set it back at a later sweep.
     *
     * @param port 1..ports for a channel adapter, 0 for a switch (its LID is port 0's)
     * @param lid  a unicast LID, 1..0xBFFF
     */
    public void baselid(String node, int port, int lid) {
        baselid(node, port, lid, 0);
    }

    /**
     * Changes a port's base LID and, if {@code lmc} is positive, its LMC. ibsim keeps the LMC
     * when {@code lmc} is 0.
     *
     * @param lmc 0..7
     */
    public void baselid(String node, int port, int lid, int lmc) {
        requirePort(node, port, true);
        if (lid < 1 || lid > 0xBFFF) {
            throw new IllegalArgumentException("LID " + lid + " is not a unicast LID 1..0xBFFF");
        }
        if (lmc < 0 || lmc > 7) {
            throw new IllegalArgumentException("LMC " + lmc + " is not 0..7");
        }
        console(String.format("Baselid %s %d %d", portId(node, port), lid, lmc));
    }

    /**
     * Sets one performance counter of a port (ibsim's {@code PerformanceSet}), as
     * {@code perfquery} will then read it.
     *
     * @param port      1..ports (a switch's port 0 only if it has enhanced port 0)
     * @param attribute the PerfMgt attribute as ibsim names it: {@code PortCounters},
     *                  {@code PortCountersExtended}, {@code PortRcvErrorDetails},
     *                  {@code PortXmitDiscardDetails}, {@code PortOpRcvCounters},
     *                  {@code PortFlowCtlCounters}, {@code PortVLOpPackets}, {@code PortVLOpData},
     *                  {@code PortVLXmitFlowCtlUpdateErrors}, {@code PortVLXmitWaitCounters}
     * @param field     the counter as perfquery names it, e.g. {@code SymbolErrorCounter},
     *                  {@code PortXmitData}, {@code PortVLOpPackets3}
     * @param value     the new value, not negative
     * @return the value ibsim stored: {@code value}, or the counter's maximum if it is narrower
     * @throws FabricException if ibsim does not know the attribute or field
     */
    public long performanceSet(String node, int port, String attribute, String field, long value) {
        requirePort(node, port, true);
        if (!attribute.matches("[A-Za-z]+") || !field.matches("[A-Za-z0-9]+")) {
            throw new IllegalArgumentException("not a counter name: " + attribute + "." + field);
        }
        if (value < 0) {
            throw new IllegalArgumentException("counter value " + value + " is negative");
        }
        String reply = console(String.format("PerformanceSet %s %s.%s=%d", portId(node, port), attribute, field, value));
        return Long.parseLong(reply.substring(reply.lastIndexOf(' ') + 1));
    }

    /**
     * Changes a node's GUID (ibsim's {@code Guid}), as NodeInfo then reports it, as if the node
     * were swapped for another. ibsim derives every port GUID from it (node GUID + port number for
     * a channel adapter's ports, the node GUID for a switch's), so they change with it. The {@link
     * #topology()} keeps the GUID of the file.
     */
    public void guid(String node, long guid) {
        requireNode(node);
        console(String.format("Guid %s 0x%x", quoted(node), guid));
    }

    /**
     * Stops the master OpenSM. The fabric stays as it was configured (LIDs, forwarding tables),
     * but nothing answers SA queries, sweeps or traps until a standby takes over or {@link
     * #startSubnetManager()} runs.
     *
     * @throws IllegalStateException if the fabric runs without a subnet manager or it is stopped already
     */
    public synchronized void stopSubnetManager() {
        checkOpen();
        if (subnetManager == null) {
            throw new IllegalStateException("no subnet manager runs on fabric " + socketName);
        }
        stop(subnetManager);
        processes.remove(subnetManager);
        subnetManager = null;
    }

    /**
     * Starts the master OpenSM again at the first node and waits until it has swept the subnet
     * ("SUBNET UP") and the SA answers.
     *
     * @throws IllegalStateException if the fabric runs without a subnet manager or it runs already
     * @throws FabricException       if it is not up within the startup timeout
     */
    public synchronized void startSubnetManager() {
        checkOpen();
        if (!options.subnetManager()) {
            throw new IllegalStateException("fabric " + socketName + " was started without a subnet manager");
        }
        if (subnetManager != null) {
            throw new IllegalStateException("the subnet manager of fabric " + socketName + " runs already");
        }
        startOpenSm();
    }

    /** {@link #stopSubnetManager() Stops} the master OpenSM and {@link #startSubnetManager() starts} it again. */
    public synchronized void restartSubnetManager() {
        stopSubnetManager();
        startSubnetManager();
    }

    /**
     * Starts a second OpenSM attached at {@code node}, at priority 0 below the master's 1,
     * and waits until it has entered the STANDBY state. It polls the master's
     * SMInfo every second and takes over as master after two unanswered polls, so stopping the
     * master fails over within seconds. It stops with the fabric.
     *
     * @param node a channel adapter of the topology other than the first node
     * @throws IllegalStateException if no master runs
     * @throws FabricException       if it does not become standby within the startup timeout
     */
    public synchronized void startStandbySubnetManager(String node) {
        checkOpen();
        if (requireNode(node).equals(topology.nodes().getFirst())) {
            throw new IllegalArgumentException("the master OpenSM is attached at \"" + node + "\"; attach the standby elsewhere");
        }
        if (subnetManager == null) {
            throw new IllegalStateException("no master subnet manager runs on fabric " + socketName);
        }
        int n = subnetManagerStarts.incrementAndGet();
        Path conf = workDir.resolve("opensm-standby-" + n + ".conf");
        write(conf, "force_log_flush TRUE\nsm_priority 0\nsminfo_polling_timeout 1000\npolling_retry_number 2\n");
        Path log = workDir.resolve("opensm-standby-" + n + ".log");
        Process p = launch(List.of("opensm", "-F", conf.toString(), "-f", log.toString()), clientEnvironment(node),
                workDir.resolve("opensm-standby-" + n + ".out"));
        awaitLog(p, log, "Entering STANDBY state", "standby OpenSM");
    }

    /** Stops OpenSM and ibsim and deletes the working folder. Idempotent. */
    @Override
    public synchronized void close() {
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
        if (console != null) {
            try {
                console.close();
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

    /** The processes this fabric runs (ibsim first, then the OpenSMs), for tests of its lifecycle. */
    public synchronized List<ProcessHandle> processes() {
        return processes.stream().map(Process::toHandle).toList();
    }

    private void startIbsim() {
        Path topo = workDir.resolve("topology.net");
        write(topo, topology.text());
        Path log = workDir.resolve("ibsim.log");
        // Without -n ibsim reads console commands from its standard input, which stays a pipe of ours.
        List<String> command = new ArrayList<>(List.of("ibsim"));
        command.addAll(capacity(topology));
        command.addAll(List.of("-s", topo.toString()));
        ProcessBuilder pb = bounded(command).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().put("IBSIM_SOCKNAME", socketName);
        Process p = start(pb, command);
        console = new IbsimConsole(p, log);
        awaitLog(p, log, "Network simulator ready", "ibsim");
        console.awaitListening(options.startupTimeout());
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
        int n = subnetManagerStarts.incrementAndGet();
        String name = n == 1 ? "opensm" : "opensm-" + n;
        Path out = workDir.resolve(name + ".out");
        Path log = workDir.resolve(name + ".log");
        // OpenSM buffers its log file; without this "SUBNET UP" reaches the file only when the buffer fills.
        Path conf = workDir.resolve(name + ".conf");
        write(conf, "force_log_flush TRUE\nsm_priority " + MASTER_PRIORITY + "\nsweep_interval " + options.sweepSeconds() + "\n");
        Process p = launch(List.of("opensm", "-F", conf.toString(), "-f", log.toString()), clientEnvironment(null), out);
        subnetManager = p;
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
        ProcessBuilder pb = bounded(command).redirectErrorStream(true).redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        pb.environment().putAll(env);
        return start(pb, command);
    }

    /** A process builder running {@code command} under {@code timeout} with the fabric's maximum lifetime. */
    private ProcessBuilder bounded(List<String> command) {
        List<String> bounded = new ArrayList<>(List.of("timeout", "-k", "5", options.maxLifetime().toSeconds() + "s"));
        bounded.addAll(command);
        return new ProcessBuilder(bounded).directory(workDir.toFile());
    }

    private Process start(ProcessBuilder pb, List<String> command) {
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

    /** Runs one ibsim console command and returns its reply, once ibsim has applied it. */
    private String console(String command) {
        checkOpen();
        return console.execute(command, CONSOLE_TIMEOUT);
    }

    private Topology.Node requireNode(String node) {
        if (node == null) {
            throw new IllegalArgumentException("no node named");
        }
        return topology.node(node);
    }

    /** Checks that {@code port} is a port of {@code node}: 1..ports, or 0 on a switch where allowed. */
    private void requirePort(String node, int port, boolean switchPort0) {
        Topology.Node n = requireNode(node);
        int first = switchPort0 && n.type() == Topology.NodeType.SWITCH ? 0 : 1;
        if (port < first || port > n.ports()) {
            throw new IllegalArgumentException("\"" + node + "\" has no port " + port + " (ports " + first + ".." + n.ports() + ")");
        }
    }

    /** A port as ibsim's console names it: {@code "node"[port]}. */
    private static String portId(String node, int port) {
        return quoted(node) + "[" + port + "]";
    }

    private static String quoted(String node) {
        return "\"" + node + "\"";
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

package org.jrdma.monitor;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jrdma.mad.sim.IbsimTransport;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.Topology;
import org.jrdma.testkit.fabric.ToolResult;

/**
 * The counter-sweep benchmark (a program, not a test; {@code bin/bench-monitor} runs it): on the
 * 2,144-node and the 8,384-node fat trees under ibsim and OpenSM, the monitor's cycles (a
 * directed-route discovery, then PortCounters and PortCountersExtended of every port) timed in
 * one warm JVM, next to C {@code ibqueryerrors} (a discovery, then PortCounters of every port) as
 * a whole process at the same node. Arguments: the fat trees as {@code spines,leaves,hosts} (default
 * {@code 32,64,32 64,128,64}). With {@code --soak MINUTES} first, it runs {@code jrdma-monitor --soak
 * MINUTES --interval 10s} on the first fat tree instead (default 30 minutes on the 2,144 nodes).
 */
final class SweepComparison {
    private SweepComparison() {
    }

    public static void main(String[] args) {
        boolean soak = args.length >= 2 && args[0].equals("--soak");
        List<String> trees = List.of(args).subList(soak ? 2 : 0, args.length);
        if (soak) {
            soak(fatTree(trees.isEmpty() ? "32,64,32" : trees.getFirst()), args[1]);
            return;
        }
        for (String tree : trees.isEmpty() ? List.of("32,64,32", "64,128,64") : trees) {
            compare(fatTree(tree));
        }
    }

    private static Topology fatTree(String sizes) {
        String[] n = sizes.split(",");
        return Topology.fatTree(Integer.parseInt(n[0]), Integer.parseInt(n[1]), Integer.parseInt(n[2]));
    }

    private static final Fabric.Options OPTIONS = new Fabric.Options(true, Duration.ofMinutes(10), Duration.ofMinutes(90));

    private static void soak(Topology topology, String minutes) {
        System.out.printf(Locale.ROOT, "fabric: %s: %d nodes, OpenSM as SM; jrdma-monitor --soak %s --interval 10s%n",
                topology.source(), topology.nodes().size(), minutes);
        try (Fabric fabric = Fabric.start(topology, OPTIONS)) {
            String node = topology.nodes(Topology.NodeType.CA).getFirst().name();
            MonitorCommand.run(System.out, "--sim", fabric.socketName(), "--sim-node", node, "--soak", minutes, "--interval", "10s");
        }
    }

    private static void compare(Topology topology) {
        System.out.printf(Locale.ROOT, "%nfabric: %s: %d nodes, OpenSM as SM%n", topology.source(), topology.nodes().size());
        try (Fabric fabric = Fabric.start(topology, OPTIONS)) {
            String node = topology.nodes(Topology.NodeType.CA).getFirst().name();
            MonitorConfig config = MonitorConfig.defaults().withInterval(Duration.ofHours(1));
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            List<Double> sweeps = new ArrayList<>();
            List<Double> discoveries = new ArrayList<>();
            try (FabricMonitor monitor = new FabricMonitor(config, IbsimTransport.attach(fabric.socketName(), node),
                    new PrintStream(log, true, StandardCharsets.UTF_8))) {
                for (int i = 0; i < 4; i++) {
                    monitor.cycle();
                    FabricState.Stats stats = monitor.state().stats();
                    System.out.printf(Locale.ROOT, "jrdma-monitor cycle %d: discovery %.3f s, counter sweep of %d ports %.3f s (%d failed), MADs lost so far %d%n",
                            i + 1, stats.lastDiscoverySeconds(), stats.lastPortsRead(), stats.lastSweepSeconds(), stats.lastFailedPorts(), stats.madsLost());
                    if (i > 0) {
                        sweeps.add(stats.lastSweepSeconds());
                        discoveries.add(stats.lastDiscoverySeconds());
                    }
                }
            }
            List<Double> c = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                long start = System.nanoTime();
                ToolResult result = fabric.runAt(node, Duration.ofMinutes(10), List.of("ibqueryerrors"));
                c.add((System.nanoTime() - start) / 1e9);
                System.out.printf(Locale.ROOT, "C ibqueryerrors run %d: %.3f s (exit %d, %d lines)%n", i + 1, c.getLast(), result.exitCode(),
                        result.stdout().lines().count());
            }
            System.out.printf(Locale.ROOT, "medians: jrdma-monitor discovery %.3f s + sweep %.3f s = %.3f s; C ibqueryerrors (discovery + PortCounters) %.3f s%n",
                    median(discoveries), median(sweeps), median(discoveries) + median(sweeps), median(c));
        }
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }
}

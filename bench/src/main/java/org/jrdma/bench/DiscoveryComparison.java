package org.jrdma.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.jrdma.examples.demo.AotTraining;
import org.jrdma.mad.MadEngine;
import org.jrdma.mad.SmpClient;
import org.jrdma.mad.sim.IbsimTransport;
import org.jrdma.subnet.SubnetDiscovery;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.Topology;

/**
 * Fabric discovery, jrdma against infiniband-diags: on one simulated fat tree (32 spines,
 * 64 leaves, 32 HCAs a leaf: 2,048 HCAs and 96 switches), runs C {@code ibnetdiscover} and
 * {@code ibtool ibnetdiscover} as whole processes, alternately, several rounds, checks they print
 * the same topology, and prints the median wall times, their ratio, and jrdma's discovery time
 * inside an already running JVM.
 *
 * <p>With {@code --aot-cache FILE} first, ibtool is also timed with a JDK AOT cache (JEP 483/514:
 * classes loaded and linked, method profiles kept) recorded by one training run on the same fabric.
 *
 * <p>With {@code --scale} first (before {@code --aot-cache}), the fabric is instead the fat tree of
 * 64 spines and 128 leaves of 64 HCAs each (8,192 HCAs and 192 switches, 8,384 nodes), then the
 * 2,144-node one and the bundled 14-node one, and each tool runs under {@code /usr/bin/time}, which
 * reports the child's user and system CPU and maximum resident set from {@code wait4}'s rusage:
 * the benchmark prints wall, CPU and max RSS medians of each tool and their ratios. ibtool runs
 * twice a round: on ibsim's socket ({@code --sim}, as in the other figures) and, without
 * {@code --sim}, on the kernel umad path that libumad2sim emulates for the process, the way the C
 * tool reaches ibsim, so that the two tools also compete on the same transport.
 *
 * <p>Usage: {@code DiscoveryComparison [--scale] [--aot-cache FILE] <java> <java options...> -jar ibtool.jar};
 * run through {@code bin/bench-discovery}.
 */
public final class DiscoveryComparison {
    private static final int ROUNDS = 7;

    private DiscoveryComparison() {
    }

    public static void main(String[] args) {
        if (args.length == 0) {
            throw new IllegalArgumentException("usage: DiscoveryComparison [--aot-cache FILE] <java> <options...> -jar ibtool.jar");
        }
        boolean scale = args[0].equals("--scale");
        int at = scale ? 1 : 0;
        String aotCache = args[at].equals("--aot-cache") ? args[at + 1] : null;
        List<String> ibtool = List.of(args).subList(at + (aotCache == null ? 0 : 2), args.length);
        if (scale) {
            scale(ibtool, aotCache);
            return;
        }
        Topology topology = Topology.fatTree(32, 64, 32);
        System.out.printf("fabric: %s: %d nodes (%d switches), no subnet manager%n", topology.source(),
                topology.nodes().size(), topology.nodes(Topology.NodeType.SWITCH).size());
        try (Fabric fabric = Fabric.start(topology, Fabric.Options.defaults().withSubnetManager(false))) {
            List<String> c = List.of("ibnetdiscover");
            List<String> j = AotTraining.discover(ibtool, fabric);
            String cOut = run(fabric, c, null);
            String jOut = run(fabric, j, null);
            if (!withoutDate(cOut).equals(withoutDate(jOut))) {
                throw new IllegalStateException("ibtool ibnetdiscover and ibnetdiscover disagree on this fabric");
            }
            System.out.printf("outputs identical (%d lines); %d rounds, each tool once per round, alternating%n",
                    cOut.lines().count(), ROUNDS);
            List<String> aot = null;
            if (aotCache != null) {
                AotTraining.record(fabric, ibtool, aotCache);
                aot = AotTraining.withJvmOption(j, "-XX:AOTCache=" + aotCache);
            }
            long[] cTimes = new long[ROUNDS];
            long[] jTimes = new long[ROUNDS];
            long[] aTimes = new long[ROUNDS];
            for (int r = 0; r < ROUNDS; r++) {
                cTimes[r] = timed(fabric, c);
                jTimes[r] = timed(fabric, j);
                if (aot != null) {
                    aTimes[r] = timed(fabric, aot);
                }
            }
            long inProcess = inProcess(fabric);
            double cMedian = median(cTimes) / 1e6;
            double jMedian = median(jTimes) / 1e6;
            System.out.printf("%-34s %10s %10s%n", "", "median ms", "best ms");
            System.out.printf("%-34s %10.1f %10.1f%n", "C ibnetdiscover (process)", cMedian, Arrays.stream(cTimes).min().orElseThrow() / 1e6);
            System.out.printf("%-34s %10.1f %10.1f%n", "ibtool ibnetdiscover (process)", jMedian, Arrays.stream(jTimes).min().orElseThrow() / 1e6);
            if (aot != null) {
                System.out.printf("%-34s %10.1f %10.1f%n", "ibtool, AOT cache (process)", median(aTimes) / 1e6,
                        Arrays.stream(aTimes).min().orElseThrow() / 1e6);
            }
            System.out.printf("%-34s %10s %10.1f%n", "jrdma discovery (warm JVM)", "", inProcess / 1e6);
            System.out.printf("ratio ibtool/C (median, whole process): %.2f%n", jMedian / cMedian);
            if (aot != null) {
                System.out.printf("ratio ibtool with AOT cache/C (median, whole process): %.2f%n", median(aTimes) / 1e6 / cMedian);
            }
            System.out.printf("ratio warm jrdma discovery/C process: %.2f%n", inProcess / 1e6 / cMedian);
        }
    }

    /**
     * The scale comparison: 8,384, 2,144 and 14 nodes, wall, CPU and max RSS of whole processes,
     * alternating, with ibtool started as {@code bin/ibtool} starts it (with the AOT cache when
     * given, recorded by one training run on the 2,144-node fabric as {@code bin/setup} does).
     */
    private static void scale(List<String> ibtool, String aotCache) {
        System.out.printf("machine: %d CPUs, load average %s%n", Runtime.getRuntime().availableProcessors(), loadAverage());
        if (aotCache != null) {
            try (Fabric fabric = Fabric.start(Topology.fatTree(32, 64, 32), Fabric.Options.defaults().withSubnetManager(false))) {
                AotTraining.record(fabric, ibtool, aotCache);
            }
        }
        compareResources(Topology.fatTree(64, 128, 64), 5, ibtool, aotCache);
        compareResources(Topology.fatTree(32, 64, 32), 5, ibtool, aotCache);
        compareResources(Topology.bundled("fat-tree"), 11, ibtool, aotCache);
        System.out.printf("machine load average after: %s%n", loadAverage());
    }

    /** What {@code /usr/bin/time} measured of one process: wall (ours, by nanoTime), CPU and max RSS. */
    record Usage(long wallNanos, double userSeconds, double systemSeconds, long maxRssKb) {
        double cpuSeconds() {
            return userSeconds + systemSeconds;
        }

        double cpuMillis() {
            return cpuSeconds() * 1e3;
        }

        double wallMillis() {
            return wallNanos / 1e6;
        }

        double rssMb() {
            return maxRssKb / 1024.0;
        }
    }

    private static void compareResources(Topology topology, int rounds, List<String> ibtool, String aotCache) {
        System.out.printf("%nfabric: %s: %d nodes (%d switches), no subnet manager%n", topology.source(),
                topology.nodes().size(), topology.nodes(Topology.NodeType.SWITCH).size());
        try (Fabric fabric = Fabric.start(topology, Fabric.Options.defaults().withSubnetManager(false))) {
            List<String> c = List.of("ibnetdiscover");
            List<String> started = aotCache == null ? ibtool : AotTraining.withJvmOption(ibtool, "-XX:AOTCache=" + aotCache);
            List<String> sim = AotTraining.discover(started, fabric);
            List<String> umad = new ArrayList<>(started);
            umad.add("ibnetdiscover");
            List<List<String>> tools = List.of(c, sim, umad);
            String cOut = withoutDate(run(fabric, c, null));
            for (List<String> tool : tools.subList(1, tools.size())) {
                if (!cOut.equals(withoutDate(run(fabric, tool, null)))) {
                    throw new IllegalStateException(String.join(" ", tool) + " and ibnetdiscover disagree on this fabric");
                }
            }
            System.out.printf("outputs identical (%d lines); %d rounds, each tool once per round, alternating%n",
                    cOut.lines().count(), rounds);
            List<List<Usage>> uses = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
            for (int r = 0; r < rounds; r++) {
                for (int t = 0; t < tools.size(); t++) {
                    uses.get(t).add(measured(fabric, tools.get(t)));
                }
            }
            List<String> names = List.of("C ibnetdiscover", "ibtool ibnetdiscover", "ibtool, umad (umad2sim)");
            System.out.printf("%-24s %12s %22s %12s%n", "medians", "wall ms", "CPU ms (user + sys)", "max RSS MB");
            for (int t = 0; t < tools.size(); t++) {
                List<Usage> u = uses.get(t);
                System.out.printf("%-24s %12.1f %8.0f (%4.0f + %4.0f) %12.1f%n", names.get(t), medianOf(u, Usage::wallMillis),
                        medianOf(u, Usage::cpuMillis), medianOf(u, x -> x.userSeconds() * 1e3),
                        medianOf(u, x -> x.systemSeconds() * 1e3), medianOf(u, Usage::rssMb));
            }
            List<Usage> cUse = uses.getFirst();
            double cCpu = medianOf(cUse, Usage::cpuMillis);
            for (int t = 1; t < tools.size(); t++) {
                List<Usage> u = uses.get(t);
                System.out.printf("%-24s %12.2f %22s %12.2f%n", "ratio " + (t == 1 ? "ibtool" : "umad") + "/C",
                        medianOf(u, Usage::wallMillis) / medianOf(cUse, Usage::wallMillis),
                        cCpu > 0 ? String.format("%.2f", medianOf(u, Usage::cpuMillis) / cCpu) : "(C below 10 ms)",
                        medianOf(u, Usage::rssMb) / medianOf(cUse, Usage::rssMb));
            }
            System.out.printf("wall per round (ms): ibtool %s; umad %s; C %s%n", walls(uses.get(1)), walls(uses.get(2)), walls(cUse));
        }
    }

    /** Runs {@code command} under {@code /usr/bin/time}, which writes the child's rusage to a file. */
    static Usage measured(Fabric fabric, List<String> command) {
        Path report = fabric.workDir().resolve("time.out");
        List<String> timed = new ArrayList<>(List.of("/usr/bin/time", "-f", "%U %S %M", "-o", report.toString()));
        timed.addAll(command);
        long start = System.nanoTime();
        run(fabric, timed, null);
        long wall = System.nanoTime() - start;
        try {
            List<String> lines = Files.readAllLines(report);
            String[] f = lines.getLast().trim().split(" ");
            return new Usage(wall, Double.parseDouble(f[0]), Double.parseDouble(f[1]), Long.parseLong(f[2]));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static double medianOf(List<Usage> usages, ToDoubleFunction<Usage> value) {
        double[] v = usages.stream().mapToDouble(value).sorted().toArray();
        return v[v.length / 2];
    }

    static String walls(List<Usage> usages) {
        return String.join(" ", usages.stream().map(u -> Long.toString(u.wallNanos() / 1_000_000)).toList());
    }

    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static long timed(Fabric fabric, List<String> command) {
        long start = System.nanoTime();
        run(fabric, command, null);
        return System.nanoTime() - start;
    }

    private static String run(Fabric fabric, List<String> command, String node) {
        return fabric.runAt(node, Duration.ofMinutes(5), command).orThrow().stdout();
    }

    /** Best of five discoveries in this JVM after two warm-up runs, through jrdma's own ibsim client. */
    private static long inProcess(Fabric fabric) {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 7; i++) {
            long start = System.nanoTime();
            try (MadEngine engine = new MadEngine(IbsimTransport.attach(fabric.socketName(), null), 16)) {
                SubnetDiscovery.run(new SmpClient(engine, Duration.ofSeconds(1), 3, 0));
            }
            if (i >= 2) {
                best = Math.min(best, System.nanoTime() - start);
            }
        }
        return best;
    }

    private static long median(long[] times) {
        long[] sorted = times.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static String withoutDate(String topology) {
        return topology.replaceAll("(?m)^# Topology file: generated on .*$", "");
    }
}

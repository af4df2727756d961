package org.jrdma.bench;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
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
 * <p>Usage: {@code DiscoveryComparison [--aot-cache FILE] <java> <java options...> -jar ibtool.jar};
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
        String aotCache = args[0].equals("--aot-cache") ? args[1] : null;
        List<String> ibtool = List.of(args).subList(aotCache == null ? 0 : 2, args.length);
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

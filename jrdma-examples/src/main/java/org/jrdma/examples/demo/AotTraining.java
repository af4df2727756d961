package org.jrdma.examples.demo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.Topology;

/**
 * Records the JDK AOT cache that {@code bin/ibtool} starts with (JEP 483, 514 and 515: the classes
 * of a training run loaded and linked ahead of time, and its method profiles, so the JIT compiles
 * the hot code sooner): one {@code ibtool ibnetdiscover} run with {@code -XX:AOTCacheOutput} on
 * a simulated fat tree of 2,048 HCAs and 96 switches, the one {@code bin/bench-discovery} times.
 *
 * <p>Usage: {@code AotTraining FILE <java> <java options...> -jar ibtool.jar}; run by
 * {@code bin/setup} from {@code examples.jar}, which holds the peers that {@code ibtool.jar}
 * does not ship. The cache is valid only for the same JDK and the same jar, which
 * {@code bin/ibtool} checks by the jar being older than the cache.
 */
public final class AotTraining {
    /** How long the training run may take; it takes about two seconds. */
    private static final Duration LIMIT = Duration.ofMinutes(5);

    private AotTraining() {
    }

    public static void main(String[] args) {
        if (args.length < 3) {
            throw new IllegalArgumentException("usage: AotTraining FILE <java> <java options...> -jar ibtool.jar");
        }
        Topology topology = Topology.fatTree(32, 64, 32);
        try (Fabric fabric = Fabric.start(topology, Fabric.Options.defaults().withSubnetManager(false))) {
            List<String> ibtool = List.of(args).subList(1, args.length);
            record(fabric, ibtool, args[0]);
        }
        System.out.println("AOT cache for ibtool recorded in " + args[0]);
    }

    /**
     * Runs {@code ibtool ibnetdiscover} once on {@code fabric} with {@code -XX:AOTCacheOutput=file},
     * {@code ibtool} being the java command line that starts it.
     */
    public static void record(Fabric fabric, List<String> ibtool, String file) {
        fabric.runAt(null, LIMIT, withJvmOption(discover(ibtool, fabric), "-XX:AOTCacheOutput=" + file)).orThrow();
    }

    /** {@code ibtool ibnetdiscover} attached to {@code fabric}. */
    public static List<String> discover(List<String> ibtool, Fabric fabric) {
        List<String> command = new ArrayList<>(ibtool);
        command.addAll(List.of("ibnetdiscover", "--sim", fabric.socketName()));
        return command;
    }

    /** {@code command}, a java command line, with {@code option} added before its other options. */
    public static List<String> withJvmOption(List<String> command, String option) {
        List<String> out = new ArrayList<>(command);
        out.add(1, option);
        return out;
    }
}

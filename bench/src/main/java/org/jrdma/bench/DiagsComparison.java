package org.jrdma.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.jrdma.examples.demo.AotTraining;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.ToolResult;
import org.jrdma.testkit.fabric.Topology;

/**
 * The fabric-wide diagnostics, jrdma against infiniband-diags: on the simulated fat tree of
 * 2,144 nodes (32 spines, 64 leaves of 32 HCAs) with OpenSM, runs C {@code ibqueryerrors} and
 * {@code iblinkinfo} and {@code ibtool ibqueryerrors} / {@code ibtool iblinkinfo} as whole
 * processes, alternately, each under {@code /usr/bin/time} (the child's CPU and maximum resident
 * set); checks that every ibtool run printed what the C tool printed (standard output, standard
 * error but for libumad2sim's line, exit status) and prints the medians of wall and CPU time of each and their ratios.
 *
 * <p>With {@code --aot-cache FILE}, ibtool runs with the JDK AOT cache that {@code bin/ibtool}
 * starts with, recorded first by one training run on the same fabric ({@link AotTraining}), as
 * {@code bin/bench-discovery --scale} does.
 *
 * <p>Usage: {@code DiagsComparison [--rounds N] [--aot-cache FILE] <java> <java options...> -jar ibtool.jar};
 * run through {@code bin/bench-diags}.
 */
public final class DiagsComparison {
    /** The commands compared, each run as the C tool and as an ibtool subcommand of the same name. */
    static final List<String> COMMANDS = List.of("ibqueryerrors", "iblinkinfo");
    private static final int DEFAULT_ROUNDS = 7;
    private static final Duration RUN_BOUND = Duration.ofMinutes(5);
    /**
     * Exit statuses above this are a signal's (128 + its number): the C tools under libumad2sim
     * were seen to crash (SIGSEGV, 139) on a loaded machine, and such a run is made again.
     */
    private static final int SIGNALLED = 128;
    private static final int CRASH_RERUNS = 2;
    /** libumad2sim's own line when a C tool attaches, which is the simulator's, not the tool's. */
    private static final Pattern SIM_CONNECT = Pattern.compile("(?m)^ibwarn: \\[\\d+\\] sim_connect: .*\n");

    private DiagsComparison() {
    }

    public static void main(String[] args) {
        int at = 0;
        int rounds = DEFAULT_ROUNDS;
        if (args.length > 1 && args[0].equals("--rounds")) {
            rounds = Integer.parseInt(args[1]);
            at = 2;
        }
        String aotCache = null;
        if (args.length > at + 1 && args[at].equals("--aot-cache")) {
            aotCache = args[at + 1];
            at += 2;
        }
        if (args.length <= at) {
            throw new IllegalArgumentException("usage: DiagsComparison [--rounds N] [--aot-cache FILE] <java> <options...> -jar ibtool.jar");
        }
        List<String> ibtool = List.of(args).subList(at, args.length);
        System.out.printf("machine: %d CPUs, load average %s%n", Runtime.getRuntime().availableProcessors(),
                DiscoveryComparison.loadAverage());
        Topology topology = Topology.fatTree(32, 64, 32);
        System.out.printf("fabric: %s: %d nodes (%d switches), OpenSM%n", topology.source(), topology.nodes().size(),
                topology.nodes(Topology.NodeType.SWITCH).size());
        try (Fabric fabric = Fabric.start(topology, Fabric.Options.defaults().withSweepSeconds(0))) {
            if (aotCache != null) {
                AotTraining.record(fabric, ibtool, aotCache);
                ibtool = AotTraining.withJvmOption(ibtool, "-XX:AOTCache=" + aotCache);
                System.out.printf("ibtool with the AOT cache %s, recorded by one ibtool ibnetdiscover on this fabric%n", aotCache);
            }
            for (Comparison c : compare(fabric, ibtool, rounds)) {
                System.out.println(c.report());
            }
        }
        System.out.printf("machine load average after: %s%n", DiscoveryComparison.loadAverage());
    }

    /**
     * What one command gave, C and ibtool, over the rounds.
     *
     * @param command the command's name
     * @param lines   how many lines the C tool printed
     * @param c       the C tool's runs
     * @param ibtool  ibtool's runs, each with the same output as the C tool's run of its round
     */
    record Comparison(String command, long lines, List<DiscoveryComparison.Usage> c, List<DiscoveryComparison.Usage> ibtool) {
        double cWallMillis() {
            return DiscoveryComparison.medianOf(c, u -> u.wallNanos() / 1e6);
        }

        double ibtoolWallMillis() {
            return DiscoveryComparison.medianOf(ibtool, u -> u.wallNanos() / 1e6);
        }

        /** The medians, their ratio and the wall time of every round. */
        String report() {
            double cCpu = DiscoveryComparison.medianOf(c, u -> u.cpuSeconds() * 1e3);
            double jCpu = DiscoveryComparison.medianOf(ibtool, u -> u.cpuSeconds() * 1e3);
            return String.format("""
                    %s: outputs identical (%d lines of standard output); %d rounds, alternating
                      medians                 wall ms   CPU ms   max RSS MB
                      C %-20s %8.1f %8.0f %12.1f
                      ibtool %-15s %8.1f %8.0f %12.1f
                      ratio ibtool/C         %8.2f %8s
                      wall per round (ms): ibtool %s; C %s""", command, lines, c.size(), command, cWallMillis(), cCpu,
                    DiscoveryComparison.medianOf(c, u -> u.maxRssKb() / 1024.0), command, ibtoolWallMillis(), jCpu,
                    DiscoveryComparison.medianOf(ibtool, u -> u.maxRssKb() / 1024.0), ibtoolWallMillis() / cWallMillis(),
                    cCpu > 0 ? String.format("%.2f", jCpu / cCpu) : "(C < 10)", DiscoveryComparison.walls(ibtool), DiscoveryComparison.walls(c));
        }
    }

    /**
     * Runs each of {@link #COMMANDS} {@code rounds} times as the C tool and as ibtool (started by
     * the java command line {@code ibtool}, with {@code --sim} added), alternately, on
     * {@code fabric}, which needs a subnet manager (ibqueryerrors reads counters by LID).
     *
     * @throws IllegalStateException if an ibtool run printed other output, or ended with another
     *                               status, than the C tool's run before it
     */
    static List<Comparison> compare(Fabric fabric, List<String> ibtool, int rounds) {
        List<Comparison> comparisons = new ArrayList<>();
        for (String command : COMMANDS) {
            List<String> cCommand = List.of(command);
            List<String> jCommand = new ArrayList<>(ibtool);
            jCommand.addAll(List.of(command, "--sim", fabric.socketName()));
            List<DiscoveryComparison.Usage> cUse = new ArrayList<>();
            List<DiscoveryComparison.Usage> jUse = new ArrayList<>();
            long lines = 0;
            for (int r = 0; r < rounds; r++) {
                Measured c = measured(fabric, cCommand);
                for (int again = 0; again < CRASH_RERUNS && crashed(c.result()); again++) {
                    System.out.printf("%s crashed (status %d) in round %d: run again%n", command, c.result().exitCode(), r + 1);
                    c = measured(fabric, cCommand);
                }
                Measured j = measured(fabric, jCommand);
                if (!c.result().stdout().equals(j.result().stdout()) || !c.result().stderr().equals(j.result().stderr())
                        || c.result().exitCode() != j.result().exitCode()) {
                    throw new IllegalStateException("ibtool " + command + " and " + command + " disagree in round " + (r + 1)
                            + ":\n--- C (status " + c.result().exitCode() + ") ---\n" + c.result().stderr() + c.result().stdout()
                            + "\n--- ibtool (status " + j.result().exitCode() + ") ---\n" + j.result().stderr()
                            + j.result().stdout());
                }
                cUse.add(c.usage());
                jUse.add(j.usage());
                lines = c.result().stdout().lines().count();
            }
            comparisons.add(new Comparison(command, lines, cUse, jUse));
        }
        return comparisons;
    }

    /** Whether the process ended by a signal (status 128 + its number; 255 is the diags' own IBEXIT status). */
    private static boolean crashed(ToolResult result) {
        return result.exitCode() > SIGNALLED && result.exitCode() < 255;
    }

    /** One process's result and what {@code /usr/bin/time} measured of it. */
    private record Measured(ToolResult result, DiscoveryComparison.Usage usage) {
    }

    /**
     * Runs {@code command} under {@code /usr/bin/time}, which writes the child's rusage to a file
     * ({@code -q}: nor a line of its own on standard error when the command fails).
     */
    private static Measured measured(Fabric fabric, List<String> command) {
        Path report = fabric.workDir().resolve("time.out");
        List<String> timed = new ArrayList<>(List.of("/usr/bin/time", "-q", "-f", "%U %S %M", "-o", report.toString()));
        timed.addAll(command);
        long start = System.nanoTime();
        ToolResult result = fabric.runAt(null, RUN_BOUND, timed);
        long wall = System.nanoTime() - start;
        if (result.exitCode() == ToolResult.TIMED_OUT) {
            throw new IllegalStateException(String.join(" ", command) + " did not end in " + RUN_BOUND);
        }
        try {
            String[] f = Files.readAllLines(report).getLast().trim().split(" ");
            ToolResult untimed = new ToolResult(command, result.exitCode(), result.stdout(),
                    SIM_CONNECT.matcher(result.stderr()).replaceAll(""));
            return new Measured(untimed, new DiscoveryComparison.Usage(wall, Double.parseDouble(f[0]), Double.parseDouble(f[1]),
                    Long.parseLong(f[2])));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

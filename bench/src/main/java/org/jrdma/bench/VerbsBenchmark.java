package org.jrdma.bench;

import static org.jrdma.bench.PairCommands.concat;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jrdma.examples.CFormat;
import org.jrdma.examples.LivePair;
import org.jrdma.examples.PeerPair;
import org.jrdma.examples.RcPingpong;
import org.jrdma.examples.RunGate;
import org.jrdma.examples.WriteBw;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * Java against C on one RDMA device, each as two processes on it, alternately, several rounds:
 * RC ping-pong latency ({@link RcPingpong} against {@code ibv_rc_pingpong}), RDMA-write
 * bandwidth ({@link WriteBw} against {@code ib_write_bw}), the same RC ping-pong through the
 * extended verbs ({@code RcPingpong -N --cq-ex}: sends built with {@code ibv_wr_*}, completions
 * read with {@code ibv_start_poll}) against {@code xpingpong.c} doing that in C (built by the
 * caller, {@code --xpp-c}), and the bytes the Java timed loops allocate per work request posted
 * or completion polled. Prints every round, then the medians
 * and the ratios Java/C with their targets. Run inside the soft-RoCE VM by {@code bin/bench-verbs}.
 *
 * <p>Each test runs its rounds back to back. A round is one run of a fresh C pair and one timed
 * run of a single Java pair started for the whole test ({@code --runs}: the pair warms up once,
 * then sleeps in a read of standard input between runs, {@link RunGate}), the two in turn, C
 * first in odd rounds and Java first in even ones. Rounds are short, so the host's slow drifts
 * hit both tools alike, and many of them cost little: the Java start, slow in the emulated VM,
 * is paid once per test and not per round. Two settling rounds ({@code --settling}) run first
 * and are not counted ({@link #SETTLING_ROUNDS}). Nothing else should run in the VM meanwhile:
 * {@code bin/bench-verbs} runs this class interpreted ({@code -Xint}), so that no JIT compiler
 * thread of its own competes, in the background, with whichever tool is being timed.
 *
 * <p>Each pair runs as {@link PeerPair} runs it: server on CPU 0, client on CPU 1. The Java
 * processes run {@code --warmup} untimed iterations first so that the timed loop runs compiled
 * code, with {@code -Xbatch} (in the emulated VM a compiler thread sharing its CPU with a
 * busy-polling thread hardly gets to compile) and {@code -XX:CompileThresholdScaling=0.1} (so the
 * loop reaches its final compiled form early in the warm-up); the C tools need none. Both
 * ping-pong sides of a pair get the same options. The ping-pong warm-up defaults to 20,000
 * exchanges whatever {@code --pp-iters} is: a side refills its receive queue once every
 * {@code rx-depth - 1} (499) exchanges, and that path must have run some twenty times to be
 * compiled before the timing starts; with a shorter warm-up it is compiled inside the timed loop,
 * where {@code -Xbatch} stalls the side while it compiles. The figures these choices were made
 * from are in the README's benchmark section.
 */
public final class VerbsBenchmark {
    private static final Pattern LATENCY = Pattern.compile("(\\d+) iters in ([0-9.]+) seconds = ([0-9.]+) usec/iter");
    private static final Pattern BW_ROW = Pattern.compile("(?m)^ (\\d+)\\s+(\\d+)\\s+([0-9.]+)\\s+([0-9.]+)\\s+([0-9.]+)\\s*$");
    private static final Pattern ALLOC = Pattern.compile("java alloc: (\\d+) bytes, (\\d+) ops, ([0-9.]+) bytes/op");
    private static final Pattern READY = Pattern.compile("^" + Pattern.quote(RunGate.READY));
    private static final Duration RUN_TIMEOUT = Duration.ofMinutes(8);
    /**
     * Rounds run first and thrown away (by default; {@code --settling}): right after the VM boots,
     * soft-RoCE runs slowly for a while whatever runs on it.
     */
    private static final int SETTLING_ROUNDS = 2;
    /** How long a Java pair may take to start and warm up, plus how long each of its runs may take. */
    private static final Duration JAVA_START = Duration.ofMinutes(10);
    private static final Duration JAVA_RUN = Duration.ofMinutes(2);

    /** The command line: the rounds, the device, and each tool's size, iterations and warm-up. */
    private static final class Settings {
        @Option(names = "--rounds") int rounds = 11;
        @Option(names = "--settling") int settling = SETTLING_ROUNDS;
        @Option(names = "--device") String device = "rxe0";
        @Option(names = "--gid-index") String gidIndex = "0";
        @Option(names = "--pp-size") String ppSize = "64";
        @Option(names = "--pp-iters") String ppIters = "20000";
        @Option(names = "--pp-warmup") String ppWarmup = "20000";
        @Option(names = "--bw-size") String bwSize = "65536";
        @Option(names = "--bw-iters") String bwIters = "5000";
        @Option(names = "--bw-warmup") String bwWarmup = "3000";
        @Option(names = "--xpp-c", required = true) String xppC;
        /** More options for the Java pairs' JVMs, after the default ones (so they win). */
        @Option(names = "--java-option") List<String> javaOptions = List.of();
    }

    /**
     * One of the two tests: the C tool and the Java one with the options both get, what Java
     * alone gets, and where the client's figure is in its output.
     *
     * @param name        what it measures, for the rounds' lines
     * @param cTool       the C command
     * @param javaTool    the Java command, less its tool options
     * @param options     the options both get, and both sides
     * @param javaOptions the Java-only options, both sides, but for {@code --runs}
     * @param gateServer  whether the Java server takes {@code --runs} too (the ping-pong's), or
     *                    only the client (write_bw's server just waits for the report)
     * @param figure      the client's result line
     * @param group       the group of {@code figure} that is the figure
     */
    private record Test(String name, List<String> cTool, List<String> javaTool, List<String> options,
            List<String> javaOptions, boolean gateServer, Pattern figure, int group) {
    }

    private final String device;
    private final String gidIndex;
    private final int settling;
    private final List<String> java;
    private int port = 18600;
    private int failures;

    private VerbsBenchmark(String device, String gidIndex, int settling, List<String> javaOptions) {
        this.device = device;
        this.gidIndex = gidIndex;
        this.settling = settling;
        this.java = PairCommands.java(javaOptions);
    }

    /**
     * {@code VerbsBenchmark [--rounds 11] [--settling 2] [--java-option=OPTION]...
     * [--device rxe0] [--gid-index 0] [--pp-size 64]
     * [--pp-iters 20000] [--pp-warmup 20000] [--bw-size 65536] [--bw-iters 5000] [--bw-warmup 3000]
     * --xpp-c XPINGPONG}, the last the built {@code xpingpong.c}; exits 1 if a run failed. The
     * extended-verbs ping-pong takes the ping-pong's size, iterations and warm-up.
     */
    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the benchmark with {@code args} as {@link #main} takes them; returns 1 if a run failed, else 0. */
    static int run(String[] args) {
        Settings line = new Settings();
        new CommandLine(line).parseArgs(args);
        if (line.rounds < 1 || line.settling < 0) {
            throw new IllegalArgumentException("--rounds must be at least 1, --settling at least 0");
        }
        VerbsBenchmark bench = new VerbsBenchmark(line.device, line.gidIndex, line.settling, line.javaOptions);
        Test pingpong = new Test("latency usec/iter", List.of("ibv_rc_pingpong"), bench.javaTool(RcPingpong.class),
                List.of("-d", bench.device, "-g", bench.gidIndex, "-s", line.ppSize, "-n", line.ppIters),
                List.of("--warmup", line.ppWarmup, "--alloc"), true, LATENCY, 3);
        Test writeBw = new Test("bandwidth MB/s", List.of("ib_write_bw"), bench.javaTool(WriteBw.class),
                List.of("-d", bench.device, "-x", bench.gidIndex, "-F", "-s", line.bwSize, "-n", line.bwIters),
                List.of("--warmup", line.bwWarmup, "--alloc"), false, BW_ROW, 4);
        Test xpingpong = new Test("qp-ex latency usec/iter", List.of(line.xppC), bench.javaTool(RcPingpong.class),
                List.of("-d", bench.device, "-g", bench.gidIndex, "-s", line.ppSize, "-n", line.ppIters),
                List.of("-N", "--cq-ex", "--warmup", line.ppWarmup, "--alloc"), true, LATENCY, 3);
        bench.run(line.rounds, pingpong, writeBw, xpingpong);
        return bench.failures == 0 ? 0 : 1;
    }

    private void run(int rounds, Test pingpong, Test writeBw, Test xpingpong) {
        System.out.println("soft-RoCE on " + device + " inside a VM under TCG emulation (no KVM), on a shared host:");
        System.out.println("absolute figures are far below hardware and noisy; C and Java alternate, medians count.");
        for (Test test : List.of(pingpong, writeBw, xpingpong)) {
            System.out.println(test.name() + ": " + String.join(" ", test.options()) + " (Java also "
                    + String.join(" ", test.javaOptions()) + ")");
        }
        System.out.println("Java: " + String.join(" ", java.subList(1, java.size() - 2)) + ", --runs "
                + (rounds + settling) + " (the first " + settling + " not counted)");
        System.out.println("each pair: server pinned to CPU 0, client to CPU 1 (taskset), C and Java alike; each round"
                + " a fresh C pair and the next run of one warmed-up Java pair, in turn");
        List<Double> allocPp = new ArrayList<>();
        List<Double> allocBw = new ArrayList<>();
        List<Double> allocXpp = new ArrayList<>();
        List<double[]> latency = rounds(rounds, pingpong, allocPp);
        List<double[]> bandwidth = rounds(rounds, writeBw, allocBw);
        List<double[]> xlatency = rounds(rounds, xpingpong, allocXpp);
        printTable(rounds, latency, bandwidth, xlatency, allocPp, allocBw, allocXpp);
    }

    private List<String> javaTool(Class<?> tool) {
        List<String> command = new ArrayList<>(java);
        command.add(tool.getName());
        return command;
    }

    /**
     * The rounds of {@code test}: per round the C figure and the Java one (NaN when a run failed),
     * collecting the Java sides' bytes/op into {@code alloc}.
     */
    private List<double[]> rounds(int rounds, Test test, List<Double> alloc) {
        List<double[]> figures = new ArrayList<>();
        int javaPort = port++;
        List<String> runs = List.of("--runs", Integer.toString(rounds + settling));
        List<String> server = concat(test.javaTool(), test.options(), List.of("-p", Integer.toString(javaPort)),
                test.javaOptions(), test.gateServer() ? runs : List.of());
        List<String> client = concat(test.javaTool(), test.options(), List.of("-p", Integer.toString(javaPort)),
                test.javaOptions(), runs, List.of("127.0.0.1"));
        List<LivePair.Side> gated = new ArrayList<>();
        long start = System.nanoTime();
        try (LivePair javaPair = LivePair.start(server, client, javaPort,
                JAVA_START.plus(JAVA_RUN.multipliedBy(rounds + settling)))) {
            if (test.gateServer()) {
                gated.add(javaPair.server());
            }
            gated.add(javaPair.client());
            for (LivePair.Side side : gated) {
                javaPair.awaitLine(side, READY);
            }
            long warm = System.nanoTime();
            boolean javaFailed = false;
            for (int round = 1 - settling; round <= rounds; round++) {
                double c = Double.NaN;
                double j = Double.NaN;
                if (Math.floorMod(round, 2) == 1) {
                    c = cRun(test);
                }
                if (!javaFailed) {
                    try {
                        j = javaRun(javaPair, gated, test, round == 1 - settling);
                    } catch (IOException e) {
                        javaFailed = true;
                        failed(test.javaTool(), e.getMessage());
                    }
                }
                if (Math.floorMod(round, 2) == 0) {
                    c = cRun(test);
                }
                if (round >= 1) {
                    figures.add(new double[] {c, j});
                }
                String which = round >= 1 ? "round " + round : "settling, not counted";
                System.out.printf("%s %s: C %s Java %s%n", test.name(), which, CFormat.fixed(c, 2),
                        CFormat.fixed(j, 2));
            }
            if (!javaFailed) {
                PeerPair.Result result = javaPair.finish();
                if (!result.succeeded()) {
                    failed(test.javaTool(), result);
                }
                collectAlloc(result, alloc);
            }
            System.out.printf("%s: the Java pair started and warmed up in %d s, the test took %d s%n", test.name(),
                    TimeUnit.NANOSECONDS.toSeconds(warm - start), TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start));
        } catch (IOException e) {
            failed(test.javaTool(), e.getMessage());
            while (figures.size() < rounds) {
                figures.add(new double[] {Double.NaN, Double.NaN});
            }
        }
        return figures;
    }

    /** Starts the next run of the Java pair and returns its client's figure. */
    private static double javaRun(LivePair pair, List<LivePair.Side> gated, Test test, boolean first)
            throws IOException {
        if (!first) {
            for (LivePair.Side side : gated) {
                pair.awaitLine(side, READY);
            }
        }
        for (LivePair.Side side : gated) {
            pair.go(side);
        }
        return Double.parseDouble(pair.awaitLine(pair.client(), test.figure(), JAVA_RUN).group(test.group()));
    }

    /** One run of a fresh C pair; returns the client's figure (NaN on failure). */
    private double cRun(Test test) {
        int p = port++;
        List<String> server = concat(test.cTool(), test.options(), List.of("-p", Integer.toString(p)));
        List<String> client = concat(server, List.of("127.0.0.1"));
        PeerPair.Result result = PeerPair.run(server, client, p, RUN_TIMEOUT);
        Matcher m = test.figure().matcher(result.clientOutput());
        if (!result.succeeded() || !m.find()) {
            failed(test.cTool(), result);
            return Double.NaN;
        }
        return Double.parseDouble(m.group(test.group()));
    }

    /** Adds the bytes/op of each Java side that printed them. */
    private static void collectAlloc(PeerPair.Result result, List<Double> alloc) {
        if (alloc == null) {
            return;
        }
        for (String output : List.of(result.serverOutput(), result.clientOutput())) {
            Matcher m = ALLOC.matcher(output);
            if (m.find()) {
                alloc.add(Double.parseDouble(m.group(3)));
            }
        }
    }

    private void failed(List<String> tool, PeerPair.Result result) {
        failed(tool, "server exit " + result.serverExit() + ", client exit " + result.clientExit() + "\n--- server\n"
                + result.serverOutput() + "--- client\n" + result.clientOutput());
    }

    private void failed(List<String> tool, String what) {
        failures++;
        System.out.println("FAILED: " + tool.getLast() + ": " + what);
    }

    private static void printTable(int rounds, List<double[]> latency, List<double[]> bandwidth,
            List<double[]> xlatency, List<Double> allocPp, List<Double> allocBw, List<Double> allocXpp) {
        double latC = median(latency, 0);
        double latJ = median(latency, 1);
        double bwC = median(bandwidth, 0);
        double bwJ = median(bandwidth, 1);
        double xlatC = median(xlatency, 0);
        double xlatJ = median(xlatency, 1);
        double allocMax = Stream.of(allocPp, allocBw, allocXpp).flatMap(List::stream).mapToDouble(Double::doubleValue)
                .max().orElse(Double.NaN);
        System.out.println();
        System.out.printf("medians of %d rounds%n", rounds);
        System.out.printf("%-34s %12s %12s %10s %8s %s%n", "", "C", "Java", "Java/C", "target", "");
        System.out.printf("%-34s %12s %12s %10s %8s %s%n", "RC ping-pong latency, usec/iter", CFormat.fixed(latC, 2),
                CFormat.fixed(latJ, 2), CFormat.fixed(latJ / latC, 3), "<= 1.05", verdict(latJ / latC <= 1.05));
        System.out.printf("%-34s %12s %12s %10s %8s %s%n", "RDMA write bandwidth, MB/s", CFormat.fixed(bwC, 2),
                CFormat.fixed(bwJ, 2), CFormat.fixed(bwJ / bwC, 3), ">= 0.95", verdict(bwJ / bwC >= 0.95));
        System.out.printf("%-34s %12s %12s %10s %8s %s%n", "QP-ex/CQ-ex ping-pong, usec/iter", CFormat.fixed(xlatC, 2),
                CFormat.fixed(xlatJ, 2), CFormat.fixed(xlatJ / xlatC, 3), "<= 1.05", verdict(xlatJ / xlatC <= 1.05));
        System.out.printf("%-34s %12s %12s %10s %8s %s%n", "Java allocation, bytes/op (max)", "", CFormat.fixed(allocMax, 3),
                "", "0", verdict(allocMax == 0));
        System.out.printf("(allocation: %d ping-pong sides, %d write_bw clients and %d qp-ex ping-pong sides measured;"
                + " an op is a work request posted or a completion polled)%n", allocPp.size(), allocBw.size(),
                allocXpp.size());
    }

    private static String verdict(boolean met) {
        return met ? "met" : "NOT met";
    }

    /** The median of column {@code column} over the rounds, failed runs (NaN) left out. */
    static double median(List<double[]> rows, int column) {
        double[] values = rows.stream().mapToDouble(r -> r[column]).filter(v -> !Double.isNaN(v)).sorted().toArray();
        if (values.length == 0) {
            return Double.NaN;
        }
        int mid = values.length / 2;
        return values.length % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
    }
}

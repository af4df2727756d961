package org.jrdma.examples;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jrdma.examples.CommandLine.Option;
import org.jrdma.examples.CommandLine.UsageException;

/**
 * Java against C on one RDMA device, each as two processes on it, alternately, several rounds:
 * RC ping-pong latency ({@link RcPingpong} against {@code ibv_rc_pingpong}), RDMA-write
 * bandwidth ({@link WriteBw} against {@code ib_write_bw}), and the bytes the Java timed loops
 * allocate per work request posted or completion polled. Prints every round, then the medians
 * and the ratios Java/C with their targets. Run inside the soft-RoCE VM by {@code bin/bench-verbs}.
 *
 * <p>Each pair runs as {@link PeerPair} runs it: server on CPU 0, client on CPU 1. The Java
 * processes run {@code --warmup} untimed iterations first so that the timed loop runs compiled
 * code, with {@code -Xbatch} (in the emulated VM a compiler thread sharing its CPU with a
 * busy-polling thread hardly gets to compile) and {@code -XX:CompileThresholdScaling=0.1} (so the
 * loop reaches its final compiled form early in the warm-up); the C tools need none. Both
 * ping-pong sides of a pair get the same options. The ping-pong warm-up defaults to 20,000
 * exchanges whatever {@code --pp-iters} is: a side refills its receive queue once every
 * {@code rx-depth - 1} (499) exchanges, and that path must have run some twenty times to be
 * compiled before the timing starts; with 3,000 exchanges it was compiled inside the timed loop,
 * and with {@code -Xbatch} the side stalled while it compiled (about 0.3 s of 1.3 s).
 */
public final class VerbsBenchmark {
    private static final Pattern LATENCY = Pattern.compile("(\\d+) iters in ([0-9.]+) seconds = ([0-9.]+) usec/iter");
    private static final Pattern BW_ROW = Pattern.compile("(?m)^ (\\d+)\\s+(\\d+)\\s+([0-9.]+)\\s+([0-9.]+)\\s+([0-9.]+)\\s*$");
    private static final Pattern ALLOC = Pattern.compile("java alloc: (\\d+) bytes, (\\d+) ops, ([0-9.]+) bytes/op");
    private static final Duration RUN_TIMEOUT = Duration.ofMinutes(8);
    private static final List<Option> OPTIONS = List.of(
            Option.of("rounds", (char) 0, true),
            Option.of("device", (char) 0, true),
            Option.of("gid-index", (char) 0, true),
            Option.of("pp-size", (char) 0, true),
            Option.of("pp-iters", (char) 0, true),
            Option.of("pp-warmup", (char) 0, true),
            Option.of("bw-size", (char) 0, true),
            Option.of("bw-iters", (char) 0, true),
            Option.of("bw-warmup", (char) 0, true));

    private final String device;
    private final String gidIndex;
    private final List<String> java;
    private int port = 18600;
    private int failures;

    private VerbsBenchmark(String device, String gidIndex) {
        this.device = device;
        this.gidIndex = gidIndex;
        this.java = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC", "-Xbatch", "-XX:CompileThresholdScaling=0.1",
                "-cp",
                System.getProperty("java.class.path"));
    }

    /**
     * {@code VerbsBenchmark [--rounds 3] [--device rxe0] [--gid-index 0] [--pp-size 64]
     * [--pp-iters 20000] [--pp-warmup 20000] [--bw-size 65536] [--bw-iters 10000] [--bw-warmup 3000]};
     * exits 1 if a run failed.
     */
    public static void main(String[] args) throws UsageException {
        CommandLine line = CommandLine.parse(args, OPTIONS);
        int rounds = (int) line.number("rounds", 3);
        VerbsBenchmark bench = new VerbsBenchmark(line.string("device", "rxe0"), line.string("gid-index", "0"));
        List<String> pp = List.of("-s", line.string("pp-size", "64"), "-n", line.string("pp-iters", "20000"));
        List<String> bw = List.of("-s", line.string("bw-size", "65536"), "-n", line.string("bw-iters", "10000"));
        List<String> ppJava = List.of("--warmup", line.string("pp-warmup", "20000"), "--alloc");
        List<String> bwJava = List.of("--warmup", line.string("bw-warmup", "3000"), "--alloc");
        bench.run(rounds, pp, ppJava, bw, bwJava);
        System.exit(bench.failures == 0 ? 0 : 1);
    }

    private void run(int rounds, List<String> pp, List<String> ppJava, List<String> bw, List<String> bwJava) {
        System.out.println("soft-RoCE on " + device + " inside a VM under TCG emulation (no KVM), on a shared host:");
        System.out.println("absolute figures are far below hardware and noisy; C and Java alternate, medians count.");
        System.out.println("ping-pong: " + String.join(" ", pp) + " (Java also " + String.join(" ", ppJava) + ")");
        System.out.println("write bw:  " + String.join(" ", bw) + " (Java client also " + String.join(" ", bwJava) + ")");
        System.out.println("Java: " + String.join(" ", java.subList(1, java.size() - 2)));
        System.out.println("each pair: server pinned to CPU 0, client to CPU 1 (taskset), C and Java alike");
        List<double[]> latency = new ArrayList<>();
        List<double[]> bandwidth = new ArrayList<>();
        List<Double> allocPp = new ArrayList<>();
        List<Double> allocBw = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            double[] lat = {pingpong(List.of("ibv_rc_pingpong"), pp, List.of(), null),
                    pingpong(javaTool(RcPingpong.class), pp, ppJava, allocPp)};
            double[] bws = {writeBw(List.of("ib_write_bw"), bw, List.of(), null),
                    writeBw(javaTool(WriteBw.class), bw, bwJava, allocBw)};
            latency.add(lat);
            bandwidth.add(bws);
            System.out.printf("round %d: latency usec/iter C %s Java %s | bandwidth MB/s C %s Java %s%n", round,
                    CFormat.fixed(lat[0], 2), CFormat.fixed(lat[1], 2), CFormat.fixed(bws[0], 2),
                    CFormat.fixed(bws[1], 2));
        }
        printTable(rounds, latency, bandwidth, allocPp, allocBw);
    }

    private List<String> javaTool(Class<?> tool) {
        List<String> command = new ArrayList<>(java);
        command.add(tool.getName());
        return command;
    }

    /** One ping-pong pair; returns the client's usec/iter (NaN on failure), collecting B/op. */
    private double pingpong(List<String> tool, List<String> options, List<String> extra, List<Double> alloc) {
        PeerPair.Result result = pair(tool, options, extra, List.of("-d", device, "-g", gidIndex));
        Matcher m = LATENCY.matcher(result.clientOutput());
        if (!result.succeeded() || !m.find()) {
            return failed(tool, result);
        }
        collectAlloc(result, alloc);
        return Double.parseDouble(m.group(3));
    }

    /** One bandwidth pair; returns the client's average MB/s (NaN on failure), collecting B/op. */
    private double writeBw(List<String> tool, List<String> options, List<String> extra, List<Double> alloc) {
        PeerPair.Result result = pair(tool, options, extra, List.of("-d", device, "-x", gidIndex, "-F"));
        Matcher m = BW_ROW.matcher(result.clientOutput());
        if (!result.succeeded() || !m.find()) {
            return failed(tool, result);
        }
        collectAlloc(result, alloc);
        return Double.parseDouble(m.group(4));
    }

    private PeerPair.Result pair(List<String> tool, List<String> options, List<String> extra, List<String> common) {
        int p = port++;
        List<String> server = new ArrayList<>(tool);
        server.addAll(common);
        server.addAll(options);
        server.addAll(List.of("-p", Integer.toString(p)));
        server.addAll(extra);
        List<String> client = new ArrayList<>(server);
        client.add("127.0.0.1");
        return PeerPair.run(server, client, p, RUN_TIMEOUT);
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

    private double failed(List<String> tool, PeerPair.Result result) {
        failures++;
        System.out.println("FAILED: " + tool.getLast() + " (server exit " + result.serverExit() + ", client exit "
                + result.clientExit() + ")\n--- server\n" + result.serverOutput() + "--- client\n"
                + result.clientOutput());
        return Double.NaN;
    }

    private static void printTable(int rounds, List<double[]> latency, List<double[]> bandwidth, List<Double> allocPp,
            List<Double> allocBw) {
        double latC = median(latency, 0);
        double latJ = median(latency, 1);
        double bwC = median(bandwidth, 0);
        double bwJ = median(bandwidth, 1);
        double allocMax = max(allocPp, allocBw);
        System.out.println();
        System.out.printf("medians of %d alternating rounds%n", rounds);
        System.out.printf("%-34s %12s %12s %10s %8s %s%n", "", "C", "Java", "Java/C", "target", "");
        System.out.printf("%-34s %12s %12s %10s %8s %s%n", "RC ping-pong latency, usec/iter", CFormat.fixed(latC, 2),
                CFormat.fixed(latJ, 2), CFormat.fixed(latJ / latC, 3), "<= 1.05", verdict(latJ / latC <= 1.05));
        System.out.printf("%-34s %12s %12s %10s %8s %s%n", "RDMA write bandwidth, MB/s", CFormat.fixed(bwC, 2),
                CFormat.fixed(bwJ, 2), CFormat.fixed(bwJ / bwC, 3), ">= 0.95", verdict(bwJ / bwC >= 0.95));
        System.out.printf("%-34s %12s %12s %10s %8s %s%n", "Java allocation, bytes/op (max)", "", CFormat.fixed(allocMax, 3),
                "", "0", verdict(allocMax == 0));
        System.out.printf("(allocation: %d ping-pong sides and %d write_bw clients measured; an op is a work request"
                + " posted or a completion polled)%n", allocPp.size(), allocBw.size());
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

    private static double max(List<Double> first, List<Double> second) {
        return Stream.concat(first.stream(), second.stream()).mapToDouble(Double::doubleValue).max()
                .orElse(Double.NaN);
    }
}

package org.jrdma.bench;

import static org.jrdma.bench.PairCommands.concat;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jrdma.endpoint.PollingMode;
import org.jrdma.examples.CFormat;
import org.jrdma.examples.LivePair;
import org.jrdma.examples.PeerPair;
import org.jrdma.examples.RunGate;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The endpoint API ({@code org.jrdma.endpoint}, through {@link EndpointPerf}) against the C
 * programs that do the same over rdma_cm, in one run of the soft-RoCE VM ({@code rdma_ucm}
 * loaded), alternately, several rounds: the echo round trip against {@code rping} (the time a
 * ping takes, from the times its verbose client prints the first and the last ping) and {@code ib_send_lat -R} (twice its
 * typical latency, which perftest reports as half a round trip); message throughput with 1, 4
 * and 16 connections against {@code ib_send_bw -R -q 1, 4, 16}; and the bytes the Java side's
 * messaging threads allocate per message. Prints every round, then the medians, the ratios
 * Java/C and the targets (round trip at most 1.10, throughput at least 0.9, 0 bytes per message).
 * Run by {@code bin/bench-cm}.
 *
 * <p>As in {@link VerbsBenchmark}, one Java pair (server on CPU 0, client on CPU 1) is started
 * and warmed up once and then driven run by run, stopped with {@code SIGSTOP} in between, while each round starts fresh C pairs on the
 * same CPUs; the rounds alternate C-first and Java-first, and the first ({@code --settling})
 * settle the VM and are not counted.
 */
public final class CmBenchmark {
    private static final String ADDRESS = "10.0.0.1";
    private static final Pattern ECHO = Pattern.compile("^echo: \\d+ bytes, \\d+ round trips, typical ([0-9.]+) usec");
    private static final Pattern STREAM = Pattern.compile("^stream (\\d+): .* ([0-9.]+) MB/s");
    private static final Pattern ALLOC = Pattern.compile("^java alloc: \\d+ bytes, \\d+ messages, ([0-9.]+) bytes/message(.*)");
    private static final Pattern READY = Pattern.compile("^" + Pattern.quote(RunGate.READY));
    /** What the wrapper of the rping client prints: the pings after the first and the microseconds they took. */
    private static final Pattern PINGS = Pattern.compile("pings (\\d+) in usec (\\d+)");
    /** perftest's result row: #bytes #iterations and then the figures. */
    private static final Pattern LAT_ROW = Pattern.compile(
            "(?m)^ (\\d+)\\s+(\\d+)\\s+([0-9.]+)\\s+([0-9.]+)\\s+([0-9.]+)\\s+([0-9.]+)");
    private static final Pattern BW_ROW = Pattern.compile("(?m)^ (\\d+)\\s+(\\d+)\\s+([0-9.]+)\\s+([0-9.]+)\\s+([0-9.]+)\\s*$");
    private static final Duration RUN_TIMEOUT = Duration.ofMinutes(5);
    private static final Duration JAVA_START = Duration.ofMinutes(10);
    private static final Duration JAVA_RUN = Duration.ofMinutes(3);

    /** The command line: rounds, sizes and counts. */
    private static final class Settings {
        @Option(names = "--rounds") int rounds = 7;
        /** Rounds run first and not counted: right after the VM boots, soft-RoCE runs slowly for a while. */
        @Option(names = "--settling") int settling = 1;
        @Option(names = "--size") int size = 64;
        @Option(names = "--iters") int iters = 2000;
        @Option(names = "--warmup") int warmup = 20000;
        @Option(names = "--bw-size") int bwSize = 4096;
        @Option(names = "--bw-iters") int bwIters = 20000;
        @Option(names = "--connections", split = ",") List<Integer> connections = List.of(1, 4, 16);
        /** How the Java endpoints' callers wait for completions. */
        @Option(names = "--polling") PollingMode polling = PollingMode.ADAPTIVE;
        /** Who moves the stream messages on both Java sides: a thread per connection, or one for all. */
        @Option(names = "--threads") EndpointPerf.Threads threads = EndpointPerf.Threads.PER_CONNECTION;
        /** More options for the Java pair's JVMs, after the default ones (so they win). */
        @Option(names = "--java-option") List<String> javaOptions = List.of();
    }

    private final Settings settings;
    private final List<String> java;
    private int port = 18700;
    private int failures;

    private CmBenchmark(Settings settings) {
        this.settings = settings;
        this.java = concat(PairCommands.java(settings.javaOptions), List.of(EndpointPerf.class.getName()));
    }

    /**
     * {@code CmBenchmark [--rounds 7] [--settling 1] [--size 64] [--iters 2000] [--warmup 20000] [--bw-size 4096]
     * [--bw-iters 20000] [--connections 1,4,16] [--polling ADAPTIVE|EVENT|BUSY] [--threads PER_CONNECTION|ONE]
     * [--java-option=OPTION]...};
     * exits 1 if a run failed.
     */
    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the benchmark with {@code args} as {@link #main} takes them; returns 1 if a run failed, else 0. */
    static int run(String[] args) {
        Settings s = new Settings();
        new CommandLine(s).parseArgs(args);
        if (s.rounds < 1 || s.settling < 0) {
            throw new IllegalArgumentException("--rounds must be at least 1, --settling at least 0");
        }
        CmBenchmark bench = new CmBenchmark(s);
        bench.run();
        return bench.failures == 0 ? 0 : 1;
    }

    /** One round's figures; NaN where a run failed. */
    private static final class Round {
        double rping = Double.NaN;
        double sendLat = Double.NaN;
        double echo = Double.NaN;
        double alloc = Double.NaN;
        /** Which loops' threads allocated it, as the client printed it. */
        String allocDetail = "";
        final double[] cBw;
        final double[] javaBw;

        Round(int streams) {
            cBw = new double[streams];
            javaBw = new double[streams];
            Arrays.fill(cBw, Double.NaN);
            Arrays.fill(javaBw, Double.NaN);
        }
    }

    private void run() {
        Settings s = settings;
        System.out.println("soft-RoCE on rxe0 (" + ADDRESS + ") inside a VM under TCG emulation (no KVM), on a shared host:");
        System.out.println("absolute figures are far below hardware and noisy; C and Java alternate, medians count.");
        System.out.printf("echo: %d-byte messages, %d round trips (Java warm-up %d); rping -S %d -C %d (first to last ping);"
                + " ib_send_lat -R -s %d -n %d%n", s.size, s.iters, s.warmup, s.size, s.iters, s.size, s.iters);
        System.out.printf("throughput: %d messages of %d bytes spread over 1 connection and more: %s;"
                + " ib_send_bw -R -s %d -q N -n %d/N%n", s.bwIters, s.bwSize, s.connections, s.bwSize, s.bwIters);
        System.out.println("Java: " + String.join(" ", java.subList(1, java.size() - 3)) + " "
                + EndpointPerf.class.getSimpleName() + ", --runs " + (s.rounds + s.settling) + ", --polling " + s.polling + ", --threads " + s.threads);
        List<Round> rounds = new ArrayList<>();
        int javaPort = port++;
        List<String> server = concat(java, List.of("--server", "-a", ADDRESS, "-p", Integer.toString(javaPort),
                "--connections", connections(), "--polling", s.polling.name(), "--threads", s.threads.name()));
        List<String> client = concat(java, List.of("-a", ADDRESS, "-p", Integer.toString(javaPort), "--size",
                Integer.toString(s.size), "--iters", Integer.toString(s.iters), "--warmup", Integer.toString(s.warmup),
                "--bw-size", Integer.toString(s.bwSize), "--bw-iters", Integer.toString(s.bwIters), "--connections",
                connections(), "--runs", Integer.toString(s.rounds + s.settling), "--polling", s.polling.name(),
                "--threads", s.threads.name()));
        long start = System.nanoTime();
        try (LivePair pair = LivePair.start(server, client, javaPort, true,
                JAVA_START.plus(JAVA_RUN.multipliedBy(s.rounds + s.settling)))) {
            boolean javaFailed = false;
            try {
                pair.awaitLine(pair.client(), READY);
                System.out.printf("the Java pair started and warmed up in %d s%n",
                        TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start));
                freeze(true);
            } catch (IOException e) {
                javaFailed = true;
                failed("EndpointPerf", e.getMessage());
            }
            for (int round = 1 - s.settling; round <= s.rounds; round++) {
                Round r = new Round(s.connections.size());
                if (Math.floorMod(round, 2) == 1) {
                    cRuns(r);
                }
                if (!javaFailed) {
                    try {
                        javaRun(pair, r, round == s.rounds);
                    } catch (IOException e) {
                        javaFailed = true;
                        failed("EndpointPerf", e.getMessage());
                    }
                }
                if (Math.floorMod(round, 2) == 0) {
                    cRuns(r);
                }
                String which = round >= 1 ? "round " + round : "settling, not counted";
                System.out.printf("echo round trip usec %s: rping %s ib_send_lat %s Java %s%n", which,
                        CFormat.fixed(r.rping, 2), CFormat.fixed(r.sendLat, 2), CFormat.fixed(r.echo, 2));
                for (int i = 0; i < s.connections.size(); i++) {
                    System.out.printf("throughput MB/s, %d connections, %s: C %s Java %s%n", s.connections.get(i), which,
                            CFormat.fixed(r.cBw[i], 2), CFormat.fixed(r.javaBw[i], 2));
                }
                if (r.alloc > 0) {
                    System.out.printf("Java allocation, %s: %s bytes/message %s%n", which, CFormat.fixed(r.alloc, 3),
                            r.allocDetail);
                }
                if (round >= 1) {
                    rounds.add(r);
                }
            }
            if (!javaFailed) {
                PeerPair.Result result = pair.finish();
                if (!result.succeeded()) {
                    failed("EndpointPerf", "server exit " + result.serverExit() + ", client exit " + result.clientExit()
                            + "\n--- server\n" + result.serverOutput() + "--- client\n" + result.clientOutput());
                }
            }
        } catch (IOException e) {
            failed("EndpointPerf", e.getMessage());
        }
        System.out.printf("the rounds took %d s%n", TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start));
        printTable(rounds);
    }

    private String connections() {
        return String.join(",", settings.connections.stream().map(String::valueOf).toList());
    }

    /**
     * The next timed run of the Java pair, after its go: its echo, stream and allocation lines,
     * each within {@link #JAVA_RUN}.
     */
    private void javaRun(LivePair pair, Round r, boolean last) throws IOException {
        freeze(false);
        pair.go(pair.client());
        r.echo = Double.parseDouble(pair.awaitLine(pair.client(), ECHO, JAVA_RUN).group(1));
        for (int i = 0; i < settings.connections.size(); i++) {
            MatchResult m = pair.awaitLine(pair.client(), STREAM, JAVA_RUN);
            r.javaBw[i] = Double.parseDouble(m.group(2));
        }
        MatchResult alloc = pair.awaitLine(pair.client(), ALLOC, JAVA_RUN);
        r.alloc = Double.parseDouble(alloc.group(1));
        r.allocDetail = alloc.group(2).strip();
        if (!last) {
            pair.awaitLine(pair.client(), READY);
            freeze(true);
        }
    }

    /**
     * Stops ({@code SIGSTOP}) or continues ({@code SIGCONT}) the Java pair's processes. Between
     * its runs the pair is stopped: an idle {@code EndpointGroup}'s polling thread still wakes
     * about a thousand times a second, and the pair's ten of them took enough of the two CPUs to
     * slow the C programs measured meanwhile (rxe keeps the connections of a stopped process;
     * nothing is sent on them).
     */
    private static void freeze(boolean stop) throws IOException {
        List<String> kill = new ArrayList<>(List.of("kill", stop ? "-STOP" : "-CONT"));
        ProcessHandle.current().descendants()
                .filter(p -> p.info().arguments().map(a -> List.of(a).contains(EndpointPerf.class.getName())).orElse(false))
                .forEach(p -> kill.add(Long.toString(p.pid())));
        if (kill.size() == 2) {
            throw new IOException("no Java pair to " + (stop ? "stop" : "continue"));
        }
        try {
            int status = new ProcessBuilder(kill).inheritIO().start().waitFor();
            if (status != 0) {
                throw new IOException(String.join(" ", kill) + " exited " + status);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted in " + kill, e);
        }
    }

    /** The C runs of a round: rping twice, ib_send_lat, and ib_send_bw once per connection count. */
    private void cRuns(Round r) {
        Settings s = settings;
        r.rping = rpingMicros(s.iters);
        List<String> common = List.of("-d", "rxe0", "-x", "0", "-F", "-R");
        MatchResult lat = perftest(concat(List.of("ib_send_lat"), common, List.of("-s", Integer.toString(s.size),
                "-n", Integer.toString(s.iters))), LAT_ROW);
        if (lat != null) {
            r.sendLat = 2 * Double.parseDouble(lat.group(5));
        }
        for (int i = 0; i < s.connections.size(); i++) {
            int q = s.connections.get(i);
            MatchResult bw = perftest(concat(List.of("ib_send_bw"), common, List.of("-s", Integer.toString(s.bwSize),
                    "-q", Integer.toString(q), "-n", Integer.toString(Math.max(1, s.bwIters / q)))), BW_ROW);
            if (bw != null) {
                r.cBw[i] = Double.parseDouble(bw.group(4));
            }
        }
    }

    /**
     * The microseconds a ping of {@code rping -c -v -C count} takes, from the times its client
     * printed the first and the last ping's line (NaN on failure): the connection's set-up and
     * teardown and the process's start are left out.
     */
    private double rpingMicros(int count) {
        int p = port++;
        List<String> options = List.of("-a", ADDRESS, "-p", Integer.toString(p), "-S", Integer.toString(settings.size),
                "-C", Integer.toString(count));
        List<String> server = concat(List.of("rping", "-s"), options);
        List<String> client = List.of("bash", "-c", "set -o pipefail; stdbuf -oL rping -c -v " + String.join(" ", options)
                + " | { read -r _ || exit 1; t0=${EPOCHREALTIME//[!0-9]/}; last=$t0; n=0;"
                + " while read -r _; do n=$((n + 1)); last=${EPOCHREALTIME//[!0-9]/}; done;"
                + " echo \"pings $n in usec $((last - t0))\"; }");
        PeerPair.Result result = PeerPair.run(server, client, p, true, RUN_TIMEOUT);
        Matcher m = PINGS.matcher(result.clientOutput());
        if (!result.succeeded() || !m.find() || Long.parseLong(m.group(1)) == 0) {
            failed("rping", result);
            return Double.NaN;
        }
        return Double.parseDouble(m.group(2)) / Long.parseLong(m.group(1));
    }

    /** One run of a perftest pair over rdma_cm; the client's result row, or null on failure. */
    private MatchResult perftest(List<String> command, Pattern row) {
        int p = port++;
        List<String> server = concat(command, List.of("-p", Integer.toString(p)));
        PeerPair.Result result = PeerPair.run(server, concat(server, List.of(ADDRESS)), p, true, RUN_TIMEOUT);
        Matcher m = row.matcher(result.clientOutput());
        if (!result.succeeded() || !m.find()) {
            failed(command.getFirst(), result);
            return null;
        }
        return m.toMatchResult();
    }

    private void failed(String tool, PeerPair.Result result) {
        failed(tool, "server exit " + result.serverExit() + ", client exit " + result.clientExit() + "\n--- server\n"
                + result.serverOutput() + "--- client\n" + result.clientOutput());
    }

    private void failed(String tool, String what) {
        failures++;
        System.out.println("FAILED: " + tool + ": " + what);
    }

    private void printTable(List<Round> rounds) {
        double rping = median(rounds, r -> r.rping);
        double sendLat = median(rounds, r -> r.sendLat);
        double echo = median(rounds, r -> r.echo);
        double alloc = rounds.stream().mapToDouble(r -> r.alloc).filter(v -> !Double.isNaN(v)).max().orElse(Double.NaN);
        String row = "%-42s %12s %12s %10s %8s %s%n";
        System.out.println();
        System.out.printf("medians of %d rounds%n", rounds.size());
        System.out.printf(row, "", "C", "Java", "Java/C", "target", "");
        System.out.printf(row, "echo round trip vs rping (a ping), usec", CFormat.fixed(rping, 2), CFormat.fixed(echo, 2),
                CFormat.fixed(echo / rping, 3), "<= 1.10", verdict(echo / rping <= 1.10));
        System.out.printf(row, "echo round trip vs ib_send_lat -R (x2), usec", CFormat.fixed(sendLat, 2),
                CFormat.fixed(echo, 2), CFormat.fixed(echo / sendLat, 3), "<= 1.10", verdict(echo / sendLat <= 1.10));
        for (int i = 0; i < settings.connections.size(); i++) {
            int n = i;
            double c = median(rounds, r -> r.cBw[n]);
            double j = median(rounds, r -> r.javaBw[n]);
            System.out.printf(row, "throughput, " + settings.connections.get(i) + " connections, MB/s", CFormat.fixed(c, 2),
                    CFormat.fixed(j, 2), CFormat.fixed(j / c, 3), ">= 0.9", verdict(j / c >= 0.9));
        }
        System.out.printf(row, "Java allocation, bytes/message (max)", "", CFormat.fixed(alloc, 3), "", "0",
                verdict(alloc == 0));
        System.out.println("(allocation: the client's callers and polling threads in the timed loops)");
    }

    private static String verdict(boolean met) {
        return met ? "met" : "NOT met";
    }

    private static double median(List<Round> rounds, ToDoubleFunction<Round> figure) {
        List<double[]> rows = rounds.stream().map(r -> new double[] {figure.applyAsDouble(r)}).toList();
        return VerbsBenchmark.median(rows, 0);
    }
}

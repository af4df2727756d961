package org.jrdma.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jrdma.examples.LivePair;
import org.jrdma.examples.RcPingpong;
import org.jrdma.examples.RunGate;
import org.jrdma.iba.Gid;
import org.jrdma.testkit.junit.NativeCommand;
import org.jrdma.testkit.junit.Peers;
import org.jrdma.testkit.vm.SoftRoceVm;
import org.jrdma.testkit.vm.VmResult;
import org.jrdma.verbs.Verbs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@link VerbsBenchmark} itself, small, in the soft-RoCE VM, with {@code xpingpong.c} built by
 * gcc first: the three tests run their rounds, each
 * round with a C figure and a figure from the next run of the one Java pair ({@code --runs},
 * {@link RunGate}, {@link LivePair}), and the table of medians, ratios and allocation follows.
 * Then, in the same VM boot ({@code rdma_ucm} loaded, {@link BenchmarksInVm}), a short replay of
 * {@link CmBenchmark}: one round of rping, {@code ib_send_lat -R} and {@code ib_send_bw -R} against
 * {@link EndpointPerf}, and its table. The figures of so short a run mean nothing; that they are
 * all there, from real traffic on both sides, and that the ratios are computed, is what is checked.
 */
class VerbsBenchmarkInVmTest {
    private static final int ROUNDS = 2;
    /**
     * The Java pairs compile with C1 only: under -Xbatch, C2's compilations on the emulated CPU
     * took 530 of this test's 641 s (each verbs pair 164 to 192 s to start and warm up, its rounds
     * 10 to 20 s; with C1 67 to 74 s), and the figures here are not judged.
     */
    private static final String QUICK_JIT = "--java-option=-XX:TieredStopAtLevel=1";
    private static final Pattern ROUND = Pattern.compile(
            "(?m)^(latency usec/iter|bandwidth MB/s|qp-ex latency usec/iter) round (\\d+): C ([0-9.]+) Java ([0-9.]+)$");
    private static final Pattern TABLE_ROW = Pattern.compile("(?m)^(RC ping-pong latency, usec/iter|RDMA write"
            + " bandwidth, MB/s|QP-ex/CQ-ex ping-pong, usec/iter) +([0-9.]+) +([0-9.]+) +([0-9.]+) ");
    private static final Pattern ALLOCATION = Pattern.compile(
            "(?m)^\\(allocation: 2 ping-pong sides, 1 write_bw clients and 2 qp-ex ping-pong sides measured;");
    private static final Pattern CM_ECHO = Pattern.compile(
            "(?m)^echo round trip usec round 1: rping ([0-9.]+) ib_send_lat ([0-9.]+) Java ([0-9.]+)$");
    private static final Pattern CM_THROUGHPUT = Pattern.compile(
            "(?m)^throughput MB/s, (\\d+) connections, round 1: C ([0-9.]+) Java ([0-9.]+)$");
    private static final Pattern CM_TABLE_ROW = Pattern.compile("(?m)^(echo round trip vs rping \\(a ping\\), usec"
            + "|echo round trip vs ib_send_lat -R \\(x2\\), usec|throughput, (?:1|4|16) connections, MB/s)"
            + " +([0-9.]+) +([0-9.]+) +([0-9.]+) ");
    private static final Pattern CM_ALLOCATION = Pattern.compile("(?m)^Java allocation, bytes/message \\(max\\) +([0-9.]+) ");

    @TempDir
    static Path dir;

    @Test
    void everyRoundHasBothFigures() throws Exception {
        Peers.require(SoftRoceVm.isAvailable(), SoftRoceVm.unavailabilityCause());
        Path source = dir.resolve("xpingpong.c");
        try (InputStream in = VerbsBenchmark.class.getResourceAsStream("xpingpong.c")) {
            Files.copy(in, source);
        }
        Path xpingpong = NativeCommand.gcc(dir, "xpingpong", List.of("-Werror", "-O2", source.toString(), "-libverbs"),
                "libibverbs-dev");
        VmResult result = SoftRoceVm.builder().module("rdma_ucm").build().runJava(Duration.ofMinutes(30),
                BenchmarksInVm.class, List.of(VerbsBenchmark.class, RcPingpong.class, Verbs.class, Gid.class,
                        CommandLine.class), "--rounds", Integer.toString(ROUNDS),
                "--pp-iters", "500", "--pp-warmup", "2000", "--bw-iters", "200", "--bw-warmup", "200",
                "--xpp-c", xpingpong.toString(), QUICK_JIT, "--",
                "--rounds", "1", "--settling", "0", QUICK_JIT, "--iters", "200", "--warmup", "1000", "--bw-iters", "400");
        String all = result.output();
        System.out.println("VerbsBenchmark and CmBenchmark in the soft-RoCE VM (" + result.elapsed().toMillis() + " ms):\n"
                + all);
        assertEquals(0, result.exitCode(), "exit status: the benchmarks that had a failed run");
        int split = all.indexOf(BenchmarksInVm.CM_START);
        assertTrue(split >= 0, "CmBenchmark ran after VerbsBenchmark");
        String output = all.substring(0, split);
        checkCm(all.substring(split));
        Matcher rounds = ROUND.matcher(output);
        Map<String, Integer> counted = new HashMap<>();
        while (rounds.find()) {
            int expected = counted.merge(rounds.group(1), 1, Integer::sum);
            assertEquals(expected, Integer.parseInt(rounds.group(2)), rounds.group());
            assertTrue(Double.parseDouble(rounds.group(3)) > 0 && Double.parseDouble(rounds.group(4)) > 0,
                    rounds.group());
        }
        assertEquals(ROUNDS, counted.getOrDefault("latency usec/iter", 0), "latency rounds");
        assertEquals(ROUNDS, counted.getOrDefault("bandwidth MB/s", 0), "bandwidth rounds");
        assertEquals(ROUNDS, counted.getOrDefault("qp-ex latency usec/iter", 0), "qp-ex latency rounds");
        Matcher table = TABLE_ROW.matcher(output);
        for (int row = 0; row < 3; row++) {
            assertTrue(table.find(), "the table of medians");
            double c = Double.parseDouble(table.group(2));
            double java = Double.parseDouble(table.group(3));
            assertEquals(java / c, Double.parseDouble(table.group(4)), 0.01, table.group());
        }
        assertTrue(ALLOCATION.matcher(output).find(), "allocation of every Java side measured");
    }

    /** CmBenchmark's round: every C program and the Java pair gave a figure, and its table has every ratio. */
    private static void checkCm(String output) {
        Matcher echo = CM_ECHO.matcher(output);
        assertTrue(echo.find(), "the echo round: rping, ib_send_lat -R and the Java echo");
        for (int g = 1; g <= 3; g++) {
            assertTrue(Double.parseDouble(echo.group(g)) > 0, echo.group());
        }
        Matcher throughput = CM_THROUGHPUT.matcher(output);
        for (String connections : List.of("1", "4", "16")) {
            assertTrue(throughput.find(), "throughput with " + connections + " connections");
            assertEquals(connections, throughput.group(1), throughput.group());
            assertTrue(Double.parseDouble(throughput.group(2)) > 0 && Double.parseDouble(throughput.group(3)) > 0,
                    throughput.group());
        }
        Matcher table = CM_TABLE_ROW.matcher(output);
        for (int row = 0; row < 5; row++) {
            assertTrue(table.find(), "row " + row + " of the rdma_cm table of medians");
            double c = Double.parseDouble(table.group(2));
            double java = Double.parseDouble(table.group(3));
            assertEquals(java / c, Double.parseDouble(table.group(4)), 0.01, table.group());
        }
        assertTrue(CM_ALLOCATION.matcher(output).find(), "the Java side's allocation per message measured");
    }
}

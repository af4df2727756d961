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
 * The figures of so short a run mean nothing; that they are all there, from real traffic, is
 * what is checked.
 */
class VerbsBenchmarkInVmTest {
    private static final int ROUNDS = 3;
    private static final Pattern ROUND = Pattern.compile(
            "(?m)^(latency usec/iter|bandwidth MB/s|qp-ex latency usec/iter) round (\\d+): C ([0-9.]+) Java ([0-9.]+)$");
    private static final Pattern TABLE_ROW = Pattern.compile("(?m)^(RC ping-pong latency, usec/iter|RDMA write"
            + " bandwidth, MB/s|QP-ex/CQ-ex ping-pong, usec/iter) +([0-9.]+) +([0-9.]+) +([0-9.]+) ");
    private static final Pattern ALLOCATION = Pattern.compile(
            "(?m)^\\(allocation: 2 ping-pong sides, 1 write_bw clients and 2 qp-ex ping-pong sides measured;");

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
        VmResult result = SoftRoceVm.create().runJava(Duration.ofMinutes(25), VerbsBenchmark.class,
                List.of(RcPingpong.class, Verbs.class, Gid.class, CommandLine.class), "--rounds", Integer.toString(ROUNDS),
                "--pp-iters", "500", "--pp-warmup", "2000", "--bw-iters", "200", "--bw-warmup", "200",
                "--xpp-c", xpingpong.toString());
        String output = result.output();
        System.out.println("VerbsBenchmark in the soft-RoCE VM (" + result.elapsed().toMillis() + " ms):\n" + output);
        assertEquals(0, result.exitCode(), "exit status, 1 when a run failed");
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
}

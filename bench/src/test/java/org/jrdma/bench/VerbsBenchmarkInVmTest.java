package org.jrdma.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jrdma.examples.LivePair;
import org.jrdma.examples.RcPingpong;
import org.jrdma.examples.RunGate;
import org.jrdma.iba.Gid;
import org.jrdma.testkit.junit.Peers;
import org.jrdma.testkit.vm.SoftRoceVm;
import org.jrdma.testkit.vm.VmResult;
import org.jrdma.verbs.Verbs;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@link VerbsBenchmark} itself, small, in the soft-RoCE VM: both tests run their rounds, each
 * round with a C figure and a figure from the next run of the one Java pair ({@code --runs},
 * {@link RunGate}, {@link LivePair}), and the table of medians, ratios and allocation follows.
 * The figures of so short a run mean nothing; that they are all there, from real traffic, is
 * what is checked.
 */
class VerbsBenchmarkInVmTest {
    private static final int ROUNDS = 3;
    private static final Pattern ROUND = Pattern.compile(
            "(?m)^(latency usec/iter|bandwidth MB/s) round (\\d+): C ([0-9.]+) Java ([0-9.]+)$");
    private static final Pattern TABLE_ROW = Pattern.compile(
            "(?m)^(RC ping-pong latency, usec/iter|RDMA write bandwidth, MB/s) +([0-9.]+) +([0-9.]+) +([0-9.]+) ");
    private static final Pattern ALLOCATION = Pattern.compile(
            "(?m)^\\(allocation: 2 ping-pong sides and 1 write_bw clients measured;");

    @Test
    void everyRoundHasBothFigures() {
        Peers.require(SoftRoceVm.isAvailable(), SoftRoceVm.unavailabilityCause());
        VmResult result = SoftRoceVm.create().runJava(Duration.ofMinutes(20), VerbsBenchmark.class,
                List.of(RcPingpong.class, Verbs.class, Gid.class, CommandLine.class), "--rounds", Integer.toString(ROUNDS),
                "--pp-iters", "500", "--pp-warmup", "2000", "--bw-iters", "200", "--bw-warmup", "200");
        String output = result.output();
        System.out.println("VerbsBenchmark in the soft-RoCE VM (" + result.elapsed().toMillis() + " ms):\n" + output);
        assertEquals(0, result.exitCode(), "exit status, 1 when a run failed");
        Matcher rounds = ROUND.matcher(output);
        int latency = 0;
        int bandwidth = 0;
        while (rounds.find()) {
            int expected = rounds.group(1).startsWith("latency") ? ++latency : ++bandwidth;
            assertEquals(expected, Integer.parseInt(rounds.group(2)), rounds.group());
            assertTrue(Double.parseDouble(rounds.group(3)) > 0 && Double.parseDouble(rounds.group(4)) > 0,
                    rounds.group());
        }
        assertEquals(ROUNDS, latency, "latency rounds");
        assertEquals(ROUNDS, bandwidth, "bandwidth rounds");
        Matcher table = TABLE_ROW.matcher(output);
        for (int row = 0; row < 2; row++) {
            assertTrue(table.find(), "the table of medians");
            double c = Double.parseDouble(table.group(2));
            double java = Double.parseDouble(table.group(3));
            assertEquals(java / c, Double.parseDouble(table.group(4)), 0.01, table.group());
        }
        assertTrue(ALLOCATION.matcher(output).find(), "allocation of every Java side measured");
    }
}

package org.jrdma.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jrdma.iba.Gid;
import org.jrdma.testkit.junit.Peers;
import org.jrdma.testkit.vm.SoftRoceVm;
import org.jrdma.testkit.vm.VmResult;
import org.jrdma.verbs.Verbs;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import picocli.CommandLine;

/**
 * The Java {@link RcPingpong}, {@link UdPingpong} and {@link WriteBw} against the C
 * {@code ibv_rc_pingpong}, {@code ibv_ud_pingpong} and {@code ib_write_bw}, each way round, with
 * rdma_cm ({@code -R}, the VM loading {@code rdma_ucm}) also {@code ib_write_bw} (four queue
 * pairs), {@link SendLat} against {@code ib_send_lat} (RC and UD) and {@link SendBw} against
 * {@code ib_send_bw} (four RC queue pairs) each way round, and
 * the tutorial's {@link RcFlow} between two Java processes, with real traffic on {@code rxe0}: {@link InteropInVm} runs
 * them all in one boot of the soft-RoCE VM, and each {@linkplain InteropInVm.Scenario scenario}
 * is checked here as a test of its own: both sides exit 0, each side's remote QPN is the other's
 * local one, both report the whole run, the C and Java tables agree, and every check of the RC flow passed.
 */
class InteropInVmTest {
    private static final Pattern PP_LOCAL = Pattern.compile("(?m)^  local address:  LID 0x\\p{XDigit}{4}, QPN (0x\\p{XDigit}{6})");
    private static final Pattern PP_REMOTE = Pattern.compile("(?m)^  remote address: LID 0x\\p{XDigit}{4}, QPN (0x\\p{XDigit}{6})");
    private static final Pattern BW_LOCAL = Pattern.compile("(?m)^ local address: LID \\p{XDigit}{4} QPN (0x\\p{XDigit}{4,})");
    private static final Pattern BW_REMOTE = Pattern.compile("(?m)^ remote address: LID \\p{XDigit}{4} QPN (0x\\p{XDigit}{4,})");
    private static final Pattern FLOW_QP = Pattern.compile("(?m)^4\\. RC queue pair (0x\\p{XDigit}{6})$");
    private static final Pattern FLOW_PEER = Pattern.compile("(?m)^6\\. queue pair in RTS towards QP (0x\\p{XDigit}{6}):");
    private static final Pattern FLOW_PASSED = Pattern.compile("(?m)^RcFlow \\w+: (\\d+) of \\1 checks passed$");
    private static final Pattern LAT_ROW = Pattern.compile("(?m)^ 2\\s+(\\d+)\\s+([0-9.]+)\\s+([0-9.]+)\\s+([0-9.]+)\\s");
    private static final Pattern BW_ROW = Pattern.compile("(?m)^ (\\d+)\\s+(\\d+)\\s+([0-9.]+)\\s+([0-9.]+)\\s+([0-9.]+)\\s*$");

    @TestFactory
    Stream<DynamicTest> javaAndCToolsTalk() {
        Peers.require(SoftRoceVm.isAvailable(), SoftRoceVm.unavailabilityCause());
        VmResult result = SoftRoceVm.builder().module("rdma_ucm").build().runJava(Duration.ofMinutes(30), InteropInVm.class,
                List.of(RcPingpong.class, Verbs.class, Gid.class, CommandLine.class));
        String output = result.output();
        System.out.println("InteropInVm in the soft-RoCE VM (" + result.elapsed().toMillis() + " ms):\n" + output);
        return InteropInVm.scenarios().stream().map(s -> DynamicTest.dynamicTest(s.name(), () -> check(s, output)));
    }

    private static void check(InteropInVm.Scenario scenario, String output) {
        String block = block(output, scenario.name());
        String server = section(block, "--- server exit ", "--- client exit ");
        String client = section(block, "--- client exit ", null);
        assertTrue(server.startsWith("0:") && client.startsWith("0:"), "both sides exit 0:\n" + block);
        if (scenario.name().startsWith("rc_pingpong") || scenario.name().startsWith("ud_pingpong")) {
            assertEquals(first(PP_LOCAL, server), first(PP_REMOTE, client), "client's remote QPN\n" + block);
            assertEquals(first(PP_LOCAL, client), first(PP_REMOTE, server), "server's remote QPN\n" + block);
            long size = Long.parseLong(option(scenario.server(), "-s", scenario.name().startsWith("ud") ? "2048" : "4096"));
            String iters = option(scenario.server(), "-n", "1000");
            for (String side : List.of(server, client)) {
                assertTrue(side.contains("\n" + size * Long.parseLong(iters) * 2 + " bytes in ")
                        && side.contains(" Mbit/sec\n"), block);
                assertTrue(Pattern.compile("(?m)^" + iters + " iters in [0-9.]+ seconds = [0-9.]+ usec/iter$")
                        .matcher(side).find(), block);
                assertFalse(side.contains("invalid data"), block);
            }
        } else if (scenario.name().startsWith("ib_send_lat")) {
            assertEquals(first(BW_LOCAL, server), first(BW_REMOTE, client), "client's remote QPN\n" + block);
            assertEquals(first(BW_LOCAL, client), first(BW_REMOTE, server), "server's remote QPN\n" + block);
            for (String side : List.of(server, client)) {
                Matcher row = match(LAT_ROW, side);
                assertEquals(option(scenario.server(), "-n", "1000"), row.group(1), "the iterations\n" + block);
                assertTrue(Double.parseDouble(row.group(4)) > 0, "a typical latency\n" + block);
                assertConnection(scenario, side, block);
            }
        } else if (scenario.name().startsWith("ib_send_bw")) {
            int qps = Integer.parseInt(option(scenario.server(), "-q", "1"));
            assertPeers(server, client, qps, block);
            long iters = Long.parseLong(option(scenario.server(), "-n", "1000")) * qps;
            Matcher clientRow = match(BW_ROW, client);
            Matcher serverRow = match(BW_ROW, server);
            long size = Long.parseLong(clientRow.group(1));
            if (scenario.server().contains("UD")) {
                assertTrue(size >= 256 && size <= 4096, "a UD message is cut to the MTU\n" + block);
            } else {
                assertEquals(65536, size, "the message size\n" + block);
            }
            for (Matcher row : List.of(clientRow, serverRow)) {
                assertEquals(size, Long.parseLong(row.group(1)), "both sides' size\n" + block);
                assertEquals(iters, Long.parseLong(row.group(2)), "every message of every QP counted\n" + block);
                assertTrue(Double.parseDouble(row.group(4)) > 0, "a bandwidth\n" + block);
            }
            assertEquals("0.00", serverRow.group(3), "no peak on the server, as perftest's\n" + block);
            for (String side : List.of(server, client)) {
                assertConnection(scenario, side, block);
                assertTrue(side.contains(" Number of qps   : " + qps + "\t"), "the number of QPs\n" + block);
            }
        } else if (scenario.name().startsWith("rc_flow")) {
            assertEquals(first(FLOW_QP, server), first(FLOW_PEER, client), "the client's peer QPN\n" + block);
            assertEquals(first(FLOW_QP, client), first(FLOW_PEER, server), "the server's peer QPN\n" + block);
            assertEquals("2", first(FLOW_PASSED, server), "the server's checks\n" + block);
            assertEquals("7", first(FLOW_PASSED, client), "the client's checks\n" + block);
            for (String step : List.of("the server's answer", "RDMA read of ", "atomic fetch-and-add", "(swaps)",
                    "(does not swap)")) {
                assertTrue(passed(client, step), step + "\n" + block);
            }
            assertTrue(passed(server, "RDMA write: ") && passed(server, "the word after the atomics"), block);
            assertFalse(server.contains("FAIL") || client.contains("FAIL"), block);
            for (String side : List.of(server, client)) {
                assertTrue(side.contains("5. local LID 0x0000 (getLocalId)"), "RoCE has no LID\n" + block);
                assertTrue(side.contains(": timeout 0x12, retry_cnt 7, rnr_retry 7, min_rnr_timer 0x12\n"),
                        "the tutorial's QP values\n" + block);
            }
        } else {
            int qps = Integer.parseInt(option(scenario.server(), "-q", "1"));
            assertPeers(server, client, qps, block);
            Matcher m = match(BW_ROW, client);
            assertEquals(m.group(), match(BW_ROW, server).group(), "the server prints the client's report\n" + block);
            boolean duration = scenario.server().contains("-D");
            assertEquals(duration ? "4096" : "65536", m.group(1), block);
            if (duration) {
                assertTrue(Long.parseLong(m.group(2)) > 0, block);
                assertTrue(client.contains("BW average[Gb/sec]") && server.contains("BW average[Gb/sec]"), block);
            } else {
                assertEquals(Long.parseLong(option(scenario.server(), "-n", "1000")) * qps, Long.parseLong(m.group(2)),
                        block);
            }
            assertTrue(Double.parseDouble(m.group(4)) > 0, "a bandwidth\n" + block);
        }
    }

    /**
     * Each side prints {@code qps} local and remote QPNs, and the QPNs each prints as local are
     * those the other prints as remote (in any order: with several queue pairs, the i-th of one
     * side need not meet the i-th of the other).
     */
    private static void assertPeers(String server, String client, int qps, String block) {
        List<String> serverLocal = all(BW_LOCAL, server);
        List<String> clientLocal = all(BW_LOCAL, client);
        assertEquals(qps, serverLocal.size(), "the server's QPs\n" + block);
        assertEquals(qps, clientLocal.size(), "the client's QPs\n" + block);
        assertEquals(serverLocal, all(BW_REMOTE, client), "client's remote QPNs\n" + block);
        assertEquals(clientLocal, all(BW_REMOTE, server), "server's remote QPNs\n" + block);
    }

    /** The side prints the connection type the scenario asked for: UD with {@code -c UD}, RC otherwise. */
    private static void assertConnection(InteropInVm.Scenario scenario, String side, String block) {
        String type = scenario.server().contains("UD") ? "UD" : "RC";
        assertTrue(side.contains(" Connection type : " + type + "\t"), "the connection type\n" + block);
    }

    /** Group 1 of every match of {@code pattern} in {@code text}, sorted. */
    private static List<String> all(Pattern pattern, String text) {
        return pattern.matcher(text).results().map(r -> r.group(1)).sorted().toList();
    }

    /** Whether {@link RcFlow} printed a passed check containing {@code step}. */
    private static boolean passed(String output, String step) {
        return Pattern.compile("(?m)^   OK   .*" + Pattern.quote(step)).matcher(output).find();
    }

    /** The argument after {@code name} in {@code command}, or {@code otherwise}. */
    private static String option(List<String> command, String name, String otherwise) {
        int at = command.indexOf(name);
        return at >= 0 ? command.get(at + 1) : otherwise;
    }

    /** The block {@link InteropInVm} printed for scenario {@code name}. */
    private static String block(String output, String name) {
        String begin = "=== SCENARIO " + name + "\n";
        int from = output.indexOf(begin);
        int to = output.indexOf("=== END " + name + "\n");
        if (from < 0 || to < from) {
            fail("no output for [" + name + "]:\n" + output);
        }
        return output.substring(from + begin.length(), to);
    }

    /** The text after {@code start} up to {@code end} (or the end). */
    private static String section(String block, String start, String end) {
        int from = block.indexOf(start);
        int to = end == null ? block.length() : block.indexOf(end);
        assertTrue(from >= 0 && to >= from, block);
        return block.substring(from + start.length(), to);
    }

    /** Group 1 of the first match of {@code pattern} in {@code text}. */
    private static String first(Pattern pattern, String text) {
        return match(pattern, text).group(1);
    }

    /** The first match of {@code pattern} in {@code text}. */
    private static Matcher match(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        if (!m.find()) {
            fail("no match for " + pattern + " in:\n" + text);
        }
        return m;
    }
}

package org.jrdma.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jrdma.iba.Gid;
import org.jrdma.testkit.junit.Peers;
import org.jrdma.testkit.vm.SoftRoceVm;
import org.jrdma.testkit.vm.VmResult;
import org.jrdma.tools.CNumbers;
import org.jrdma.verbs.Verbs;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import picocli.CommandLine;

/**
 * The connection manager examples with real traffic on {@code rxe0}: {@link CmExamplesInVm} runs
 * them all in one boot of the soft-RoCE VM, and each scenario is checked here as a test of its
 * own. rping: both sides exit 0 and print the same ping data as C rping with C rping (the
 * client's {@code ping data:} lines, the server's {@code server ping data:} lines), the server
 * ends on the client's disconnect as C's does; the Java and the C client print the same lines and
 * exit status for a port nobody listens on. Echo (through futures, and with {@code -z} in lent
 * buffers): every message echoed, the RDMA write read back and seen by the server. RC flow over
 * rdma_cm: every check passed, the QPs each other's peers.
 */
class CmExamplesInVmTest {
    private static final Pattern FLOW_QP = Pattern.compile("(?m)^4\\. RC queue pair (0x\\p{XDigit}{6}) \\(rdma_create_qp\\)$");
    private static final Pattern FLOW_PEER = Pattern.compile("(?m)^6\\. queue pair in RTS towards QP (0x\\p{XDigit}{6}):");
    private static final Pattern FLOW_PASSED = Pattern.compile("(?m)^RcFlow \\w+: (\\d+) of \\1 checks passed$");
    private static final String REFERENCE = "rping: C server, C client (the reference)";

    @TestFactory
    Stream<DynamicTest> cmExamples() {
        Peers.require(SoftRoceVm.isAvailable(), SoftRoceVm.unavailabilityCause());
        VmResult result = SoftRoceVm.builder().module("rdma_ucm").build().runJava(Duration.ofMinutes(15),
                CmExamplesInVm.class, List.of(RcPingpong.class, Verbs.class, Gid.class, CommandLine.class, CNumbers.class));
        String output = result.output();
        System.out.println("CmExamplesInVm in the soft-RoCE VM (" + result.elapsed().toMillis() + " ms):\n" + output);
        Map<String, String> blocks = CmExamplesInVm.scenarios().stream()
                .collect(Collectors.toMap(CmExamplesInVm.Scenario::name, s -> block(output, s.name())));
        return CmExamplesInVm.scenarios().stream().map(s -> DynamicTest.dynamicTest(s.name(),
                () -> check(s.name(), blocks)));
    }

    private static void check(String name, Map<String, String> blocks) {
        String block = blocks.get(name);
        if (name.contains("nobody listening")) {
            String java = blocks.get("rping: Java client, nobody listening");
            String c = blocks.get("rping: C client, nobody listening");
            String refused = "--- exit 255\ncma event RDMA_CM_EVENT_REJECTED, error 8";
            assertEquals(refused, afterCommand(java), "exit status and the CM thread's line, as C:\n" + c + java);
            // C's main thread may print "wait for CONNECTED state 4" and "connect error -1" before its
            // CM thread's exit(-1) ends the process, or not: a race; the Java client ends as the CM thread does
            assertTrue(afterCommand(c).startsWith(refused.substring(0, 13)) && c.contains(refused.substring(13) + "\n"), c);
            return;
        }
        String server = section(block, "--- server exit ", "--- client exit ");
        String client = section(block, "--- client exit ", null);
        assertTrue(server.startsWith("0:") && client.startsWith("0:"), "both sides exit 0:\n" + block);
        if (name.startsWith("rping")) {
            String reference = blocks.get(REFERENCE);
            List<String> pings = lines(section(reference, "--- client exit ", null), "ping data: ");
            List<String> served = lines(section(reference, "--- server exit ", "--- client exit "), "server ping data: ");
            assertEquals(Integer.parseInt(CmExamplesInVm.COUNT), pings.size(), reference);
            assertEquals(pings.size(), served.size(), reference);
            if (name.contains("-P")) {
                assertEquals(Stream.concat(pings.stream(), pings.stream()).sorted().toList(),
                        lines(server, "server ping data: ").stream().map(l -> l.substring("server ".length())).sorted()
                                .toList(), "each client's pings served\n" + block);
                assertEquals(2 * pings.size(), lines(client, "ping data: ").size(), block);
                return;
            }
            assertEquals(pings, lines(client, "ping data: "), "the client's ping data\n" + block);
            assertEquals(served, lines(server, "server ping data: "), "the server's ping data\n" + block);
            for (String line : List.of("server DISCONNECT EVENT...\n", "wait for RDMA_READ_ADV state 10\n")) {
                assertTrue(server.contains(line), "the server ends at the disconnect as C does\n" + block);
            }
        } else if (name.startsWith("echo")) {
            int echoes = CmExamplesInVm.ECHOES;
            assertEquals(echoes, lines(client, "echo data: echo-").size(), block);
            String form = name.contains("-z") ? ", sent from and received in lent buffers" : "";
            assertTrue(client.contains(echoes + " of " + echoes + " messages echoed unchanged" + form + "\n"), block);
            assertTrue(client.contains("\nOK   RDMA write of "), block);
            assertTrue(client.contains("EchoClient: " + (echoes + 1) + " of " + (echoes + 1) + " checks passed\n"), block);
            assertTrue(server.contains("client 1 disconnected: " + echoes
                    + " messages echoed; its RDMA write left \"written by the EchoClient at "), block);
        } else {
            assertEquals(first(FLOW_QP, server), first(FLOW_PEER, client), "the client's peer QPN\n" + block);
            assertEquals(first(FLOW_QP, client), first(FLOW_PEER, server), "the server's peer QPN\n" + block);
            assertEquals("2", first(FLOW_PASSED, server), "the server's checks\n" + block);
            assertEquals("7", first(FLOW_PASSED, client), "the client's checks\n" + block);
            assertTrue(!server.contains("FAIL") && !client.contains("FAIL"), block);
            for (String side : List.of(server, client)) {
                assertTrue(side.contains("5. connected with rdma_cm (ESTABLISHED)"), block);
                assertTrue(side.contains(", retry_cnt 7, rnr_retry 7, "), "the tutorial's retry counts\n" + block);
            }
        }
    }

    /** The lines of {@code text} that start with {@code prefix}, in order. */
    private static List<String> lines(String text, String prefix) {
        return text.lines().filter(l -> l.startsWith(prefix)).toList();
    }

    /** A single command's block without the command: {@code --- exit N} and its output lines, sorted (stdout and stderr interleave). */
    private static String afterCommand(String block) {
        String status = block.substring(0, block.indexOf(':'));
        return status + "\n" + block.lines().skip(1).sorted().collect(Collectors.joining("\n"));
    }

    /** The block {@link CmExamplesInVm} printed for scenario {@code name}. */
    private static String block(String output, String name) {
        String begin = "=== SCENARIO " + name + "\n";
        int from = output.indexOf(begin);
        int to = output.indexOf("=== END " + name + "\n");
        if (from < 0 || to < from) {
            return "(no output for [" + name + "])";
        }
        return output.substring(from + begin.length(), to);
    }

    /** The text after {@code start} up to {@code end} (or the end). */
    private static String section(String block, String start, String end) {
        int from = block.indexOf(start);
        int to = end == null ? block.length() : block.indexOf(end);
        if (from < 0 || to < from) {
            fail("no " + start + " in:\n" + block);
        }
        return block.substring(from + start.length(), to);
    }

    /** Group 1 of the first match of {@code pattern} in {@code text}. */
    private static String first(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        if (!m.find()) {
            fail("no match for " + pattern + " in:\n" + text);
        }
        return m.group(1);
    }
}

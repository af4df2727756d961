package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jrdma.testkit.junit.Peers;
import org.jrdma.testkit.vm.SoftRoceVm;
import org.junit.jupiter.api.Test;

/**
 * ibtool without {@code --sim} on the kernel's soft-RoCE device {@code rxe0}, in the VM, against
 * the C tools there: RoCE has no QP0, so libibmad's {@code mad_rpc_open_port} fails to register the
 * subnet management classes and every tool fails to open the port ({@code Failed to open '(null)'
 * port '0'}, the default choice, and with {@code -C rxe0 -P 1}); ibtool registers them when it
 * opens the port and fails the same way: the same standard output and exit status, and
 * libibmad's {@code can't open UMAD port} warning on standard error. In the same boot, python-rdma's
 * commands that use verbs rather than MADs: {@code ibv_devices} prints what the C program prints,
 * and {@code rdma_bw} measures RDMA writes from a client to a server over rxe0, the two connected
 * through 127.0.0.1, and once more both ways with {@code --json}, whose two documents must agree.
 */
class UmadTransportInVmTest {
    private static final List<String> COMMANDS = List.of("ibaddr", "perfquery", "sminfo", "ibaddr -C rxe0 -P 1", "ibaddr -C nope");
    /**
     * One command by ibtool, then by the C tool. The JVMs in the VM run interpreted only: short
     * runs start faster so under emulation than with a JIT compiler (see {@code Examples.java});
     * this test took 209 s so, 227 with C1 only (session 20).
     */
    private static final String ONE = """
            echo "@@%1$d ours"
            '%2$s' --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -Xint -cp '%3$s' %4$s %5$s >/tmp/out 2>/tmp/err
            echo "@@%1$d ours exit=$?"; cat /tmp/out; echo "@@%1$d ours stderr"; cat /tmp/err
            %5$s >/tmp/out 2>/dev/null
            echo "@@%1$d C exit=$?"; cat /tmp/out; echo "@@%1$d end"
            """;

    private static final String VERBS = """
            J() { '%1$s' --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -Xint -cp '%2$s' %3$s "$@"; }
            J ibv_devices >/tmp/out 2>/tmp/err
            echo "@@devices ours exit=$?"; cat /tmp/out /tmp/err; echo "@@devices C"
            ibv_devices 2>&1; echo "@@devices C exit=$?"
            J rdma_bw --debug -s 65536 -n 200 -e 2 >/tmp/bws 2>&1 &
            server=$!
            i=0; while [ $i -lt 120 ] && ! grep -q Listening /tmp/bws; do sleep 1; i=$((i+1)); done
            J rdma_bw -s 65536 -n 200 -e 2 127.0.0.1 >/tmp/bwc 2>&1
            echo "@@bw client exit=$?"; cat /tmp/bwc
            wait $server; echo "@@bw server exit=$?"; cat /tmp/bws; echo "@@bw end"
            J rdma_bw --json --debug -b -s 65536 -n 100 -p 4445 >/tmp/jbws 2>/tmp/jbws.err &
            server=$!
            i=0; while [ $i -lt 120 ] && ! grep -q Listening /tmp/jbws.err; do sleep 1; i=$((i+1)); done
            J rdma_bw --json -b -s 65536 -n 100 -p 4445 127.0.0.1 >/tmp/jbwc 2>&1
            echo "@@jbw client exit=$?"; cat /tmp/jbwc
            wait $server; echo "@@jbw server exit=$?"; cat /tmp/jbws; echo "@@jbw end"
            """;

    @Test
    void failsToOpenRxe0AsTheCToolsDo() {
        Peers.require(SoftRoceVm.isAvailable(), SoftRoceVm.unavailabilityCause());
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        StringBuilder script = new StringBuilder();
        for (int i = 0; i < COMMANDS.size(); i++) {
            script.append(ONE.formatted(i, java, System.getProperty("java.class.path"), Ibtool.class.getName(), COMMANDS.get(i)));
        }
        script.append(VERBS.formatted(java, System.getProperty("java.class.path"), Ibtool.class.getName()));
        String output = SoftRoceVm.create().run(script.toString(), Duration.ofMinutes(10)).output();
        Matcher devices = Pattern.compile("(?s)@@devices ours exit=(\\d+)\n(.*)@@devices C\n(.*)@@devices C exit=(\\d+)\n").matcher(output);
        assertTrue(devices.find(), output);
        assertEquals(devices.group(3), devices.group(2), "ibv_devices");
        assertEquals(devices.group(4), devices.group(1), "ibv_devices");
        assertTrue(devices.group(2).contains("    rxe0"), devices.group(2));
        Matcher bw = Pattern.compile("(?s)@@bw client exit=(\\d+)\n(.*)@@bw server exit=(\\d+)\n(.*)@@bw end").matcher(output);
        assertTrue(bw.find(), output);
        assertEquals("0", bw.group(1), bw.group(2));
        assertEquals("0", bw.group(3), bw.group(4));
        for (String side : List.of(bw.group(2), bw.group(4))) {
            assertTrue(side.contains("path to peer IBPath(") && side.contains("MR peer raddr=")
                    && side.contains("200 iterations of 65536 is 13107200 bytes\n"), side);
        }
        assertTrue(bw.group(2).matches("(?s).*\\n\\d+\\.\\d MB/sec\n"), bw.group(2));
        Matcher jbw = Pattern.compile("(?s)@@jbw client exit=(\\d+)\n(.*)@@jbw server exit=(\\d+)\n(.*)@@jbw end").matcher(output);
        assertTrue(jbw.find(), output);
        assertEquals("0", jbw.group(1), jbw.group(2));
        assertEquals("0", jbw.group(3), jbw.group(4));
        rdmaBwDocumentsAgree(json(jbw.group(2)), json(jbw.group(4)));
        for (int i = 0; i < COMMANDS.size(); i++) {
            Matcher m = Pattern.compile("(?s)@@" + i + " ours exit=(\\d+)\n(.*)@@" + i + " ours stderr\n(.*)@@" + i
                    + " C exit=(\\d+)\n(.*)@@" + i + " end").matcher(output);
            assertTrue(m.find(), COMMANDS.get(i) + ":\n" + output);
            IbtoolRun ours = new IbtoolRun(Integer.parseInt(m.group(1)), m.group(2), m.group(3));
            int c = Integer.parseInt(m.group(4));
            Matcher error = Pattern.compile("iberror: failed: (Failed to open '[^']*' port '\\d+')").matcher(m.group(5));
            assertTrue(error.find(), "the C tool fails to open the port: " + m.group(5));
            assertEquals(c, ours.exitCode(), COMMANDS.get(i) + ": " + ours.err());
            assertEquals(m.group(5), ours.out(), COMMANDS.get(i));
            assertTrue(ours.err().contains("mad_rpc_open_port: can't open UMAD port ("), COMMANDS.get(i) + ": " + ours.err());
        }
    }

    private static JsonNode json(String text) {
        try {
            return new ObjectMapper().readTree(text);
        } catch (java.io.IOException e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }

    /**
     * rdma_bw's two JSON documents of one bidirectional run: each side's {@code peer} is the region
     * the other side reports as {@code local}, both name the same amount, and both sides wrote
     * ({@code -b}), so both have a rate.
     */
    private static void rdmaBwDocumentsAgree(JsonNode client, JsonNode server) {
        assertEquals("client", client.get("role").asText(), client.toString());
        assertEquals("server", server.get("role").asText(), server.toString());
        assertEquals(client.get("local"), server.get("peer"), client + "\n" + server);
        assertEquals(server.get("local"), client.get("peer"), client + "\n" + server);
        for (JsonNode side : List.of(client, server)) {
            assertEquals(100, side.get("iterations").asInt(), side.toString());
            assertEquals(65536, side.get("size").asInt(), side.toString());
            assertEquals(6553600L, side.get("bytes").asLong(), side.toString());
            assertTrue(side.get("megabytesPerSecond").asDouble() > 0, side.toString());
            assertTrue(side.get("path").asText().startsWith("IBPath("), side.toString());
        }
    }
}

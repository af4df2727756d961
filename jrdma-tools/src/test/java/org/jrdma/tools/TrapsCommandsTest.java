package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.Topology;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code ibtool ibsendtrap} and {@code ibtool mcm_rereg_test}, infiniband-diags' two test programs,
 * which Debian does not package: the proof is the peer's side. OpenSM on the ibsim fabric logs each
 * trap ibtool sends (its {@code log_trap_info} line, with the trap's TID) and acts on it (the node
 * description it re-reads on trap 144, the SystemImageGUID it takes from trap 145, the notice it
 * reports), and answers it with a TrapRepress to the trap's issuer, which ibsim drops and says so
 * in its log ({@code got trap repress - dropping}: ibsim hands no TrapRepress to its clients, so
 * under ibsim ibtool reports that none came). The SA's MCMemberRecords, as C {@code saquery -m}
 * shows them, carry the memberships mcm_rereg_test joins; its answers say what the SA did with
 * each leave, join and check. Standard output, standard error and exit status are compared with
 * what the C tools print for the same cases (rdma-core 44's sources, built and run by hand on the
 * same fabric: the texts below are theirs).
 */
@SimulatedFabric(topology = "two-switch")
class TrapsCommandsTest {
    private static final String NODE = "node02 HCA-1";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration LOG_WAIT = Duration.ofSeconds(15);
    /** ibsendtrap's usage message, as the C tool prints it on standard error. */
    private static final String IBSENDTRAP_USAGE = """

            Usage: ibsendtrap [options] [<trap_name>] [<error_port>]

            Argument <trap_name> can be one of the following:
              node_desc_change
              link_speed_enabled_change
              local_link_integrity
              sys_image_guid_change
              mkey_lid
              mkey_dr
              pkey
              qkey

              default behavior is to send "node_desc_change"

            Options:
              --config, -z <config>   use config file, default: /etc/infiniband-diags/ibdiag.conf
              --Ca, -C <ca>           Ca name to use
              --Port, -P <port>       Ca port number to use
              --timeout, -t <ms>      timeout in ms
              --sm_port, -s <lid>     SM port lid
              --m_key, -y <key>       M_Key to use in request
              --errors, -e            show send and receive errors
              --verbose, -v           increase verbosity level
              --debug, -d             raise debug level
              --help, -h              help message
              --version, -V           show version

            """;
    /** Port GUIDs of node04 and node03 (joined by proxy from node02) and of a port no node has. */
    private static final String NODE04 = "0x0002c90300001041";
    private static final String NODE03 = "0x0002c90300001031";
    private static final String NOBODY = "0x0002c903000099aa";

    @ParameterizedTest
    @CsvSource({
        "node_desc_change, 144, 4, Trap 144 Node description update",
        "link_speed_enabled_change, 144, 4, 'ChangeFlags 0x0004'",
        "local_link_integrity, 129, 1, ",
        "sys_image_guid_change, 145, 4, 'new SysImageGUID 0x1234567812345678'",
        "mkey_lid, 256, 2, 'Method 0x1, Attribute 0x15, AttrMod 0x12, M_Key 0x1234567812345678'",
        "mkey_dr, 256, 2, 'M_Key 0x1234567812345678'",
        "pkey, 257, 2, 'Bad P_Key:0x12345678 on SL:0 from LID1:1 QP1:0x101 to LID2:2 QP2:0x20202'",
        "qkey, 258, 2, 'Bad Q_Key:0x12345678 on SL:0 from LID1:1 QP1:0x101 to LID2:2 QP2:0x20202'"})
    void openSmReceivesEveryTrapAndRepressesIt(String trap, int number, int type, String action, Fabric fabric) throws IOException {
        Path smLog = fabric.workDir().resolve("opensm.log");
        Path simLog = fabric.workDir().resolve("ibsim.log");
        int smBefore = read(smLog).length();
        int simBefore = read(simLog).length();
        IbtoolRun json = IbtoolRun.of("ibsendtrap", "--sim", fabric.socketName(), "--sim-node", NODE, "--json", trap);
        assertEquals(0, json.exitCode(), json.err());
        JsonNode document = JSON.readTree(json.out());
        int lid = document.get("issuerLid").asInt();
        assertEquals(number, document.get("trapNumber").asInt());
        assertEquals(number, document.get("notice").get("trapNumberOrDeviceId").asInt());
        assertEquals(1, document.get("smLid").asInt(), json.out()); // OpenSM runs at sw1, LID 1
        long tid = Long.parseUnsignedLong(document.get("transactionId").asText().substring(2), 16) & 0xFFFF_FFFF_FFFFL;
        // ibsim puts its client number in the top 16 bits of a TID; the rest is ibtool's.
        String port = number == 129 ? " Port 1" : "";
        Pattern received = Pattern.compile("log_trap_info: Received Generic Notice type:" + type + " num:" + number
                + " \\([^)]*\\) Producer:1 \\(Channel Adapter\\) from LID:" + lid + port + " TID:0x[0-9a-f]{4}" + String.format("%012x", tid));
        String newLog = awaitLog(smLog, smBefore, received);
        if (action != null) {
            assertTrue(newLog.contains(action), "OpenSM acts on trap " + number + ": " + action + "\n" + newLog);
        }
        Pattern repress = Pattern.compile("process_packet: lid " + lid + " got trap repress - dropping");
        awaitLog(simLog, simBefore, repress);
        // no TrapRepress reaches ibtool under ibsim: it says so after the C tool's (empty) output
        assertFalse(document.get("trapRepressed").asBoolean(), json.out());
        assertTrue(document.get("problem").asText().startsWith("no TrapRepress from LID 1: "), json.out());
    }

    @Test
    void theTextIsTheCToolsAndTheErrorPortIsTrap129s(Fabric fabric) throws IOException {
        Path smLog = fabric.workDir().resolve("opensm.log");
        int smBefore = read(smLog).length();
        IbtoolRun run = IbtoolRun.of("ibsendtrap", "--sim", fabric.socketName(), "--sim-node", NODE, "local_link_integrity", "7", "ignored");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("", run.out());
        // the C tool prints nothing; ibtool's explanation follows: ibsim drops the TrapRepress
        assertTrue(run.err().startsWith("ibsendtrap: no TrapRepress from LID 1: "), run.err());
        awaitLog(smLog, smBefore, Pattern.compile("Received Generic Notice type:1 num:129 \\([^)]*\\) Producer:1 \\(Channel Adapter\\) "
                + "from LID:\\d+ Port 7 TID"));
    }

    @Test
    void theSmPortOptionSendsTheTrapThere(Fabric fabric) throws IOException {
        IbtoolRun run = IbtoolRun.of("ibsendtrap", "--sim", fabric.socketName(), "--sim-node", NODE, "--json", "-s", "2", "qkey");
        assertEquals(0, run.exitCode(), run.err());
        JsonNode document = JSON.readTree(run.out());
        assertEquals(2, document.get("smLid").asInt());
        // LID 2 is a switch: ibsim's SMA does not answer a Trap, so no TrapRepress comes from it
        assertTrue(document.get("problem").asText().startsWith("no TrapRepress from LID 2: "), run.out());
    }

    @ParameterizedTest
    @ValueSource(strings = {"bogus", "-h", "--help", "--bogus", "-x", "-G", "-K", "-t"})
    void badArgumentsGetTheCToolsUsage(String argument, Fabric fabric) {
        IbtoolRun run = IbtoolRun.of("ibsendtrap", "--sim", fabric.socketName(), argument);
        assertEquals(2, run.exitCode(), run.err());
        assertEquals("", run.out());
        String complaint = switch (argument) {
            case "--bogus" -> "ibsendtrap: unrecognized option '--bogus'\n";
            case "-x", "-G", "-K" -> "ibsendtrap: invalid option -- '" + argument.charAt(1) + "'\n";
            case "-t" -> "ibsendtrap: option requires an argument -- 't'\n";
            default -> "";
        };
        assertTrue(run.err().startsWith(complaint + IBSENDTRAP_USAGE), run.err());
        if (argument.equals("bogus")) {
            assertTrue(run.err().endsWith("ibsendtrap: unknown trap name \"bogus\"; known: node_desc_change, link_speed_enabled_change, "
                    + "local_link_integrity, sys_image_guid_change, mkey_lid, mkey_dr, pkey, qkey\n"), run.err());
        }
    }

    @Test
    void aPortThatCannotBeOpenedFailsAsTheCTool() {
        IbtoolRun run = IbtoolRun.of("ibsendtrap", "-C", "no_such_ca", "-P", "1");
        assertEquals(255, run.exitCode(), run.err());
        assertEquals("ibsendtrap: iberror: failed: Failed to open 'no_such_ca' port '1'\n", run.out());
    }

    @Test
    void mcmReregTestLeavesJoinsAndChecksAsTheCToolDoes(Fabric fabric, @TempDir Path dir) throws IOException {
        Path guids = Files.writeString(dir.resolve("port_guids.list"), NODE04 + "\n" + NODE03 + "\n" + NOBODY + "\n");
        String before = members(fabric);
        assertFalse(before.contains("fe80::2:c903:0:1041") || before.contains("fe80::2:c903:0:1031"), before);

        IbtoolRun first = IbtoolRun.of("mcm_rereg_test", "--sim", fabric.socketName(), "--sim-node", NODE, guids.toString());
        assertEquals(0, first.exitCode(), first.err());
        assertEquals("", first.out());
        // The C tool's lines: the failed join of the unknown port told as a TID it cannot find, its check refused (0x300)
        assertEquals("""
                INFO: rereg_send_all... cnt = 3
                INFO: rereg_send_all: sent 6 requests
                INFO: rereg_recv_all...
                ERR: cannot find trid 0x<tid>
                INFO: rereg_recv_all: got 6 responses
                INFO: rereg_query_all...
                INFO: guid 0x0002c903000099aa: status 300, method 1
                INFO: rereg_query_all: 3 queried.
                """, first.err().replaceAll("trid 0x[0-9a-f]{16}", "trid 0x<tid>"));
        String after = members(fabric);
        for (String gid : new String[] {"fe80::2:c903:0:1041", "fe80::2:c903:0:1031"}) {
            Matcher member = Pattern.compile("MGID\\.+ff12:401b:ffff::ffff:ffff\n\t\tMlid\\.+0xC000\n\t\tPortGid\\.+" + Pattern.quote(gid)
                    + "\n\t\tScopeState\\.+0x21\n\t\tProxyJoin\\.+0x1\n").matcher(after);
            assertTrue(member.find(), "the SA lists " + gid + " as a full member joined by proxy\n" + after);
        }
        assertFalse(after.contains("fe80::2:c903:0:99aa"), after);

        IbtoolRun second = IbtoolRun.of("mcm_rereg_test", "--sim", fabric.socketName(), "--sim-node", NODE, "--json", guids.toString());
        assertEquals(0, second.exitCode(), second.err());
        JsonNode ports = JSON.readTree(second.out()).get("ports");
        for (int i = 0; i < 2; i++) {
            JsonNode port = ports.get(i);
            // members now, so the SA takes the leave (DeleteResp, status 0), then the join and the check
            assertEquals(0x95, port.get("leave").get("method").asInt(), port.toString());
            assertEquals(0, port.get("leave").get("status").asInt(), port.toString());
            assertEquals(0x81, port.get("join").get("method").asInt(), port.toString());
            assertEquals(0, port.get("join").get("status").asInt(), port.toString());
            assertEquals(0, port.get("query").get("status").asInt(), port.toString());
        }
        JsonNode nobody = ports.get(2);
        assertEquals(NOBODY, nobody.get("guid").asText());
        assertEquals(0x0200, nobody.get("leave").get("status").asInt(), nobody.toString()); // not a member: OpenSM's ERR 1B25
        assertEquals(0x0200, nobody.get("join").get("status").asInt(), nobody.toString());
        assertEquals(0x0300, nobody.get("query").get("status").asInt(), nobody.toString());
        assertTrue(read(fabric.workDir().resolve("opensm.log")).contains(
                "ERR 1B25: Received an invalid delete request for MGID: ff12:401b:ffff::ffff:ffff for PortGID: fe80::2:c903:0:1041"));
        assertTrue(members(fabric).contains("fe80::2:c903:0:1041"));
    }

    @Test
    void mcmReregTestTakesAnyArgumentAsItsFile(Fabric fabric) {
        for (String argument : new String[] {"no-such-file", "-x", "--bogus", "-h"}) {
            IbtoolRun run = IbtoolRun.of("mcm_rereg_test", "--sim", fabric.socketName(), "--sim-node", NODE, argument, "ignored");
            assertEquals(0, run.exitCode(), run.err());
            assertEquals("", run.out());
            assertEquals("ERR: cannot open " + argument + ": No such file or directory\n", run.err());
        }
        IbtoolRun noFile = IbtoolRun.of("mcm_rereg_test", "--sim", fabric.socketName(), "--sim-node", NODE);
        assertEquals("ERR: cannot open port_guids.list: No such file or directory\n", noFile.err());
        assertEquals(0, noFile.exitCode());
    }

    @Test
    void withoutASubnetManagerBothEndAsTheCToolsDo(@TempDir Path dir) throws IOException {
        try (Fabric fabric = Fabric.start(Topology.bundled("two-switch"), Fabric.Options.defaults().withSubnetManager(false))) {
            withoutASubnetManager(fabric, dir);
        }
    }

    private static void withoutASubnetManager(Fabric fabric, Path dir) throws IOException {
        IbtoolRun trap = IbtoolRun.of("ibsendtrap", "--sim", fabric.socketName(), "--sim-node", NODE);
        assertEquals(0, trap.exitCode(), trap.err());
        assertEquals("", trap.out());
        assertEquals("ibsendtrap: the local port knows no subnet manager (MasterSMLID 0): the trap went to LID 0, no TrapRepress awaited\n",
                trap.err());
        Path guids = Files.writeString(dir.resolve("guids"), NODE04 + "\n" + NODE03 + "\n" + NOBODY + "\n");
        IbtoolRun rereg = IbtoolRun.of("mcm_rereg_test", "--sim", fabric.socketName(), "--sim-node", NODE, guids.toString());
        assertEquals(0, rereg.exitCode(), rereg.err());
        assertEquals("", rereg.out());
        // the C tool's requests to LID 0 all time out, and it counts each as a response
        assertEquals("""
                INFO: rereg_send_all... cnt = 3
                INFO: rereg_send_all: sent 6 requests
                INFO: rereg_recv_all...
                INFO: rereg_recv_all: got 6 responses
                INFO: rereg_query_all...
                INFO: rereg_query_all: 3 queried.
                mcm_rereg_test: the local port knows no subnet manager (MasterSMLID 0): nothing sent to LID 0
                """, rereg.err());
    }

    @Test
    void onTheKernelUmadPathTheTrapReachesOpenSm(Fabric fabric) throws IOException {
        Path smLog = fabric.workDir().resolve("opensm.log");
        int smBefore = read(smLog).length();
        IbtoolRun run = IbtoolProcess.runAt(fabric, "node03 HCA-1", "ibsendtrap", "-t", "300", "sys_image_guid_change");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("", run.out());
        awaitLog(smLog, smBefore, Pattern.compile("Received Generic Notice type:4 num:145 \\([^)]*\\) Producer:1 \\(Channel Adapter\\) from LID:\\d+ TID"));
    }

    /** The SA's MCMemberRecords as C {@code saquery -m} prints them with OpenSM's SM_Key (1), which shows each member's PortGID. */
    private static String members(Fabric fabric) {
        return fabric.runAt(NODE, "saquery", "-m", "--smkey", "1").orThrow().stdout();
    }

    /** The log's text from {@code from} on, once it has a line matching {@code line} there (within 15 s). */
    private static String awaitLog(Path log, int from, Pattern line) throws IOException {
        long deadline = System.nanoTime() + LOG_WAIT.toNanos();
        while (true) {
            String text = read(log);
            String added = text.substring(Math.min(from, text.length()));
            if (line.matcher(added).find()) {
                return added;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no line matching " + line + " in " + log + " after offset " + from + ":\n" + added);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    private static String read(Path log) throws IOException {
        return Files.exists(log) ? Files.readString(log, StandardCharsets.ISO_8859_1) : "";
    }
}

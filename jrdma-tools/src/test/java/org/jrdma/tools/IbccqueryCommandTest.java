package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.ByteBuffer;
import java.util.Map;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code ibtool ibccquery} against infiniband-diags' ibccquery on the same fat tree (attached at
 * spine1, LID 1; LID 4 is node01's HCA). ibsim has no congestion control agent: it hands a CC MAD
 * to the SMP handler of the same attribute number (0x21 & 0xf is the LID-routed SMP class), whose
 * answer echoes the request with that handler's status, so CongestionInfo, CongestionKeyInfo,
 * SwitchCongestionSetting, SwitchPortCongestionSetting, CACongestionSetting and the
 * CongestionControlTable answer zeros, Timestamp a status error, and ClassPortInfo and
 * CongestionLog no answer: every one printed, or failing, as the C tool's does. Those two, which
 * ibsim hands to a client, are also answered by a jrdma agent of class 0x21 on an HCA
 * ({@link FixedAnswerAgent}).
 */
@SimulatedFabric(topology = "fat-tree")
class IbccqueryCommandTest {

    @ParameterizedTest
    @ValueSource(strings = {"CP 1", "CI 1", "ci 4", "CongestionInfo 1", "CK 1", "-c 5 CK 2", "CL 1", "SS 1", "SP 1", "SP 1 3", "SP 1 30",
        "SwitchPortCongestionSetting 2 8", "SP 4", "CS 1", "CS 4", "CT 1", "TI 1", "TI 4", "foo 1", "CI x", "CI 0", "-t 200 CI 1"})
    void answersAsTheCToolDoes(String args, Fabric fabric) {
        AgainstC.run(fabric, "ibccquery", args.split(" ")).assertSame();
    }

    @Test
    void everySwitchPortIsListed(Fabric fabric) {
        String out = AgainstC.run(fabric, "ibccquery", "SP", "1").assertSame().ours().out();
        assertTrue(out.startsWith("# SwitchPortCongestionSetting: Lid 1\nPort:............................0\nValid:...........................0\n"),
                out);
        assertTrue(out.contains("Port:............................8\n"), out);
    }

    @Test
    void aPortPastTheSwitchsLastIsRefused(Fabric fabric) {
        AgainstC run = AgainstC.run(fabric, "ibccquery", "SP", "1", "30").assertSame();
        assertEquals("# SwitchPortCongestionSetting: Lid 1\nibccquery: iberror: failed: operation SP: invalid port number specified\n",
                run.ours().out());
    }

    @Test
    void classPortInfoAndCongestionLogsPrintAsTheCToolPrintsThem(Fabric fabric) {
        ByteBuffer cpi = ByteBuffer.allocate(224);
        cpi.put(32, (byte) 1).put(33, (byte) 2).putShort(34, (short) 0x0100).putInt(36, 0x00000012).put(40, (byte) 0xFE).put(41, (byte) 0x80)
                .putInt(64, 0x05123456).putShort(68, (short) 9).putShort(70, (short) 0xFFFF).putInt(72, 0x00000001).putInt(76, 0x80010000)
                .putShort(112, (short) 1).putShort(114, (short) 0x7FFF).put(116, (byte) 64).putInt(116, 64 << 24 | 1).putInt(120, 0x80010000);
        ByteBuffer log = ByteBuffer.allocate(224);
        log.put(0, (byte) 1).put(1, (byte) 1).putShort(2, (short) 3).putInt(4, 1000).put(39, (byte) 0x06);
        log.putShort(40, (short) 4).putShort(42, (short) 5).put(44, (byte) 0x10).putInt(48, 999);
        log.putShort(64, (short) 6).putShort(66, (short) 7).putInt(72, 998);
        try (FixedAnswerAgent agent = FixedAnswerAgent.start(fabric, "node03 HCA-1", 0x21, 2, 32,
                Map.of(0x0001, cpi.array(), 0x0013, log.array()))) {
            String lid = Integer.toString(agent.lid());
            String out = AgainstC.run(fabric, "ibccquery", "CP", lid).assertSame().ours().out();
            assertTrue(out.contains("ClassVersion:....................2\n") && out.contains("CapabilityMask:..................0x0100\n"), out);
            String switchLog = sameLog(AgainstC.run(fabric, "ibccquery", "CL", lid));
            assertTrue(switchLog.contains("SLID:............................4\n") && switchLog.contains("DLID:............................7\n"),
                    switchLog);
        }
        ByteBuffer caLog = ByteBuffer.allocate(224);
        caLog.put(0, (byte) 2).putShort(2, (short) 2).putShort(4, (short) 0x0003).putInt(8, 500);
        caLog.putInt(12, 0x000123 << 8 | 0x31).putInt(16, 0x000456 << 8).putShort(20, (short) 4).putShort(22, (short) 5).putInt(24, 77);
        ByteBuffer badLog = ByteBuffer.allocate(224).put(0, (byte) 3);
        try (FixedAnswerAgent agent = FixedAnswerAgent.start(fabric, "node04 HCA-1", 0x21, 2, 32, Map.of(0x0013, caLog.array()))) {
            String out = sameLog(AgainstC.run(fabric, "ibccquery", "CL", Integer.toString(agent.lid())));
            assertTrue(out.contains("Local_QP_CN_Entry:...............291\n"), out);
        }
        try (FixedAnswerAgent agent = FixedAnswerAgent.start(fabric, "node05 HCA-1", 0x21, 2, 32, Map.of(0x0013, badLog.array()))) {
            AgainstC.run(fabric, "ibccquery", "CL", Integer.toString(agent.lid())).assertSame();
        }
    }

    /**
     * Asserts the same CongestionLog up to the end of ibtool's: the C tool under libumad2sim reads
     * the last 24 bytes of the MAD (its last event slots) as bytes that were not sent (jrdma
     * receives the zeros the agent sent), so it may print events after ibtool's.
     */
    private static String sameLog(AgainstC run) {
        String ours = run.ours().out();
        run.assertSame(text -> text.substring(0, Math.min(text.length(), ours.length())));
        return ours;
    }

    /**
     * {@code --json}: the attribute by its IBA name with its components, against the same run's
     * text (ibsim's zeros, and a switch's CongestionLog from a jrdma agent); a failure is the error
     * document (README, "JSON output").
     */
    @Test
    void jsonHasTheAttributeTheTextShows(Fabric fabric) {
        String sim = fabric.socketName();
        TextAndJson info = TextAndJson.of("ibccquery", "--sim", sim, "CI", "1");
        assertEquals("CongestionInfo", info.document().get("attribute").asText());
        assertEquals(1, info.document().get("lid").asInt());
        assertEquals(Integer.parseInt(info.find("^ControlTableCap:\\.+(\\d+)$")), info.document().at("/value/controlTableCap").asInt());

        TextAndJson ports = TextAndJson.of("ibccquery", "--sim", sim, "SP", "1");
        assertEquals(ports.findAll("^Port:\\.+(\\d+)$"), ports.document().get("value").findValuesAsText("portNum"));
        assertEquals(ports.findAll("^Valid:\\.+(\\d+)$"), ports.document().get("value").findValuesAsText("valid"));
        TextAndJson port = TextAndJson.of("ibccquery", "--sim", sim, "SP", "1", "3");
        assertEquals(3, port.document().at("/value/0/portNum").asInt());
        assertEquals(Integer.parseInt(port.find("^Packet_Size:\\.+(\\d+)$")), port.document().at("/value/0/setting/packetSize").asInt());

        TextAndJson ca = TextAndJson.of("ibccquery", "--sim", sim, "CS", "4");
        assertEquals(ca.count("^SL:"), ca.document().at("/value/caCongestionEntryList").size());
        TextAndJson table = TextAndJson.of("ibccquery", "--sim", sim, "CT", "1");
        assertEquals(Integer.parseInt(table.find("^CCTI_Limit:\\.+(\\d+)$")), table.document().at("/value/cctiLimit").asInt());
        assertEquals(table.count("^Entry:"), table.document().at("/value/entries").size());
        TextAndJson key = TextAndJson.of("ibccquery", "--sim", sim, "CK", "1");
        assertEquals(Long.decode(key.find("^CC_Key:\\.+(0x\\p{XDigit}+)$")), key.document().at("/value/ccKey").asLong());

        TextAndJson timestamp = TextAndJson.of("ibccquery", "--sim", sim, "TI", "1");
        assertEquals("operation TI: timestamp query failed", timestamp.error().get("message").asText());
        TextAndJson unknown = TextAndJson.of("ibccquery", "--sim", sim, "foo", "1");
        assertEquals(255, unknown.error().get("status").asInt());

        ByteBuffer log = ByteBuffer.allocate(224);
        log.put(0, (byte) 1).put(1, (byte) 1).putShort(2, (short) 3).putInt(4, 1000).put(39, (byte) 0x06);
        log.putShort(40, (short) 4).putShort(42, (short) 5).put(44, (byte) 0x10).putInt(48, 999);
        try (FixedAnswerAgent agent = FixedAnswerAgent.start(fabric, "node03 HCA-1", 0x21, 2, 32, Map.of(0x0013, log.array()))) {
            TextAndJson switchLog = TextAndJson.of("ibccquery", "--sim", sim, "CL", Integer.toString(agent.lid()));
            JsonNode value = switchLog.document().get("value");
            assertEquals(1, value.get("logType").asInt());
            assertEquals(Integer.parseInt(switchLog.find("^LogEventsCounter:\\.+(\\d+)$")), value.get("logEventsCounter").asInt());
            assertEquals(switchLog.findAll("^SLID:\\.+(\\d+)$"), value.get("congestionEntryList").findValuesAsText("slid"));
            assertEquals(switchLog.findAll("^DLID:\\.+(\\d+)$"), value.get("congestionEntryList").findValuesAsText("dlid"));
        }
    }

    @Test
    void badOptionsHelpAndVersionAnswerAsTheCToolDoes(Fabric fabric) {
        for (String[] args : new String[][] {{"CI"}, {}, {"-Q", "CI", "1"}, {"-c"}, {"-h"}}) {
            AgainstC.run(fabric, "ibccquery", args).assertUsageError();
        }
        IbtoolRun version = IbtoolRun.of("ibccquery", "-V");
        assertEquals(0, version.exitCode());
        assertEquals("ibccquery BUILD VERSION: jrdma ibtool 0.1.0\n", version.err());
    }
}

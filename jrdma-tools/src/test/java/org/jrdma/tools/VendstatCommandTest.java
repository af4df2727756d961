package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code ibtool vendstat} against infiniband-diags' vendstat on the same fat tree (attached at
 * spine1). ibsim serves no Mellanox vendor class: each query fails as the C tool's fails, with
 * the same lines on standard error, {@code -N}/{@code -w} with {@code classportinfo query} (255),
 * {@code -i}, {@code -c}, {@code -R} and {@code -W} with their failure lines and status 0; and the
 * argument checks, usage errors, {@code -h} and {@code -V} answer as the C tool's do. The answers
 * of a switch that serves the class come from a jrdma agent of class 0x0A on an HCA
 * ({@link FixedAnswerAgent}): an InfiniScale III, and a device with extended firmware information.
 */
@SimulatedFabric(topology = "fat-tree")
class VendstatCommandTest {

    @ParameterizedTest
    @ValueSource(strings = {"-N 1", "-w 4", "-N -w 2", "-N", "1", "-i 1 2", "-i", "-c 0,1 1 3", "-c 2,8 6 12", "-R 0x100 2",
        "-R 0x100,0xff -R 5 2", "-W 0x10,5 2", "-W 0x10,5,7 -R 3 1", "-N x", "-i 0"})
    void answersAsTheCToolDoes(String args, Fabric fabric) {
        AgainstC.run(fabric, "vendstat", args.split(" ")).assertSame();
    }

    @Test
    void theQueriesThatFailAreToldOnStandardError(Fabric fabric) {
        AgainstC run = AgainstC.run(fabric, "vendstat", "-i", "1", "2").assertSame();
        assertEquals(0, run.ours().exitCode());
        assertTrue(run.ours().err().contains("vendstat: method 1, attribute 144 failure\ncounter group info query failure\n"), run.ours().err());
        AgainstC classPortInfo = AgainstC.run(fabric, "vendstat", "-N", "1").assertSame();
        assertEquals("vendstat: iberror: failed: classportinfo query\n", classPortInfo.ours().out());
    }

    @Test
    void anInfiniScaleIIIsAnswersPrintAsTheCToolPrintsThem(Fabric fabric) {
        try (FixedAnswerAgent agent = FixedAnswerAgent.start(fabric, "node03 HCA-1", 0x0A, 1, 24, answers(47396))) {
            String lid = Integer.toString(agent.lid());
            String out = AgainstC.run(fabric, "vendstat", "-N", lid).assertSame().ours().out();
            assertTrue(out.contains("hw_dev_id:   0xb924\n") && out.contains("fw_version:  01.02.03\n")
                    && out.contains("fw_psid:     'MT_0010000001'\n") && out.contains("sw_version:  04.05.06\n"), out);
            String waits = AgainstC.run(fabric, "vendstat", "-w", lid).assertSame().ours().out();
            assertTrue(waits.contains("Port 5: PortXmitWait 0x100\n") && waits.contains("Port 22: PortXmitWait 0x100\n"), waits);
            for (String args : new String[] {"-N -w", "-i 7", "-c 0,1 7", "-R 0x10 -R 0x20,0xff", "-W 0x10,5 -W 0x20,6,0xf0", "-R 1 -W 2,3"}) {
                AgainstC.run(fabric, "vendstat", (args + " " + lid).split(" ")).assertSame();
            }
        }
    }

    @Test
    void aDeviceWithExtendedFirmwareInformationPrintsItsVersionsFromThere(Fabric fabric) {
        try (FixedAnswerAgent agent = FixedAnswerAgent.start(fabric, "node04 HCA-1", 0x0A, 1, 24, answers(0x01b3))) {
            String lid = Integer.toString(agent.lid());
            String out = AgainstC.run(fabric, "vendstat", "-N", lid).assertSame().ours().out();
            // the extended major version word is where an InfiniScale III has its software version
            assertTrue(out.contains("fw_version:  168035590.20.30\n") && out.contains("sw_version:  07.08.09\n"), out);
            AgainstC.run(fabric, "vendstat", "-w", lid).assertSame();
        }
    }

    /**
     * A switch's answers: ClassPortInfo; GeneralInfo of {@code deviceId} with both the InfiniScale
     * III and the extended version fields; configuration space records, one data word in three 0;
     * two counter groups.
     */
    private static Map<Integer, byte[]> answers(int deviceId) {
        ByteBuffer general = ByteBuffer.allocate(232);
        general.putShort(8, (short) 0xA0).putShort(10, (short) deviceId).putInt(36, 0x12345678);
        general.put(41, (byte) 1).put(42, (byte) 2).put(43, (byte) 3).putInt(44, 0x1234).put(48, (byte) 0x11).put(49, (byte) 0x25)
                .putShort(50, (short) 0x2026).put(56, "MT_0010000001".getBytes(StandardCharsets.US_ASCII)).putInt(72, 7);
        general.putInt(76, 10 << 24 | 4 << 16 | 5 << 8 | 6).putInt(80, 20).putInt(84, 30);
        general.put(105, (byte) 7).put(106, (byte) 8).put(107, (byte) 9);
        ByteBuffer records = ByteBuffer.allocate(232);
        for (int i = 0; i < 18; i++) {
            records.putInt(8 + i * 12, 0x1000 + i).putInt(12 + i * 12, i % 3 == 0 ? 0 : 0x100 * (i % 2 + 1) >> (i % 2))
                    .putInt(16 + i * 12, i % 2 == 0 ? 0xFFFFFFFF : 0x0F0F);
        }
        ByteBuffer groups = ByteBuffer.allocate(232);
        groups.put(11, (byte) 2).putInt(12, 0x0F).putInt(16, 0xF0);
        return Map.of(0x0001, new byte[232], 0x0017, general.array(), 0x0050, records.array(), 0x0090, groups.array());
    }

    /**
     * {@code --json}: what the text shows, against the same run's text; the queries that fail with
     * status 0 are the document's {@code failures}, a fatal one the error document (README, "JSON output").
     */
    @Test
    void jsonHasWhatTheTextShows(Fabric fabric) {
        String sim = fabric.socketName();
        TextAndJson failed = TextAndJson.of("vendstat", "--sim", sim, "-i", "1", "2");
        assertEquals(0, failed.json().exitCode());
        // the same C lines on standard error (jrdma's explanation after them names each run's TID)
        assertEquals(failed.text().err().lines().limit(3).toList(), failed.json().err().lines().limit(3).toList());
        assertEquals(144, failed.document().at("/failures/0/attributeId").asInt());
        assertEquals("counter group info query failure", failed.document().at("/failures/0/what").asText());
        assertEquals(1, failed.document().get("lid").asInt());
        assertEquals(2, failed.document().get("portNum").asInt());
        TextAndJson classPortInfo = TextAndJson.of("vendstat", "--sim", sim, "-N", "1");
        assertEquals(255, classPortInfo.error().get("status").asInt());
        assertEquals("classportinfo query", classPortInfo.error().get("message").asText());

        try (FixedAnswerAgent agent = FixedAnswerAgent.start(fabric, "node03 HCA-1", 0x0A, 1, 24, answers(47396))) {
            String lid = Integer.toString(agent.lid());
            TextAndJson general = TextAndJson.of("vendstat", "--sim", sim, "-N", "-w", lid);
            JsonNode info = general.document().get("generalInfo");
            assertEquals(general.find("^fw_version:  (.*)$"), info.get("fwVersion").asText());
            assertEquals(general.find("^sw_version:  (.*)$"), info.get("swVersion").asText());
            assertEquals(general.find("^fw_psid:     '(.*)'$"), info.get("fwPsid").asText());
            assertEquals(Integer.decode(general.find("^hw_dev_id:   (0x\\p{XDigit}+)$")), info.at("/attribute/deviceId").asInt());
            List<String> waits = new ArrayList<>();
            general.document().get("portXmitWait").forEach(w -> waits.add(w.get("portNum").asInt() + " 0x" + Long.toHexString(w.get("portXmitWait").asLong())));
            assertEquals(general.findAll("^Port (\\d+): PortXmitWait (0x\\p{XDigit}+)$").size(), waits.size());
            assertEquals(general.text().out().lines().filter(l -> l.startsWith("Port ")).map(l -> l.replaceAll("^Port (\\d+): PortXmitWait ", "$1 ")).toList(),
                    waits);

            TextAndJson records = TextAndJson.of("vendstat", "--sim", sim, "-R", "0x10", "-W", "0x20,6,0xf0", lid);
            List<String> shown = new ArrayList<>();
            records.document().get("configSpaceRecords").forEach(r -> shown.add(
                    "Config space record at 0x" + Long.toHexString(r.get("address").asLong()) + ": 0x" + Long.toHexString(r.get("data").asLong())));
            assertEquals(records.text().out().lines().toList(), shown);
            assertEquals("write", records.document().at("/configSpaceRecords/1/method").asText());

            TextAndJson groups = TextAndJson.of("vendstat", "--sim", sim, "-i", lid);
            assertEquals(Integer.parseInt(groups.find("^(\\d+) counter groups$")), groups.document().at("/counterGroupInfo/numOfCounterGroups").asInt());
            assertEquals(groups.find("^group0 mask (\\S+)$"), "0x" + Long.toHexString(groups.document().at("/counterGroupInfo/groupMasks/0").asLong()));
        }
    }

    @Test
    void badArgumentsHelpAndVersionAnswerAsTheCToolDoes(Fabric fabric) {
        for (String[] args : new String[][] {{"-c", "3", "1"}, {"-R", "zz", "1"}, {"-W", "5", "1"}, {"-Q", "1"}, {"-c"}, {"-h"}}) {
            AgainstC.run(fabric, "vendstat", args).assertUsageError();
        }
        IbtoolRun version = IbtoolRun.of("vendstat", "-V");
        assertEquals(0, version.exitCode());
        assertEquals("vendstat BUILD VERSION: jrdma ibtool 0.1.0\n", version.err());
    }
}

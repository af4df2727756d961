package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.mad.MadEngine;
import org.jrdma.mad.MadTracer;
import org.jrdma.mad.ReceivedMad;
import org.jrdma.mad.SmpClient;
import org.jrdma.mad.SmpTarget;
import org.jrdma.mad.sim.IbsimTransport;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;

/**
 * {@code ibtool decode_mad}, which has no infiniband-diags counterpart: MADs captured from ibsim
 * decode to the expected header and attribute, and a MAD received live decodes to the values
 * infiniband-diags' smpquery prints for the same node.
 */
@SimulatedFabric(topology = "fat-tree")
class DecodeMadCommandTest {
    /** SubnGetResp(NodeInfo) by directed route 0,1 on the fat tree (leaf1), captured from ibsim. */
    private static final String DR_NODE_INFO = """
            01810181800000010003ca260000000100110000000000000000000000000000
            ffffffff00000000000000000000000000000000000000000000000000000000
            010102080002c90300000a110002c90300000a110002c90300000a1100080000
            000000a105000000000000000000000000000000000000000000000000000000
            0001000000000000000000000000000000000000000000000000000000000000
            0000000000000000000000000000000000000000000000000000000000000000
            0000000005000000000000000000000000000000000000000000000000000000
            0000000000000000000000000000000000000000000000000000000000000000
            """;

    /** SubnAdmGetResp(NodeRecord) for LID 4 (node01), 168 bytes as libumad2sim relays it. */
    private static final String SA_NODE_RECORD = """
            01030281000000000003ca260000000300110000000000000000000000000000
            000000000000000000000000000e000000000000000000010004000001010101
            0002c903000010100002c903000010100002c9030000101100400000000000a1
            010000006e6f64653031204843412d3100000000000000000000000000000000
            0000000000000000000000000000000000000000000000000000000000000000
            0000000000000000
            """;

    @Test
    void decodesADirectedRouteSmpGivenAsArguments() {
        IbtoolRun run = IbtoolRun.of(args("decode_mad", DR_NODE_INFO));
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("""
                MAD Header
                  baseVersion.....................1
                  mgmtClass.......................129
                  classVersion....................1
                  r...............................1
                  method..........................1
                  status..........................32768
                  classSpecific...................1
                  transactionId...................0x3ca2600000001
                  attributeId.....................17
                  attributeModifier...............0x0
                NodeInfo
                  baseVersion.....................1
                  classVersion....................1
                  nodeType........................2
                  numPorts........................8
                  systemImageGuid.................0x0002c90300000a11
                  nodeGuid........................0x0002c90300000a11
                  portGuid........................0x0002c90300000a11
                  partitionCap....................8
                  deviceId........................0
                  revision........................0xa1
                  localPortNum....................5
                  vendorId........................0x0
                """, run.out());
    }

    @Test
    void decodesTheRecordsOfAnSaResponseReadFromStandardInput() {
        IbtoolRun run = withStandardInput(SA_NODE_RECORD, () -> IbtoolRun.of("decode_mad"));
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().startsWith("MAD Header\n  baseVersion.....................1\n  mgmtClass.......................3\n"), run.out());
        assertTrue(run.out().contains("""
                NodeRecord
                  lid.............................4
                  nodeInfo.baseVersion............1
                """), run.out());
        assertTrue(run.out().endsWith("""
                  nodeInfo.portGuid...............0x0002c90300001011
                  nodeInfo.partitionCap...........64
                  nodeInfo.deviceId...............0
                  nodeInfo.revision...............0xa1
                  nodeInfo.localPortNum...........1
                  nodeInfo.vendorId...............0x0
                  nodeDescription.nodeString......node01 HCA-1
                """), run.out());
    }

    @Test
    void skipsLeadingBytesAndNamesAnAttributeItCannotDecode() {
        IbtoolRun skipped = IbtoolRun.of(args("decode_mad -o 3 aabbcc", DR_NODE_INFO));
        assertEquals(IbtoolRun.of(args("decode_mad", DR_NODE_INFO)).out(), skipped.out());

        String unknown = DR_NODE_INFO.replaceFirst("00110000", "00990000");
        IbtoolRun run = IbtoolRun.of(args("decode_mad", unknown));
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().endsWith("attribute 0x0099 of management class 0x81: jrdma has no description of it\n"), run.out());
    }

    @Test
    void aMadReceivedLiveDecodesToWhatSmpqueryPrints(Fabric fabric) {
        AtomicReference<byte[]> reply = new AtomicReference<>();
        try (MadEngine engine = new MadEngine(IbsimTransport.attach(fabric.socketName(), null), 1)) {
            engine.tracer(new MadTracer() {
                @Override
                public void received(ReceivedMad mad) {
                    reply.set(mad.mad().clone());
                }
            });
            new SmpClient(engine, Duration.ofSeconds(1), 2, 0).get(new SmpNodeInfo(), SmpTarget.local().then(1), 0);
        }
        assertNotNull(reply.get());
        IbtoolRun ours = IbtoolRun.of("decode_mad", HexFormat.of().formatHex(reply.get()));
        assertEquals(0, ours.exitCode(), ours.err());
        Map<String, String> c = fields(fabric.run("smpquery", "-D", "nodeinfo", "0,1").orThrow().stdout(), ":");
        Map<String, String> decoded = fields(ours.out().substring(ours.out().indexOf("NodeInfo\n")), "");
        Map<String, String> names = Map.of("NumPorts", "numPorts", "SystemGuid", "systemImageGuid", "Guid", "nodeGuid",
                "PortGuid", "portGuid", "PartCap", "partitionCap", "DevId", "deviceId", "Revision", "revision", "LocalPort",
                "localPortNum", "VendorId", "vendorId");
        names.forEach((cName, ourName) -> assertEquals(Long.decode(c.get(cName)), Long.decode(decoded.get(ourName)), cName));
    }

    @Test
    void badInputExitsWithStatusTwoAndSaysWhy() {
        IbtoolRun notHex = IbtoolRun.of("decode_mad", "01", "0g");
        assertEquals(2, notHex.exitCode());
        assertTrue(notHex.err().contains("character 'g' at index 3 of the input is not a hex digit"), notHex.err());

        IbtoolRun halfByte = IbtoolRun.of("decode_mad", "012");
        assertEquals(2, halfByte.exitCode());
        assertTrue(halfByte.err().contains("3 hex digits"), halfByte.err());

        IbtoolRun tooShort = IbtoolRun.of("decode_mad", "0101");
        assertEquals(2, tooShort.exitCode());
        assertTrue(tooShort.err().contains("not a MAD: a MAD has a 24-byte header; got 2 bytes"), tooShort.err());

        IbtoolRun offset = IbtoolRun.of("decode_mad", "-o", "3", "0101");
        assertEquals(2, offset.exitCode());
        assertTrue(offset.err().contains("--offset 3 outside the 2 bytes given"), offset.err());
    }

    /** The words of {@code line} followed by the hex, as separate arguments. */
    private static String[] args(String line, String hex) {
        return (line + " " + hex.replace("\n", "")).split(" ");
    }

    /** {@code name<separator>....value} lines as a map (libibmad's dotted lines, or jrdma's). */
    private static Map<String, String> fields(String text, String separator) {
        Map<String, String> fields = new HashMap<>();
        for (String line : text.lines().toList()) {
            String[] parts = line.strip().split(separator + "\\.{3,}", 2);
            if (parts.length == 2) {
                fields.put(parts[0], parts[1]);
            }
        }
        return fields;
    }

    private static IbtoolRun withStandardInput(String text, Supplier<IbtoolRun> run) {
        InputStream saved = System.in;
        System.setIn(new ByteArrayInputStream(text.getBytes(StandardCharsets.US_ASCII)));
        try {
            return run.get();
        } finally {
            System.setIn(saved);
        }
    }
}

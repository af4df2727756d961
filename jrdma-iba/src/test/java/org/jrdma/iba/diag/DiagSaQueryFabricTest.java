package org.jrdma.iba.diag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.jrdma.iba.NodeType;
import org.jrdma.iba.mad.MadHeader;
import org.jrdma.iba.sa.SaLinkRecord;
import org.jrdma.iba.sa.SaNodeRecord;
import org.jrdma.iba.sa.SaPathRecord;
import org.jrdma.iba.sa.SaPortInfoRecord;
import org.jrdma.iba.sa.SaSmInfoRecord;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.wire.Bits;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.ToolResult;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Golden tests against the real {@code saquery} on a simulated fabric. saquery prints records
 * with its own printf formats, not libibmad's, and has no raw dump; but with {@code -d -d} it
 * writes the SA response MAD to standard output ({@code SA Response:}) before the records. The
 * records in that MAD (from byte 56, AttributeOffset 8-byte words apart, as saquery counts them),
 * decoded with the generated classes and printed with {@link SaQuery}, must be what the same run
 * printed after the dump. One query per record kind is also run without {@code -d} to show that
 * the debug flag changes nothing in the records' text.
 *
 * <p>Only what OpenSM answers on this fabric is compared: the values of a small simulated subnet,
 * not random or edge values (saquery's printing is its own code, not a library that could be fed
 * arbitrary bytes).
 */
@SimulatedFabric(topology = "two-switch")
class DiagSaQueryFabricTest {
    /** SA records start after the common header (24), RMPP header (12), SM_Key (8), AttributeOffset, reserved (4) and ComponentMask (8). */
    static final int SA_DATA = 56;

    /** A saquery run: its output without the dumps, and the records of the response. */
    record Run(String text, List<byte[]> records) {
    }

    static Run saquery(Fabric fabric, int attributeId, String... args) {
        List<String> command = new ArrayList<>(List.of("saquery", "-d", "-d"));
        command.addAll(List.of(args));
        ToolResult r = fabric.run(command.toArray(String[]::new)).orThrow();
        List<byte[]> responses = DiagDumps.blocksAfter(r.stdout(), "SA Response:");
        assertEquals(1, responses.size(), () -> "one SA response expected in:\n" + r.stdout());
        byte[] mad = responses.getFirst();
        assertEquals(attributeId, MadHeader.decode(mad, 0).attributeId(), "attribute of the response");
        int stride = Bits.u16(mad, 44) * 8;
        List<byte[]> records = new ArrayList<>();
        for (int at = SA_DATA; stride > 0 && at + stride <= mad.length; at += stride) {
            records.add(java.util.Arrays.copyOfRange(mad, at, at + stride));
        }
        return new Run(DiagDumps.withoutBlocks(r.stdout(), "SA Request:", "SA Response:"), records);
    }

    /** A case: run saquery, print every record of its answer with {@code printer}. */
    static DiagGolden.Case golden(Fabric fabric, int attributeId, Function<byte[], String> printer, String... args) {
        Run[] run = new Run[1];
        return new DiagGolden.Case("saquery " + String.join(" ", args), () -> {
            run[0] = saquery(fabric, attributeId, args);
            assertTrue(!run[0].records().isEmpty(), "no record in the answer to " + String.join(" ", args));
            return run[0].text();
        }, () -> {
            StringBuilder out = new StringBuilder();
            run[0].records().forEach(r -> out.append(printer.apply(r)));
            return out.toString();
        });
    }

    /** LIDs with their NodeInfo, 1 up to the first two that do not answer. */
    static List<SmpNodeInfo> nodes(Fabric fabric, List<Integer> lids) {
        List<SmpNodeInfo> out = new ArrayList<>();
        int misses = 0;
        for (int lid = 1; misses < 2 && lid < 64; lid++) {
            SmpNodeInfo info = SmpNodeInfo.decode(DiagDumps.smpdump(fabric, false, Integer.toString(lid), 0x11, 0), 0);
            if (info.baseVersion() == 0) {
                misses++;
                continue;
            }
            lids.add(lid);
            out.add(info);
        }
        assertTrue(lids.size() >= 6, "LIDs found: " + lids);
        return out;
    }

    @TestFactory
    Stream<DynamicTest> records(Fabric fabric) {
        List<Integer> lids = new ArrayList<>();
        List<SmpNodeInfo> infos = nodes(fabric, lids);
        List<DiagGolden.Case> cases = new ArrayList<>();
        for (int i = 0; i < lids.size(); i++) {
            String lid = lids.get(i).toString();
            SmpNodeInfo info = infos.get(i);
            cases.add(golden(fabric, SaNodeRecord.ATTRIBUTE_ID, b -> SaQuery.nodeRecord(SaNodeRecord.decode(b, 0)), "NR", lid));
            List<Integer> ports = new ArrayList<>();
            if (info.nodeType() == NodeType.SWITCH.value()) {
                for (int p = 0; p <= info.numPorts(); p++) {
                    ports.add(p);
                }
            } else {
                ports.add(info.localPortNum());
            }
            for (int port : ports) {
                cases.add(golden(fabric, SaPortInfoRecord.ATTRIBUTE_ID,
                        b -> SaQuery.portInfoRecord(SaPortInfoRecord.decode(b, 0), DiagOptions.defaults()), "PIR", lid + "/" + port));
            }
            cases.add(golden(fabric, SaLinkRecord.ATTRIBUTE_ID, b -> SaQuery.linkRecord(SaLinkRecord.decode(b, 0)), "LR", lid));
            for (int dlid : lids) {
                cases.add(golden(fabric, SaPathRecord.ATTRIBUTE_ID, b -> SaQuery.pathRecord(SaPathRecord.decode(b, 0)),
                        "PR", "--slid", lid, "--dlid", Integer.toString(dlid)));
            }
        }
        cases.add(golden(fabric, SaSmInfoRecord.ATTRIBUTE_ID, b -> SaQuery.smInfoRecord(SaSmInfoRecord.decode(b, 0)), "SMIR"));
        cases.add(golden(fabric, SaPortInfoRecord.ATTRIBUTE_ID,
                b -> SaQuery.portInfoRecord(SaPortInfoRecord.decode(b, 0), DiagOptions.defaults().withShowKeys(true)),
                "-K", "PIR", lids.getFirst() + "/0"));
        return DiagGolden.run(cases);
    }

    @Test
    void theDebugDumpChangesNothingInTheRecords(Fabric fabric) {
        for (String[] query : List.of(new String[] {"NR", "3"}, new String[] {"PIR", "1/0"}, new String[] {"LR", "1"},
                new String[] {"PR", "--slid", "3", "--dlid", "4"})) {
            String plain = fabric.run(concat("saquery", query)).orThrow().stdout();
            int attribute = switch (query[0]) {
                case "NR" -> SaNodeRecord.ATTRIBUTE_ID;
                case "PIR" -> SaPortInfoRecord.ATTRIBUTE_ID;
                case "LR" -> SaLinkRecord.ATTRIBUTE_ID;
                default -> SaPathRecord.ATTRIBUTE_ID;
            };
            assertEquals(plain, saquery(fabric, attribute, query).text(), String.join(" ", query));
        }
    }

    private static String[] concat(String first, String[] rest) {
        String[] out = new String[rest.length + 1];
        out[0] = first;
        System.arraycopy(rest, 0, out, 1, rest.length);
        return out;
    }
}

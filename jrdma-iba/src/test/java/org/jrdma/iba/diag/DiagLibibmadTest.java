package org.jrdma.iba.diag;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.jrdma.iba.pm.PmPortCounters;
import org.jrdma.iba.pm.PmPortCountersExtended;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.iba.smp.SmpSlToVlMappingTable;
import org.jrdma.iba.smp.SmpSwitchInfo;
import org.jrdma.iba.smp.SmpVlArbitrationTable;
import org.junit.jupiter.api.Test;

/**
 * The printers against libibmad's own dumpers (the functions smpquery and perfquery print
 * with), on the same bytes: all zeros, all ones, and a few hundred random buffers, some of them
 * mostly zero so that small values and enumerations come up. A mismatch names the buffer.
 */
class DiagLibibmadTest {
    static final int SAMPLES = 400;

    @Test
    void nodeInfoIsMadDumpNodeinfo() {
        compare("nodeinfo", 64, b -> Tables.NODE_INFO.print(SmpNodeInfo.decode(b, 0)));
    }

    @Test
    void portInfoIsWhatDumpPortinfoPrintsWithShowKeys() {
        DiagOptions keys = DiagOptions.defaults().withShowKeys(true);
        compare("portinfo", 64, b -> Tables.PORT_INFO.print(SmpPortInfo.decode(b, 0), keys));
    }

    @Test
    void portInfoIsMadDumpPortinfo() {
        DiagOptions keys = DiagOptions.defaults().withShowKeys(true);
        compare("portinfo_lib", 64, b -> Tables.PORT_INFO.print(SmpPortInfo.decode(b, 0), keys));
    }

    @Test
    void portInfoHidesTheMkeyUnlessAsked() {
        byte[] b = buffers(64, 3, 7).get(2);
        String shown = Tables.PORT_INFO.print(SmpPortInfo.decode(b, 0), DiagOptions.defaults().withShowKeys(true));
        String hidden = Tables.PORT_INFO.print(SmpPortInfo.decode(b, 0));
        String firstLine = "Mkey:............................<not displayed>";
        assertEquals(firstLine, hidden.lines().findFirst().orElseThrow());
        assertEquals(shown.substring(shown.indexOf('\n')), hidden.substring(hidden.indexOf('\n')));
    }

    @Test
    void switchInfoIsMadDumpSwitchinfo() {
        compare("switchinfo", 64, b -> Tables.SWITCH_INFO.print(SmpSwitchInfo.decode(b, 0)));
    }

    @Test
    void slToVlIsMadDumpSltovl() {
        compare("sltovl", 64, b -> Tables.SL_TO_VL.line(SmpSlToVlMappingTable.decode(b, 0), 0, 16,
                DiagOptions.defaults()) + "\n");
    }

    @Test
    void vlArbitrationIsMadDumpVlarbitration() {
        List<byte[]> buffers = buffers(64, 100, 0x7a);
        List<String> commands = new ArrayList<>();
        List<String> actual = new ArrayList<>();
        for (int entries = 1; entries <= 32; entries++) {
            for (byte[] b : buffers) {
                commands.add("vlarb " + entries + " " + HexFormat.of().formatHex(b));
                SmpVlArbitrationTable table = SmpVlArbitrationTable.decode(b, 0);
                actual.add("\n" + Tables.VL_ARBITRATION_VLS.line(table, 0, entries, DiagOptions.defaults())
                        + "\n" + Tables.VL_ARBITRATION_WEIGHTS.line(table, 0, entries, DiagOptions.defaults()) + "\n");
            }
        }
        assertAll(commands, DiagOracle.run(commands), actual);
    }

    @Test
    void portCountersAreMadDumpPerfcounters() {
        compare("perfcounters", 192, b -> Tables.PORT_COUNTERS.print(PmPortCounters.decode(b, 0)));
    }

    @Test
    void portCountersExtendedAreMadDumpPerfcountersExt() {
        compare("perfcounters_ext", 192, b -> Tables.PORT_COUNTERS_EXTENDED.print(PmPortCountersExtended.decode(b, 0)));
    }

    @Test
    void portCountersExtendedFollowTheCapabilityMasksAsPerfqueryDoes() {
        List<byte[]> buffers = buffers(192, 40, 0xe7);
        List<String> commands = new ArrayList<>();
        List<String> actual = new ArrayList<>();
        int[][] masks = {{0, 0}, {0x200, 0}, {0, 2}, {0x1300, 2}, {0xffff, 0x7ffffff}, {0xfdff, 0x7fffffd}};
        for (int[] mask : masks) {
            DiagOptions options = DiagOptions.defaults().withPmCapabilities(mask[0], mask[1]);
            for (byte[] b : buffers) {
                commands.add("perfext " + mask[0] + " " + mask[1] + " " + HexFormat.of().formatHex(b));
                actual.add(Tables.PORT_COUNTERS_EXTENDED.print(PmPortCountersExtended.decode(b, 0), options));
            }
        }
        assertAll(commands, DiagOracle.run(commands), actual);
    }

    /** Runs {@code kind} on random buffers of {@code size} bytes and compares with {@code printer}. */
    static void compare(String kind, int size, Function<byte[], String> printer) {
        List<byte[]> buffers = buffers(size, SAMPLES, kind.hashCode());
        List<String> commands = buffers.stream().map(b -> DiagOracle.dump(kind, b)).toList();
        assertAll(commands, DiagOracle.run(commands), buffers.stream().map(printer).toList());
    }

    static void assertAll(List<String> commands, List<String> expected, List<String> actual) {
        for (int i = 0; i < commands.size(); i++) {
            assertEquals(expected.get(i), actual.get(i), "for: " + commands.get(i));
        }
    }

    /** All zeros, all ones, random bytes, and random bytes most of which are zero. */
    static List<byte[]> buffers(int size, int count, long seed) {
        Random random = new Random(seed);
        List<byte[]> out = new ArrayList<>();
        out.add(new byte[size]);
        byte[] ones = new byte[size];
        Arrays.fill(ones, (byte) 0xff);
        out.add(ones);
        while (out.size() < count) {
            byte[] b = new byte[size];
            random.nextBytes(b);
            if (out.size() % 2 == 0) {
                for (int i = 0; i < size; i++) {
                    if (random.nextInt(4) != 0) {
                        b[i] = (byte) (random.nextBoolean() ? 0 : random.nextInt(8));
                    }
                }
            }
            out.add(b);
        }
        return out;
    }
}

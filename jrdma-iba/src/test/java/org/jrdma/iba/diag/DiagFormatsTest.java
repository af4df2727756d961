package org.jrdma.iba.diag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.jrdma.iba.wire.Field;
import org.jrdma.iba.wire.IbaStruct;
import org.junit.jupiter.api.Test;

/**
 * Every formatter of {@link Formats} that stands for a libibmad dumper, against that dumper
 * ({@code mad_dump_val} of the libibmad field that uses it), on every value of the field up to 12
 * bits and on single bits, edges and random values above.
 */
class DiagFormatsTest {

    /** A structure of one unsigned field of {@code bits} bits, to give a formatter any value. */
    static final class Scalar extends IbaStruct {
        private final List<Field> fields;

        Scalar(int bits, long value) {
            fields = List.of(new Field("value", Field.Kind.UINT, 64 - bits, bits, 1, null, -1));
            fields.getFirst().set(this, 0, value);
        }

        @Override
        public int size() {
            return 8;
        }

        @Override
        public String ibaName() {
            return "Scalar";
        }

        @Override
        public List<Field> fields() {
            return fields;
        }

        String format(Format format) {
            Field f = fields.getFirst();
            return format.apply(new Cell(this, f, f.bitOffset(), f.bitLength(), DiagOptions.defaults()));
        }
    }

    private record Case(String ibmadField, int bits, Format format) {
    }

    private static final List<Case> CASES = List.of(
            new Case("IB_NODE_TYPE_F", 8, Formats.NODE_TYPE),
            new Case("IB_NODE_VENDORID_F", 24, Formats.HEX),
            new Case("IB_NODE_DEVID_F", 16, Formats.HEX),
            new Case("IB_NODE_REVISION_F", 32, Formats.HEX),
            new Case("IB_PORT_CAPMASK_F", 32, Formats.CAPABILITY_MASK),
            new Case("IB_PORT_CAPMASK2_F", 16, Formats.CAPABILITY_MASK2),
            new Case("IB_PORT_DIAG_F", 16, Formats.HEX),
            new Case("IB_PORT_LINK_WIDTH_ENABLED_F", 8, Formats.LINK_WIDTH_ENABLED),
            new Case("IB_PORT_LINK_WIDTH_SUPPORTED_F", 8, Formats.LINK_WIDTH_SUPPORTED),
            new Case("IB_PORT_LINK_WIDTH_ACTIVE_F", 8, Formats.LINK_WIDTH),
            new Case("IB_PORT_LINK_SPEED_SUPPORTED_F", 4, Formats.LINK_SPEED_SUPPORTED),
            new Case("IB_PORT_STATE_F", 4, Formats.PORT_STATE),
            new Case("IB_PORT_PHYS_STATE_F", 4, Formats.PHYS_PORT_STATE),
            new Case("IB_PORT_LINK_DOWN_DEF_F", 4, Formats.LINK_DOWN_DEFAULT_STATE),
            new Case("IB_PORT_LINK_SPEED_ACTIVE_F", 4, Formats.LINK_SPEED),
            new Case("IB_PORT_LINK_SPEED_ENABLED_F", 4, Formats.LINK_SPEED_ENABLED),
            new Case("IB_PORT_NEIGHBOR_MTU_F", 4, Formats.MTU),
            new Case("IB_PORT_VL_CAP_F", 4, Formats.VL_CAP),
            new Case("IB_PORT_INIT_TYPE_F", 4, Formats.HEX),
            new Case("IB_PORT_MTU_CAP_F", 4, Formats.MTU),
            new Case("IB_PORT_OPER_VLS_F", 4, Formats.OPERATIONAL_VLS),
            new Case("IB_PORT_LINK_SPEED_EXT_ACTIVE_F", 4, Formats.LINK_SPEED_EXT),
            new Case("IB_PORT_LINK_SPEED_EXT_SUPPORTED_F", 4, Formats.LINK_SPEED_EXT_SUPPORTED),
            new Case("IB_PORT_LINK_SPEED_EXT_ENABLED_F", 5, Formats.LINK_SPEED_EXT_ENABLED),
            new Case("IB_PC_COUNTER_SELECT2_F", 8, Formats.HEX),
            new Case("IB_PC_EXT_COUNTER_SELECT2_F", 32, Formats.HEX),
            new Case("IB_SW_MCAST_FDB_TOP_F", 16, Formats.HEX));

    @Test
    void formattersAreLibibmadsDumpers() {
        Random random = new Random(0x5eed_d1a6L);
        List<String> commands = new ArrayList<>();
        List<Runnable> checks = new ArrayList<>();
        List<String> answers = new ArrayList<>();
        for (Case c : CASES) {
            for (long value : values(c.bits(), random)) {
                commands.add("val " + c.ibmadField() + " " + value);
                int at = commands.size() - 1;
                checks.add(() -> assertEquals(unescape(answers.get(at)), new Scalar(c.bits(), value).format(c.format()),
                        () -> c.ibmadField() + " = " + value + " (0x" + Long.toHexString(value) + ")"));
            }
        }
        answers.addAll(DiagOracle.run(commands));
        checks.forEach(Runnable::run);
        assertTrue(commands.size() > 4000, "compared " + commands.size() + " values");
    }

    @Test
    void nodeDescriptionIsCleanedAsRdmaCoreDoes() {
        byte[] text = new byte[64];
        byte[] source = "ab\tc\u00e9d\u007f".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        System.arraycopy(source, 0, text, 0, source.length);
        text[20] = 'x';     // after the NUL: not printed
        var description = new org.jrdma.iba.smp.SmpNodeDescription().unpack(text, 0);
        assertEquals("Node Description:" + ".".repeat(32 - 7) + "ab c d \n", SmpQuery.nodeDescription(description));
        java.util.Arrays.fill(text, (byte) 'y');
        assertEquals("Node Description:." + "y".repeat(64) + "\n",
                SmpQuery.nodeDescription(description.unpack(text, 0)));
    }

    @Test
    void portIdsAreWrittenAsPortid2str() {
        assertEquals("Lid 3", PortId.lid(3).toString());
        assertEquals("DR path slid 65535; dlid 65535; 0", PortId.directRoute().toString());
        assertEquals("DR path slid 65535; dlid 65535; 0,1,7", PortId.directRoute("0,1,7").toString());
        assertEquals("Lid 2 DR path slid 4; dlid 65535; 0,3", new PortId(2, 4, 0xffff, List.of(0, 3)).toString());
    }

    /** Every value of a field of up to 12 bits; else 0, all ones, each single bit, and random values. */
    private static Set<Long> values(int bits, Random random) {
        Set<Long> values = new LinkedHashSet<>();
        long max = bits >= 64 ? -1L : (1L << bits) - 1;
        if (bits <= 12) {
            for (long v = 0; v <= max; v++) {
                values.add(v);
            }
            return values;
        }
        values.add(0L);
        values.add(max);
        for (int b = 0; b < bits; b++) {
            values.add(1L << b);
            values.add(max & ~(1L << b));
        }
        for (int i = 0; i < 300; i++) {
            values.add(random.nextLong() & max);
        }
        return values;
    }

    private static String unescape(String answer) {
        String line = answer.endsWith("\n") ? answer.substring(0, answer.length() - 1) : answer;
        return line.replace("\\n", "\n").replace("\\t", "\t");
    }
}

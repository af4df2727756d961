package org.jrdma.iba;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class LidTest {
    @Test
    void rangesAreThoseOfIba() {
        assertEquals(0, Lid.RESERVED);
        assertEquals(0x0001, Lid.UNICAST_FIRST);
        assertEquals(0xBFFF, Lid.UNICAST_LAST);
        assertEquals(0xC000, Lid.MULTICAST_FIRST);
        assertEquals(0xFFFE, Lid.MULTICAST_LAST);
        assertEquals(0xFFFF, Lid.PERMISSIVE);
        assertEquals(7, Lid.LMC_MAX);
    }

    @Test
    void classifiesEveryLid() {
        for (int lid = 0; lid <= 0xFFFF; lid++) {
            int kinds = (Lid.isUnicast(lid) ? 1 : 0) + (Lid.isMulticast(lid) ? 1 : 0) + (Lid.isPermissive(lid) ? 1 : 0);
            assertEquals(lid == 0 ? 0 : 1, kinds, "LID " + lid);
            assertTrue(Lid.isValid16(lid));
        }
        assertTrue(Lid.isUnicast(1));
        assertTrue(Lid.isUnicast(0xBFFF));
        assertFalse(Lid.isUnicast(0xC000));
        assertTrue(Lid.isMulticast(0xC000));
        assertTrue(Lid.isMulticast(0xFFFE));
        assertFalse(Lid.isMulticast(0xFFFF));
        assertTrue(Lid.isPermissive(0xFFFF));
        assertFalse(Lid.isUnicast(0));
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 0x10000, Integer.MIN_VALUE, Integer.MAX_VALUE, -0xFFFF})
    void rejectsValuesOutside16Bits(int value) {
        assertFalse(Lid.isValid16(value));
        for (var check : new java.util.function.IntPredicate[] {Lid::isUnicast, Lid::isMulticast, Lid::isPermissive}) {
            var error = assertThrows(IllegalArgumentException.class, () -> check.test(value));
            assertTrue(error.getMessage().contains("LID " + value + " is outside the 16-bit range"), error.getMessage());
        }
    }

    @Test
    void lmcRangeListsThePortsLids() {
        assertArrayEquals(new int[] {12}, Lid.lmcRange(12, 0));
        assertArrayEquals(new int[] {12, 13, 14, 15}, Lid.lmcRange(12, 2));
        assertEquals(128, Lid.lmcRange(0x80, 7).length);
        int[] top = Lid.lmcRange(0xBF80, 7);
        assertEquals(0xBF80, top[0]);
        assertEquals(0xBFFF, top[127]);
        assertArrayEquals(new int[] {0xBFFF}, Lid.lmcRange(0xBFFF, 0));
    }

    @Test
    void lmcRangeRejectsBadBaseOrLmc() {
        assertError("Base LID 0x000d is not a multiple of 2^LMC = 4 for LMC 2", () -> Lid.lmcRange(13, 2));
        assertError("LID 0x0000 is not a unicast LID", () -> Lid.lmcRange(0, 0));
        assertError("LID 0xc000 is not a unicast LID", () -> Lid.lmcRange(0xC000, 1));
        assertError("LMC 8 is outside 0 to 7", () -> Lid.lmcRange(8, 8));
        assertError("LMC -1 is outside 0 to 7", () -> Lid.lmcRange(8, -1));
        assertError("LID 65536 is outside the 16-bit range", () -> Lid.lmcRange(0x10000, 0));
    }

    @Test
    void baseLidAndPathBitsSplitALid() {
        for (int lmc = 0; lmc <= 7; lmc++) {
            for (int lid = 1; lid <= 0xBFFF; lid += 97) {
                int base = Lid.baseLid(lid, lmc);
                int bits = Lid.pathBits(lid, lmc);
                assertEquals(lid, base | bits);
                assertEquals(0, base & bits);
                assertTrue(bits < 1 << lmc);
            }
        }
        assertEquals(0x10, Lid.baseLid(0x17, 3));
        assertEquals(7, Lid.pathBits(0x17, 3));
        assertEquals(0x17, Lid.baseLid(0x17, 0));
        assertEquals(0, Lid.pathBits(0x17, 0));
        assertEquals(0xBF80, Lid.baseLid(0xBFFF, 7));
        assertEquals(0x7F, Lid.pathBits(0xBFFF, 7));
    }

    @Test
    void baseLidAndPathBitsRejectBadInput() {
        assertError("LID 0xffff is not a unicast LID", () -> Lid.baseLid(0xFFFF, 0));
        assertError("LID 0xc000 is not a unicast LID", () -> Lid.pathBits(0xC000, 0));
        assertError("LMC 8 is outside 0 to 7", () -> Lid.baseLid(1, 8));
        assertError("LMC -1 is outside 0 to 7", () -> Lid.pathBits(1, -1));
    }

    @ParameterizedTest
    @CsvSource({"0, 0", "1, 1", "12, 12", "0xc, 12", "0XC, 12", "0x000c, 12", "49151, 49151", "0xbfff, 49151",
        "65535, 65535", "0xFFFF, 65535", "0xffff, 65535", "0x0, 0", "0x00000000001, 1"})
    void parsesDecimalAndHex(String text, int lid) {
        assertEquals(lid, Lid.parse(text));
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", " ", "12 ", " 12", "65536", "0x10000", "99999999999999999999", "0xfffffffffffff",
        "-1", "+1", "012", "00", "0x", "0X", "0xg", "12a", "1e3", "1.0", "0o12", "\u0661\u0662", "0x\u0661",
        "0b1", "x12", "12\n"})
    void rejectsBadTextNamingIt(String text) {
        var error = assertThrows(IllegalArgumentException.class, () -> Lid.parse(text));
        assertTrue(error.getMessage().startsWith("Invalid LID " + UntrustedText.quote(text) + ": "), error.getMessage());
    }

    @Test
    void parseErrorSaysWhatIsWrong() {
        assertError("greater than 0xFFFF", () -> Lid.parse("65536"));
        assertError("greater than 0xFFFF", () -> Lid.parse("0x10000"));
        assertError("leading zero", () -> Lid.parse("012"));
        assertError("no hex digits after 0x", () -> Lid.parse("0x"));
        assertError("character \"a\" at index 2 is not a decimal digit", () -> Lid.parse("12a"));
        assertError("character \"g\" at index 2 is not a hex digit", () -> Lid.parse("0xg"));
    }

    private static void assertError(String expected, org.junit.jupiter.api.function.Executable call) {
        var error = assertThrows(IllegalArgumentException.class, call);
        assertTrue(error.getMessage().contains(expected), error.getMessage());
    }
}

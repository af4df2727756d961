package org.jrdma.iba;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class IbaTest {
    @Test
    void wellKnownNumbers() {
        assertEquals(0, Iba.QP0);
        assertEquals(1, Iba.QP1);
        assertEquals(0x80010000L, Integer.toUnsignedLong(Iba.IB_DEFAULT_QP1_QKEY));
        assertEquals(0xFFFF, Iba.DEFAULT_PKEY);
        assertEquals(0xFFFF, Iba.PKEY_DEFAULT);
        assertEquals(0x7FFF, Iba.PKEY_PARTIAL_DEFAULT);
        assertEquals(0, Iba.PKEY_INVALID);
        assertEquals(0x8000, Iba.PKEY_MEMBERSHIP_BIT);
        assertEquals(0x7FFF, Iba.PKEY_BASE_MASK);
    }

    @ParameterizedTest
    @CsvSource({"0xFFFF, true, 0x7FFF, true", "0x7FFF, false, 0x7FFF, true", "0x8001, true, 0x0001, true",
        "0x0001, false, 0x0001, true", "0x8000, true, 0, false", "0x0000, false, 0, false",
        "0xC123, true, 0x4123, true"})
    void pkeyParts(String pkey, boolean full, String base, boolean valid) {
        int key = Integer.decode(pkey);
        assertEquals(full, Iba.pkeyIsFull(key));
        assertEquals((int) Integer.decode(base), Iba.pkeyBase(key));
        assertEquals(valid, Iba.pkeyIsValid(key));
    }

    @Test
    void pkeysMatchOnBaseWithAFullMember() {
        assertTrue(Iba.pkeyMatches(0xFFFF, 0xFFFF));
        assertTrue(Iba.pkeyMatches(0xFFFF, 0x7FFF));
        assertTrue(Iba.pkeyMatches(0x7FFF, 0xFFFF));
        assertFalse(Iba.pkeyMatches(0x7FFF, 0x7FFF), "two limited members cannot talk");
        assertFalse(Iba.pkeyMatches(0x8001, 0x8002));
        assertFalse(Iba.pkeyMatches(0x8000, 0x8000), "invalid keys match nothing");
        assertFalse(Iba.pkeyMatches(0x0000, 0x8000));
        for (int a = 0; a <= 0xFFFF; a += 0x1111) {
            for (int b = 0; b <= 0xFFFF; b += 0x0F0F) {
                assertEquals(Iba.pkeyMatches(a, b), Iba.pkeyMatches(b, a));
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 0x10000, Integer.MIN_VALUE})
    void rejectsPkeysOutside16Bits(int pkey) {
        String message = "P_Key " + pkey + " is outside the 16-bit range 0 to 0xFFFF";
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> Iba.pkeyIsFull(pkey)).getMessage());
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> Iba.pkeyBase(pkey)).getMessage());
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> Iba.pkeyIsValid(pkey)).getMessage());
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> Iba.pkeyMatches(pkey, 0xFFFF))
                .getMessage());
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> Iba.pkeyMatches(0xFFFF, pkey))
                .getMessage());
    }
}

package org.jrdma.iba;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class GuidTest {
    @ParameterizedTest
    @CsvSource({
        "0002:c903:0000:1491, 0x0002c90300001491, 0x0002c90300001491",
        "0000:0000:0000:0000, 0x0000000000000000, 0x0",
        "ffff:ffff:ffff:ffff, 0xffffffffffffffff, 0xFFFFFFFFFFFFFFFF",
        "8000:0000:0000:0000, 0x8000000000000000, 0x8000000000000000",
        "0000:0000:0000:0001, 0x0000000000000001, 0x1",
        "7fff:ffff:ffff:ffff, 0x7fffffffffffffff, 0X7fffFFFFffffFFFF",
    })
    void parsesAndPrintsBothForms(String colon, String hex, String hexInput) {
        Guid guid = Guid.parse(colon);
        assertEquals(colon, guid.toString());
        assertEquals(hex, guid.toHexString());
        assertEquals(guid, Guid.parse(hex));
        assertEquals(guid, Guid.parse(hexInput));
        assertEquals(guid, Guid.parse(colon.toUpperCase()));
    }

    @Test
    void valueIsTheUnsigned64Bits() {
        assertEquals(0x0002c90300001491L, Guid.parse("0002:c903:0000:1491").value());
        assertEquals(-1L, Guid.parse("ffff:ffff:ffff:ffff").value());
        assertEquals("ffff:ffff:ffff:ffff", new Guid(-1L).toString());
        assertEquals(Long.MIN_VALUE, Guid.parse("0x8000000000000000").value());
    }

    @Test
    void equalityIsByValue() {
        assertEquals(new Guid(42), Guid.parse("0x2a"));
        assertEquals(new Guid(42).hashCode(), Guid.parse("0000:0000:0000:002a").hashCode());
        assertNotEquals(new Guid(42), new Guid(43));
    }

    @Test
    void comparesAsUnsigned() {
        List<Guid> guids = new ArrayList<>(List.of(new Guid(-1L), new Guid(Long.MIN_VALUE), new Guid(1),
                new Guid(Long.MAX_VALUE), new Guid(0)));
        Collections.sort(guids);
        assertEquals(List.of(new Guid(0), new Guid(1), new Guid(Long.MAX_VALUE), new Guid(Long.MIN_VALUE),
                new Guid(-1L)), guids);
        assertEquals(0, new Guid(7).compareTo(new Guid(7)));
    }

    @Test
    void bytesAreBigEndian() {
        Guid guid = Guid.parse("0002:c903:0000:1491");
        byte[] wire = {0x00, 0x02, (byte) 0xc9, 0x03, 0x00, 0x00, 0x14, (byte) 0x91};
        assertArrayEquals(wire, guid.toBytes());
        assertEquals(guid, Guid.fromBytes(wire, 0));
        byte[] max = new byte[8];
        java.util.Arrays.fill(max, (byte) 0xff);
        assertArrayEquals(max, new Guid(-1L).toBytes());
        assertEquals(new Guid(-1L), Guid.fromBytes(max, 0));
    }

    @Test
    void readsAndWritesAtAnOffset() {
        Guid guid = Guid.parse("0123:4567:89ab:cdef");
        byte[] buffer = new byte[13];
        guid.writeTo(buffer, 5);
        assertEquals(0, buffer[4]);
        assertEquals(0x01, buffer[5]);
        assertEquals((byte) 0xef, buffer[12]);
        assertEquals(guid, Guid.fromBytes(buffer, 5));
    }

    @Test
    void readsAndWritesMemorySegmentsUnaligned() {
        Guid guid = Guid.parse("0123:4567:89ab:cdef");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = arena.allocate(16);
            guid.writeTo(segment, 3);
            assertEquals((byte) 0x01, segment.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 3));
            assertEquals((byte) 0xef, segment.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 10));
            assertEquals(guid, Guid.fromSegment(segment, 3));
            assertThrows(IndexOutOfBoundsException.class, () -> Guid.fromSegment(segment, 9));
            assertThrows(IndexOutOfBoundsException.class, () -> guid.writeTo(segment, 9));
        }
    }

    @Test
    void rejectsByteRangesOutsideTheArray() {
        Guid guid = new Guid(1);
        assertThrows(IndexOutOfBoundsException.class, () -> Guid.fromBytes(new byte[7], 0));
        assertThrows(IndexOutOfBoundsException.class, () -> Guid.fromBytes(new byte[8], 1));
        assertThrows(IndexOutOfBoundsException.class, () -> Guid.fromBytes(new byte[8], -1));
        assertThrows(IndexOutOfBoundsException.class, () -> guid.writeTo(new byte[9], 2));
        assertThrows(IndexOutOfBoundsException.class, () -> guid.writeTo(new byte[8], -1));
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {
        "", " ", "0002:c903:0000:1491 ", " 0002:c903:0000:1491", "0002:c903:0000:1491\n",
        "0002:c903:0000", "0002:c903:0000:1491:0000", "0002:c903::1491", "2:c903:0:1491",
        "0002:c903:0000:14911", "00002:c903:0000:1491", "0002:c903:0000:149g", "g002:c903:0000:1491",
        "0002-c903-0000-1491", "0002:c903:0000:1491:", ":0002:c903:0000:1491", "fe80::2:c903:0:1491",
        "0x", "0X", "0x00000000000000000", "0xfffffffffffffffff", "0x12345g", "0x-1", "0x 1", "0x1 ",
        "x1", "1x1", "0002c90300001491", "12", "0002:c903:0000:\u0661491", "\u0000", "0002.c903.0000.1491",
        "+0x1", "-0x1", "0x+1",
    })
    void rejectsBadTextNamingIt(String text) {
        var error = assertThrows(IllegalArgumentException.class, () -> Guid.parse(text));
        assertTrue(error.getMessage().startsWith("Invalid GUID " + UntrustedText.quote(text) + ": "), error.getMessage());
    }

    @Test
    void errorSaysWhatIsWrong() {
        assertMessage("0002:c903:0000", "3 groups");
        assertMessage("0002:c903:0000:149g", "group 4 \"149g\" holds \"g\", not a hex digit");
        assertMessage("2:c903:0:1491", "group 1 \"2\" has 1 characters, expected 4 hex digits");
        assertMessage("0x00000000000000000", "17 hex digits after 0x, at most 16 fit in 64 bits");
        assertMessage("0x12z", "character \"z\" at index 4 is not a hex digit");
        assertMessage("0x", "no hex digits after 0x");
        assertMessage("", "empty");
    }

    @Test
    void errorQuotesLongOrControlInputSafely() {
        String longText = "a".repeat(10_000);
        var error = assertThrows(IllegalArgumentException.class, () -> Guid.parse(longText));
        assertTrue(error.getMessage().length() < 400, error.getMessage());
        assertTrue(error.getMessage().contains("(10000 chars)"), error.getMessage());
        var control = assertThrows(IllegalArgumentException.class, () -> Guid.parse("\u001b[2J"));
        assertTrue(control.getMessage().contains("\"\\u001b[2J\""), control.getMessage());
    }

    private static void assertMessage(String text, String reason) {
        var error = assertThrows(IllegalArgumentException.class, () -> Guid.parse(text));
        assertTrue(error.getMessage().contains(reason), error.getMessage());
    }
}

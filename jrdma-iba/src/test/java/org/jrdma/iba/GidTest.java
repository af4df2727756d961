package org.jrdma.iba;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

class GidTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource({
        // text,                                     prefix,             interface ID,       printed
        "fe80::2:c903:0:1491,                        fe80000000000000, 0002c90300001491, fe80::2:c903:0:1491",
        "fe80:0000:0000:0000:0002:c903:0000:1491,    fe80000000000000, 0002c90300001491, fe80::2:c903:0:1491",
        "FE80::2:C903:0:1491,                        fe80000000000000, 0002c90300001491, fe80::2:c903:0:1491",
        "::,                                         0000000000000000, 0000000000000000, ::",
        "::1,                                        0000000000000000, 0000000000000001, ::1",
        "1::,                                        0001000000000000, 0000000000000000, 1::",
        "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff,    ffffffffffffffff, ffffffffffffffff, ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
        "1:0:0:1:0:0:0:1,                            0001000000000001, 0000000000000001, 1:0:0:1::1",
        "1:0:0:1:1:0:0:1,                            0001000000000001, 0001000000000001, 1::1:1:0:0:1",
        "1:2:3:4:5:6:7::,                            0001000200030004, 0005000600070000, 1:2:3:4:5:6:7:0",
        "::2:3:4:5:6:7:8,                            0000000200030004, 0005000600070008, 0:2:3:4:5:6:7:8",
        "1:0:2:3:4:5:6:7,                            0001000000020003, 0004000500060007, 1:0:2:3:4:5:6:7",
        "ff02::1,                                    ff02000000000000, 0000000000000001, ff02::1",
        "::ffff:192.0.2.1,                           0000000000000000, 0000ffffc0000201, ::ffff:192.0.2.1",
        "::ffff:c000:201,                            0000000000000000, 0000ffffc0000201, ::ffff:192.0.2.1",
        "::192.0.2.1,                                0000000000000000, 00000000c0000201, ::192.0.2.1",
        "1:2:3:4:5:6:1.2.3.4,                        0001000200030004, 0005000601020304, 1:2:3:4:5:6:102:304",
        "::0.0.0.0,                                  0000000000000000, 0000000000000000, ::",
        "::255.255.255.255,                          0000000000000000, 00000000ffffffff, ::255.255.255.255",
        "0:0:0:0:0:ffff:0:0,                         0000000000000000, 0000ffff00000000, ::ffff:0.0.0.0",
        "0001:0002:0003:0004:0005:0006:0007:0008,    0001000200030004, 0005000600070008, 1:2:3:4:5:6:7:8",
    })
    void parsesAndPrintsLikeGlibc(String text, String prefix, String interfaceId, String printed) {
        Gid gid = Gid.parse(text);
        assertEquals(Long.parseUnsignedLong(prefix, 16), gid.prefix());
        assertEquals(Long.parseUnsignedLong(interfaceId, 16), gid.interfaceId());
        assertEquals(printed, gid.toString());
        assertEquals(gid, Gid.parse(printed));
    }

    @Test
    void composesFromPrefixAndGuid() {
        Guid guid = Guid.parse("0002:c903:0000:1491");
        Gid gid = Gid.of(guid);
        assertEquals(Gid.DEFAULT_PREFIX, gid.prefix());
        assertEquals(guid, gid.guid());
        assertEquals("fe80::2:c903:0:1491", gid.toString());
        assertEquals(new Gid(0xfec0_0000_0000_0001L, guid.value()), Gid.of(0xfec0_0000_0000_0001L, guid));
        assertEquals("fe80::", new Gid(Gid.DEFAULT_PREFIX, 0).toString());
    }

    @ParameterizedTest
    @CsvSource({
        "fe80::1, true, false", "febf:ffff::1, true, false", "fec0::1, false, false", "fe7f::1, false, false",
        "ff02::1, false, true", "ff00::, false, true", "feff::1, false, false", "::, false, false",
        "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff, false, true",
    })
    void classifiesLinkLocalAndMulticast(String text, boolean linkLocal, boolean multicast) {
        assertEquals(linkLocal, Gid.parse(text).isLinkLocal());
        assertEquals(multicast, Gid.parse(text).isMulticast());
    }

    @Test
    void bytesArePrefixFirstBigEndian() {
        Gid gid = Gid.parse("fe80::2:c903:0:1491");
        byte[] wire = {(byte) 0xfe, (byte) 0x80, 0, 0, 0, 0, 0, 0, 0x00, 0x02, (byte) 0xc9, 0x03, 0, 0, 0x14,
            (byte) 0x91};
        assertArrayEquals(wire, gid.toBytes());
        assertEquals(gid, Gid.fromBytes(wire, 0));
        byte[] max = new byte[16];
        java.util.Arrays.fill(max, (byte) 0xff);
        Gid all = new Gid(-1L, -1L);
        assertArrayEquals(max, all.toBytes());
        assertEquals(all, Gid.fromBytes(max, 0));
        byte[] buffer = new byte[20];
        gid.writeTo(buffer, 4);
        assertEquals(gid, Gid.fromBytes(buffer, 4));
        assertEquals(0, buffer[3]);
    }

    @Test
    void rejectsByteRangesOutside() {
        Gid gid = Gid.parse("::1");
        assertThrows(IndexOutOfBoundsException.class, () -> Gid.fromBytes(new byte[15], 0));
        assertThrows(IndexOutOfBoundsException.class, () -> Gid.fromBytes(new byte[16], 1));
        assertThrows(IndexOutOfBoundsException.class, () -> gid.writeTo(new byte[16], 1));
        assertThrows(IndexOutOfBoundsException.class, () -> gid.writeTo(new byte[16], -1));
        byte[] untouched = new byte[20];
        assertThrows(IndexOutOfBoundsException.class, () -> new Gid(-1L, -1L).writeTo(untouched, 10));
        assertArrayEquals(new byte[20], untouched, "a rejected write writes nothing");
    }

    @Test
    void readsAndWritesMemorySegments() {
        Gid gid = Gid.parse("fe80::2:c903:0:1491");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = arena.allocate(24);
            gid.writeTo(segment, 5);
            assertEquals(gid, Gid.fromSegment(segment, 5));
            assertArrayEquals(gid.toBytes(), segment.asSlice(5, 16).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
            assertThrows(IndexOutOfBoundsException.class, () -> Gid.fromSegment(segment, 9));
            assertThrows(IndexOutOfBoundsException.class, () -> gid.writeTo(segment, 9));
        }
    }

    @Test
    void comparesAsUnsigned128Bits() {
        List<Gid> gids = new ArrayList<>(List.of(new Gid(-1L, 0), new Gid(1, -1L), new Gid(1, 2), new Gid(0, -1L)));
        Collections.sort(gids);
        assertEquals(List.of(new Gid(0, -1L), new Gid(1, 2), new Gid(1, -1L), new Gid(-1L, 0)), gids);
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {
        "", " ", ":", ":::", "::1 ", " ::1", "::1\n", "1", "1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8:9",
        "1::2::3", "::1::", "1:2:3:4:5:6:7:8::", "::1:2:3:4:5:6:7:8", "1::2:3:4:5:6:7:8", ":1::", "1:", ":1",
        "1:2:3:4:5:6:7:", "12345::", "fe80::g", "fe80::2:c903:0:1491%mlx4_0", "fe80::/64", "fe80:::1",
        "::1.2.3", "::1.2.3.4.5", "::1.2.3.256", "::01.2.3.4", "::1.2.3.04", "::1..3.4", "::1.2.3.", "::.1.2.3",
        "::1.2.3.4:1", "1.2.3.4", "::1.2.3.4::", "1:2:3:4:5:6:7:1.2.3.4", "1:2:3:4:5:6::1.2.3.4", "::a.2.3.4",
        "::1.2.3.1000", "::ffff:1.2.3.4a", "0002:c903:0000:1491", "::-1", "::+1", "[::1]", "::\u0661",
        "\u0000", "fe80::2:c903:0:1491:1:2:3", "1:2:3:4:5:6:7:8:", "1.2.3.4::", "::1.2.3.4.",
    })
    void rejectsBadTextNamingIt(String text) {
        var error = assertThrows(IllegalArgumentException.class, () -> Gid.parse(text));
        assertTrue(error.getMessage().startsWith("Invalid GID " + UntrustedText.quote(text) + ": "), error.getMessage());
    }

    @Test
    void errorSaysWhatIsWrong() {
        assertMessage("1::2::3", "more than one '::'");
        assertMessage("1:2:3:4:5:6:7:8:9", "more than 8 groups");
        assertMessage("1:2:3:4:5:6:7", "7 groups without '::', expected 8");
        assertMessage("12345::", "more than 4 hex digits");
        assertMessage("::1.2.3.256", "IPv4 octet \"256\" is greater than 255");
        assertMessage("::01.2.3.4", "IPv4 octet \"01\" has a leading zero");
        assertMessage("::1.2.3", "IPv4 part has 3 octets, expected 4");
        assertMessage("1:2:3:4:5:6:7:1.2.3.4", "no room for an IPv4 part after 7 groups");
        assertMessage(":1::", "starts with a single ':'");
        assertMessage("1:", "ends with a single ':'");
        assertMessage("fe80::1%eth0", "unexpected \"%\" at index 7");
        assertMessage("1:2:3:4:5:6:7:8::", "'::' together with 8 groups");
        assertMessage("", "empty");
    }

    private static void assertMessage(String text, String reason) {
        var error = assertThrows(IllegalArgumentException.class, () -> Gid.parse(text));
        assertTrue(error.getMessage().contains(reason), error.getMessage());
    }

    @Test
    void oneZeroGroupIsNotCompressed() {
        assertFalse(Gid.parse("1:0:1:1:1:1:1:1").toString().contains("::"));
    }
}

package org.jrdma.iba;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.StringLength;

/** Round trips and parser robustness over generated GUIDs, GIDs, LIDs and strings. */
class IbaPropertyTest {
    @Property
    void guidTextAndBytesRoundTrip(@ForAll long value) {
        Guid guid = new Guid(value);
        assertEquals(guid, Guid.parse(guid.toString()));
        assertEquals(guid, Guid.parse(guid.toHexString()));
        assertEquals(guid, Guid.parse(guid.toString().toUpperCase()));
        assertEquals(guid, Guid.parse("0x" + Long.toHexString(value)));
        assertEquals(guid, Guid.fromBytes(guid.toBytes(), 0));
        assertEquals(19, guid.toString().length());
        assertEquals(18, guid.toHexString().length());
    }

    @Property
    void guidOrderIsUnsigned(@ForAll long a, @ForAll long b) {
        assertEquals(Integer.signum(Long.compareUnsigned(a, b)), Integer.signum(new Guid(a).compareTo(new Guid(b))));
    }

    @Property
    void gidTextAndBytesRoundTrip(@ForAll("gids") Gid gid) {
        String text = gid.toString();
        assertEquals(gid, Gid.parse(text));
        assertEquals(gid, Gid.parse(text.toUpperCase()));
        assertEquals(gid, Gid.fromBytes(gid.toBytes(), 0));
        assertEquals(gid.prefix(), Guid.fromBytes(gid.toBytes(), 0).value());
        assertTrue(text.length() <= 45, text);
        assertTrue(text.indexOf("::") == text.lastIndexOf("::"), text);
    }

    @Property
    void gidLongFormParses(@ForAll("gids") Gid gid) {
        byte[] bytes = gid.toBytes();
        var longForm = new StringBuilder();
        for (int i = 0; i < 16; i += 2) {
            longForm.append(i == 0 ? "" : ":").append(String.format("%02x%02x", bytes[i], bytes[i + 1]));
        }
        assertEquals(gid, Gid.parse(longForm.toString()));
    }

    @Property
    void gidOrderIsUnsigned128(@ForAll("gids") Gid a, @ForAll("gids") Gid b) {
        int expected = a.prefix() != b.prefix() ? Long.compareUnsigned(a.prefix(), b.prefix())
                : Long.compareUnsigned(a.interfaceId(), b.interfaceId());
        assertEquals(Integer.signum(expected), Integer.signum(a.compareTo(b)));
    }

    @Property(tries = 5000)
    void gidParserOnlyEverThrowsIllegalArgument(@ForAll("addressLike") String text) {
        parseOrIllegalArgument(() -> Gid.parse(text));
    }

    @Property(tries = 5000)
    void guidParserOnlyEverThrowsIllegalArgument(@ForAll("addressLike") String text) {
        parseOrIllegalArgument(() -> Guid.parse(text));
    }

    @Property(tries = 5000)
    void lidParserOnlyEverThrowsIllegalArgument(@ForAll("addressLike") String text) {
        parseOrIllegalArgument(() -> Lid.parse(text));
    }

    @Property(tries = 2000)
    void parsersSurviveAnyString(@ForAll @StringLength(max = 60) String text) {
        parseOrIllegalArgument(() -> Gid.parse(text));
        parseOrIllegalArgument(() -> Guid.parse(text));
        parseOrIllegalArgument(() -> Lid.parse(text));
    }

    @Property
    void lidTextRoundTrips(@ForAll @IntRange(min = 0, max = 0xFFFF) int lid) {
        assertEquals(lid, Lid.parse(Integer.toString(lid)));
        assertEquals(lid, Lid.parse("0x" + Integer.toHexString(lid)));
        assertEquals(lid, Lid.parse(String.format("0X%04X", lid)));
    }

    @Property
    void lmcSplitsUnicastLids(@ForAll @IntRange(min = 1, max = 0xBFFF) int lid, @ForAll @IntRange(max = 7) int lmc) {
        int base = Lid.baseLid(lid, lmc);
        assertEquals(lid, base + Lid.pathBits(lid, lmc));
        if (base != 0) {
            int[] range = Lid.lmcRange(base, lmc);
            assertEquals(1 << lmc, range.length);
            assertEquals(lid, range[Lid.pathBits(lid, lmc)]);
        }
    }

    @Property
    void bytesRoundTripAtAnyOffset(@ForAll long high, @ForAll long low, @ForAll @IntRange(max = 32) int offset) {
        Gid gid = new Gid(high, low);
        byte[] buffer = new byte[offset + 16];
        gid.writeTo(buffer, offset);
        assertEquals(gid, Gid.fromBytes(buffer, offset));
        assertArrayEquals(gid.toBytes(), java.util.Arrays.copyOfRange(buffer, offset, offset + 16));
    }

    /** GIDs rich in zero groups, 0xffff groups and the special prefixes, to exercise '::' and dotted forms. */
    @Provide
    Arbitrary<Gid> gids() {
        Arbitrary<Integer> word = Arbitraries.frequencyOf(
                Tuple.of(5, Arbitraries.just(0)),
                Tuple.of(1, Arbitraries.just(0xffff)),
                Tuple.of(4, Arbitraries.integers().between(0, 0xffff)));
        Arbitrary<Long> half = Combinators.combine(word, word, word, word)
                .as((a, b, c, d) -> (long) a << 48 | (long) b << 32 | (long) c << 16 | d);
        Arbitrary<Gid> special = Arbitraries.of(new Gid(0, 0), new Gid(0, 1), new Gid(-1L, -1L),
                new Gid(Gid.DEFAULT_PREFIX, 0), new Gid(0, 0x0000_ffff_c000_0201L), new Gid(0, 0xc000_0201L),
                new Gid(1L << 48, 0));
        return Arbitraries.frequencyOf(Tuple.of(1, special),
                Tuple.of(9, Combinators.combine(half, half).as(Gid::new).withoutEdgeCases()));
    }

    /** Short strings over the characters the three parsers care about. */
    @Provide
    Arbitrary<String> addressLike() {
        return Arbitraries.strings().withChars("0123456789abcdefABCDEFxXg:.%/ -+").ofMaxLength(48);
    }

    private static void parseOrIllegalArgument(Runnable parse) {
        try {
            parse.run();
        } catch (IllegalArgumentException expected) {
            assertTrue(expected.getMessage().startsWith("Invalid "), expected.getMessage());
        }
    }
}

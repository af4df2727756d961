package org.jrdma.iba.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import java.math.BigInteger;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link Bits#get} and {@link Bits#set} for every bit offset 0..71 and width 1..64, at several base
 * offsets, against a reference that works one bit at a time, on random buffers: reads agree, and a
 * write changes exactly the field's bits. Buffers end exactly where the field ends (so nothing
 * reads or writes past it) or a few bytes later.
 */
class BitsTest {
    private static final int[] BASES = {0, 1, 3};
    private static final int[] TAILS = {0, 3};
    private static final int BUFFERS = 4;

    /** Bit {@code bit} of the buffer, bit 0 being the most significant bit of byte 0. */
    private static int bit(byte[] b, int bit) {
        return (b[bit >>> 3] >>> (7 - (bit & 7))) & 1;
    }

    private static long referenceGet(byte[] b, int base, int offset, int length) {
        long v = 0;
        for (int i = 0; i < length; i++) {
            v = (v << 1) | bit(b, base * 8 + offset + i);
        }
        return v;
    }

    private static void referenceSet(byte[] b, int base, int offset, int length, long value) {
        for (int i = 0; i < length; i++) {
            int at = base * 8 + offset + i;
            int mask = 0x80 >>> (at & 7);
            if (((value >>> (length - 1 - i)) & 1) != 0) {
                b[at >>> 3] |= (byte) mask;
            } else {
                b[at >>> 3] &= (byte) ~mask;
            }
        }
    }

    /** The unsigned value of the field, read through BigInteger as a second, independent reference. */
    private static long bigIntegerGet(byte[] b, int base, int offset, int length) {
        BigInteger all = new BigInteger(1, b);
        int fromRight = b.length * 8 - (base * 8 + offset + length);
        return all.shiftRight(fromRight).and(BigInteger.ONE.shiftLeft(length).subtract(BigInteger.ONE)).longValue();
    }

    private static byte[] buffer(Random random, int base, int offset, int length, int tail) {
        byte[] b = new byte[base + (offset + length + 7) / 8 + tail];
        random.nextBytes(b);
        return b;
    }

    private static String where(byte[] b, int base, int offset, int length) {
        return "base " + base + ", offset " + offset + ", length " + length + ", buffer "
                + HexFormat.of().formatHex(b);
    }

    @Test
    void getReadsEveryOffsetAndLengthLikeTheReference() {
        Random random = new Random(1);
        int checked = 0;
        for (int base : BASES) {
            for (int tail : TAILS) {
                for (int offset = 0; offset <= 71; offset++) {
                    for (int length = 1; length <= 64; length++) {
                        for (int n = 0; n < BUFFERS; n++) {
                            byte[] b = buffer(random, base, offset, length, tail);
                            long want = referenceGet(b, base, offset, length);
                            long got = Bits.get(b, base, offset, length);
                            if (got != want || bigIntegerGet(b, base, offset, length) != want) {
                                fail("get " + where(b, base, offset, length) + ": reference " + Long.toHexString(want)
                                        + ", BigInteger " + Long.toHexString(bigIntegerGet(b, base, offset, length))
                                        + ", Bits.get " + Long.toHexString(got));
                            }
                            checked++;
                        }
                    }
                }
            }
        }
        assertEquals(BASES.length * TAILS.length * 72 * 64 * BUFFERS, checked);
    }

    @Test
    void setWritesExactlyTheFieldBitsForEveryOffsetAndLength() {
        Random random = new Random(2);
        for (int base : BASES) {
            for (int tail : TAILS) {
                for (int offset = 0; offset <= 71; offset++) {
                    for (int length = 1; length <= 64; length++) {
                        long mask = length == 64 ? -1L : (1L << length) - 1;
                        // Random values (high bits beyond the field too: set writes only the low bits),
                        // zero, the largest value, and a single one at each end.
                        long[] values = {random.nextLong(), random.nextLong() & mask, 0, mask, 1, 1L << (length - 1)};
                        for (long value : values) {
                            byte[] b = buffer(random, base, offset, length, tail);
                            byte[] want = b.clone();
                            referenceSet(want, base, offset, length, value);
                            byte[] before = b.clone();
                            Bits.set(b, base, offset, length, value);
                            if (!java.util.Arrays.equals(b, want)) {
                                fail("set " + Long.toHexString(value) + " at " + where(before, base, offset, length)
                                        + ": got " + HexFormat.of().formatHex(b) + ", want " + HexFormat.of().formatHex(want));
                            }
                            long read = Bits.get(b, base, offset, length);
                            if (read != (value & mask)) {
                                fail("get after set " + Long.toHexString(value) + " at " + where(b, base, offset, length)
                                        + ": " + Long.toHexString(read));
                            }
                        }
                    }
                }
            }
        }
    }

    @Test
    void maximumUnsignedValuesRoundTrip() {
        Random random = new Random(3);
        long[][] cases = {{16, 0xFFFFL}, {32, 0xFFFF_FFFFL}, {64, 0xFFFF_FFFF_FFFF_FFFFL}, {8, 0xFFL}, {31, 0x7FFF_FFFFL},
            {63, 0x7FFF_FFFF_FFFF_FFFFL}};
        for (long[] c : cases) {
            int length = (int) c[0];
            long max = c[1];
            assertEquals(max, Bits.mask(length));
            assertEquals(max, Bits.checkUnsigned("f", length, max));
            for (int offset = 0; offset <= 71; offset++) {
                for (byte fill : new byte[] {0, (byte) 0xFF, (byte) 0x5A}) {
                    byte[] b = new byte[(offset + length + 7) / 8 + 2];
                    java.util.Arrays.fill(b, fill);
                    Bits.set(b, 0, offset, length, max);
                    assertEquals(max, Bits.get(b, 0, offset, length), "length " + length + " offset " + offset);
                    Bits.set(b, 0, offset, length, 0);
                    assertEquals(0, Bits.get(b, 0, offset, length), "length " + length + " offset " + offset);
                    random.nextBytes(b);
                    Bits.set(b, 0, offset, length, max);
                    assertEquals(max, Bits.get(b, 0, offset, length), "length " + length + " offset " + offset);
                }
            }
        }
        byte[] b = new byte[16];
        for (int index = 0; index <= 8; index++) {
            java.util.Arrays.fill(b, (byte) 0);
            Bits.u16(b, index, 0xFFFF);
            assertEquals(0xFFFF, Bits.u16(b, index));
            Bits.u32(b, index, 0xFFFF_FFFFL);
            assertEquals(0xFFFF_FFFFL, Bits.u32(b, index));
            Bits.u64(b, index, 0xFFFF_FFFF_FFFF_FFFFL);
            assertEquals(0xFFFF_FFFF_FFFF_FFFFL, Bits.u64(b, index));
            Bits.u8(b, index, 0xFF);
            assertEquals(0xFF, Bits.u8(b, index));
        }
    }

    @Test
    void byteAccessorsAreBigEndian() {
        byte[] b = new byte[8];
        Bits.u64(b, 0, 0x0102_0304_0506_0708L);
        assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, b);
        assertEquals(0x0102, Bits.u16(b, 0));
        assertEquals(0x0304_0506L, Bits.u32(b, 2));
        assertEquals(0x0203, Bits.get(b, 0, 8, 16));
        assertEquals(0x0102_0304_0506_0708L, Bits.get(b, 0, 0, 64));
    }

    @Test
    void checkUnsignedRejectsWhatDoesNotFit() {
        for (int length = 1; length < 64; length++) {
            long max = (1L << length) - 1;
            int width = length;
            assertEquals(max, Bits.checkUnsigned("f", length, max));
            assertEquals(0, Bits.checkUnsigned("f", length, 0));
            assertThrows(IllegalArgumentException.class, () -> Bits.checkUnsigned("f", width, max + 1));
            assertThrows(IllegalArgumentException.class, () -> Bits.checkUnsigned("f", width, -1));
        }
        // 64 bits: every long is a valid unsigned value.
        assertEquals(-1L, Bits.checkUnsigned("f", 64, -1L));
        assertEquals(Long.MIN_VALUE, Bits.checkUnsigned("f", 64, Long.MIN_VALUE));
    }
}

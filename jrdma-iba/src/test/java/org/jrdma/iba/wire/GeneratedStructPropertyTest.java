package org.jrdma.iba.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** Properties every generated IBA structure must have, checked on all of them. */
class GeneratedStructPropertyTest {

    @Provide
    Arbitrary<String> structs() {
        return Arbitraries.of(IbaStructs.names());
    }

    private static IbaStruct create(String name) {
        return IbaStructs.ALL.get(name).get();
    }

    private static byte[] random(long seed, int size) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    @Property(tries = 300)
    void unpackThenPackGivesTheSameBytes(@ForAll("structs") String name, @ForAll long seed) {
        IbaStruct s = create(name);
        byte[] wire = random(seed, s.size() + 7);

        s.unpack(wire, 7);
        byte[] out = new byte[s.size() + 3];
        s.pack(out, 3);

        assertArrayEquals(Arrays.copyOfRange(wire, 7, wire.length), Arrays.copyOfRange(out, 3, out.length));
        assertArrayEquals(Arrays.copyOfRange(wire, 7, wire.length), s.toBytes());
    }

    @Property(tries = 200)
    void memorySegmentRoundTripMatchesByteArrays(@ForAll("structs") String name, @ForAll long seed) {
        IbaStruct s = create(name);
        byte[] wire = random(seed, s.size());
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(s.size() + 16);
            MemorySegment.copy(wire, 0, seg, ValueLayout.JAVA_BYTE, 16, wire.length);

            s.unpack(seg, 16);
            MemorySegment back = arena.allocate(s.size());
            s.pack(back, 0);

            assertArrayEquals(wire, s.toBytes());
            assertArrayEquals(wire, back.toArray(ValueLayout.JAVA_BYTE));
        }
    }

    @Property(tries = 300)
    void settingAFieldChangesOnlyItsBits(@ForAll("structs") String name, @ForAll long seed) {
        IbaStruct s = create(name);
        Random rnd = new Random(seed);
        s.unpack(random(seed, s.size()), 0);
        List<Field> settable = s.fields().stream()
                .filter(f -> f.kind() != Field.Kind.RESERVED && f.bitLength() <= 64).toList();
        if (settable.isEmpty()) {
            return;
        }
        Field f = settable.get(rnd.nextInt(settable.size()));
        int index = rnd.nextInt(f.count());
        long value = rnd.nextLong() & Bits.mask(f.bitLength());
        byte[] before = s.toBytes();

        f.set(s, index, value);

        assertEquals(value, f.get(s, index), f.name());
        byte[] after = s.toBytes();
        int from = f.bitOffset(index);
        int to = from + f.bitLength();
        for (int bit = 0; bit < s.size() * 8; bit++) {
            if (bit < from || bit >= to) {
                assertEquals(bitAt(before, bit), bitAt(after, bit), f.name() + " changed bit " + bit);
            }
        }
    }

    @Test
    void everyUnsignedFieldHoldsItsMaximumAndRejectsOneMore() {
        for (String name : IbaStructs.names()) {
            IbaStruct s = create(name);
            for (Field f : s.fields()) {
                if (f.kind() != Field.Kind.UINT || f.bitLength() > 64) {
                    continue;
                }
                long max = Bits.mask(f.bitLength());
                f.set(s, f.count() - 1, max);
                assertEquals(max, f.get(s, f.count() - 1), name + "." + f.name());
                if (f.bitLength() < 64) {
                    assertThrows(IllegalArgumentException.class, () -> f.set(s, 0, max + 1), name + "." + f.name());
                    assertThrows(IllegalArgumentException.class, () -> f.set(s, 0, -1), name + "." + f.name());
                }
            }
        }
    }

    @Property(tries = 200)
    void equalityIsByBytes(@ForAll("structs") String name, @ForAll long seed) {
        IbaStruct a = create(name).unpack(random(seed, create(name).size()), 0);
        IbaStruct b = create(name).unpack(a.toBytes(), 0);
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        b.buffer()[b.offset() + Math.floorMod(seed, b.size())] ^= 1;
        assertNotEquals(a, b);
    }

    @Property(tries = 200)
    void printersHandleEveryValue(@ForAll("structs") String name, @ForAll long seed) {
        IbaStruct s = create(name).unpack(random(seed, create(name).size()), 0);
        assertTrue(s.toDottedString().startsWith(s.ibaName()));
        assertEquals((s.size() + 15) / 16, s.hexDump().lines().count());
        for (Field f : s.fields()) {
            for (int i = 0; i < f.count(); i++) {
                // text whose first byte is NUL is the empty string, as the C tools print it; every other kind prints something
                String text = f.format(s, i);
                assertTrue(f.kind() == Field.Kind.STRING ? text.indexOf('\0') < 0 : !text.isEmpty(), name + "." + f.name() + ": " + text);
            }
        }
    }

    @Test
    void shortBuffersAreRefusedWithAClearMessage() {
        for (String name : IbaStructs.names()) {
            IbaStruct s = create(name);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> s.unpack(new byte[s.size() - 1], 0));
            assertTrue(e.getMessage().contains(s.ibaName() + " needs " + s.size() + " bytes"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> s.unpack(new byte[s.size()], 1));
            assertThrows(IllegalArgumentException.class, () -> s.pack(new byte[s.size()], -1));
        }
    }

    @Test
    void fieldsLieInsideTheirStructAndDoNotOverlap() {
        for (String name : IbaStructs.names()) {
            IbaStruct s = create(name);
            java.util.BitSet used = new java.util.BitSet();
            for (Field f : s.fields()) {
                int end = f.bitOffset() + f.bitLength() * f.count();
                assertTrue(f.bitOffset() >= 0 && end <= s.size() * 8, name + "." + f.name());
                assertTrue(used.get(f.bitOffset(), end).isEmpty(), name + "." + f.name() + " overlaps");
                used.set(f.bitOffset(), end);
            }
        }
    }

    private static int bitAt(byte[] b, int bit) {
        return (b[bit / 8] >> (7 - bit % 8)) & 1;
    }
}

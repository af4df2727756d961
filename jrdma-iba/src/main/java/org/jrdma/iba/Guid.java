package org.jrdma.iba;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * A 64-bit globally unique identifier, an EUI-64 (IBA 4.1.1): the NodeGUID, PortGUID and
 * SystemImageGUID of NodeInfo (IBA 14.2.5.3), and the interface ID, the low half, of a
 * {@link Gid}. Immutable; equal by value; ordered as an unsigned 64-bit number.
 *
 * <p>Text forms, both parsed by {@link #parse}:
 * <ul>
 *   <li>{@code 0002:c903:0000:1491}, four groups of four hex digits, as python-rdma and the IBA
 *       tools write GUIDs ({@link #toString()});</li>
 *   <li>{@code 0x0002c90300001491}, as infiniband-diags prints them ({@link #toHexString()}).</li>
 * </ul>
 * On the wire a GUID is 8 bytes, most significant first (IBA 13.4.1: big-endian).
 *
 * @param value the 64 bits of the GUID, read as an unsigned number
 */
public record Guid(long value) implements Comparable<Guid> {
    /** Size of a GUID on the wire. */
    public static final int BYTES = 8;

    private static final VarHandle BIG_ENDIAN_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    static final ValueLayout.OfLong WIRE_LONG =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private static final String KIND = "GUID";
    private static final String FORMS =
            "expected 4 groups of 4 hex digits such as 0002:c903:0000:1491,"
                    + " or 0x and 1 to 16 hex digits such as 0x0002c90300001491";

    /**
     * Parses a GUID in the colon form {@code 0002:c903:0000:1491} (exactly four groups of exactly
     * four hex digits) or the hex form {@code 0x0002c90300001491} ({@code 0x} or {@code 0X} and one
     * to sixteen hex digits). Hex digits may be of either case; nothing else is accepted, not even
     * surrounding blanks.
     *
     * @throws IllegalArgumentException if {@code text} is null or not one of these forms; the
     *                                  message quotes the text and says what is wrong with it
     */
    public static Guid parse(String text) {
        if (text == null) {
            throw Texts.invalid(KIND, null, FORMS);
        }
        if (text.startsWith("0x") || text.startsWith("0X")) {
            return new Guid(parseHex(text));
        }
        return new Guid(parseColon(text));
    }

    private static long parseHex(String text) {
        int digits = text.length() - 2;
        if (digits == 0) {
            throw Texts.invalid(KIND, text, "no hex digits after 0x");
        }
        if (digits > 16) {
            throw Texts.invalid(KIND, text, digits + " hex digits after 0x, at most 16 fit in 64 bits");
        }
        long value = 0;
        for (int i = 2; i < text.length(); i++) {
            int digit = Texts.hexValue(text.charAt(i));
            if (digit < 0) {
                throw Texts.invalid(KIND, text, "character " + UntrustedText.quote(text.substring(i, i + 1))
                        + " at index " + i + " is not a hex digit");
            }
            value = value << 4 | digit;
        }
        return value;
    }

    private static long parseColon(String text) {
        if (text.isEmpty()) {
            throw Texts.invalid(KIND, text, "empty; " + FORMS);
        }
        String[] groups = text.split(":", -1);
        if (groups.length != 4) {
            throw Texts.invalid(KIND, text, groups.length + " group" + (groups.length == 1 ? "" : "s")
                    + " separated by ':'; " + FORMS);
        }
        long value = 0;
        for (int g = 0; g < 4; g++) {
            String group = groups[g];
            if (group.length() != 4) {
                throw Texts.invalid(KIND, text, "group " + (g + 1) + " " + UntrustedText.quote(group)
                        + " has " + group.length() + " characters, expected 4 hex digits");
            }
            for (int i = 0; i < 4; i++) {
                int digit = Texts.hexValue(group.charAt(i));
                if (digit < 0) {
                    throw Texts.invalid(KIND, text, "group " + (g + 1) + " " + UntrustedText.quote(group)
                            + " holds " + UntrustedText.quote(group.substring(i, i + 1)) + ", not a hex digit");
                }
                value = value << 4 | digit;
            }
        }
        return value;
    }

    /**
     * Reads a GUID from 8 bytes of {@code bytes} at {@code offset}, big-endian.
     *
     * @throws IndexOutOfBoundsException if the 8 bytes do not lie inside {@code bytes}
     */
    public static Guid fromBytes(byte[] bytes, int offset) {
        Objects.checkFromIndexSize(offset, BYTES, bytes.length);
        return new Guid((long) BIG_ENDIAN_LONG.get(bytes, offset));
    }

    /**
     * Reads a GUID from 8 bytes of {@code segment} at {@code offset}, big-endian, any alignment.
     *
     * @throws IndexOutOfBoundsException if the 8 bytes do not lie inside {@code segment}
     */
    public static Guid fromSegment(MemorySegment segment, long offset) {
        return new Guid(segment.get(WIRE_LONG, offset));
    }

    /** The 8 wire bytes of this GUID, big-endian, in a new array. */
    public byte[] toBytes() {
        byte[] bytes = new byte[BYTES];
        writeTo(bytes, 0);
        return bytes;
    }

    /**
     * Writes the 8 wire bytes of this GUID into {@code bytes} at {@code offset}, big-endian.
     *
     * @throws IndexOutOfBoundsException if the 8 bytes do not lie inside {@code bytes}
     */
    public void writeTo(byte[] bytes, int offset) {
        Objects.checkFromIndexSize(offset, BYTES, bytes.length);
        BIG_ENDIAN_LONG.set(bytes, offset, value);
    }

    /**
     * Writes the 8 wire bytes of this GUID into {@code segment} at {@code offset}, big-endian.
     *
     * @throws IndexOutOfBoundsException if the 8 bytes do not lie inside {@code segment}
     */
    public void writeTo(MemorySegment segment, long offset) {
        segment.set(WIRE_LONG, offset, value);
    }

    /** The colon form, four groups of four lower-case hex digits: {@code 0002:c903:0000:1491}. */
    @Override
    public String toString() {
        String hex = hex16(value);
        return hex.substring(0, 4) + ':' + hex.substring(4, 8) + ':' + hex.substring(8, 12) + ':'
                + hex.substring(12, 16);
    }

    /** The infiniband-diags form, {@code 0x} and 16 lower-case hex digits: {@code 0x0002c90300001491}. */
    public String toHexString() {
        return "0x" + hex16(value);
    }

    private static String hex16(long value) {
        String hex = Long.toHexString(value);
        return "0".repeat(16 - hex.length()) + hex;
    }

    /** Orders GUIDs as unsigned 64-bit numbers, so {@code 0x8000000000000000} sorts after {@code 0x1}. */
    @Override
    public int compareTo(Guid other) {
        return Long.compareUnsigned(value, other.value);
    }
}

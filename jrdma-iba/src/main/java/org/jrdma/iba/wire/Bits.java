package org.jrdma.iba.wire;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Big-endian bit-field access to a byte array, in the numbering of the IBA specification's
 * structure tables: bit 0 is the most significant bit of byte 0, and a field of {@code length}
 * bits at bit {@code offset} covers bits {@code offset .. offset+length-1}.
 *
 * <p>Fields of 8, 16, 32 or 64 bits on a byte boundary take a fast path through byte-array view
 * handles; others are assembled byte by byte. Nothing here allocates.
 */
public final class Bits {
    private static final VarHandle U16 = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle U32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle U64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private Bits() {
    }

    /** The unsigned byte at {@code index}. */
    public static int u8(byte[] b, int index) {
        return b[index] & 0xFF;
    }

    /** The big-endian unsigned 16-bit value at {@code index}. */
    public static int u16(byte[] b, int index) {
        return (short) U16.get(b, index) & 0xFFFF;
    }

    /** The big-endian unsigned 32-bit value at {@code index}, widened to a long. */
    public static long u32(byte[] b, int index) {
        return (int) U32.get(b, index) & 0xFFFF_FFFFL;
    }

    /** The big-endian 64-bit value at {@code index}. */
    public static long u64(byte[] b, int index) {
        return (long) U64.get(b, index);
    }

    /** Writes the low 8 bits of {@code value} at {@code index}. */
    public static void u8(byte[] b, int index, int value) {
        b[index] = (byte) value;
    }

    /** Writes the low 16 bits of {@code value} big-endian at {@code index}. */
    public static void u16(byte[] b, int index, int value) {
        U16.set(b, index, (short) value);
    }

    /** Writes the low 32 bits of {@code value} big-endian at {@code index}. */
    public static void u32(byte[] b, int index, long value) {
        U32.set(b, index, (int) value);
    }

    /** Writes {@code value} big-endian at {@code index}. */
    public static void u64(byte[] b, int index, long value) {
        U64.set(b, index, value);
    }

    /**
     * Reads an unsigned field of 1 to 64 bits.
     *
     * @param b      the buffer
     * @param base   the byte index where the structure starts
     * @param offset the field's bit offset from the start of the structure
     * @param length the field's width in bits (1..64)
     */
    public static long get(byte[] b, int base, int offset, int length) {
        int first = base + (offset >>> 3);
        int skip = offset & 7;
        if (skip == 0) {
            switch (length) {
                case 8: return u8(b, first);
                case 16: return u16(b, first);
                case 32: return u32(b, first);
                case 64: return u64(b, first);
                default: break;
            }
        }
        if (skip + length <= 8) {
            // Within one byte: the common case of IBA's 1- to 7-bit fields.
            return ((b[first] & 0xFF) >>> (8 - skip - length)) & ((1 << length) - 1);
        }
        int span = (skip + length + 7) >>> 3;
        if (span <= 8) {
            long acc = 0;
            for (int i = 0; i < span; i++) {
                acc = (acc << 8) | (b[first + i] & 0xFF);
            }
            int tail = span * 8 - skip - length;
            return (acc >>> tail) & mask(length);
        }
        // 9 bytes: a field of up to 64 bits that does not start on a byte boundary.
        long high = get(b, base, offset, length - 8);
        long low = get(b, base, offset + length - 8, 8);
        return (high << 8) | low;
    }

    /**
     * Writes the low {@code length} bits of {@code value} into a field, leaving the bits around it
     * unchanged.
     */
    public static void set(byte[] b, int base, int offset, int length, long value) {
        int first = base + (offset >>> 3);
        int skip = offset & 7;
        if (skip == 0) {
            switch (length) {
                case 8: u8(b, first, (int) value); return;
                case 16: u16(b, first, (int) value); return;
                case 32: u32(b, first, value); return;
                case 64: u64(b, first, value); return;
                default: break;
            }
        }
        if (skip + length <= 8) {
            int shift = 8 - skip - length;
            int fieldMask = ((1 << length) - 1) << shift;
            b[first] = (byte) ((b[first] & ~fieldMask) | (((int) value << shift) & fieldMask));
            return;
        }
        int span = (skip + length + 7) >>> 3;
        if (span > 8) {
            set(b, base, offset, length - 8, value >>> 8);
            set(b, base, offset + length - 8, 8, value);
            return;
        }
        int tail = span * 8 - skip - length;
        long fieldMask = mask(length) << tail;
        long acc = 0;
        for (int i = 0; i < span; i++) {
            acc = (acc << 8) | (b[first + i] & 0xFF);
        }
        acc = (acc & ~fieldMask) | ((value << tail) & fieldMask);
        for (int i = span - 1; i >= 0; i--) {
            b[first + i] = (byte) acc;
            acc >>>= 8;
        }
    }

    /** Text up to the first NUL of a fixed-size byte field, read as ISO-8859-1 so no byte is lost. */
    public static String text(byte[] b, int index, int length) {
        int end = index;
        while (end < index + length && b[end] != 0) {
            end++;
        }
        return new String(b, index, end - index, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    /**
     * Writes text NUL-padded into a fixed-size byte field.
     *
     * @throws IllegalArgumentException if it has a character outside ISO-8859-1 or does not fit
     */
    public static void text(byte[] b, int index, int length, String field, String value) {
        byte[] encoded = new byte[value.length()];
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c > 0xFF) {
                throw new IllegalArgumentException(field + " holds ISO-8859-1 text; character U+"
                        + Integer.toHexString(c) + " is not");
            }
            encoded[i] = (byte) c;
        }
        if (encoded.length > length) {
            throw new IllegalArgumentException(field + " holds at most " + length + " bytes, not " + encoded.length);
        }
        System.arraycopy(encoded, 0, b, index, encoded.length);
        java.util.Arrays.fill(b, index + encoded.length, index + length, (byte) 0);
    }

    /**
     * Writes exactly {@code length} bytes into a field.
     *
     * @throws IllegalArgumentException if {@code value} has another length
     */
    public static void bytes(byte[] b, int index, int length, String field, byte[] value) {
        if (value.length != length) {
            throw new IllegalArgumentException(field + " is " + length + " bytes, not " + value.length);
        }
        System.arraycopy(value, 0, b, index, length);
    }

    /** The largest value a field of {@code length} bits holds. */
    public static long mask(int length) {
        return length >= 64 ? -1L : (1L << length) - 1;
    }

    /**
     * Checks that {@code value} fits an unsigned field.
     *
     * @throws IllegalArgumentException naming the field and its range otherwise
     */
    public static long checkUnsigned(String field, int length, long value) {
        if (length < 64 && (value < 0 || value > mask(length))) {
            throw new IllegalArgumentException(field + " is a " + length + "-bit unsigned field (0.."
                    + mask(length) + "), not " + value);
        }
        return value;
    }
}

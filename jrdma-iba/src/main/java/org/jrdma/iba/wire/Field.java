package org.jrdma.iba.wire;

import java.util.HexFormat;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Guid;

/**
 * One component of an IBA structure as its description file declares it, with nested structures
 * flattened: {@code nodeInfo.nodeGUID} in a NodeRecord is a field of the record at its absolute
 * bit offset. The order of a structure's fields is the order of its components in the IBA table,
 * which for SA records is also the order of the ComponentMask bits (IBA 15.2.5).
 *
 * @param name        the component name, dotted for nested structures
 * @param kind        how the bits are interpreted
 * @param bitOffset   the first bit, counted from the most significant bit of the structure's first byte
 * @param bitLength   the width in bits of one element
 * @param count       the number of elements (1 unless an array)
 * @param ibmadName   the libibmad {@code MAD_FIELDS} name of the same field, or null if libibmad has none
 * @param maskBit     the SA ComponentMask bit selecting this component, or -1 if the structure is not an SA record
 */
public record Field(String name, Kind kind, int bitOffset, int bitLength, int count, String ibmadName, int maskBit) {

    /** How a field's bits are read. */
    public enum Kind {
        /** An unsigned integer of 1 to 64 bits. */
        UINT,
        /** A 64-bit GUID (IBA 4.1.1). */
        GUID,
        /** A 128-bit GID (IBA 4.1.1). */
        GID,
        /** Text in a fixed number of bytes, NUL-padded (e.g. NodeDescription). */
        STRING,
        /** Opaque bytes. */
        BYTES,
        /** Reserved bits: kept for the component numbering, never interpreted. */
        RESERVED
    }

    /** The bit offset of element {@code index} of an array field. */
    public int bitOffset(int index) {
        return bitOffset + index * bitLength;
    }

    /** Whether the field is a whole number of bytes on a byte boundary. */
    public boolean byteAligned() {
        return bitOffset % 8 == 0 && bitLength % 8 == 0;
    }

    /** The unsigned value of element {@code index} of a field of at most 64 bits. */
    public long get(IbaStruct s, int index) {
        if (bitLength > 64) {
            throw new IllegalArgumentException(name + " is " + bitLength + " bits wide; use value()");
        }
        return Bits.get(s.buffer(), s.offset(), bitOffset(index), bitLength);
    }

    /** Sets element {@code index} of a field of at most 64 bits. */
    public void set(IbaStruct s, int index, long value) {
        if (bitLength > 64) {
            throw new IllegalArgumentException(name + " is " + bitLength + " bits wide");
        }
        Bits.set(s.buffer(), s.offset(), bitOffset(index), bitLength, Bits.checkUnsigned(name, bitLength, value));
    }

    /**
     * The value of element {@code index} as a Java object: {@code Long} for integers, {@link Guid},
     * {@link Gid}, {@code String} or {@code byte[]}.
     */
    public Object value(IbaStruct s, int index) {
        byte[] b = s.buffer();
        int at = s.offset() + bitOffset(index) / 8;
        return switch (kind) {
            case UINT, RESERVED -> bitLength <= 64 ? get(s, index) : bytes(b, at);
            case GUID -> Guid.fromBytes(b, at);
            case GID -> Gid.fromBytes(b, at);
            case STRING -> Bits.text(b, at, bitLength / 8);
            case BYTES -> bytes(b, at);
        };
    }

    /** The value as the generic printer shows it: decimal, 0x-hex for GUIDs and wide fields, text. */
    public String format(IbaStruct s, int index) {
        Object v = value(s, index);
        return switch (v) {
            case Long l when bitLength > 16 -> "0x" + Long.toHexString(l);
            case Long l -> Long.toString(l);
            case Guid g -> g.toHexString();
            case byte[] bytes -> HexFormat.of().formatHex(bytes);
            default -> v.toString();
        };
    }

    private byte[] bytes(byte[] b, int at) {
        byte[] out = new byte[bitLength / 8];
        System.arraycopy(b, at, out, 0, out.length);
        return out;
    }
}

package org.jrdma.iba.diag;

import java.util.Arrays;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Guid;
import org.jrdma.iba.wire.Bits;
import org.jrdma.iba.wire.Field;
import org.jrdma.iba.wire.IbaStruct;

/**
 * The bits one printed line shows: usually one element of one field of a structure, sometimes a
 * wider span starting at a field (saquery prints some bytes whole, across several components).
 *
 * @param struct    the structure being printed
 * @param field     the field the bits start at
 * @param bitOffset the first bit, from the start of {@code struct} (bit 0 = MSB of its first byte)
 * @param bitLength how many bits
 * @param options   how the tool was asked to print
 */
public record Cell(IbaStruct struct, Field field, int bitOffset, int bitLength, DiagOptions options) {

    /** The bits as an unsigned number (at most 64 bits). */
    public long bits() {
        if (bitLength > 64) {
            throw new IllegalStateException(field.name() + ": " + bitLength + " bits do not fit a long");
        }
        return Bits.get(struct.buffer(), struct.offset(), bitOffset, bitLength);
    }

    /** The bits as a GUID (64 bits on a byte boundary). */
    public Guid guid() {
        return Guid.fromBytes(struct.buffer(), byteIndex(64));
    }

    /** The bits as a GID (128 bits on a byte boundary). */
    public Gid gid() {
        return Gid.fromBytes(struct.buffer(), byteIndex(128));
    }

    /** The bytes, for fields on a byte boundary. */
    public byte[] bytes() {
        int from = byteIndex(bitLength);
        return Arrays.copyOfRange(struct.buffer(), from, from + bitLength / 8);
    }

    private int byteIndex(int expectedBits) {
        if (bitOffset % 8 != 0 || bitLength != expectedBits || bitLength % 8 != 0) {
            throw new IllegalStateException(field.name() + " is " + bitLength + " bits at bit " + bitOffset
                    + ", not " + expectedBits + " bits on a byte boundary");
        }
        return struct.offset() + bitOffset / 8;
    }
}

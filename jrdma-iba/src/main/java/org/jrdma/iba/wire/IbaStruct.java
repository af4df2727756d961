package org.jrdma.iba.wire;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * An IBA structure (a packet header, a MAD format or a MAD attribute) as a flyweight over
 * {@code size()} bytes of a byte array, in network byte order exactly as on the wire.
 *
 * <p>A structure made with its no-argument constructor owns a zeroed array of its own; a nested
 * structure (a NodeRecord's NodeInfo, a MAD's payload) is a view sharing its parent's bytes, so
 * writing through it writes the parent. {@code unpack} copies bytes in and {@code pack} copies them
 * out, with bounds checked up front so a short buffer gives a clear {@link IllegalArgumentException}.
 * Two structures are equal when they are of the same class and hold the same bytes.
 *
 * <p>The concrete classes are generated from the description files in {@code src/main/iba}.
 */
public abstract class IbaStruct {
    private final byte[] buf;
    private final int base;

    /**
     * A structure owning fresh zeroed storage. ({@link #size()}, called before a subclass is
     * initialised, is a constant of the subclass that reads no state: the escape is safe.)
     */
    @SuppressWarnings("this-escape")
    protected IbaStruct() {
        this.buf = new byte[size()];
        this.base = 0;
    }

    /** A view of the structure stored at {@code base} in {@code buf} (as above, {@link #size()} reads no state). */
    @SuppressWarnings("this-escape")
    protected IbaStruct(byte[] buf, int base) {
        Objects.requireNonNull(buf, "buf");
        checkRange(buf.length, base);
        this.buf = buf;
        this.base = base;
    }

    /** The size in bytes of this structure on the wire. */
    public abstract int size();

    /** The name of the structure in the IBA specification (e.g. {@code PortInfo}). */
    public abstract String ibaName();

    /** Every component in specification order, nested structures flattened. */
    public abstract List<Field> fields();

    /** The array holding this structure's bytes (shared with any parent or view). */
    public final byte[] buffer() {
        return buf;
    }

    /** The index in {@link #buffer()} of this structure's first byte. */
    public final int offset() {
        return base;
    }

    /** Copies {@code size()} bytes from {@code src} starting at {@code srcOffset} into this structure. */
    public IbaStruct unpack(byte[] src, int srcOffset) {
        checkRange(src.length, srcOffset);
        System.arraycopy(src, srcOffset, buf, base, size());
        return this;
    }

    /** Copies {@code size()} bytes from {@code src} starting at {@code srcOffset} into this structure. */
    public IbaStruct unpack(MemorySegment src, long srcOffset) {
        checkRange(src.byteSize(), srcOffset);
        MemorySegment.copy(src, ValueLayout.JAVA_BYTE, srcOffset, buf, base, size());
        return this;
    }

    /** Copies this structure's bytes into {@code dst} at {@code dstOffset}. */
    public void pack(byte[] dst, int dstOffset) {
        checkRange(dst.length, dstOffset);
        System.arraycopy(buf, base, dst, dstOffset, size());
    }

    /** Copies this structure's bytes into {@code dst} at {@code dstOffset}. */
    public void pack(MemorySegment dst, long dstOffset) {
        checkRange(dst.byteSize(), dstOffset);
        MemorySegment.copy(buf, base, dst, ValueLayout.JAVA_BYTE, dstOffset, size());
    }

    /** A new array holding this structure's bytes. */
    public final byte[] toBytes() {
        return Arrays.copyOfRange(buf, base, base + size());
    }

    /** Sets every byte of this structure to zero. */
    public IbaStruct clear() {
        Arrays.fill(buf, base, base + size(), (byte) 0);
        return this;
    }

    /** The bytes as hex, 16 to a line, each line starting with its offset. */
    public final String hexDump() {
        StringBuilder out = new StringBuilder();
        HexFormat hex = HexFormat.of();
        for (int i = 0; i < size(); i += 16) {
            out.append(String.format("%04x:", i));
            for (int j = i; j < Math.min(size(), i + 16); j++) {
                out.append(j % 4 == 0 ? "  " : " ").append(hex.toHexDigits(buf[base + j]));
            }
            out.append('\n');
        }
        return out.toString();
    }

    /** Every field as a {@code name.....value} line, arrays one element per line. */
    public final String toDottedString() {
        StringBuilder out = new StringBuilder(ibaName()).append('\n');
        for (Field f : fields()) {
            if (f.kind() == Field.Kind.RESERVED) {
                continue;
            }
            for (int i = 0; i < f.count(); i++) {
                String label = f.count() == 1 ? f.name() : f.name() + "[" + i + "]";
                out.append("  ").append(label).append(".".repeat(Math.max(3, 32 - label.length())))
                        .append(f.format(this, i)).append('\n');
            }
        }
        return out.toString();
    }

    @Override
    public String toString() {
        return toDottedString();
    }

    @Override
    public final boolean equals(Object o) {
        return o instanceof IbaStruct other && other.getClass() == getClass()
                && Arrays.equals(buf, base, base + size(), other.buf, other.base, other.base + size());
    }

    @Override
    public final int hashCode() {
        int h = 1;
        for (int i = base; i < base + size(); i++) {
            h = 31 * h + buf[i];
        }
        return h;
    }

    private void checkRange(long length, long at) {
        if (at < 0 || at > length - size()) {
            throw new IllegalArgumentException(ibaName() + " needs " + size() + " bytes at offset " + at
                    + " but the buffer holds " + length);
        }
    }
}

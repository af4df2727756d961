package org.jrdma.iba;

import java.util.Collection;
import java.util.EnumSet;

/**
 * The width of a link in lanes, PortInfo:LinkWidthActive (IBA 14.2.5.6), with the text
 * infiniband-diags prints for it (libibmad {@code mad_dump_linkwidth}). LinkWidthSupported and
 * LinkWidthEnabled hold several widths as a bit mask: see {@link #fromMask} and {@link #toMask}.
 */
public enum LinkWidth {
    /** Bit 0: one lane. */
    WIDTH_1X(0x01, 1),
    /** Bit 1: four lanes. */
    WIDTH_4X(0x02, 4),
    /** Bit 2: eight lanes. */
    WIDTH_8X(0x04, 8),
    /** Bit 3: twelve lanes. */
    WIDTH_12X(0x08, 12),
    /** Bit 4: two lanes. */
    WIDTH_2X(0x10, 2);

    private static final LinkWidth[] VALUES = values();

    private final int value;
    private final int lanes;

    LinkWidth(int value, int lanes) {
        this.value = value;
        this.lanes = lanes;
    }

    /** The LinkWidthActive value on the wire: one bit. */
    public int value() {
        return value;
    }

    /** The number of lanes. */
    public int lanes() {
        return lanes;
    }

    /** The text infiniband-diags prints, for example {@code 4X}. */
    public String text() {
        return lanes + "X";
    }

    /**
     * The width whose LinkWidthActive value is {@code value}.
     *
     * @throws IllegalArgumentException if {@code value} is not 1, 2, 4, 8 or 16
     */
    public static LinkWidth fromValue(int value) {
        LinkWidth width = fromValueOrNull(value);
        if (width == null) {
            throw new IllegalArgumentException("Unknown PortInfo:LinkWidthActive " + value
                    + " (IBA 14.2.5.6 defines 1 1X, 2 4X, 4 8X, 8 12X, 16 2X)");
        }
        return width;
    }

    /** The width whose LinkWidthActive value is {@code value}, or null for any other value. */
    public static LinkWidth fromValueOrNull(int value) {
        for (LinkWidth width : VALUES) {
            if (width.value == value) {
                return width;
            }
        }
        return null;
    }

    /**
     * The widths whose bits are set in a LinkWidthSupported or LinkWidthEnabled {@code mask}.
     * Bits no width here stands for are ignored; {@code toMask(fromMask(m)) != m} reveals them.
     */
    public static EnumSet<LinkWidth> fromMask(int mask) {
        EnumSet<LinkWidth> widths = EnumSet.noneOf(LinkWidth.class);
        for (LinkWidth width : VALUES) {
            if ((mask & width.value) != 0) {
                widths.add(width);
            }
        }
        return widths;
    }

    /** The bit mask of {@code widths}, as LinkWidthSupported and LinkWidthEnabled hold it. */
    public static int toMask(Collection<LinkWidth> widths) {
        int mask = 0;
        for (LinkWidth width : widths) {
            mask |= width.value;
        }
        return mask;
    }

    /**
     * What infiniband-diags prints for LinkWidthActive {@code value}: the text, or
     * {@code undefined (N)}.
     */
    public static String describe(int value) {
        LinkWidth width = fromValueOrNull(value);
        return width != null ? width.text() : "undefined (" + value + ")";
    }
}

package org.jrdma.iba;

import java.util.Collection;
import java.util.EnumSet;

/**
 * The width of a link in lanes, PortInfo:LinkWidthActive (IBA 14.2.5.6), with the text
 * infiniband-diags prints for it (libibmad {@code mad_dump_linkwidth}). LinkWidthSupported and
 * LinkWidthEnabled hold several widths as a bit mask: see {@link #fromMask} and {@link #toMask}.
 */
public enum LinkWidth implements WireCode {
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
        return WireCodes.byValue(VALUES, value, "PortInfo:LinkWidthActive",
                "IBA 14.2.5.6 defines 1 1X, 2 4X, 4 8X, 8 12X, 16 2X");
    }

    /** The width whose LinkWidthActive value is {@code value}, or null for any other value. */
    public static LinkWidth fromValueOrNull(int value) {
        return WireCodes.byValueOrNull(VALUES, value);
    }

    /**
     * The widths whose bits are set in a LinkWidthSupported or LinkWidthEnabled {@code mask}.
     * Bits no width here stands for are ignored; {@code toMask(fromMask(m)) != m} reveals them.
     */
    public static EnumSet<LinkWidth> fromMask(int mask) {
        return WireCodes.fromMask(LinkWidth.class, VALUES, mask);
    }

    /** The bit mask of {@code widths}, as LinkWidthSupported and LinkWidthEnabled hold it. */
    public static int toMask(Collection<LinkWidth> widths) {
        return WireCodes.toMask(widths);
    }

    /**
     * What infiniband-diags prints for LinkWidthActive {@code value}: the text, or
     * {@code undefined (N)}.
     */
    public static String describe(int value) {
        return WireCodes.describe(VALUES, value, v -> "undefined (" + v + ")");
    }
}

package org.jrdma.iba;

import java.util.Collection;
import java.util.EnumSet;

/**
 * The extended signalling rate of one lane, PortInfo:LinkSpeedExtActive (IBA 14.2.5.6), with the
 * text infiniband-diags prints for it (libibmad {@code mad_dump_linkspeedext}). When
 * LinkSpeedExtActive is not 0 it overrides {@link LinkSpeed LinkSpeedActive}.
 * LinkSpeedExtSupported and LinkSpeedExtEnabled hold several speeds as a bit mask: see
 * {@link #fromMask} and {@link #toMask}.
 */
public enum LinkSpeedExt implements WireCode {
    /** Bit 0: 14.0625 Gb/s, fourteen data rate. */
    FDR(0x1, "14.0625 Gbps", 14.0625),
    /** Bit 1: 25.78125 Gb/s, enhanced data rate. */
    EDR(0x2, "25.78125 Gbps", 25.78125),
    /** Bit 2: 53.125 Gb/s, high data rate. */
    HDR(0x4, "53.125 Gbps", 53.125),
    /** Bit 3: 106.25 Gb/s, next data rate. */
    NDR(0x8, "106.25 Gbps", 106.25);

    private static final LinkSpeedExt[] VALUES = values();

    private final int value;
    private final String text;
    private final double gbps;

    LinkSpeedExt(int value, String text, double gbps) {
        this.value = value;
        this.text = text;
        this.gbps = gbps;
    }

    /** The LinkSpeedExtActive value on the wire: one bit. */
    public int value() {
        return value;
    }

    /** The text infiniband-diags prints, for example {@code 25.78125 Gbps}. */
    public String text() {
        return text;
    }

    /** The signalling rate of one lane in Gb/s. */
    public double gbps() {
        return gbps;
    }

    /**
     * The speed whose LinkSpeedExtActive value is {@code value}.
     *
     * @throws IllegalArgumentException if {@code value} is not 1, 2, 4 or 8
     */
    public static LinkSpeedExt fromValue(int value) {
        return WireCodes.byValue(VALUES, value, "PortInfo:LinkSpeedExtActive",
                "IBA 14.2.5.6 defines 1 FDR, 2 EDR, 4 HDR, 8 NDR; 0 means no extended speed");
    }

    /** The speed whose LinkSpeedExtActive value is {@code value}, or null for any other value. */
    public static LinkSpeedExt fromValueOrNull(int value) {
        return WireCodes.byValueOrNull(VALUES, value);
    }

    /**
     * The speeds whose bits are set in a LinkSpeedExtSupported or LinkSpeedExtEnabled
     * {@code mask}. Bits no speed here stands for are ignored; {@code toMask(fromMask(m)) != m}
     * reveals them.
     */
    public static EnumSet<LinkSpeedExt> fromMask(int mask) {
        return WireCodes.fromMask(LinkSpeedExt.class, VALUES, mask);
    }

    /** The bit mask of {@code speeds}, as LinkSpeedExtSupported and LinkSpeedExtEnabled hold it. */
    public static int toMask(Collection<LinkSpeedExt> speeds) {
        return WireCodes.toMask(speeds);
    }

    /**
     * What infiniband-diags prints for LinkSpeedExtActive {@code value}: the text,
     * {@code No Extended Speed} for 0, or {@code undefined (N)}.
     */
    public static String describe(int value) {
        if (value == 0) {
            return "No Extended Speed";
        }
        return WireCodes.describe(VALUES, value, v -> "undefined (" + v + ")");
    }
}

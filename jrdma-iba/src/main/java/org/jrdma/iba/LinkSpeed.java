package org.jrdma.iba;

import java.util.Collection;
import java.util.EnumSet;

/**
 * The signalling rate of one lane, PortInfo:LinkSpeedActive (IBA 14.2.5.6), with the text
 * infiniband-diags prints for it (libibmad {@code mad_dump_linkspeed}). LinkSpeedActive 0 means
 * that the port runs at an extended speed, given by LinkSpeedExtActive: see
 * {@link LinkSpeedExt}. LinkSpeedSupported and LinkSpeedEnabled hold several speeds as a bit
 * mask: see {@link #fromMask} and {@link #toMask}.
 */
public enum LinkSpeed implements WireCode {
    /** Bit 0: 2.5 Gb/s, single data rate. */
    SDR(0x1, "2.5 Gbps", 2.5),
    /** Bit 1: 5.0 Gb/s, double data rate. */
    DDR(0x2, "5.0 Gbps", 5.0),
    /** Bit 2: 10.0 Gb/s, quad data rate. */
    QDR(0x4, "10.0 Gbps", 10.0);

    private static final LinkSpeed[] VALUES = values();

    private final int value;
    private final String text;
    private final double gbps;

    LinkSpeed(int value, String text, double gbps) {
        this.value = value;
        this.text = text;
        this.gbps = gbps;
    }

    /** The LinkSpeedActive value on the wire: one bit. */
    public int value() {
        return value;
    }

    /** The text infiniband-diags prints, for example {@code 10.0 Gbps}. */
    public String text() {
        return text;
    }

    /** The signalling rate of one lane in Gb/s. */
    public double gbps() {
        return gbps;
    }

    /**
     * The speed whose LinkSpeedActive value is {@code value}.
     *
     * @throws IllegalArgumentException if {@code value} is not 1, 2 or 4
     */
    public static LinkSpeed fromValue(int value) {
        return WireCodes.byValue(VALUES, value, "PortInfo:LinkSpeedActive",
                "IBA 14.2.5.6 defines 1 SDR, 2 DDR, 4 QDR; 0 means see LinkSpeedExtActive");
    }

    /** The speed whose LinkSpeedActive value is {@code value}, or null for any other value. */
    public static LinkSpeed fromValueOrNull(int value) {
        return WireCodes.byValueOrNull(VALUES, value);
    }

    /**
     * The speeds whose bits are set in a LinkSpeedSupported or LinkSpeedEnabled {@code mask}.
     * Bits no speed here stands for are ignored; {@code toMask(fromMask(m)) != m} reveals them.
     */
    public static EnumSet<LinkSpeed> fromMask(int mask) {
        return WireCodes.fromMask(LinkSpeed.class, VALUES, mask);
    }

    /** The bit mask of {@code speeds}, as LinkSpeedSupported and LinkSpeedEnabled hold it. */
    public static int toMask(Collection<LinkSpeed> speeds) {
        return WireCodes.toMask(speeds);
    }

    /**
     * What infiniband-diags prints for LinkSpeedActive {@code value}: the text,
     * {@code Extended speed} for 0, or {@code undefined (N)}.
     */
    public static String describe(int value) {
        if (value == 0) {
            return "Extended speed";
        }
        return WireCodes.describe(VALUES, value, v -> "undefined (" + v + ")");
    }
}

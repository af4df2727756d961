package org.jrdma.iba;

/**
 * The encoded path MTU, the largest payload of one packet: PortInfo:NeighborMTU and MTUCap
 * (IBA 14.2.5.6), PathRecord:MTU (IBA 15.2.5.16), and verbs' {@code enum ibv_mtu}, which uses the
 * same numbers. The text is what infiniband-diags prints (libibmad {@code mad_dump_mtu}).
 */
public enum Mtu implements WireCode {
    /** 1: 256 bytes. */
    MTU_256(1, 256),
    /** 2: 512 bytes. */
    MTU_512(2, 512),
    /** 3: 1024 bytes. */
    MTU_1024(3, 1024),
    /** 4: 2048 bytes. */
    MTU_2048(4, 2048),
    /** 5: 4096 bytes. */
    MTU_4096(5, 4096);

    private static final Mtu[] VALUES = values();

    private final int value;
    private final int bytes;

    Mtu(int value, int bytes) {
        this.value = value;
        this.bytes = bytes;
    }

    /** The encoded MTU on the wire, 1 to 5. */
    public int value() {
        return value;
    }

    /** The MTU in bytes, 256 to 4096. */
    public int bytes() {
        return bytes;
    }

    /** The text infiniband-diags prints: the number of bytes, for example {@code 2048}. */
    public String text() {
        return Integer.toString(bytes);
    }

    /**
     * The MTU encoded as {@code value}.
     *
     * @throws IllegalArgumentException if {@code value} is not 1 to 5
     */
    public static Mtu fromValue(int value) {
        return WireCodes.byValue(VALUES, value, "encoded MTU",
                "IBA 14.2.5.6 defines 1 to 5 for 256 to 4096 bytes");
    }

    /** The MTU encoded as {@code value}, or null for a reserved encoding read off the wire. */
    public static Mtu fromValueOrNull(int value) {
        return WireCodes.byValueOrNull(VALUES, value);
    }

    /**
     * The MTU of exactly {@code bytes} bytes.
     *
     * @throws IllegalArgumentException if {@code bytes} is not 256, 512, 1024, 2048 or 4096
     */
    public static Mtu fromBytes(int bytes) {
        for (Mtu mtu : VALUES) {
            if (mtu.bytes == bytes) {
                return mtu;
            }
        }
        throw new IllegalArgumentException("No IB MTU of " + bytes
                + " bytes; IB MTUs are 256, 512, 1024, 2048 and 4096 bytes");
    }

    /** What infiniband-diags prints for encoded MTU {@code value}: the bytes, or {@code ?(N)}. */
    public static String describe(int value) {
        return WireCodes.describe(VALUES, value, v -> "?(" + v + ")");
    }
}

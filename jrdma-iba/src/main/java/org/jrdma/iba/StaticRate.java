package org.jrdma.iba;

/**
 * The 6-bit encoded data rate of a path: PathRecord:Rate and MCMemberRecord:Rate (IBA
 * 15.2.5.16), the static rate of an address vector, and verbs' {@code enum ibv_rate}, which uses
 * the same numbers. Each rate is a link width times a lane speed, named by its nominal Gb/s
 * ({@code IBV_RATE_56_GBPS} is 4X FDR); {@link #mbps()} is the exact figure libibverbs'
 * {@code ibv_rate_to_mbps} gives.
 *
 * <p>Verbs' {@code IBV_RATE_MAX} (0, "no static rate limit, use the port's rate") and the
 * reserved encoding 1 are not rates and have no constant here.
 */
public enum StaticRate implements WireCode {
    /** 2: 2.5 Gb/s. */
    RATE_2_5_GBPS(2, 2.5, 2500),
    /** 3: 10 Gb/s. */
    RATE_10_GBPS(3, 10, 10000),
    /** 4: 30 Gb/s. */
    RATE_30_GBPS(4, 30, 30000),
    /** 5: 5 Gb/s. */
    RATE_5_GBPS(5, 5, 5000),
    /** 6: 20 Gb/s. */
    RATE_20_GBPS(6, 20, 20000),
    /** 7: 40 Gb/s. */
    RATE_40_GBPS(7, 40, 40000),
    /** 8: 60 Gb/s. */
    RATE_60_GBPS(8, 60, 60000),
    /** 9: 80 Gb/s. */
    RATE_80_GBPS(9, 80, 80000),
    /** 10: 120 Gb/s. */
    RATE_120_GBPS(10, 120, 120000),
    /** 11: 14 Gb/s. */
    RATE_14_GBPS(11, 14, 14062),
    /** 12: 56 Gb/s. */
    RATE_56_GBPS(12, 56, 56250),
    /** 13: 112 Gb/s. */
    RATE_112_GBPS(13, 112, 112500),
    /** 14: 168 Gb/s. */
    RATE_168_GBPS(14, 168, 168750),
    /** 15: 25 Gb/s. */
    RATE_25_GBPS(15, 25, 25781),
    /** 16: 100 Gb/s. */
    RATE_100_GBPS(16, 100, 103125),
    /** 17: 200 Gb/s. */
    RATE_200_GBPS(17, 200, 206250),
    /** 18: 300 Gb/s. */
    RATE_300_GBPS(18, 300, 309375),
    /** 19: 28 Gb/s. */
    RATE_28_GBPS(19, 28, 28125),
    /** 20: 50 Gb/s. */
    RATE_50_GBPS(20, 50, 53125),
    /** 21: 400 Gb/s. */
    RATE_400_GBPS(21, 400, 425000),
    /** 22: 600 Gb/s. */
    RATE_600_GBPS(22, 600, 637500),
    /** 23: 800 Gb/s. */
    RATE_800_GBPS(23, 800, 850000),
    /** 24: 1200 Gb/s. */
    RATE_1200_GBPS(24, 1200, 1275000);

    private static final StaticRate[] VALUES = values();

    private final int value;
    private final double gbps;
    private final int mbps;

    StaticRate(int value, double gbps, int mbps) {
        this.value = value;
        this.gbps = gbps;
        this.mbps = mbps;
    }

    /** The encoded rate on the wire and in {@code ibv_ah_attr.static_rate}. */
    public int value() {
        return value;
    }

    /** The nominal rate in Gb/s that names the constant, for example 56 for 4X FDR. */
    public double gbps() {
        return gbps;
    }

    /** The rate in Mb/s as libibverbs' {@code ibv_rate_to_mbps} gives it, for example 56250. */
    public int mbps() {
        return mbps;
    }

    /** The nominal rate as text, for example {@code 2.5 Gbps} or {@code 56 Gbps}. */
    public String text() {
        return (gbps == Math.rint(gbps) ? Integer.toString((int) gbps) : Double.toString(gbps)) + " Gbps";
    }

    /**
     * The rate encoded as {@code value}.
     *
     * @throws IllegalArgumentException if {@code value} is not 2 to 24
     */
    public static StaticRate fromValue(int value) {
        StaticRate rate = fromValueOrNull(value);
        if (rate == null) {
            throw new IllegalArgumentException("Unknown encoded rate " + value + " (2 to 24 are rates"
                    + (value == 0 ? "; 0 is verbs' IBV_RATE_MAX, no static rate limit)" : ")"));
        }
        return rate;
    }

    /** The rate encoded as {@code value}, or null for 0, 1 and reserved encodings. */
    public static StaticRate fromValueOrNull(int value) {
        return WireCodes.byValueOrNull(VALUES, value);
    }
}

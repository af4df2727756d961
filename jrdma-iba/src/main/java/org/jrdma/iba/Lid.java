package org.jrdma.iba;

/**
 * Local identifiers: the 16-bit addresses the subnet manager assigns to ports within a subnet
 * (IBA 4.1.3), carried as DLID and SLID in the local route header (IBA 7.7). LIDs are plain
 * {@code int}s holding an unsigned 16-bit value; this class holds their ranges and the LID mask
 * control (LMC) arithmetic of IBA 7.11.1, by which a port answers to 2<sup>LMC</sup> consecutive
 * LIDs starting at its base LID. Every method taking a LID rejects a value outside
 * {@code 0..0xFFFF} with an {@link IllegalArgumentException}.
 *
 * <pre>
 *   0x0000           reserved (an unassigned port)
 *   0x0001 - 0xBFFF  unicast
 *   0xC000 - 0xFFFE  multicast
 *   0xFFFF           permissive (delivered to whichever port receives it, used by SMPs)
 * </pre>
 */
public final class Lid {
    /** The reserved LID 0 of a port the subnet manager has not configured. */
    public static final int RESERVED = 0x0000;
    /** The first unicast LID. */
    public static final int UNICAST_FIRST = 0x0001;
    /** The last unicast LID. */
    public static final int UNICAST_LAST = 0xBFFF;
    /** The first multicast LID. */
    public static final int MULTICAST_FIRST = 0xC000;
    /** The last multicast LID. */
    public static final int MULTICAST_LAST = 0xFFFE;
    /** The permissive LID, accepted by any port (IBA 7.11.1; used by directed-route SMPs). */
    public static final int PERMISSIVE = 0xFFFF;
    /** The largest LMC, PortInfo:LMC being 3 bits (IBA 14.2.5.6). */
    public static final int LMC_MAX = 7;

    private Lid() {
    }

    /** True if {@code value} fits the 16-bit LID field, {@code 0..0xFFFF}. Never throws. */
    public static boolean isValid16(int value) {
        return (value & ~0xFFFF) == 0;
    }

    /** True for a unicast LID, {@code 0x0001..0xBFFF}. */
    public static boolean isUnicast(int lid) {
        checkValid16(lid);
        return lid >= UNICAST_FIRST && lid <= UNICAST_LAST;
    }

    /** True for a multicast LID, {@code 0xC000..0xFFFE}. */
    public static boolean isMulticast(int lid) {
        checkValid16(lid);
        return lid >= MULTICAST_FIRST && lid <= MULTICAST_LAST;
    }

    /** True for the permissive LID {@code 0xFFFF}. */
    public static boolean isPermissive(int lid) {
        checkValid16(lid);
        return lid == PERMISSIVE;
    }

    /**
     * The 2<sup>LMC</sup> LIDs a port with base LID {@code baseLid} and LID mask control
     * {@code lmc} answers to, in increasing order (IBA 7.11.1).
     *
     * @throws IllegalArgumentException if {@code lmc} is not 0 to 7, {@code baseLid} is not a
     *                                  unicast LID, or its low {@code lmc} bits are not zero
     */
    public static int[] lmcRange(int baseLid, int lmc) {
        checkLmc(lmc);
        checkUnicast(baseLid);
        if (pathBits(baseLid, lmc) != 0) {
            throw new IllegalArgumentException(String.format(
                    "Base LID 0x%04x is not a multiple of 2^LMC = %d for LMC %d", baseLid, 1 << lmc, lmc));
        }
        int[] lids = new int[1 << lmc];
        for (int i = 0; i < lids.length; i++) {
            lids[i] = baseLid + i;
        }
        return lids;
    }

    /**
     * The base LID of the port that answers to unicast LID {@code lid} when its LMC is
     * {@code lmc}: {@code lid} with its low {@code lmc} bits cleared.
     *
     * @throws IllegalArgumentException if {@code lid} is not unicast or {@code lmc} is not 0 to 7
     */
    public static int baseLid(int lid, int lmc) {
        checkLmc(lmc);
        checkUnicast(lid);
        return lid & ~((1 << lmc) - 1);
    }

    /**
     * The path bits of unicast LID {@code lid} under LMC {@code lmc}: its low {@code lmc} bits,
     * which select one of the port's paths (the {@code src_path_bits} of a verbs address handle).
     *
     * @throws IllegalArgumentException if {@code lid} is not unicast or {@code lmc} is not 0 to 7
     */
    public static int pathBits(int lid, int lmc) {
        checkLmc(lmc);
        checkUnicast(lid);
        return lid & ((1 << lmc) - 1);
    }

    /**
     * Parses a LID written in decimal ({@code 12}) or in hex after {@code 0x} or {@code 0X}
     * ({@code 0xc}), as the infiniband-diags tools take it. The value must fit in 16 bits. A
     * decimal number with a leading zero ({@code 012}) is refused, since C's {@code strtoul}
     * would read it as octal. No sign, no blanks.
     *
     * @throws IllegalArgumentException if {@code text} is null, not such a number, or above
     *                                  {@code 0xFFFF}; the message quotes the text
     */
    public static int parse(String text) {
        if (text == null || text.isEmpty()) {
            throw Texts.invalid("LID", text, "expected a decimal number such as 12 or a hex one such as 0xc");
        }
        boolean hex = text.startsWith("0x") || text.startsWith("0X");
        int radix = hex ? 16 : 10;
        int start = hex ? 2 : 0;
        if (start == text.length()) {
            throw Texts.invalid("LID", text, "no hex digits after 0x");
        }
        if (!hex && text.length() > 1 && text.charAt(0) == '0') {
            throw Texts.invalid("LID", text, "decimal with a leading zero (octal to C tools); write it without"
                    + " the zero or in hex after 0x");
        }
        int value = 0;
        for (int i = start; i < text.length(); i++) {
            int digit = Texts.hexValue(text.charAt(i));
            if (digit < 0 || digit >= radix) {
                throw Texts.invalid("LID", text, "character " + UntrustedText.quote(text.substring(i, i + 1))
                        + " at index " + i + " is not a " + (hex ? "hex" : "decimal") + " digit");
            }
            value = value * radix + digit;
            if (value > PERMISSIVE) {
                throw Texts.invalid("LID", text, "greater than 0xFFFF (65535), the largest 16-bit LID");
            }
        }
        return value;
    }

    private static void checkValid16(int lid) {
        if (!isValid16(lid)) {
            throw new IllegalArgumentException("LID " + lid + " is outside the 16-bit range 0 to 0xFFFF");
        }
    }

    private static void checkUnicast(int lid) {
        if (!isUnicast(lid)) {
            throw new IllegalArgumentException(String.format(
                    "LID 0x%04x is not a unicast LID (0x0001 to 0xBFFF)", lid));
        }
    }

    private static void checkLmc(int lmc) {
        if (lmc < 0 || lmc > LMC_MAX) {
            throw new IllegalArgumentException("LMC " + lmc + " is outside 0 to " + LMC_MAX);
        }
    }
}

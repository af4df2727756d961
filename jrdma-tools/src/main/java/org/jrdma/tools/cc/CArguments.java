package org.jrdma.tools.cc;

/**
 * ibccconfig's readings of its arguments, with its messages: {@code strtoul}/{@code strtoull}
 * that must consume the whole argument ({@code parseint}, {@code parselonglongint}), a mask read
 * as a 256-bit big-endian hex number ({@code parse256}), and a congestion control table entry
 * {@code shift:multiplier} ({@code parsecct}).
 */
final class CArguments {
    private CArguments() {
    }

    /** An argument the C tool refuses; the message is its reason. */
    static final class Invalid extends Exception {
        private static final long serialVersionUID = 1L;

        Invalid(String reason) {
            super(reason, null, false, false);
        }
    }

    /** {@code parseint}: {@code strtoul(arg, &end, hexonly ? 16 : 0)} kept to 32 bits, as the C tool stores it. */
    static long parseint(String arg, boolean hexOnly) throws Invalid {
        return strtoul(arg, hexOnly ? 16 : 0) & 0xFFFF_FFFFL;
    }

    /** {@code parselonglongint}: {@code strtoull(arg, &end, 0)}. */
    static long strtoull(String arg) throws Invalid {
        return strtoul(arg, 0);
    }

    /**
     * glibc's {@code strtoul} on 64 bits, which must read the whole argument (an empty one reads
     * as 0): leading blanks, a sign (a minus negates, modulo 2^64), a {@code 0x} or {@code 0}
     * prefix choosing the base when {@code base} is 0.
     *
     * @throws Invalid {@code value out of range} on overflow, else {@code invalid integer input}
     */
    private static long strtoul(String s, int base) throws Invalid {
        int i = 0;
        int n = s.length();
        while (i < n && " \t\n\u000B\f\r".indexOf(s.charAt(i)) >= 0) {
            i++;
        }
        boolean negative = false;
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            negative = s.charAt(i) == '-';
            i++;
        }
        boolean hexPrefix = i + 1 < n && s.charAt(i) == '0' && (s.charAt(i + 1) == 'x' || s.charAt(i + 1) == 'X')
                && i + 2 < n && Character.digit(s.charAt(i + 2), 16) >= 0;
        if (base == 0) {
            base = hexPrefix ? 16 : i < n && s.charAt(i) == '0' ? 8 : 10;
        }
        if (base == 16 && hexPrefix) {
            i += 2;
        }
        int start = i;
        long value = 0;
        boolean overflow = false;
        while (i < n && Character.digit(s.charAt(i), base) >= 0) {
            int digit = Character.digit(s.charAt(i), base);
            if (Long.compareUnsigned(value, Long.divideUnsigned(-1L - digit, base)) > 0) {
                overflow = true;
            }
            value = value * base + digit;
            i++;
        }
        if (overflow) {
            throw new Invalid("value out of range");
        }
        if (i == start) {
            // nothing read: the end pointer is the argument itself
            if (!s.isEmpty()) {
                throw new Invalid("invalid integer input");
            }
            return 0;
        }
        if (i != n) {
            throw new Invalid("invalid integer input");
        }
        return negative ? -value : value;
    }

    /** {@code parse256}: up to 64 hex digits (after an optional {@code 0x}) right-aligned in 32 bytes. */
    static byte[] parse256(String arg) throws Invalid {
        String digits = arg.startsWith("0x") || arg.startsWith("0X") ? arg.substring(2) : arg;
        for (int i = 0; i < digits.length(); i++) {
            if (Character.digit(digits.charAt(i), 16) < 0 || digits.charAt(i) > 0x7F) {
                throw new Invalid("invalid hex digit read");
            }
        }
        if (digits.length() > 64) {
            throw new Invalid("hex code too long");
        }
        byte[] mask = new byte[32];
        String even = digits.length() % 2 == 1 ? "0" + digits : digits;
        for (int i = 0; i < even.length() / 2; i++) {
            mask[32 - even.length() / 2 + i] = (byte) Integer.parseInt(even.substring(2 * i, 2 * i + 2), 16);
        }
        return mask;
    }

    /** {@code parsecct}: {@code shift:multiplier}, each read as {@link #parseint}. */
    static long[] parsecct(String arg) throws Invalid {
        int colon = arg.indexOf(':');
        if (colon < 0) {
            throw new Invalid("ccts are formatted shift:multiplier");
        }
        return new long[] {parseint(arg.substring(0, colon), false), parseint(arg.substring(colon + 1), false)};
    }
}

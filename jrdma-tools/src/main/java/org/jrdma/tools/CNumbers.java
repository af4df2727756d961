package org.jrdma.tools;

/**
 * Numbers read as the C tools read their arguments with {@code strtoul(text, NULL, 0)}: leading
 * blanks, a sign, then decimal, octal after {@code 0} or hex after {@code 0x}, as far as the
 * digits go; text without digits is 0, and a minus sign wraps around 2^64. Also {@code atoi}, for
 * the few arguments the C tools read with it.
 */
public final class CNumbers {
    private CNumbers() {
    }

    /** C's {@code atoi}: blanks, a sign, then decimal digits as far as they go; 0 without any. */
    public static int atoi(String text) {
        int i = digitsStart(text);
        boolean negative = i > 0 && text.charAt(i - 1) == '-';
        long value = 0;
        for (; i < text.length() && text.charAt(i) >= '0' && text.charAt(i) <= '9' && value <= Integer.MAX_VALUE; i++) {
            value = value * 10 + (text.charAt(i) - '0');
        }
        return (int) (negative ? -value : value);
    }

    /** The value {@code strtoull(text, NULL, 0)} returns (saturating at 2^64-1, as it does on overflow). */
    public static long strtoul(String text) {
        int i = digitsStart(text);
        boolean negative = i > 0 && text.charAt(i - 1) == '-';
        int base = 10;
        if (text.startsWith("0x", i) || text.startsWith("0X", i)) {
            if (i + 2 < text.length() && Character.digit(text.charAt(i + 2), 16) >= 0) {
                base = 16;
                i += 2;
            }
        } else if (text.startsWith("0", i)) {
            base = 8;
        }
        long value = 0;
        for (; i < text.length() && Character.digit(text.charAt(i), base) >= 0; i++) {
            long digit = Character.digit(text.charAt(i), base);
            if (Long.compareUnsigned(value, Long.divideUnsigned(-1L - digit, base)) > 0) {
                return -1L; // ULLONG_MAX on overflow, as strtoull
            }
            value = value * base + digit;
        }
        return negative ? -value : value;
    }

    /** Whether {@code strtoull(text, &end, 0)} would read all of {@code text} (and something). */
    static boolean isNumber(String text) {
        String t = text.strip();
        if (t.startsWith("+") || t.startsWith("-")) {
            t = t.substring(1);
        }
        if (t.startsWith("0x") || t.startsWith("0X")) {
            return t.length() > 2 && t.substring(2).chars().allMatch(c -> Character.digit(c, 16) >= 0);
        }
        int base = t.startsWith("0") ? 8 : 10;
        return !t.isEmpty() && t.chars().allMatch(c -> Character.digit(c, base) >= 0) && text.equals(text.stripTrailing());
    }

    /** Where a number's digits start in {@code text}, after C's leading blanks and an optional sign. */
    private static int digitsStart(String text) {
        int i = 0;
        while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        if (i < text.length() && (text.charAt(i) == '+' || text.charAt(i) == '-')) {
            i++;
        }
        return i;
    }
}

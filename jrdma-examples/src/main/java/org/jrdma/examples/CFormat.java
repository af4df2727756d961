package org.jrdma.examples;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * The few {@code printf} conversions the C tools print with, reproduced exactly where Java's
 * {@link java.util.Formatter} differs: {@code %.Nf} rounds the exact binary value half-even (Java
 * rounds its shortest decimal half-up), and {@code %#0Nx} prints 0 without {@code 0x}.
 */
public final class CFormat {
    private CFormat() {
    }

    /** {@code printf("%.<digits>f", value)}. */
    public static String fixed(double value, int digits) {
        if (!Double.isFinite(value)) {
            return Double.isNaN(value) ? "nan" : value > 0 ? "inf" : "-inf";
        }
        return new BigDecimal(value).setScale(digits, RoundingMode.HALF_EVEN).toPlainString();
    }

    /** {@code printf("%-<width>.<digits>f", value)}: left-justified in {@code width} columns. */
    static String fixedLeft(double value, int width, int digits) {
        return left(fixed(value, digits), width);
    }

    /** {@code text} padded with spaces on the right to {@code width} columns. */
    static String left(String text, int width) {
        return text.length() >= width ? text : text + " ".repeat(width - text.length());
    }

    /** {@code printf("%#0<width>x", value)}: {@code 0x} and zero-padded digits, but a bare 0 padded for 0. */
    static String alternateHex(long value, int width) {
        String digits = Long.toHexString(value);
        if (value == 0) {
            return "0".repeat(Math.max(width, 1));
        }
        int padding = width - 2 - digits.length();
        return "0x" + (padding > 0 ? "0".repeat(padding) : "") + digits;
    }
}

package org.jrdma.iba;

/**
 * Shared pieces of the strict text parsers of this package: hex digits and error messages that
 * quote the rejected input safely (control characters escaped, long input cut short), so that an
 * untrusted string can never make an exception message unbounded or unreadable.
 */
final class Texts {
    /** Longest part of a rejected input quoted in an exception message. */
    private static final int QUOTE_LIMIT = 64;

    private Texts() {
    }

    /** The value of a hex digit (either case), or -1 if {@code c} is not one. */
    static int hexValue(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    /** {@code input} in double quotes, control and non-ASCII characters escaped, cut at 64 chars. */
    static String quote(String input) {
        if (input == null) {
            return "null";
        }
        var out = new StringBuilder(Math.min(input.length(), QUOTE_LIMIT) + 24).append('"');
        int shown = Math.min(input.length(), QUOTE_LIMIT);
        for (int i = 0; i < shown; i++) {
            char c = input.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || c > 0x7e) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        out.append('"');
        if (shown < input.length()) {
            out.append("... (").append(input.length()).append(" chars)");
        }
        return out.toString();
    }

    /** An exception saying that {@code input} is not a valid {@code kind}, and why. */
    static IllegalArgumentException invalid(String kind, String input, String reason) {
        return new IllegalArgumentException("Invalid " + kind + " " + quote(input) + ": " + reason);
    }
}

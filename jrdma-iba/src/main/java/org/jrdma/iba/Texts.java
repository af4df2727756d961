package org.jrdma.iba;

/**
 * Shared pieces of the strict text parsers of this package: hex digits and error messages that
 * quote the rejected input with {@link UntrustedText}.
 */
final class Texts {
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

    /** An exception saying that {@code input} is not a valid {@code kind}, and why. */
    static IllegalArgumentException invalid(String kind, String input, String reason) {
        return new IllegalArgumentException("Invalid " + kind + " " + UntrustedText.quote(input) + ": " + reason);
    }
}

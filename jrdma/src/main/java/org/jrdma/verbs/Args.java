package org.jrdma.verbs;

/** Argument checks with messages naming the verbs.h field, for the attribute classes. */
final class Args {
    private Args() {
    }

    /**
     * {@code value} when it fits in {@code bits} unsigned bits.
     *
     * @throws IllegalArgumentException otherwise, naming {@code field}
     */
    static int unsigned(String field, int value, int bits) {
        if (bits < 32 && (value < 0 || value >= 1 << bits)) {
            throw new IllegalArgumentException(field + " must be 0 to " + ((1 << bits) - 1) + ", not " + value);
        }
        return value;
    }

    /**
     * {@code value} when it fits in {@code bits} (below 64) unsigned bits.
     *
     * @throws IllegalArgumentException otherwise, naming {@code field}
     */
    static long unsigned(String field, long value, int bits) {
        if (value < 0 || value >= 1L << bits) {
            throw new IllegalArgumentException(field + " must be 0 to " + ((1L << bits) - 1) + ", not " + value);
        }
        return value;
    }

    /**
     * {@code value} when it is not negative.
     *
     * @throws IllegalArgumentException otherwise, naming {@code field}
     */
    static int positiveOrZero(String field, int value) {
        if (value < 0) {
            throw new IllegalArgumentException(field + " must not be negative, not " + value);
        }
        return value;
    }
}

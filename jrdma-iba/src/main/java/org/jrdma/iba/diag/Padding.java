package org.jrdma.iba.diag;

/**
 * How a line's label is written before its value: the label, then a colon or not, then dots.
 */
@FunctionalInterface
public interface Padding {
    /** The text that goes before {@code value} on a line labelled {@code label}. */
    String prefix(String label, String value);

    /**
     * libibmad's {@code mad_dump_field} (and infiniband-diags' {@code snprint_field} with spacing
     * 32): the name, a colon, and dots so that the value starts in column 34. A name of 32
     * characters or more gets no dots (libibmad leaves its dots buffer unset then; no field name
     * libibmad prints is that long).
     */
    Padding IBMAD = (label, value) -> label + ":" + (label.length() < 32 ? ".".repeat(32 - label.length()) : "");

    /**
     * smpquery's NodeDescription line: the label, a colon, and {@code 32 - length of the value}
     * dots (one dot when the value has 32 characters or more), so that the value ends in column 50.
     */
    Padding NODE_DESCRIPTION = (label, value) -> label + ":"
            + (value.length() < 32 ? ".".repeat(32 - value.length()) : ".");

    /** The label and dots up to {@code width} columns, no colon: the literal padding of saquery's printf formats. */
    static Padding dotsTo(int width) {
        return (label, value) -> label + ".".repeat(Math.max(0, width - label.length()));
    }
}

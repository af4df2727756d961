package org.jrdma.iba.diag;

/**
 * How one value is shown: a function from the bits of a {@link Cell} to text. The formatters of
 * libibmad and of infiniband-diags' own printf calls are constants of {@link Formats}.
 */
@FunctionalInterface
public interface Format {
    /** The text for the bits in {@code cell}; may span several lines (PortInfo:CapabilityMask). */
    String apply(Cell cell);
}

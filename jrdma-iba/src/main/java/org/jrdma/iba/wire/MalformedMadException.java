package org.jrdma.iba.wire;

/**
 * Bytes that are not a MAD jrdma can decode: too short, a base version other than 1, an SA
 * attribute offset that does not fit the packet. The message says which.
 */
public final class MalformedMadException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public MalformedMadException(String message) {
        super(message);
    }
}

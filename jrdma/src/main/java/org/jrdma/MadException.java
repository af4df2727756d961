package org.jrdma;

import java.util.OptionalInt;
import org.jrdma.iba.Mad;

/**
 * A management datagram (MAD, IBA 13.4) exchange failed: the request could not be sent, the
 * reply could not be understood, or the reply's status word reported an error; python-rdma's
 * {@code rdma.MADError}. When a status word is known the message ends with it and its meaning:
 * {@code ...: MAD status 0x000c (Method/Attribute combo not supported)}.
 */
public class MadException extends RdmaException {
    private static final long serialVersionUID = 1L;
    private static final int NO_STATUS = -1;

    private final int status;

    /** A failed exchange described by {@code message}, with no status word. */
    public MadException(String message) {
        super(message);
        this.status = NO_STATUS;
    }

    /** A failed exchange described by {@code message}, caused by {@code cause}. */
    public MadException(String message, Throwable cause) {
        super(message, cause);
        this.status = NO_STATUS;
    }

    /**
     * A failed exchange described by {@code message} whose reply carried the MAD status word
     * {@code status}.
     *
     * @throws IllegalArgumentException if {@code status} does not fit in 16 bits
     */
    public MadException(String message, int status) {
        this(message, status, Mad.statusToString(status));
    }

    /** For subclasses: a status word {@code status} whose meaning is {@code statusText}. */
    MadException(String message, int status, String statusText) {
        super(message + String.format(": MAD status 0x%04x (%s)", status, statusText));
        this.status = status;
    }

    /** The status word of the reply (IBA 13.4.7), if a reply carried one. */
    public OptionalInt status() {
        return status == NO_STATUS ? OptionalInt.empty() : OptionalInt.of(status);
    }
}

package org.jrdma.subnet;

import org.jrdma.RdmaException;

/**
 * A libibnetdisc fabric cache could not be read or written: the file is missing or unreadable, or
 * its bytes are not a cache (wrong magic or version, truncated, counts beyond the file, records
 * that name nodes or ports the file does not hold). The message says which.
 */
public final class SubnetCacheException extends RdmaException {
    private static final long serialVersionUID = 1L;

    /** An exception with {@code message}. */
    public SubnetCacheException(String message) {
        super(message);
    }

    /** An exception with {@code message}, caused by {@code cause}. */
    public SubnetCacheException(String message, Throwable cause) {
        super(message, cause);
    }
}

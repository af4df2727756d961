package org.jrdma.examples;

import java.io.Serial;

/** A command line that cannot be used; the message says why, and the tool prints its usage. */
public final class UsageException extends Exception {
    @Serial
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }
}

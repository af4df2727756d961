package org.jrdma.cm;

import org.jrdma.RdmaException;

/**
 * {@code rdma_getaddrinfo} failed with a getaddrinfo(3) code ({@code EAI_*}, negative; for
 * example {@code EAI_NONAME} -2 for a name that does not resolve), not an {@code errno}; the
 * message carries {@code gai_strerror}'s text.
 */
public final class AddrInfoException extends RdmaException {
    private static final long serialVersionUID = 1L;
    private final int code;

    AddrInfoException(int code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    /** The {@code EAI_*} code. */
    public int code() {
        return code;
    }
}

package org.jrdma.mad;

import org.jrdma.iba.Mad;

/**
 * The subnet administrator has no path record for a path query (IBA 15.2.5.16): its reply
 * carried a class-specific error status, normally {@link Mad#STATUS_SA_NO_RECORDS}; python-rdma's
 * {@code rdma.path.SAPathNotFoundError}, a {@link MadClassException} as there.
 */
public final class SaPathNotFoundException extends MadClassException {
    private static final long serialVersionUID = 1L;

    /**
     * The SA answered the path query {@code message} describes with status word {@code status}.
     *
     * @throws IllegalArgumentException if {@code status} does not fit in 16 bits
     */
    public SaPathNotFoundException(String message, int status) {
        this(message, status, Exchange.NONE);
    }

    /** As {@link #SaPathNotFoundException(String, int)}, for the query that exchanged {@code exchange}. */
    public SaPathNotFoundException(String message, int status, Exchange exchange) {
        super(message, Mad.CLASS_SUBN_ADM, status, exchange);
    }
}

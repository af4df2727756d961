package org.jrdma;

/**
 * No reply came to a MAD request within its timeout, after all its retries: the target is
 * unreachable, down, or too busy to answer; python-rdma's {@code rdma.MADTimeoutError}.
 */
public final class MadTimeoutException extends MadException {
    private static final long serialVersionUID = 1L;

    /** A timeout described by {@code message}, which should name the request and its target. */
    public MadTimeoutException(String message) {
        super(message);
    }
}

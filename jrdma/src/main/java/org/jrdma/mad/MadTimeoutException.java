package org.jrdma.mad;

/**
 * No reply came to a MAD request within its timeout, after all its retries: the target is
 * unreachable, down, or too busy to answer; python-rdma's {@code rdma.MADTimeoutError}. When the
 * target stayed busy, {@link #reply()} holds its last busy reply.
 */
public final class MadTimeoutException extends MadException {
    private static final long serialVersionUID = 1L;

    /** A timeout described by {@code message}, which should name the request and its target. */
    public MadTimeoutException(String message) {
        super(message);
    }

    /** A timeout described by {@code message} of the transaction that exchanged {@code exchange}. */
    public MadTimeoutException(String message, Exchange exchange) {
        super(message, exchange);
    }
}

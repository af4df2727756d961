package org.jrdma.mad;

import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalInt;
import org.jrdma.RdmaException;
import org.jrdma.iba.Mad;
import org.jrdma.path.IBPath;

/**
 * A management datagram (MAD, IBA 13.4) exchange failed: the request could not be sent, the
 * reply could not be understood, or the reply's status word reported an error; python-rdma's
 * {@code rdma.MADError}. When a status word is known the message ends with it and its meaning:
 * {@code ...: MAD status 0x000c (Method/Attribute combo not supported)}.
 *
 * <p>An exception raised by a MAD transaction also carries its {@linkplain Exchange exchange}:
 * the request as sent, the reply as received (when one came) and the path the request went on,
 * which {@link #describe()} prints decoded, as python-rdma's {@code MADError} keeps {@code req},
 * {@code rep} and {@code path}.
 */
public class MadException extends RdmaException {
    private static final long serialVersionUID = 1L;
    private static final int NO_STATUS = -1;

    private final int status;
    private final byte[] request;
    private final byte[] reply;
    private final transient IBPath path;

    /**
     * What a failed MAD transaction sent and got back.
     *
     * @param request the request MAD as sent (its TID included), or null
     * @param reply   the reply MAD as received (a reassembled RMPP reply is longer than 256 bytes),
     *                or null when none came
     * @param path    the path the request was sent on (after any redirection), or null
     */
    public record Exchange(byte[] request, byte[] reply, IBPath path) {
        /** An exchange with neither request, reply nor path. */
        public static final Exchange NONE = new Exchange(null, null, null);
    }

    /** A failed exchange described by {@code message}, with no status word. */
    public MadException(String message) {
        this(message, Exchange.NONE);
    }

    /** A failed exchange described by {@code message}, caused by {@code cause}. */
    public MadException(String message, Throwable cause) {
        super(message, cause);
        this.status = NO_STATUS;
        this.request = null;
        this.reply = null;
        this.path = null;
    }

    /**
     * A failed exchange described by {@code message} whose reply carried the MAD status word
     * {@code status}.
     *
     * @throws IllegalArgumentException if {@code status} does not fit in 16 bits
     */
    public MadException(String message, int status) {
        this(message, status, Exchange.NONE);
    }

    /** A failed transaction described by {@code message}, with no status word, that exchanged {@code exchange}. */
    public MadException(String message, Exchange exchange) {
        super(message);
        this.status = NO_STATUS;
        this.request = copy(exchange.request());
        this.reply = copy(exchange.reply());
        this.path = exchange.path();
    }

    /**
     * A failed transaction described by {@code message} whose reply carried the MAD status word
     * {@code status}, that exchanged {@code exchange}.
     *
     * @throws IllegalArgumentException if {@code status} does not fit in 16 bits
     */
    public MadException(String message, int status, Exchange exchange) {
        this(message, status, Mad.statusToString(status), exchange);
    }

    /** For subclasses: a status word {@code status} whose meaning is {@code statusText}. */
    MadException(String message, int status, String statusText, Exchange exchange) {
        super(message + String.format(": MAD status 0x%04x (%s)", status, statusText));
        this.status = status;
        this.request = copy(exchange.request());
        this.reply = copy(exchange.reply());
        this.path = exchange.path();
    }

    /** The status word of the reply (IBA 13.4.7), if a reply carried one. */
    public OptionalInt status() {
        return status == NO_STATUS ? OptionalInt.empty() : OptionalInt.of(status);
    }

    /** A copy of the request MAD as it was sent, if known. */
    public Optional<byte[]> request() {
        return Optional.ofNullable(copy(request));
    }

    /** A copy of the reply MAD as it was received, if one came. */
    public Optional<byte[]> reply() {
        return Optional.ofNullable(copy(reply));
    }

    /** The path the request was sent on, if known (lost when the exception is serialized). */
    public Optional<IBPath> path() {
        return Optional.ofNullable(path);
    }

    /**
     * The message followed by the path and by the request and reply decoded: each MAD's common
     * header with the names of its class, method and status, its attribute component by component
     * where jrdma knows the attribute, and its bytes in hex.
     */
    public String describe() {
        StringBuilder out = new StringBuilder(getClass().getSimpleName()).append(": ").append(getMessage()).append('\n');
        out.append("Path: ").append(path == null ? "(unknown)" : path).append('\n');
        out.append("Request:").append(request == null ? " (unknown)\n" : "\n" + MadDump.describe(request, request.length));
        out.append("Reply:").append(reply == null ? " (none)\n" : "\n" + MadDump.describe(reply, reply.length));
        return out.toString();
    }

    private static byte[] copy(byte[] mad) {
        return mad == null ? null : Arrays.copyOf(mad, mad.length);
    }
}

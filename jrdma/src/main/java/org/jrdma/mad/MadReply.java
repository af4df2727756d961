package org.jrdma.mad;

import java.util.Objects;
import org.jrdma.iba.mad.MadHeader;
import org.jrdma.iba.wire.DecodedMad;
import org.jrdma.iba.wire.MadDecoder;
import org.jrdma.path.IBPath;

/**
 * What one RPC returned and the reply MAD it came in, from {@link MadTransactor#withReply}:
 * python-rdma's {@code reply_fmt} and {@code reply_path}, the state of the last reply processed,
 * held per call instead of on the transactor, so that threads sharing a transactor never see
 * each other's replies.
 *
 * @param result what the RPC (or the code making RPCs) returned
 * @param mad    the last reply the call processed, as received (after reassembly of an RMPP transfer)
 * @param path   the path that reply came on, with received semantics (IBA 13.5.4): SLID and SQPN
 *               are the responder's; {@code path.reverse(true)} leads back to it
 * @param <R>    the result's type
 */
public record MadReply<R>(R result, ReceivedMad mad, IBPath path) {
    /** Checks that the reply and its path are given. */
    public MadReply {
        Objects.requireNonNull(mad, "mad");
        Objects.requireNonNull(path, "path");
    }

    /** The reply's common MAD header (IBA 13.4.2): class, method, status, TID, AttributeID and modifier. */
    public MadHeader header() {
        return new MadHeader(mad.mad(), 0);
    }

    /**
     * The reply decoded in its class's format, the seed's {@code reply_fmt}: the header and the
     * attribute (or SA records) where jrdma knows them.
     *
     * @throws org.jrdma.iba.wire.MalformedMadException if the reply cannot be decoded
     */
    public DecodedMad format() {
        return MadDecoder.decode(mad.mad(), 0, mad.length());
    }

    /** The reply's status word (IBA 13.4.7), 0 or a redirect for a reply the RPC accepted. */
    public int status() {
        return header().status();
    }
}

package org.jrdma.vtools;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ProtocolException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.jrdma.devices.EndPort;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Mtu;
import org.jrdma.iba.StaticRate;
import org.jrdma.path.IBDRPath;
import org.jrdma.path.IBPath;
import org.jrdma.path.PathParser;
import org.jrdma.verbs.Qp;

/**
 * Connects two queue pairs without a communication manager, by exchanging their paths over a
 * side channel (a TCP socket the caller connected): the seed's "No CM QP Setup". It carries the
 * information the IB CM's REQ and REP would (QP numbers, initial PSNs, responder resources, ack
 * delays, the path) and ends with the CM's RTU: neither side sends until both are in RTS.
 *
 * <pre>{@code
 * // side A (connects)                                   // side B (accepts)
 * IBPath path = IBPath.builder(endPort).hasGrh(true)     IBPath local = IBPath.builder(endPort)
 *         .sgid(endPort.defaultGid()).hopLimit(64)               .sgid(endPort.defaultGid()).build();
 *         .build();
 * NoCmExchange.sideA(qp, path, socket, access);          NoCmExchange.sideB(qp, local, socket, access);
 * }</pre>
 *
 * <p>The steps, as the seed gives them:
 * <ol>
 *   <li>A: {@link Qp#fillPath}, {@link IBPath#reverse(boolean) reverse(false)}, send;</li>
 *   <li>B: receive, set its end port and source address (in place of python-rdma's
 *       {@code resolve_path}, which asks the subnet administrator: there is none on RoCE), then
 *       {@link Qp#fillPath}; the MTU and rate become the smaller of both sides'; send back;</li>
 *   <li>A: receive, reverse(false), set its end port;</li>
 *   <li>both: {@link Qp#establish(IBPath, int)}; then A sends RTS and waits for B's, B waits for
 *       A's and answers.</li>
 * </ol>
 *
 * <p><b>Wire format.</b> Each message is a 4-byte big-endian length and that many bytes of
 * printable ASCII, at most {@link #MAX_MESSAGE}: a path is its specification text
 * ({@link IBPath#toString()}, {@code end_port=None}: a peer's device names mean nothing here),
 * read back by the strict parser {@link PathParser#fromSpecString}; the synchronisation is the
 * text {@code RTS}. Nothing received reaches Java serialization or allocates more than
 * {@link #MAX_MESSAGE} bytes; anything else is a {@link ProtocolException}. The socket's
 * time-out (set by the caller) bounds every wait. The exchange reads exactly what it needs, so
 * the socket can carry the application's own messages afterwards.
 */
public final class NoCmExchange {
    /** The longest message accepted, in bytes; a path specification takes well under 1 KiB. */
    public static final int MAX_MESSAGE = 4096;

    private static final byte[] RTS = "RTS".getBytes(StandardCharsets.US_ASCII);
    private static final PathParser PARSER = PathParser.of(List.of());

    private NoCmExchange() {
    }

    /**
     * Side A, which starts: connects {@code qp} to the queue pair of side B at the other end of
     * {@code socket}.
     *
     * @param path   this side's end of the path: its end port and source address (SGID with a
     *               GRH, which RoCE needs; SLID on InfiniBand), and any parameter to propose
     *               (SL, P_Key, hop limit, retries, ...)
     * @param access {@link org.jrdma.verbs.Access} bits: the remote operations allowed on this side
     * @return the path {@code qp} was established on
     * @throws IOException        if the socket fails, or side B sends something invalid
     *                            ({@link ProtocolException})
     * @throws org.jrdma.SysException if the queue pair refuses the path
     */
    public static IBPath sideA(Qp qp, IBPath path, Socket socket, int access) throws IOException {
        EndPort endPort = requireEndPort(path);
        OutputStream out = socket.getOutputStream();
        InputStream in = socket.getInputStream();
        sendPath(out, qp.fillPath(path).reverse(false));
        IBPath established = receivePath(in, endPort).reverse(false);
        if (established.sqpn().orElse(-1) != qp.qpNum() || established.dqpn().isEmpty()) {
            throw new ProtocolException("side B answered for QP " + established.sqpn() + ", not for 0x"
                    + Integer.toHexString(qp.qpNum()) + ": " + established);
        }
        qp.establish(established, access);
        sendMessage(out, RTS);
        expectRts(in);
        return established;
    }

    /**
     * Side B, which answers: connects {@code qp} to the queue pair of side A at the other end of
     * {@code socket}.
     *
     * @param local  this side's end of the path: its end port, and its SGID (else the end port's
     *               default GID, when A's path has a GRH) and SLID (else the port's base LID)
     * @param access {@link org.jrdma.verbs.Access} bits: the remote operations allowed on this side
     * @return the path {@code qp} was established on
     * @throws IOException        if the socket fails, or side A sends something invalid
     *                            ({@link ProtocolException})
     * @throws org.jrdma.SysException if the queue pair refuses the path
     */
    public static IBPath sideB(Qp qp, IBPath local, Socket socket, int access) throws IOException {
        EndPort endPort = requireEndPort(local);
        OutputStream out = socket.getOutputStream();
        InputStream in = socket.getInputStream();
        IBPath offer = receivePath(in, endPort);
        if (offer.dqpn().isEmpty()) {
            throw new ProtocolException("side A's path names no QP to connect to: " + offer);
        }
        Gid sgid = local.sgid().orElseGet(() -> offer.hasGrh() ? endPort.defaultGid() : null);
        int slid = local.slid() != 0 ? local.slid() : endPort.lid();
        IBPath filled = qp.fillPath(offer.copy(b -> b.sgid(sgid).slid(slid)));
        Mtu mtu = offer.mtu().bytes() < filled.mtu().bytes() ? offer.mtu() : filled.mtu();
        StaticRate rate = offer.rate().mbps() < filled.rate().mbps() ? offer.rate() : filled.rate();
        IBPath path = filled.copy(b -> b.mtu(mtu).rate(rate));
        sendPath(out, path);
        qp.establish(path, access);
        expectRts(in);
        sendMessage(out, RTS);
        return path;
    }

    /** Sends {@code path} as its specification text without its end port. */
    static void sendPath(OutputStream out, IBPath path) throws IOException {
        sendMessage(out, path.copy(b -> b.endPort(null)).toString().getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * Receives a path specification and gives it {@code endPort}.
     *
     * @throws ProtocolException if the message is not an IB path specification without an end port
     */
    static IBPath receivePath(InputStream in, EndPort endPort) throws IOException {
        String text = new String(receiveMessage(in), StandardCharsets.US_ASCII);
        IBPath path;
        try {
            path = PARSER.fromSpecString(text);
        } catch (IllegalArgumentException e) {
            throw new ProtocolException("the peer sent no valid path: " + e.getMessage());
        }
        if (path instanceof IBDRPath || path.endPort().isPresent()) {
            throw new ProtocolException("the peer sent a path that is not an IBPath without end port: " + text);
        }
        return path.copy(b -> b.endPort(endPort));
    }

    /** Writes {@code message} with its length in front, and flushes. */
    static void sendMessage(OutputStream out, byte[] message) throws IOException {
        DataOutputStream data = new DataOutputStream(out);
        data.writeInt(message.length);
        data.write(message);
        data.flush();
    }

    /**
     * Reads one message.
     *
     * @throws ProtocolException     if its length is negative or over {@link #MAX_MESSAGE}, or it
     *                               holds a byte that is not printable ASCII
     * @throws java.io.EOFException  if the stream ends first
     */
    static byte[] receiveMessage(InputStream in) throws IOException {
        DataInputStream data = new DataInputStream(in);
        int length = data.readInt();
        if (length < 0 || length > MAX_MESSAGE) {
            throw new ProtocolException("the peer announced a message of " + Integer.toUnsignedLong(length)
                    + " bytes; at most " + MAX_MESSAGE + " are accepted");
        }
        byte[] message = new byte[length];
        data.readFully(message);
        for (int i = 0; i < length; i++) {
            if (message[i] < 0x20 || message[i] > 0x7E) {
                throw new ProtocolException(String.format("byte %d of the peer's message is 0x%02x, not printable ASCII",
                        i, message[i] & 0xFF));
            }
        }
        return message;
    }

    private static void expectRts(InputStream in) throws IOException {
        byte[] message = receiveMessage(in);
        if (!Arrays.equals(message, RTS)) {
            throw new ProtocolException("expected RTS from the peer, got \""
                    + new String(message, StandardCharsets.US_ASCII) + "\"");
        }
    }

    private static EndPort requireEndPort(IBPath path) {
        return path.endPort().orElseThrow(
                () -> new IllegalArgumentException("the local path needs its end port: " + path));
    }
}

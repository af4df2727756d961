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
import java.util.function.UnaryOperator;
import org.jrdma.devices.EndPort;
import org.jrdma.devices.LinkLayer;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Mtu;
import org.jrdma.iba.StaticRate;
import org.jrdma.mad.MadTransactor;
import org.jrdma.mad.PathResolver;
import org.jrdma.mad.umad.UmadTransport;
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
 *   <li>A: its end port's base LID as SLID on InfiniBand, {@link Qp#fillPath},
 *       {@link IBPath#reverse(boolean) reverse(false)}, send;</li>
 *   <li>B: receive, set its end port and source address (SGID, SLID), {@link Qp#fillPath}; on
 *       InfiniBand, python-rdma's {@code resolve_path(umad, path)}: the SA's reversible
 *       PathRecord from B to A gives the LIDs, GIDs, SL, P_Key, MTU, rate and packet lifetime
 *       ({@link PathResolver#resolvePath}); on RoCE, which has no subnet administrator, the MTU
 *       and rate become the smaller of both sides'; send back;</li>
 *   <li>A: receive, reverse(false), set its end port; on InfiniBand, resolve A's path to B the
 *       same way, so that its DLID, SL and MTU are the SA's for this direction;</li>
 *   <li>both: {@link Qp#establish(IBPath, int)}; then A sends RTS and waits for B's, B waits for
 *       A's and answers.</li>
 * </ol>
 *
 * <p>On InfiniBand each side asks the SA on the transactor the caller gives (for instance
 * {@link org.jrdma.Rdma#getGmpMad(EndPort, org.jrdma.verbs.Context)}), else on one it opens for
 * the exchange on the port's umad device, as the seed's {@code with rdma.get_gmp_mad(...)}.
 * The path computations are the static {@link #offer}, {@link #answer} and {@link #accept}, which
 * need no queue pair.
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

    /** MADs in flight at once on a transactor the exchange opens: it asks one PathRecord. */
    private static final int SA_OUTSTANDING = 1;
    private static final byte[] RTS = "RTS".getBytes(StandardCharsets.US_ASCII);
    private static final PathParser PARSER = PathParser.of(List.of());

    private NoCmExchange() {
    }

    /**
     * Side A, which starts: connects {@code qp} to the queue pair of side B at the other end of
     * {@code socket}. On InfiniBand the SA is asked on a transactor opened for the exchange on
     * the end port's umad device.
     *
     * @param path   this side's end of the path: its end port and source address (SGID with a
     *               GRH, which RoCE needs; the SLID is the port's base LID unless given), and any
     *               parameter to propose (SL, P_Key, hop limit, retries, ...)
     * @param access {@link org.jrdma.verbs.Access} bits: the remote operations allowed on this side
     * @return the path {@code qp} was established on
     * @throws IOException        if the socket fails, or side B sends something invalid
     *                            ({@link ProtocolException})
     * @throws org.jrdma.SysException if the queue pair refuses the path
     * @throws org.jrdma.mad.MadException if the SA cannot be asked, or has no path ({@link org.jrdma.mad.SaPathNotFoundException})
     * @throws IllegalStateException if the end port is InfiniBand without a umad device: give a
     *                               transactor then ({@link org.jrdma.Rdma#getGmpMad(EndPort, org.jrdma.verbs.Context)})
     */
    public static IBPath sideA(Qp qp, IBPath path, Socket socket, int access) throws IOException {
        EndPort endPort = requireEndPort(path);
        if (!isInfiniBand(endPort)) {
            return sideA(qp, path, socket, access, null);
        }
        try (MadTransactor sa = openSa(endPort)) {
            return sideA(qp, path, socket, access, sa);
        }
    }

    /**
     * {@link #sideA(Qp, IBPath, Socket, int)} asking the SA on {@code sa}, which stays the
     * caller's; null where there is no SA to ask (RoCE).
     */
    public static IBPath sideA(Qp qp, IBPath path, Socket socket, int access, MadTransactor sa) throws IOException {
        EndPort endPort = requireEndPort(path);
        OutputStream out = socket.getOutputStream();
        InputStream in = socket.getInputStream();
        sendPath(out, offer(qp.fillPath(local(path, endPort))));
        IBPath established = accept(receivePath(in, endPort), sa);
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
     * {@code socket}. On InfiniBand the SA is asked on a transactor opened for the exchange on
     * the end port's umad device.
     *
     * @param local  this side's end of the path: its end port, and its SGID (else the end port's
     *               default GID, when A's path has a GRH) and SLID (else the port's base LID)
     * @param access {@link org.jrdma.verbs.Access} bits: the remote operations allowed on this side
     * @return the path {@code qp} was established on
     * @throws IOException        if the socket fails, or side A sends something invalid
     *                            ({@link ProtocolException})
     * @throws org.jrdma.SysException if the queue pair refuses the path
     * @throws org.jrdma.mad.MadException if the SA cannot be asked, or has no path ({@link org.jrdma.mad.SaPathNotFoundException})
     * @throws IllegalStateException if the end port is InfiniBand without a umad device: give a
     *                               transactor then ({@link org.jrdma.Rdma#getGmpMad(EndPort, org.jrdma.verbs.Context)})
     */
    public static IBPath sideB(Qp qp, IBPath local, Socket socket, int access) throws IOException {
        EndPort endPort = requireEndPort(local);
        if (!isInfiniBand(endPort)) {
            return sideB(qp, local, socket, access, null);
        }
        try (MadTransactor sa = openSa(endPort)) {
            return sideB(qp, local, socket, access, sa);
        }
    }

    /**
     * {@link #sideB(Qp, IBPath, Socket, int)} asking the SA on {@code sa}, which stays the
     * caller's; null where there is no SA to ask (RoCE).
     */
    public static IBPath sideB(Qp qp, IBPath local, Socket socket, int access, MadTransactor sa) throws IOException {
        EndPort endPort = requireEndPort(local);
        OutputStream out = socket.getOutputStream();
        InputStream in = socket.getInputStream();
        IBPath offer = receivePath(in, endPort);
        if (offer.dqpn().isEmpty()) {
            throw new ProtocolException("side A's path names no QP to connect to: " + offer);
        }
        IBPath path = answer(offer, local, qp::fillPath, sa);
        sendPath(out, path);
        qp.establish(path, access);
        expectRts(in);
        sendMessage(out, RTS);
        return path;
    }

    /**
     * What side A sends, from its filled path ({@link Qp#fillPath} of {@link #local}): the path
     * reversed, python-rdma's {@code path.reverse(for_reply=False)}, so that B reads it from its
     * own side.
     */
    public static IBPath offer(IBPath filled) {
        return filled.reverse(false);
    }

    /**
     * Side B's path, which it establishes and sends back: side A's {@code offer} (with B's end
     * port) from B's source address in {@code local}, filled by {@code fill} (the queue pair's
     * {@link Qp#fillPath}); then resolved through the SA on {@code sa} (reversible, as the
     * connection runs both ways), else, with no SA, with the smaller of both sides' MTUs and rates.
     *
     * @param sa where to ask the SA; null on RoCE
     * @throws org.jrdma.mad.SaPathNotFoundException if the SA has no path from B to A
     */
    public static IBPath answer(IBPath offer, IBPath local, UnaryOperator<IBPath> fill, MadTransactor sa) {
        EndPort endPort = requireEndPort(local);
        Gid sgid = local.sgid().orElseGet(() -> offer.hasGrh() ? endPort.defaultGid() : null);
        int slid = local.slid() != 0 ? local.slid() : endPort.lid();
        IBPath filled = fill.apply(offer.copy(b -> b.endPort(endPort).sgid(sgid).slid(slid)));
        if (sa != null) {
            return PathResolver.resolvePath(sa, filled, true);
        }
        Mtu mtu = offer.mtu().bytes() < filled.mtu().bytes() ? offer.mtu() : filled.mtu();
        StaticRate rate = offer.rate().mbps() < filled.rate().mbps() ? offer.rate() : filled.rate();
        return filled.copy(b -> b.mtu(mtu).rate(rate));
    }

    /**
     * Side A's path, which it establishes: side B's {@code answer} (with A's end port) reversed,
     * python-rdma's {@code path.reverse(for_reply=False)}; then resolved through the SA on
     * {@code sa} (reversible) for the direction from A to B, when there is one.
     *
     * @param sa where to ask the SA; null on RoCE
     * @throws org.jrdma.mad.SaPathNotFoundException if the SA has no path from A to B
     */
    public static IBPath accept(IBPath answer, MadTransactor sa) {
        IBPath path = answer.reverse(false);
        return sa == null ? path : PathResolver.resolvePath(sa, path, true);
    }

    /**
     * Side A's {@code path} before {@link Qp#fillPath}: on InfiniBand with no SLID, the end port's
     * base LID as SLID, which side B needs to reach A and the SA to find the path.
     */
    static IBPath local(IBPath path, EndPort endPort) {
        return path.slid() == 0 && isInfiniBand(endPort) ? path.copy(b -> b.slid(endPort.lid())) : path;
    }

    /** A transactor on {@code endPort}'s umad device, owning it, for the exchange's SA queries. */
    private static MadTransactor openSa(EndPort endPort) {
        if (endPort.umadPath().isEmpty()) {
            throw new IllegalStateException("InfiniBand end port " + endPort + " has no umad device to ask the SA on;"
                    + " give the exchange a transactor (Rdma.getGmpMad(endPort, context) opens one on a VMad queue pair)");
        }
        return MadTransactor.open(UmadTransport.open(endPort.deviceName(), endPort.portNumber()), endPort, SA_OUTSTANDING);
    }

    private static boolean isInfiniBand(EndPort endPort) {
        return endPort.linkLayer() == LinkLayer.INFINIBAND;
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

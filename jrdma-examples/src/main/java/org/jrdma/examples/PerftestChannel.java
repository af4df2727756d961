package org.jrdma.examples;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.jrdma.examples.PingpongExchange.ExchangeException;

/**
 * perftest's TCP side channel ({@code perftest_communication.c}, as perftest 6.06 uses it
 * without rdma_cm): every exchange is the client writing its part and then reading the
 * server's, the server reading and then writing. The parts, in order: the version (16 bytes of
 * NUL-padded text), the cycle buffer and the cache line size (4-byte big-endian integers each),
 * the MTU (2 bytes: its {@code enum ibv_mtu} number in decimal, NUL-terminated), then
 * {@linkplain #handshake handshakes} of {@link PerftestDest} messages, the
 * {@linkplain #exchange(BwReport) report}, and at last a handshake and {@code "done"}. With
 * {@code -R} the same parts travel as SENDs over an rdma_cm connection ({@link PerftestCmComm}),
 * the destinations as {@code struct pingpong_dest} in network byte order, and there is no
 * {@code "done"}.
 */
final class PerftestChannel implements AutoCloseable {
    /** The perftest version this side speaks, which decides the formats the other side uses. */
    static final String VERSION = "6.06";
    /** The oldest version whose formats this side reads: 8-byte iteration counts in reports. */
    static final double OLDEST_VERSION = 5.33;
    private static final int VERSION_SIZE = 16;
    private static final byte[] DONE = {'d', 'o', 'n', 'e', 0};

    private final Socket socket;
    private final PerftestCmComm comm;
    private final boolean client;
    private final InputStream in;
    private final OutputStream out;

    private PerftestChannel(Socket socket, boolean client) throws IOException {
        this.socket = socket;
        this.comm = null;
        this.client = client;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    private PerftestChannel(PerftestCmComm comm, boolean client) {
        this.socket = null;
        this.comm = comm;
        this.client = client;
        this.in = null;
        this.out = null;
    }

    /** The client's channel to {@code host:port} over rdma_cm ({@code -R}, {@link PerftestCmComm}). */
    static PerftestChannel connectCm(String host, int port) throws IOException {
        return new PerftestChannel(PerftestCmComm.connect(host, port), true);
    }

    /** The server's channel over rdma_cm, to the first client that connects to {@code port}. */
    static PerftestChannel acceptCm(int port) throws IOException {
        return new PerftestChannel(PerftestCmComm.accept(port), false);
    }

    /** The client's channel to {@code host:port}. */
    static PerftestChannel connect(String host, int port) throws ExchangeException, IOException {
        return new PerftestChannel(PingpongExchange.connect(host, port), true);
    }

    /** The server's channel, to the first client that connects to {@code port}. */
    static PerftestChannel accept(int port) throws ExchangeException, IOException {
        return new PerftestChannel(PingpongExchange.accept(port), false);
    }

    /** Sends {@code mine} and returns the other side's part of {@code size} bytes, in perftest's order. */
    byte[] exchange(byte[] mine, int size) throws IOException {
        if (client) {
            write(mine);
        }
        byte[] theirs = comm != null ? comm.read(size) : PingpongExchange.readFully(in, size, "Couldn't read remote data");
        if (!client) {
            write(mine);
        }
        return theirs;
    }

    private void write(byte[] mine) throws IOException {
        if (comm != null) {
            comm.write(mine);
        } else {
            out.write(mine);
        }
    }

    /** {@code exchange_versions}: returns the other side's version number. */
    double exchangeVersions() throws IOException {
        byte[] theirs = exchange(Arrays.copyOf(VERSION.getBytes(StandardCharsets.US_ASCII), VERSION_SIZE),
                VERSION_SIZE);
        String text = new String(theirs, StandardCharsets.US_ASCII).replaceAll("\0.*", "");
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            throw new IOException("not a perftest version: " + text);
        }
    }

    /** Exchanges a 4-byte big-endian integer ({@code check_sys_data}). */
    int exchange(int mine) throws IOException {
        return ByteBuffer.wrap(exchange(ByteBuffer.allocate(4).putInt(mine).array(), 4)).getInt();
    }

    /** {@code check_mtu}'s exchange: the {@code enum ibv_mtu} numbers as 2 bytes of text. */
    int exchangeMtu(int mine) throws IOException {
        byte[] theirs = exchange(new byte[] {(byte) ('0' + mine), 0}, 2);
        return Character.digit(theirs[0], 10);
    }

    /** {@code ctx_hand_shake}: exchanges {@link PerftestDest} messages, with GIDs or without. */
    PerftestDest handshake(PerftestDest mine) throws IOException {
        if (comm != null) {
            return PerftestDest.fromStruct(exchange(mine.toStruct(), PerftestCmComm.MESSAGE));
        }
        boolean withGid = mine.gid() != null;
        return PerftestDest.fromWire(exchange(mine.toWire(), PerftestDest.wireSize(withGid)), withGid);
    }

    /** {@code xchg_bw_reports}: size, iterations, peak, average and message rate, 8 big-endian bytes each. */
    BwReport exchange(BwReport mine) throws IOException {
        long size = exchange8(mine.size());
        long iters = exchange8(mine.iters());
        double peak = Double.longBitsToDouble(exchange8(Double.doubleToRawLongBits(mine.peak())));
        double average = Double.longBitsToDouble(exchange8(Double.doubleToRawLongBits(mine.average())));
        double msgRate = Double.longBitsToDouble(exchange8(Double.doubleToRawLongBits(mine.msgRate())));
        return new BwReport(size, iters, peak, average, msgRate);
    }

    private long exchange8(long mine) throws IOException {
        return ByteBuffer.wrap(exchange(ByteBuffer.allocate(8).putLong(mine).array(), 8)).getLong();
    }

    /**
     * {@code ctx_close_connection}: a last handshake, then {@code "done"}. Both sides write it;
     * this one also waits briefly for the other's, so that closing does not reset the connection
     * under a peer still writing.
     */
    void finish(PerftestDest mine) throws IOException {
        handshake(mine);
        if (comm != null) {
            return;
        }
        out.write(DONE);
        socket.setSoTimeout(5000);
        try {
            in.readNBytes(DONE.length);
        } catch (SocketTimeoutException e) {
            // the other side is gone without its "done": nothing is lost
        }
    }

    @Override
    public void close() throws IOException {
        if (comm != null) {
            comm.close();
            return;
        }
        socket.close();
    }
}

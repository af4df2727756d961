package org.jrdma.examples;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.function.Consumer;

/**
 * The TCP side channel of libibverbs' {@code rc_pingpong}, byte for byte: the client sends its
 * {@linkplain PingpongDest address}, the server connects its queue pair to it and answers with
 * its own, and the client confirms with {@code "done"} (5 bytes, the NUL included).
 */
final class PingpongExchange {
    private static final byte[] DONE = {'d', 'o', 'n', 'e', 0};

    private PingpongExchange() {
    }

    /** What went wrong on the side channel, in the words {@code ibv_rc_pingpong} uses. */
    static final class ExchangeException extends Exception {
        private static final long serialVersionUID = 1L;

        ExchangeException(String message) {
            super(message);
        }
    }

    /**
     * The client's half: connects to {@code host:port}, sends {@code mine}, returns the server's
     * address.
     */
    static PingpongDest client(String host, int port, PingpongDest mine) throws ExchangeException {
        try (Socket socket = connect(host, port)) {
            OutputStream out = socket.getOutputStream();
            out.write(mine.toWire());
            byte[] theirs = readFully(socket.getInputStream(), PingpongDest.WIRE_SIZE, "Couldn't read remote address");
            out.write(DONE);
            return PingpongDest.fromWire(theirs);
        } catch (IOException e) {
            throw new ExchangeException("Couldn't read/write remote address: " + e.getMessage());
        }
    }

    /**
     * The server's half: waits on {@code port} for one client, reads its address, lets
     * {@code connect} move the queue pair to RTS towards it (as the C server does before
     * answering), sends {@code mine} and waits for {@code "done"}.
     */
    static PingpongDest server(int port, PingpongDest mine, Consumer<PingpongDest> connect) throws ExchangeException {
        try (Socket socket = accept(port)) {
            PingpongDest theirs = PingpongDest.fromWire(
                    readFully(socket.getInputStream(), PingpongDest.WIRE_SIZE, "Couldn't read remote address"));
            connect.accept(theirs);
            socket.getOutputStream().write(mine.toWire());
            readFully(socket.getInputStream(), DONE.length, "Couldn't send/recv local address");
            return theirs;
        } catch (IOException e) {
            throw new ExchangeException("Couldn't send/recv local address: " + e.getMessage());
        }
    }

    /** A socket connected to the first address of {@code host} that answers on {@code port}. */
    static Socket connect(String host, int port) throws ExchangeException {
        try {
            for (InetAddress address : InetAddress.getAllByName(host)) {
                try {
                    return new Socket(address, port);
                } catch (IOException next) {
                    // try the next address, as the C tools walk getaddrinfo's list
                }
            }
        } catch (IOException e) {
            throw new ExchangeException(e.getMessage() + " for " + host + ":" + port);
        }
        throw new ExchangeException("Couldn't connect to " + host + ":" + port);
    }

    /** The first client to connect to {@code port} on every address (SO_REUSEADDR, backlog 1). */
    static Socket accept(int port) throws ExchangeException {
        try (ServerSocket listener = new ServerSocket()) {
            listener.setReuseAddress(true);
            listener.bind(new InetSocketAddress(port), 1);
            return listener.accept();
        } catch (IOException e) {
            throw new ExchangeException("Couldn't listen to port " + port + ": " + e.getMessage());
        }
    }

    /** Exactly {@code n} bytes from {@code in}. */
    static byte[] readFully(InputStream in, int n, String what) throws IOException {
        byte[] bytes = in.readNBytes(n);
        if (bytes.length != n) {
            throw new IOException(what + " (" + bytes.length + "/" + n + " bytes)");
        }
        return bytes;
    }
}

package org.jrdma.examples.cm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.jrdma.endpoint.RdmaEndpoint;
import org.jrdma.endpoint.ReceivedMessage;
import org.jrdma.endpoint.RegisteredBuffer;
import org.jrdma.endpoint.RemoteBuffer;
import org.jrdma.endpoint.SendBuffer;
import org.jrdma.examples.GetoptStyle;
import org.jrdma.examples.UsageException;
import picocli.CommandLine.Option;

/**
 * The client of {@link EchoServer}, on {@code org.jrdma.endpoint}: connects with
 * {@link RdmaEndpoint#connect}, takes the server's {@link RemoteBuffer} from its first message,
 * sends {@code -C} messages of {@code -S} bytes with the endpoint's futures ({@code send},
 * {@code receive}), or with {@code -z} with no copy in lent buffers (each message written into a
 * claimed send buffer, {@link RdmaEndpoint#claimSendBuffer()}, and its echo read where it arrived,
 * {@link RdmaEndpoint#receiveInPlace()}), and checks each echo, then RDMA-writes a line of text into the server's buffer,
 * RDMA-reads it back into a buffer of its own and checks it, and closes (the server sees the
 * disconnect and prints the text).
 *
 * <pre>
 * EchoClient -a address [-p port] [-C count] [-S size] [-z] [-v]
 * </pre>
 *
 * {@code -v} prints each echo ({@code echo data: ...}). The last line counts the checks; the exit
 * status is 0 when all passed, 1 otherwise, 2 for a bad command line.
 */
public final class EchoClient {
    /** The default rdma_cm port of the echo pair. */
    static final int PORT = 7175;
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String USAGE = "usage: EchoClient -a address [-p port] [-C count] [-S size] [-z] [-v]";

    private EchoClient() {
    }

    /** The command line (see the class comment), read as {@code getopt} reads it ({@link GetoptStyle}). */
    static final class Options {
        @Option(names = "-a", paramLabel = "address")
        String address;

        @Option(names = "-p", paramLabel = "port")
        int port = PORT;

        @Option(names = "-C", paramLabel = "count")
        int count = 10;

        @Option(names = "-S", paramLabel = "size")
        int size = 64;

        /** Messages in lent buffers, with no copy, rather than through futures. */
        @Option(names = "-z")
        boolean lent;

        @Option(names = "-v")
        boolean verbose;
    }

    /** Runs the client; see the class comment for the options. */
    public static void main(String[] args) {
        Options options = new Options();
        InetAddress address = null;
        try {
            GetoptStyle.parse(options, args, List.of());
            if (options.address == null || options.size < 1 || options.size > RdmaEndpoint.MAX_MESSAGE || options.count < 0) {
                throw new UsageException("give -a, a size of 1 to " + RdmaEndpoint.MAX_MESSAGE + " and a count of 0 or more");
            }
            address = InetAddress.getByName(options.address);
        } catch (UsageException | UnknownHostException e) {
            System.err.println("EchoClient: " + e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
        }
        System.exit(run(new InetSocketAddress(address, options.port), options.count, options.size, options.lent,
                options.verbose));
    }

    /** Connects, echoes, writes and reads; 0 when every check passed. */
    static int run(InetSocketAddress server, int count, int size, boolean lent, boolean verbose) {
        int checks = 0;
        int passed = 0;
        try (RdmaEndpoint endpoint = RdmaEndpoint.connect(server, WAIT); Arena arena = Arena.ofShared()) {
            System.out.println("connected to " + endpoint.remoteAddress());
            RemoteBuffer peer = RemoteBuffer.decode(endpoint.receive().join());
            System.out.printf("the server's buffer: address 0x%x, rkey 0x%x, %d bytes%n", peer.address(),
                    peer.rkey(), peer.length());
            for (int i = 0; i < count; i++) {
                byte[] sent = message(i, size);
                byte[] back = lent ? echoLent(endpoint, sent) : echo(endpoint, sent);
                checks++;
                if (Arrays.equals(sent, back)) {
                    passed++;
                } else {
                    System.out.println("FAIL echo " + i + ": sent " + text(sent) + ", got " + text(back));
                }
                if (verbose) {
                    System.out.println("echo data: " + text(back));
                }
            }
            System.out.println(passed + " of " + count + " messages echoed unchanged"
                    + (lent ? ", sent from and received in lent buffers" : ""));
            byte[] line = ("written by the EchoClient at " + endpoint.remoteAddress() + " with RDMA WRITE")
                    .getBytes(StandardCharsets.US_ASCII);
            try (RegisteredBuffer local = endpoint.register(arena.allocate(2L * line.length, 64))) {
                MemorySegment memory = local.memory();
                MemorySegment.copy(line, 0, memory, ValueLayout.JAVA_BYTE, 0, line.length);
                endpoint.write(local, 0, line.length, peer, 0).join();
                endpoint.read(local, line.length, line.length, peer, 0).join();
                checks++;
                boolean same = memory.asSlice(0, line.length).mismatch(memory.asSlice(line.length, line.length)) == -1;
                passed += same ? 1 : 0;
                System.out.printf("%s RDMA write of %d bytes into the server's buffer, RDMA read back: \"%s\"%n",
                        same ? "OK  " : "FAIL", line.length, text(memory.asSlice(line.length, line.length)
                                .toArray(ValueLayout.JAVA_BYTE)));
            }
        } catch (RuntimeException e) {
            System.out.println("EchoClient: " + e);
            return 1;
        }
        System.out.println("EchoClient: " + passed + " of " + checks + " checks passed");
        return passed == checks ? 0 : 1;
    }

    /** Sends {@code sent} and receives its echo through the endpoint's futures: copies on both sides. */
    private static byte[] echo(RdmaEndpoint endpoint, byte[] sent) {
        endpoint.send(ByteBuffer.wrap(sent)).join();
        ByteBuffer echo = endpoint.receive().join();
        byte[] back = new byte[echo.remaining()];
        echo.get(back);
        return back;
    }

    /**
     * Writes {@code sent} into a send buffer the endpoint lends, sends it from there, and reads its
     * echo where it arrived, in a receive buffer lent until released.
     */
    private static byte[] echoLent(RdmaEndpoint endpoint, byte[] sent) {
        try {
            SendBuffer out = endpoint.claimSendBuffer();
            MemorySegment.copy(sent, 0, out.memory(), ValueLayout.JAVA_BYTE, 0, sent.length);
            endpoint.send(out, sent.length);
            ReceivedMessage in = endpoint.receiveInPlace();
            try {
                return in.memory().asSlice(0, in.length()).toArray(ValueLayout.JAVA_BYTE);
            } finally {
                endpoint.release(in);
            }
        } catch (ClosedChannelException e) {
            throw new IllegalStateException("the connection ended", e);
        }
    }

    /** Message {@code i} of {@code size} bytes: {@code "echo-i: "} then letters, cut to the size. */
    private static byte[] message(int i, int size) {
        byte[] bytes = new byte[size];
        byte[] head = ("echo-" + i + ": ").getBytes(StandardCharsets.US_ASCII);
        for (int k = 0; k < size; k++) {
            bytes[k] = k < head.length ? head[k] : (byte) ('a' + (i + k) % 26);
        }
        return bytes;
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.US_ASCII);
    }
}

package org.jrdma.examples.cm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.cm.CmEventException;
import org.jrdma.endpoint.RdmaEndpoint;
import org.jrdma.endpoint.RdmaServer;
import org.jrdma.endpoint.RegisteredBuffer;
import org.jrdma.endpoint.RemoteBuffer;
import org.jrdma.examples.GetoptStyle;
import org.jrdma.examples.UsageException;
import picocli.CommandLine.Option;

/**
 * An echo server on {@code org.jrdma.endpoint}: listens with {@link RdmaServer} (rdma_cm, RC),
 * and serves each client on a virtual thread of its own. To a new client it first sends, as a
 * message, the {@link RemoteBuffer} (address, R_Key, length) of a {@value #REGION}-byte buffer it
 * registered for the client's RDMA WRITE and READ; then it echoes every message back, with the
 * endpoint's blocking form that allocates nothing per message; when the client disconnects it
 * prints how many messages it echoed and the text the client's RDMA WRITE left in the buffer.
 *
 * <pre>
 * EchoServer [-a address] [-p port] [-C connections]
 * </pre>
 *
 * {@code -a} the address to listen on (default any), {@code -p} the rdma_cm port (default
 * {@value EchoClient#PORT}), {@code -C} the number of clients to serve before exiting (default 0:
 * serve until killed). The exit status is 0 when every client was served to its disconnect, 1
 * otherwise, 2 for a bad command line.
 */
public final class EchoServer {
    /** The bytes of the buffer each client may RDMA-write and read. */
    static final int REGION = 4096;
    private static final Duration ACCEPT_WAIT = Duration.ofHours(1);
    private static final String USAGE = "usage: EchoServer [-a address] [-p port] [-C connections]";

    private EchoServer() {
    }

    /** The command line (see the class comment), read as {@code getopt} reads it ({@link GetoptStyle}). */
    static final class Options {
        @Option(names = "-a", paramLabel = "address")
        String address = "0.0.0.0";

        @Option(names = "-p", paramLabel = "port")
        int port = EchoClient.PORT;

        @Option(names = "-C", paramLabel = "connections")
        int connections;
    }

    /** Runs the server; see the class comment for the options. */
    public static void main(String[] args) throws InterruptedException {
        Options options = new Options();
        InetAddress address = null;
        try {
            GetoptStyle.parse(options, args, List.of());
            address = InetAddress.getByName(options.address);
        } catch (UsageException | UnknownHostException e) {
            System.err.println("EchoServer: " + e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
        }
        System.exit(serve(new InetSocketAddress(address, options.port), options.connections));
    }

    /** Accepts {@code connections} clients (0: any number) and serves each; 0 when all were served well. */
    static int serve(InetSocketAddress address, int connections) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        List<Boolean> results = new ArrayList<>();
        try (RdmaServer server = RdmaServer.listen(address)) {
            System.out.println("EchoServer listening on " + address);
            for (int n = 1; connections == 0 || n <= connections; n++) {
                RdmaEndpoint endpoint;
                try {
                    endpoint = server.accept(ACCEPT_WAIT);
                } catch (CmEventException e) { // none in an hour: wait on
                    if (e.event() == null) {
                        n--;
                        continue;
                    }
                    throw e;
                }
                int client = n;
                System.out.println("client " + client + " connected from " + endpoint.remoteAddress());
                threads.add(Thread.ofVirtual().name("echo " + client).start(() -> {
                    boolean ok = echo(endpoint, client);
                    synchronized (results) {
                        results.add(ok);
                    }
                }));
            }
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return results.contains(false) ? 1 : 0;
    }

    /** Hands the client its remote buffer, echoes its messages until it disconnects, and prints what it wrote. */
    private static boolean echo(RdmaEndpoint endpoint, int client) {
        try (endpoint; Arena arena = Arena.ofShared()) {
            RegisteredBuffer region = endpoint.register(arena.allocate(REGION, 64));
            MemorySegment message = arena.allocate(RdmaEndpoint.MAX_MESSAGE);
            int echoed = 0;
            try (region) {
                ByteBuffer announce = region.remote().encode(ByteBuffer.allocate(RemoteBuffer.BYTES)).flip();
                endpoint.send(MemorySegment.ofBuffer(announce));
                while (true) {
                    int length = endpoint.receive(message);
                    endpoint.send(message, length);
                    echoed++;
                }
            } catch (ClosedChannelException e) {
                System.out.printf("client %d disconnected: %d messages echoed; its RDMA write left \"%s\" in our buffer%n",
                        client, echoed, Rping.cString(region.memory()));
                return true;
            }
        } catch (RuntimeException e) {
            System.out.println("client " + client + ": " + e);
            return false;
        }
    }
}

package org.jrdma.tools.devices;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.Rdma;
import org.jrdma.RdmaException;
import org.jrdma.devices.EndPort;
import org.jrdma.iba.Gid;
import org.jrdma.path.IBPath;
import org.jrdma.tools.CmdError;
import org.jrdma.tools.ExitCodes;
import org.jrdma.tools.PackageCommand;
import org.jrdma.verbs.Access;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Cq;
import org.jrdma.verbs.Mr;
import org.jrdma.verbs.Pd;
import org.jrdma.verbs.Qp;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWr;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.Wc;
import org.jrdma.verbs.WrOpcode;
import org.jrdma.vtools.CqPoller;
import org.jrdma.vtools.NoCmExchange;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtool rdma_bw}: python-rdma's RDMA bandwidth test over an RC queue pair. Without SERVER
 * it waits for one client on a TCP port; with it, it connects there. Over that connection the
 * client sends the size and count of its writes, the two queue pairs are connected from paths
 * exchanged without a CM ({@link NoCmExchange}, resolved through the SA on InfiniBand), and each
 * side sends its memory region's address, rkey and length; then the client RDMA-writes its whole
 * region into the server's {@code --iters} times, at most {@code --tx-depth} writes in flight, and
 * prints the rate ({@code N.N MB/sec}, MB = 10^6 bytes); with {@code -b} the server writes back
 * as well. Both sides print the path to the peer, the peer's region and the amount, as
 * python-rdma's does. The side channel is jrdma's own (python-rdma pickles Python objects), so the
 * peer is another {@code ibtool rdma_bw}.
 *
 * <p>{@code --json} writes {@link Json} once the test ends, instead of the text; {@code --debug}'s
 * lines then go to standard error.
 */
@Command(name = "rdma_bw", mixinStandardHelpOptions = true,
        description = "Perform a RDMA bandwidth test over a RC QP (python-rdma): a server without SERVER, a client with it; "
                + "the connection information goes over a TCP connection.")
public final class RdmaBwCommand extends PackageCommand {
    private static final int ACCESS = Access.LOCAL_WRITE | Access.REMOTE_WRITE;
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int RETRY_CNT = 7;
    private static final int MIN_RNR_TIMER = 0x12;
    private static final int PACKET_LIFE_TIME = 16;
    private static final int READY = 'R';

    @Option(names = {"-C", "--Ca", "-d", "--ib-dev"}, paramLabel = "DEV", description = "RDMA device to use")
    String device;

    @Option(names = {"-P", "--Port", "-i", "--ib-port"}, paramLabel = "PORT", description = "end port of the device to use")
    String port;

    @Option(names = {"-p", "--port"}, paramLabel = "PORT", defaultValue = "4444", description = "listen on/connect to TCP port PORT (default ${DEFAULT-VALUE})")
    int tcpPort;

    @Option(names = {"-6", "--ipv6"}, description = "use IPv6")
    boolean ipv6;

    @Option(names = {"-b", "--bidirectional"}, description = "measure bidirectional bandwidth")
    boolean bidirectional;

    @Option(names = {"-s", "--size"}, paramLabel = "BYTES", defaultValue = "1048576", description = "exchange messages of size BYTES (client only)")
    int size;

    @Option(names = {"-e", "--num-sge"}, paramLabel = "NUM", defaultValue = "1", description = "number of SGEs to use")
    int numSge;

    @Option(names = {"-t", "--tx-depth"}, paramLabel = "N", defaultValue = "100", description = "writes in flight at once")
    int txDepth;

    @Option(names = {"-n", "--iters"}, paramLabel = "N", defaultValue = "1000", description = "number of exchanges (client only)")
    int iters;

    @Option(names = "--debug", description = "print the TCP addresses used")
    boolean debug;

    @Parameters(arity = "0..1", paramLabel = "SERVER", description = "the server's host; without it, be the server")
    String server;

    /** The rate the writes of this side reached, in MB (10^6 bytes) a second; null when this side wrote nothing. */
    private Double rate;

    /**
     * The JSON document.
     *
     * @param role               {@code server} (no SERVER argument) or {@code client}
     * @param path               the path to the peer, as the text prints it
     * @param local              this side's memory region
     * @param peer               the peer's memory region, as it sent it
     * @param iterations         the number of writes of the whole region
     * @param size               the region's size in bytes
     * @param bytes              iterations times size
     * @param megabytesPerSecond the rate of this side's writes (the client; the server too with
     *                           {@code -b}), absent on a side that wrote nothing
     */
    record Json(String role, String path, Region local, Region peer, int iterations, int size, long bytes, Double megabytesPerSecond) {
    }

    /** A memory region as the two sides exchange it: its address, rkey and length. */
    record Region(long addr, int rkey, long length) {
    }

    @Override
    protected int execute() throws IOException {
        if (size < 1 || numSge < 1 || numSge > size || txDepth < 1 || iters < 1 || tcpPort < 1 || tcpPort > 65535) {
            throw new CmdError("--size, --num-sge, --tx-depth and --iters must be positive (num-sge at most size), --port 1 to 65535");
        }
        EndPort endPort;
        try {
            endPort = Rdma.getEndPort(device == null ? port : port == null ? device : device + "/" + port);
        } catch (RdmaException | IllegalArgumentException e) {
            throw new CmdError(e.getMessage());
        }
        try (Socket socket = server == null ? accept() : connect()) {
            socket.setSoTimeout((int) WAIT.toMillis());
            DataInputStream in = new DataInputStream(socket.getInputStream());
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            if (server != null) {
                out.writeInt(size);
                out.writeInt(iters);
                out.flush();
            } else {
                size = in.readInt();
                iters = in.readInt();
                if (size < 1 || iters < 1) {
                    throw new CmdError("the client asked for " + iters + " writes of " + size + " bytes");
                }
            }
            try (Context ctx = Rdma.getVerbs(endPort); Arena arena = Arena.ofConfined()) {
                return run(ctx, endPort, socket, in, out, arena);
            }
        } catch (RdmaException e) {
            throw new CmdError(e);
        }
    }

    private int run(Context ctx, EndPort endPort, Socket socket, DataInputStream in, DataOutputStream out, Arena arena)
            throws IOException {
        Pd pd = ctx.pd();
        Cq cq = ctx.cq(2 * txDepth, ctx.compChannel());
        Qp qp = pd.qp(new QpInitAttr(QpType.RC, cq, cq).cap(new QpCap(txDepth, txDepth, numSge, 1, 0)));
        Mr mr = pd.mr(arena.allocate(size, 4096), ACCESS);
        Gid gid = endPort.gids().getFirst();
        int lid = ctx.queryPort(endPort.portNumber()).lid();
        IBPath path = server != null
                ? NoCmExchange.sideA(qp, IBPath.builder(endPort).hasGrh(true).sgid(gid).hopLimit(64).slid(lid).retries(RETRY_CNT)
                        .minRnrTimer(MIN_RNR_TIMER).packetLifeTime(PACKET_LIFE_TIME).build(), socket, ACCESS)
                : NoCmExchange.sideB(qp, IBPath.builder(endPort).sgid(gid).slid(lid).build(), socket, ACCESS);
        out.writeLong(mr.addr());
        out.writeInt(mr.rkey());
        out.writeLong(mr.length());
        out.flush();
        long peerAddr = in.readLong();
        int peerRkey = in.readInt();
        long peerLength = in.readLong();
        if (peerLength < size) {
            throw new CmdError("the peer's memory region has " + peerLength + " bytes, fewer than the " + size + " written");
        }
        if (!jsonRequested()) {
            out().printf("path to peer %s%nMR peer raddr=%x peer rkey=%x%n", path, peerAddr, peerRkey);
            out().printf("%d iterations of %d is %d bytes%n", iters, size, (long) iters * size);
            out().flush();
        }
        if (server != null) {
            out.write(READY);
            out.flush();
            in.readUnsignedByte();
            write(qp, new CqPoller(cq), mr, peerAddr, peerRkey);
            socket.shutdownOutput();
            in.read();
        } else {
            in.readUnsignedByte();
            out.write(READY);
            out.flush();
            if (bidirectional) {
                write(qp, new CqPoller(cq), mr, peerAddr, peerRkey);
            }
            socket.shutdownOutput();
            in.read();
        }
        if (jsonRequested()) {
            return jsonDocument(new Json(server == null ? "server" : "client", path.toString(), new Region(mr.addr(), mr.rkey(), mr.length()),
                    new Region(peerAddr, peerRkey, peerLength), iters, size, (long) iters * size, rate), ExitCodes.OK);
        }
        return ExitCodes.OK;
    }

    /** Writes the whole region into the peer's {@code iters} times, {@code txDepth} at a time, and prints the rate. */
    private void write(Qp qp, CqPoller poller, Mr mr, long peerAddr, int peerRkey) {
        List<Sge> sges = new ArrayList<>();
        long block = numSge > 1 ? size / numSge + 1 : size;
        for (long offset = 0; offset < size; offset += block) {
            sges.add(mr.sge(offset, Math.min(block, size - offset)));
        }
        SendWr wr = new SendWr().opcode(WrOpcode.RDMA_WRITE).sgList(sges.toArray(Sge[]::new)).rdma(peerAddr, peerRkey)
                .flags(SendFlags.SIGNALED);
        long start = System.nanoTime();
        int posted = 0;
        for (; posted < Math.min(txDepth, iters); posted++) {
            qp.postSend(wr);
        }
        int completed = 0;
        while (completed < iters) {
            boolean any = false;
            for (Wc wc : poller.iterwc(1, WAIT)) {
                wc.check();
                any = true;
            }
            if (!any) {
                throw new CmdError("CQ timed out");
            }
            completed++;
            if (posted < iters) {
                qp.postSend(wr);
                posted++;
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        rate = (double) size * iters / 1e6 / seconds;
        if (!jsonRequested()) {
            out().printf("%.1f MB/sec%n", rate);
            out().flush();
        }
    }

    private Socket accept() throws IOException {
        try (ServerSocket listener = new ServerSocket()) {
            listener.setReuseAddress(true);
            InetSocketAddress at = new InetSocketAddress(ipv6 ? InetAddress.getByName("::") : InetAddress.getByName("0.0.0.0"), tcpPort);
            listener.bind(at, 1);
            if (debug) {
                debugLine("Listening on " + at);
            }
            return listener.accept();
        }
    }

    private Socket connect() throws IOException {
        for (InetAddress address : InetAddress.getAllByName(server)) {
            if (ipv6 != (address instanceof Inet6Address)) {
                continue;
            }
            if (debug) {
                debugLine("Connecting to " + address.getHostAddress() + " " + tcpPort);
            }
            return new Socket(address, tcpPort);
        }
        throw new CmdError("no " + (ipv6 ? "IPv6" : "IPv4") + " address for " + server);
    }

    /** A {@code --debug} line: on standard output with the text, on standard error with {@code --json}. */
    private void debugLine(String line) {
        PrintWriter to = jsonRequested() ? err() : out();
        to.println(line);
        to.flush();
    }
}

package org.jrdma.examples;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.jrdma.Rdma;
import org.jrdma.RdmaException;
import org.jrdma.cm.CmEvent;
import org.jrdma.cm.CmEventType;
import org.jrdma.cm.ConnParam;
import org.jrdma.cm.EventChannel;
import org.jrdma.cm.PortSpace;
import org.jrdma.cm.RdmaCmId;
import org.jrdma.devices.EndPort;
import org.jrdma.examples.PingpongExchange.ExchangeException;
import org.jrdma.iba.Gid;
import org.jrdma.path.IBPath;
import org.jrdma.verbs.Access;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Cq;
import org.jrdma.verbs.Mr;
import org.jrdma.verbs.Pd;
import org.jrdma.verbs.Qp;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWr;
import org.jrdma.verbs.Wc;
import org.jrdma.verbs.WcOpcode;
import org.jrdma.verbs.WrOpcode;
import org.jrdma.vtools.BufferPool;
import org.jrdma.vtools.CqPoller;
import org.jrdma.vtools.NoCmExchange;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The libibverbs tutorial's whole RC flow ({@code ../shared/seeds/004_*}) between two processes,
 * in jrdma's python-rdma style API: a server ({@code RcFlow --server}) and a client
 * ({@code RcFlow HOST}).
 *
 * <ol>
 *   <li>a context for the end port ({@link Rdma#getVerbs}), 2. a protection domain, 3. a
 *       completion queue (with a completion channel, which {@link CqPoller} sleeps on), 4. an RC
 *       queue pair;</li>
 *   <li value="5">the local LID ({@code ibv_query_port}, the tutorial's {@code getLocalId}; 0 on
 *       RoCE) as the path's SLID, then exchange of QP numbers, PSNs, LIDs, GIDs and the rest of the
 *       path, and 6. RESET to INIT, RTR and RTS from that path: {@link NoCmExchange} over a TCP
 *       connection ({@code establish}), which on InfiniBand also resolves the path through the SA.
 *       The queue pair gets the tutorial's values: {@code retry_cnt} 7, {@code rnr_retry} 7,
 *       {@code min_rnr_timer} 0x12 and, from the path's packet lifetime ({@value #PACKET_LIFE_TIME})
 *       and the peer's ack delay, {@code timeout} 0x12 (see {@link #USAGE});</li>
 *   <li value="7">registration of the memory regions, after the connection as the tutorial
 *       allows: the region the peer may write, read and use atomically on (two halves of
 *       {@code --size} bytes and an 8-byte word), a local one, and a {@link BufferPool} for
 *       messages;</li>
 *   <li value="8">exchange of address, rkey and length over the same TCP connection
 *       ({@link RemoteRegion});</li>
 *   <li value="9">the data: the client RDMA-writes its pattern into the first half of the server's
 *       region and tells it with a SEND; the server checks its region (the client's pattern in the
 *       first half, its own untouched in the second) and answers with a SEND; the client
 *       RDMA-reads the whole of both halves back, does an atomic fetch-and-add on the server's
 *       word, a compare-and-swap that swaps and one that does not, each time checking the old
 *       value, and SENDs again; the server checks the word's final value and answers.</li>
 * </ol>
 *
 * <p>Each check prints {@code OK} or {@code FAIL} and what it compared; the last line counts
 * them, and the exit status is 0 when all passed, 1 otherwise (2 for a bad command line).
 */
public final class RcFlow {
    /** The remote operations allowed on the queue pair and the exposed region. */
    static final int ACCESS = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC;
    /** The server's 8-byte word before the atomics. */
    static final long INITIAL_WORD = 0x0123_4567_89ab_0000L;
    /** What the fetch-and-add adds. */
    static final long ADD = 42;
    /** What the compare-and-swap puts in. */
    static final long SWAP = 0x5eed_0000_0000_0001L;
    private static final byte CLIENT_SEED = 'C';
    private static final byte SERVER_SEED = 'S';
    private static final int MESSAGE_BYTES = 256;
    private static final int MESSAGE_BUFFERS = 4;
    private static final int RECEIVES = 2;
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** How long a server waits for its client's connect request (rdma_cm), as long as for its TCP connection. */
    private static final Duration ACCEPT_WAIT = Duration.ofHours(1);
    /**
     * How long each side waits for ESTABLISHED (rdma_cm): the CM's own retries end a connection
     * nobody answers sooner, and a server's JVM in an emulated VM may take this long to accept.
     */
    private static final Duration CONNECT_WAIT = Duration.ofMinutes(2);
    private static final String OK = "OK";
    /** The tutorial's {@code retry_cnt}: resends after an ack timeout. */
    static final int RETRY_CNT = 7;
    /** The tutorial's {@code min_rnr_timer}, 0x12: 0.96 ms. */
    static final int MIN_RNR_TIMER = 0x12;
    /**
     * The packet lifetime exponent that gives the tutorial's ack {@code timeout} of 0x12 (4.096 µs ×
     * 2^18, about 1.07 s): twice the lifetime, 2^17, plus the peer's ack delay (2^15 on rxe, at
     * most 2^17 on the HCAs we know) rounds up to 2^18. On InfiniBand the SA's packet lifetime
     * replaces it.
     */
    static final int PACKET_LIFE_TIME = 16;

    /** The command line's options and operands, with their defaults. */
    private static final class Options {
        @Option(names = "--server") boolean server;
        @Option(names = {"-R", "--rdma-cm"}) boolean rdmaCm;
        @Option(names = {"-p", "--port"}) long port = 18515;
        @Option(names = {"-d", "--ib-dev"}) String device;
        @Option(names = {"-i", "--ib-port"}) Long ibPort;
        @Option(names = {"-g", "--gid-idx"}) long gidIndex;
        @Option(names = {"-s", "--size"}) long size = 4096;
        @Parameters List<String> operands;
    }

    static final String USAGE = """
            Usage:
              RcFlow --server [options]   wait for a client, offer the memory it works on
              RcFlow [options] <host>     connect to the server at <host> and run the flow

            Options:
              -p, --port=<port>      TCP port of the exchange (default 18515)
              -d, --ib-dev=<dev>     RDMA device (default: the first active end port)
              -i, --ib-port=<port>   port of the device (default: its first active one)
              -g, --gid-idx=<index>  local GID index (default 0)
              -s, --size=<size>      bytes of the RDMA write and of each half read back (default 4096)
              -R, --rdma-cm          connect with rdma_cm instead of the no-CM exchange over TCP: the
                                     server listens on <port>, the client resolves <host> (an IP
                                     address of the server's RDMA interface), the queue pair is made
                                     by rdma_create_qp and the regions are exchanged in messages

            The queue pair uses the tutorial's retry_cnt 7, rnr_retry 7 and min_rnr_timer 0x12. Its ack
            timeout is computed from the path, as python-rdma does: 0x12 on RoCE (the path's packet
            lifetime 16 and the peer's ack delay); on InfiniBand the subnet administrator's packet
            lifetime for the path, which knows the fabric, replaces the tutorial's fixed value. The
            local LID (0 on RoCE) is queried and sent as the path's source LID.
            """;

    /**
     * The command line.
     *
     * @param host     the server to connect to, or null to be the server
     * @param port     TCP port
     * @param endPort  the end port selector ({@code dev}, {@code dev/port}), or null for the default
     * @param gidIndex the local GID's index
     * @param size     bytes written, and read back per half
     * @param rdmaCm   whether to connect with rdma_cm rather than the no-CM exchange over TCP
     */
    record Settings(String host, int port, String endPort, int gidIndex, int size, boolean rdmaCm) {
        static Settings parse(String[] args) throws UsageException {
            Options line = new Options();
            GetoptStyle.parse(line, args, List.of());
            List<String> operands = line.operands == null ? List.of() : line.operands;
            if (line.server == (operands.size() == 1) || operands.size() > 1) {
                throw new UsageException("give either --server or one server host, not " + operands);
            }
            if (line.port < 1 || line.port > 65535 || line.size < 1 || line.size > 1 << 30 || line.gidIndex < 0
                    || line.gidIndex > 255) {
                throw new UsageException("port must be 1 to 65535, size 1 to 2^30 and gid-idx 0 to 255");
            }
            if (line.device == null && line.ibPort != null) {
                throw new UsageException("--ib-port needs --ib-dev");
            }
            String endPort = line.device == null ? null
                    : line.ibPort != null ? line.device + "/" + line.ibPort : line.device;
            return new Settings(line.server ? null : operands.getFirst(), (int) line.port, endPort,
                    (int) line.gidIndex, (int) line.size, line.rdmaCm);
        }

        boolean isServer() {
            return host == null;
        }
    }

    private final Settings settings;
    private final EndPort endPort;
    private final Pd pd;
    private final Qp qp;
    private final CqPoller poller;
    private final Deque<byte[]> early = new ArrayDeque<>();
    private final String role;
    private BufferPool messages;
    private int checks;
    private int failures;

    /**
     * Steps 1 to 4: context, protection domain, completion queue, queue pair; with rdma_cm
     * ({@code id} not null) the context is the one librdmacm opened for the identifier and the
     * queue pair is made by {@code rdma_create_qp}.
     */
    private RcFlow(Settings settings, EndPort endPort, Context ctx, RdmaCmId id) {
        this.settings = settings;
        this.endPort = endPort;
        this.role = settings.isServer() ? "server" : "client";
        System.out.println("1. context: " + ctx.deviceName() + (id == null ? " for end port " + endPort
                : " port " + id.portNum() + ", opened by librdmacm"));
        this.pd = ctx.pd();
        System.out.println("2. protection domain");
        Cq cq = ctx.cq(16, ctx.compChannel());
        this.poller = new CqPoller(cq);
        System.out.println("3. completion queue of " + cq.cqe() + " entries, on a completion channel");
        QpInitAttr init = new QpInitAttr(QpType.RC, cq, cq).sqSigAll(true).cap(new QpCap(4, 4, 1, 1, 0));
        this.qp = id == null ? pd.qp(init) : id.createQp(pd, init);
        System.out.printf("4. RC queue pair 0x%06x%s%n", qp.qpNum(), id == null ? "" : " (rdma_create_qp)");
    }

    /** Runs the server or the client; exits 0 when every check passed. */
    public static void main(String[] args) {
        Settings settings;
        try {
            settings = Settings.parse(args);
        } catch (UsageException e) {
            System.out.println(e.getMessage());
            System.out.print(USAGE);
            System.exit(2);
            return;
        }
        System.exit(run(settings));
    }

    /** Runs one side; returns the exit status, printing what failed. */
    static int run(Settings settings) {
        if (settings.rdmaCm()) {
            return runCm(settings);
        }
        try {
            EndPort endPort = Rdma.getEndPort(settings.endPort());
            try (Context ctx = Rdma.getVerbs(endPort); Arena arena = Arena.ofConfined()) {
                return new RcFlow(settings, endPort, ctx, null).connectAndRun(arena);
            }
        } catch (IOException | ExchangeException | RdmaException | IllegalStateException | IllegalArgumentException e) {
            System.out.println("RcFlow: " + e);
            return 1;
        }
    }

    private int connectAndRun(Arena arena) throws IOException, ExchangeException {
        Gid gid = endPort.gids().get(settings.gidIndex());
        int lid = qp.pd().context().queryPort(endPort.portNumber()).lid();
        System.out.printf("5. local LID 0x%04x (getLocalId), GID %s%n", lid, gid);
        try (Socket socket = settings.isServer() ? PingpongExchange.accept(settings.port())
                : PingpongExchange.connect(settings.host(), settings.port())) {
            socket.setSoTimeout((int) WAIT.toMillis());
            IBPath path = settings.isServer()
                    ? NoCmExchange.sideB(qp, IBPath.builder(endPort).sgid(gid).slid(lid).build(), socket, ACCESS)
                    : NoCmExchange.sideA(qp, IBPath.builder(endPort).hasGrh(true).sgid(gid).hopLimit(64).slid(lid)
                            .retries(RETRY_CNT).minRnrTimer(MIN_RNR_TIMER).packetLifeTime(PACKET_LIFE_TIME).build(),
                            socket, ACCESS);
            System.out.println("5. exchanged paths over TCP (no CM): " + path);
            QpAttr attr = qp.query();
            System.out.printf("6. queue pair in %s towards QP 0x%06x: timeout 0x%x, retry_cnt %d, rnr_retry %d,"
                    + " min_rnr_timer 0x%x%n", attr.qpState(), path.dqpn().orElseThrow(), attr.timeout(),
                    attr.retryCnt(), attr.rnrRetry(), attr.minRnrTimer());
            return work(arena, own -> {
                own.write(new DataOutputStream(socket.getOutputStream()));
                return RemoteRegion.read(new DataInputStream(socket.getInputStream()));
            });
        }
    }

    /** How the two sides swap their regions (step 8): over the TCP connection, or in messages. */
    private interface RegionExchange {
        RemoteRegion swap(RemoteRegion own) throws IOException;
    }

    /**
     * The tutorial's RC flow over rdma_cm: the server listens and takes a connect request, the
     * client resolves the address and route; each makes steps 1 to 4 on the identifier's device,
     * posts its receives and connects or accepts; the regions then go over the connection as messages.
     */
    static int runCm(Settings settings) {
        try (EventChannel channel = EventChannel.create(); Arena arena = Arena.ofConfined()) {
            RdmaCmId id;
            if (settings.isServer()) {
                RdmaCmId listener = channel.createId(PortSpace.TCP);
                listener.bindAddr(new InetSocketAddress(settings.port()));
                listener.listen(1);
                System.out.println("rdma_cm: listening on port " + settings.port());
                CmEvent request = channel.expect(CmEventType.CONNECT_REQUEST, ACCEPT_WAIT);
                id = request.id();
                System.out.println("rdma_cm: connect request from " + id.peerAddress());
            } else {
                id = channel.createId(PortSpace.TCP);
                id.resolveAddr(null, new InetSocketAddress(InetAddress.getByName(settings.host()), settings.port()), WAIT);
                channel.expect(CmEventType.ADDR_RESOLVED, WAIT);
                id.resolveRoute(WAIT);
                channel.expect(CmEventType.ROUTE_RESOLVED, WAIT);
                System.out.println("rdma_cm: address and route of " + id.peerAddress() + " resolved");
            }
            RcFlow flow = new RcFlow(settings, null, id.context(), id);
            flow.messages = new BufferPool(flow.pd, MESSAGE_BUFFERS, MESSAGE_BYTES);
            flow.messages.postRecvs(flow.qp, RECEIVES);
            ConnParam param = new ConnParam().responderResources(1).initiatorDepth(1).retryCount(RETRY_CNT)
                    .rnrRetryCount(7);
            if (settings.isServer()) {
                id.accept(param);
            } else {
                id.connect(param);
            }
            channel.expect(CmEventType.ESTABLISHED, CONNECT_WAIT);
            QpAttr attr = flow.qp.query();
            System.out.println("5. connected with rdma_cm (ESTABLISHED), " + RECEIVES + " receives posted before");
            System.out.printf("6. queue pair in %s towards QP 0x%06x: timeout 0x%x, retry_cnt %d, rnr_retry %d,"
                    + " min_rnr_timer 0x%x%n", attr.qpState(), attr.destQpNum(), attr.timeout(), attr.retryCnt(),
                    attr.rnrRetry(), attr.minRnrTimer());
            return flow.work(arena, own -> {
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                own.write(new DataOutputStream(bytes));
                flow.send(bytes.toByteArray());
                return RemoteRegion.read(new DataInputStream(new ByteArrayInputStream(flow.receiveBytes())));
            });
        } catch (IOException | RdmaException | IllegalStateException | IllegalArgumentException e) {
            System.out.println("RcFlow: " + e);
            return 1;
        }
    }

    /** Steps 7 to 9 on the connected queue pair, the regions swapped by {@code exchange}. */
    private int work(Arena arena, RegionExchange exchange) throws IOException {
        try {
            Layout layout = new Layout(settings.size());
            Mr exposed = pd.mr(arena.allocate(layout.exposedBytes(), Pingpong.PAGE_SIZE), ACCESS);
            Mr local = pd.mr(arena.allocate(layout.exposedBytes() + Long.BYTES, Pingpong.PAGE_SIZE),
                    Access.LOCAL_WRITE);
            if (messages == null) {
                messages = new BufferPool(pd, MESSAGE_BUFFERS, MESSAGE_BYTES);
                messages.postRecvs(qp, RECEIVES);
            }
            layout.fill(exposed.memory(), 0, 2 * settings.size(), SERVER_SEED);
            exposed.memory().set(ValueLayout.JAVA_LONG, layout.wordOffset(), INITIAL_WORD);
            System.out.println("7. registered: exposed region " + RemoteRegion.of(exposed) + ", local region of "
                    + local.length() + " bytes, " + MESSAGE_BUFFERS + " message buffers; " + RECEIVES
                    + " receives posted");
            RemoteRegion peer = exchange.swap(RemoteRegion.of(exposed));
            System.out.println("8. peer's region: " + peer);
            System.out.println("9. data (" + role + "):");
            if (settings.isServer()) {
                serve(layout, exposed.memory());
            } else if (check(peer.holds(0, layout.exposedBytes()), "the server's region holds "
                    + layout.exposedBytes() + " bytes (give both sides the same --size)")) {
                drive(layout, peer, local);
            }
        } finally {
            if (messages != null) {
                messages.close();
            }
        }
        System.out.println("RcFlow " + role + ": " + (checks - failures) + " of " + checks + " checks passed");
        return failures == 0 ? 0 : 1;
    }

    /** The server's part of step 9: check what the client did, and tell it. */
    private void serve(Layout layout, MemorySegment exposed) {
        System.out.println("   recv: \"" + receive() + "\"");
        int written = layout.mismatch(exposed, 0, settings.size(), CLIENT_SEED);
        int own = layout.mismatch(exposed, settings.size(), settings.size(), SERVER_SEED);
        boolean ok = check(written < 0 && own < 0, "RDMA write: the first " + settings.size()
                + " bytes are the client's" + at(written) + ", the next " + settings.size() + " still ours" + at(own));
        send((ok ? OK : "MISMATCH") + ": the server's region after the RDMA write");
        System.out.println("   recv: \"" + receive() + "\"");
        long word = exposed.get(ValueLayout.JAVA_LONG, layout.wordOffset());
        ok = checkValue("the word after the atomics", SWAP, word);
        send((ok ? OK : "MISMATCH") + String.format(": the server's word is 0x%016x", word));
    }

    /** The client's part of step 9: RDMA write, send/recv, RDMA read, the atomics. */
    private void drive(Layout layout, RemoteRegion peer, Mr local) {
        MemorySegment memory = local.memory();
        int size = settings.size();
        layout.fill(memory, 0, size, CLIENT_SEED);
        post(new SendWr().opcode(WrOpcode.RDMA_WRITE).sge(local.sge(0, size)).rdma(peer.addr(), peer.rkey()),
                WcOpcode.RDMA_WRITE);
        System.out.printf("   RDMA write: %d bytes into the server's region at 0x%x%n", size, peer.addr());
        send("wrote " + size + " bytes at the start of your region");
        String answer = receive();
        check(answer.startsWith(OK), "the server's answer: \"" + answer + "\"");

        post(new SendWr().opcode(WrOpcode.RDMA_READ).sge(local.sge(0, 2L * size)).rdma(peer.addr(), peer.rkey()),
                WcOpcode.RDMA_READ);
        int written = layout.mismatch(memory, 0, size, CLIENT_SEED);
        int own = layout.mismatch(memory, size, size, SERVER_SEED);
        check(written < 0 && own < 0, "RDMA read of " + 2 * size + " bytes: the first half is what we wrote"
                + at(written) + ", the second the server's own" + at(own));

        long word = peer.addr() + layout.wordOffset();
        long result = layout.exposedBytes();
        AtomicResult old = new AtomicResult(local, result);
        post(old.atomic(WrOpcode.ATOMIC_FETCH_AND_ADD, word, peer.rkey(), ADD, 0), WcOpcode.FETCH_ADD);
        checkValue("atomic fetch-and-add of " + ADD + ": the old value", INITIAL_WORD, old.value());
        post(old.atomic(WrOpcode.ATOMIC_CMP_AND_SWP, word, peer.rkey(), INITIAL_WORD + ADD, SWAP), WcOpcode.COMP_SWAP);
        checkValue(String.format("atomic compare-and-swap 0x%x -> 0x%x (swaps): the old value", INITIAL_WORD + ADD,
                SWAP), INITIAL_WORD + ADD, old.value());
        post(old.atomic(WrOpcode.ATOMIC_CMP_AND_SWP, word, peer.rkey(), INITIAL_WORD, 0), WcOpcode.COMP_SWAP);
        checkValue(String.format("atomic compare-and-swap 0x%x -> 0 (does not swap): the old value", INITIAL_WORD),
                SWAP, old.value());
        send("atomics done");
        answer = receive();
        check(answer.startsWith(OK), "the server's answer: \"" + answer + "\"");
    }

    /** The 8 local bytes an atomic returns the remote word's old value into. */
    private record AtomicResult(Mr mr, long offset) {
        SendWr atomic(WrOpcode opcode, long remoteAddr, int rkey, long compareAdd, long swap) {
            mr.memory().set(ValueLayout.JAVA_LONG, offset, 0);
            return new SendWr().opcode(opcode).sge(mr.sge(offset, Long.BYTES)).atomic(remoteAddr, rkey, compareAdd,
                    swap);
        }

        long value() {
            return mr.memory().get(ValueLayout.JAVA_LONG, offset);
        }
    }

    /** Where the exposed region keeps what, for {@code size} bytes per half. */
    private record Layout(int size) {
        /** The word's offset: after both halves, 8-byte aligned as atomics need. */
        long wordOffset() {
            return (2L * size + Long.BYTES - 1) & -Long.BYTES;
        }

        long exposedBytes() {
            return wordOffset() + Long.BYTES;
        }

        /** The pattern of side {@code seed}: byte {@code i} is {@code seed + 7 i}. */
        void fill(MemorySegment memory, long offset, long length, byte seed) {
            for (long i = 0; i < length; i++) {
                memory.set(ValueLayout.JAVA_BYTE, offset + i, pattern(seed, i));
            }
        }

        /** The first index of {@code length} bytes at {@code offset} that is not {@code seed}'s pattern, or -1. */
        int mismatch(MemorySegment memory, long offset, int length, byte seed) {
            for (int i = 0; i < length; i++) {
                if (memory.get(ValueLayout.JAVA_BYTE, offset + i) != pattern(seed, i)) {
                    return i;
                }
            }
            return -1;
        }

        private static byte pattern(byte seed, long i) {
            return (byte) (seed + 7 * i);
        }
    }

    private static String at(int mismatch) {
        return mismatch < 0 ? "" : " (not at byte " + mismatch + ")";
    }

    /** Posts {@code wr} (signaled) and waits for its completion, which must be {@code opcode}. */
    private void post(SendWr wr, WcOpcode opcode) {
        qp.postSend(wr.wrId(BufferPool.NO_WR_ID).flags(SendFlags.SIGNALED));
        awaitSend(opcode);
    }

    /** Sends {@code text} from a message buffer and waits for its completion. */
    private void send(String text) {
        send(text.getBytes(StandardCharsets.US_ASCII));
        System.out.println("   send: \"" + text + "\"");
    }

    /** Sends {@code bytes} from a message buffer and waits for its completion. */
    private void send(byte[] bytes) {
        int buf = messages.pop();
        messages.copyTo(buf, 0, bytes);
        qp.postSend(messages.makeSendWr(buf, bytes.length, null));
        awaitSend(WcOpcode.SEND);
    }

    /** The text of the next message received. */
    private String receive() {
        return new String(receiveBytes(), StandardCharsets.US_ASCII);
    }

    /** The next message received, which may have arrived while a send was awaited. */
    private byte[] receiveBytes() {
        if (!early.isEmpty()) {
            return early.poll();
        }
        Wc wc = next();
        if (wc.opcode() != WcOpcode.RECV) {
            throw new IllegalStateException("expected a receive, got " + wc);
        }
        return message(wc);
    }

    /** Waits for the completion of the send-queue request of {@code opcode}, keeping receives that come first. */
    private void awaitSend(WcOpcode opcode) {
        for (Wc wc = next(); ; wc = next()) {
            if (wc.opcode() == WcOpcode.RECV) {
                early.add(message(wc));
            } else if (wc.opcode() == opcode) {
                messages.finishWc(qp, wc);
                return;
            } else {
                throw new IllegalStateException("expected a " + opcode + " completion, got " + wc);
            }
        }
    }

    /** The bytes of receive {@code wc}; its buffer goes back to the queue pair as a new receive. */
    private byte[] message(Wc wc) {
        byte[] bytes = messages.copyFrom(BufferPool.bufIdx(wc.wrId()), 0, wc.byteLen());
        messages.finishWc(qp, wc);
        return bytes;
    }

    /** The next completion, checked ({@link org.jrdma.verbs.WcException} for an error status). */
    private Wc next() {
        for (Wc wc : poller.iterwc(1, WAIT)) {
            wc.check();
            return wc;
        }
        throw new IllegalStateException("no completion within " + WAIT.toSeconds() + " s");
    }

    private boolean checkValue(String what, long expected, long actual) {
        return check(expected == actual, String.format("%s is 0x%016x (expected 0x%016x)", what, actual, expected));
    }

    private boolean check(boolean ok, String what) {
        checks++;
        if (!ok) {
            failures++;
        }
        System.out.println("   " + (ok ? "OK   " : "FAIL ") + what);
        return ok;
    }
}

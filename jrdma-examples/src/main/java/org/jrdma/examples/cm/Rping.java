package org.jrdma.examples.cm;

import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.SysException;
import org.jrdma.cm.CmEvent;
import org.jrdma.cm.ConnParam;
import org.jrdma.cm.EventChannel;
import org.jrdma.cm.PortSpace;
import org.jrdma.cm.RdmaCmId;
import org.jrdma.examples.GetoptStyle;
import org.jrdma.examples.UsageException;
import org.jrdma.tools.CNumbers;
import org.jrdma.verbs.Access;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Cq;
import org.jrdma.verbs.Mr;
import org.jrdma.verbs.Pd;
import org.jrdma.verbs.Qp;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.RecvWr;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWr;
import org.jrdma.verbs.WcBuffer;
import org.jrdma.verbs.WcOpcode;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WrOpcode;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * librdmacm's {@code rping} in Java over {@code org.jrdma.cm}: the same options, protocol, output
 * lines and exit statuses, so either side may be the C program.
 *
 * <p>An RC connection over rdma_cm ({@code RDMA_PS_TCP}, port 7174 by default); then, per ping,
 * the client SENDs an {@code rping_rdma_info} (big-endian address, R_Key and size of its source
 * buffer, filled with {@code "rdma-ping-N: "} and letters), the server RDMA-READs that buffer and
 * SENDs a go-ahead, the client SENDs the info of its sink buffer, the server RDMA-WRITEs the ping
 * data there and SENDs a go-ahead again; {@code -V} has the client compare source and sink, and
 * {@code -v} prints each ping's data ({@code ping data: ...}, on the server
 * {@code server ping data: ...}). With {@code -C 0} (the default) the client pings until killed; the
 * server serves one client ({@code -P}: any number, each on a thread of its own) and ends when it
 * disconnects. {@code -q} makes the queue pair with verbs and drives it through its states with
 * {@code rdma_init_qp_attr} and {@code rdma_establish} instead of {@code rdma_create_qp}.
 *
 * <p>Like C rping, one control block per connection and its state numbers in the messages; where
 * C has a thread for CM events and one for completions that post a semaphore, {@link Connection#await}
 * handles one completion or event at a time in the waiting thread and returns when C would post.
 * The {@code -d} lines print identifiers and buffers as their Java {@code toString} instead of C
 * pointers.
 */
public final class Rping {
    /** rping's {@code enum test_state}, numbered as C prints them. */
    static final int IDLE = 1;
    static final int CONNECT_REQUEST = 2;
    static final int ADDR_RESOLVED = 3;
    static final int ROUTE_RESOLVED = 4;
    static final int CONNECTED = 5;
    static final int RDMA_READ_ADV = 6;
    static final int RDMA_READ_COMPLETE = 7;
    static final int RDMA_WRITE_ADV = 8;
    static final int RDMA_WRITE_COMPLETE = 9;
    static final int DISCONNECTED = 10;
    static final int ERROR = 11;

    /** {@code RPING_BUFSIZE}: the largest size, exclusive, and the limit printed. */
    private static final int BUFSIZE = 64 * 1024;
    /** {@code RPING_MIN_BUFSIZE} as C computes it: {@code sizeof "INT_MAX" + sizeof "rdma-ping-%d: "}. */
    private static final int MIN_BUFSIZE = 23;
    private static final int SQ_DEPTH = 16;
    /** {@code sizeof(struct rping_rdma_info)}: buffer address, R_Key, size. */
    private static final int INFO = 16;
    private static final int EINVAL = 22;
    private static final int FAILED = 255;
    private static final Duration RESOLVE = Duration.ofMillis(2000);
    private static final Duration DISCONNECT_WAIT = Duration.ofSeconds(1);
    private static final ValueLayout.OfLong BE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfInt BE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final String USAGE = """
            rping -s [-vVd] [-S size] [-C count] [-a addr] [-p port]
            rping -c [-vVd] [-S size] [-C count] [-I addr] -a addr [-p port]
            \t-c\t\tclient side
            \t-I\t\tSource address to bind to for client.
            \t-s\t\tserver side.  To bind to any address with IPv6 use -a ::0
            \t-v\t\tdisplay ping data to stdout
            \t-V\t\tvalidate ping data
            \t-d\t\tdebug printfs
            \t-S size \tping data size
            \t-C count\tping count times
            \t-a addr\t\taddress
            \t-p port\t\tport
            \t-P\t\tpersistent server mode allowing multiple connections
            \t-q\t\tuse self-created, self-modified QP
            """;

    private static final PrintStream OUT = System.out;
    private static final PrintStream ERR = System.err;

    /**
     * The command line, with rping's defaults: picocli ({@link GetoptStyle}) calls the setters in
     * the order the options come, as C's {@code getopt} loop runs its cases, so that each prints
     * what C prints there ({@code -d}'s lines only after {@code -d}) and {@link #ret} ends as C's
     * {@code ret} does.
     */
    static final class Options {
        int server = -1;
        boolean persistent;
        int verbose;
        int validate;
        boolean debug;
        boolean selfCreateQp;
        InetAddress address;
        InetAddress source;
        int port = 7174;
        int count;
        int size = 64;
        /** C's {@code ret} after the options: the last address lookup's result, or {@code EINVAL} after a bad size or count. */
        int ret;

        /** The operands, which C's {@code getopt} skips (GNU's permutes them to the end) and rping ignores. */
        @Parameters(hidden = true)
        List<String> operands = new ArrayList<>();

        @Option(names = "-a")
        void address(String arg) {
            address = lookUp(arg, address);
        }

        @Option(names = "-I")
        void source(String arg) {
            source = lookUp(arg, source);
        }

        @Option(names = "-P")
        void persistent(boolean on) {
            persistent = true;
        }

        @Option(names = "-p")
        void port(String arg) {
            port = CNumbers.atoi(arg) & 0xffff;
            debug("port %d\n", CNumbers.atoi(arg));
        }

        @Option(names = "-s")
        void server(boolean on) {
            server = 1;
            debug("server\n");
        }

        @Option(names = "-c")
        void client(boolean on) {
            server = 0;
            debug("client\n");
        }

        @Option(names = "-S")
        void size(String arg) {
            size = CNumbers.atoi(arg);
            if (size < MIN_BUFSIZE || size > BUFSIZE - 1) {
                printf(ERR, "Invalid size %d (valid range is %d to %d)\n", size, MIN_BUFSIZE, BUFSIZE);
                ret = EINVAL;
            } else {
                debug("size %d\n", CNumbers.atoi(arg));
            }
        }

        @Option(names = "-C")
        void count(String arg) {
            count = CNumbers.atoi(arg);
            if (count < 0) {
                printf(ERR, "Invalid count %d\n", count);
                ret = EINVAL;
            } else {
                debug("count %d\n", count);
            }
        }

        @Option(names = "-v")
        void verbose(boolean on) {
            verbose++;
            debug("verbose\n");
        }

        @Option(names = "-V")
        void validate(boolean on) {
            validate++;
            debug("validate data\n");
        }

        @Option(names = "-d")
        void debug(boolean on) {
            debug = true;
        }

        @Option(names = "-q")
        void selfCreateQp(boolean on) {
            selfCreateQp = true;
        }

        /** {@code -t}: in C's option string with an argument, but no case of its switch, so C prints the usage. */
        @Option(names = "-t")
        void unhandled(String arg) throws UsageException {
            throw new UsageException("-t");
        }

        /** C's {@code get_addr}: {@code name} resolved, its failure printed and kept in {@link #ret}; {@code previous} when it fails. */
        private InetAddress lookUp(String name, InetAddress previous) {
            try {
                InetAddress resolved = InetAddress.getByName(name);
                ret = 0;
                return resolved;
            } catch (UnknownHostException e) {
                OUT.println("getaddrinfo failed (Name or service not known) - invalid hostname or IP address");
                ret = -2;
                return previous;
            }
        }

        void debug(String format, Object... args) {
            if (debug) {
                OUT.print(String.format(format, args));
            }
        }
    }

    private Rping() {
    }

    /** Runs rping; the exit status is C rping's. */
    public static void main(String[] args) {
        OUT.flush();
        int status = run(args);
        OUT.flush();
        System.exit(status & 0xff);
    }

    /** Parses {@code args} as rping's {@code getopt} loop does, then runs the server or the client; C's {@code main}'s return value. */
    static int run(String[] args) {
        Options options = new Options();
        try {
            GetoptStyle.parseUpToUnknown(options, args);
        } catch (UsageException e) {
            OUT.print(USAGE);
            return EINVAL;
        }
        int ret = options.ret;
        if (ret != 0) {
            return ret;
        }
        if (options.server == -1) {
            OUT.print(USAGE);
            return EINVAL;
        }
        if (options.address == null) {
            options.address = InetAddress.ofLiteral("0.0.0.0");
        }
        try (EventChannel channel = EventChannel.create()) {
            RdmaCmId id = channel.createId(PortSpace.TCP);
            options.debug("created cm_id %s\n", id);
            if (options.server == 1) {
                ret = options.persistent ? runPersistentServer(options, channel, id) : runServer(options, channel, id);
            } else {
                ret = new Connection(options, channel, false).runClient(id);
            }
            options.debug("destroy cm_id %s\n", id);
        }
        return ret;
    }

    private static int bindServer(Options options, RdmaCmId listener) {
        try {
            listener.bindAddr(new InetSocketAddress(options.address, options.port));
        } catch (SysException e) {
            perror("rdma_bind_addr", e);
            return -1;
        }
        options.debug("rdma_bind_addr successful\n");
        options.debug("rdma_listen\n");
        try {
            listener.listen(3);
        } catch (SysException e) {
            perror("rdma_listen", e);
            return -1;
        }
        return 0;
    }

    private static int runServer(Options options, EventChannel channel, RdmaCmId listener) {
        int ret = bindServer(options, listener);
        if (ret != 0) {
            return ret;
        }
        Connection cb = new Connection(options, channel, true);
        cb.listener = listener;
        cb.await();
        if (cb.state != CONNECT_REQUEST) {
            printf(ERR, "wait for CONNECT_REQUEST state %d\n", cb.state);
            return -1;
        }
        return cb.serve(cb.child);
    }

    /** {@code -P}: each connect request gets a connection of its own, its identifier migrated to its own channel, served on a thread. */
    private static int runPersistentServer(Options options, EventChannel channel, RdmaCmId listener) {
        int ret = bindServer(options, listener);
        if (ret != 0) {
            return ret;
        }
        Connection listening = new Connection(options, channel, true);
        listening.listener = listener;
        while (true) {
            listening.await();
            if (listening.state != CONNECT_REQUEST) {
                printf(ERR, "wait for CONNECT_REQUEST state %d\n", listening.state);
                return -1;
            }
            RdmaCmId child = listening.child;
            listening.child = null;
            EventChannel own = EventChannel.create();
            child.migrate(own);
            Connection cb = new Connection(options, own, true);
            cb.listener = listener;
            cb.state = CONNECT_REQUEST;
            Thread.ofPlatform().name("rping " + child).start(() -> {
                try (own) {
                    cb.serve(child);
                }
            });
        }
    }

    /**
     * C's {@code printf}/{@code fprintf}: the whole line formatted first and written with one
     * call, so that lines of standard output and error (and of {@code -P}'s threads) sent to one
     * file never break into each other.
     */
    static void printf(PrintStream stream, String format, Object... args) {
        stream.print(String.format(format, args));
    }

    /** C's {@code perror(call)}: the call and {@code strerror(errno)} on standard error. */
    static void perror(String call, SysException e) {
        ERR.println(call + ": " + e.strerror());
    }

    /**
     * One connection's control block ({@code struct rping_cb}): its identifier's event channel,
     * protection domain, completion queue, queue pair, the four registered buffers, and the state
     * the completions and events move.
     */
    private static final class Connection {
        private final Options options;
        private final EventChannel channel;
        private final boolean server;
        private final WcBuffer wcs = new WcBuffer(1);
        private final List<AutoCloseable> resources = new ArrayList<>();
        private final Arena arena = Arena.ofShared();
        private RdmaCmId listener;
        private RdmaCmId child;
        private int state = IDLE;
        private Cq cq;
        private Qp qp;
        private Mr recvMr;
        private Mr sendMr;
        private Mr rdmaMr;
        private Mr startMr;
        private boolean cqDone;
        private int remoteRkey;
        private long remoteAddr;
        private int remoteLen;

        Connection(Options options, EventChannel channel, boolean server) {
            this.options = options;
            this.channel = channel;
            this.server = server;
        }

        /**
         * C's {@code sem_wait(&cb->sem)}: handles completions and CM events one at a time, as
         * rping's CQ and CM threads would, until one of them would post the semaphore.
         */
        void await() {
            long idleSince = System.nanoTime();
            while (true) {
                if (cq != null && !cqDone && cq.poll(wcs) == 1) {
                    if (completion()) {
                        return;
                    }
                    idleSince = System.nanoTime();
                    continue;
                }
                boolean busy = System.nanoTime() - idleSince < 10_000_000;
                CmEvent event = channel.getEvent(busy ? Duration.ZERO : Duration.ofMillis(1));
                if (event != null) {
                    if (event(event)) {
                        return;
                    }
                    idleSince = System.nanoTime();
                } else if (busy) {
                    Thread.onSpinWait();
                }
            }
        }

        /** {@code rping_cma_event_handler}: whether it posts the semaphore. Failures end the process, as in C. */
        private boolean event(CmEvent event) {
            options.debug("cma_event type %s cma_id %s (%s)\n", event.type().text(), event.id(),
                    event.id() == listener ? "parent" : "child");
            switch (event.type()) {
                case ADDR_RESOLVED -> {
                    state = ADDR_RESOLVED;
                    try {
                        event.id().resolveRoute(RESOLVE);
                        return false;
                    } catch (SysException e) {
                        state = ERROR;
                        perror("rdma_resolve_route", e);
                        return true;
                    }
                }
                case ROUTE_RESOLVED -> state = ROUTE_RESOLVED;
                case CONNECT_REQUEST -> {
                    if (child != null) {
                        return false;
                    }
                    state = CONNECT_REQUEST;
                    child = event.id();
                    options.debug("child cma %s\n", child);
                }
                case CONNECT_RESPONSE -> {
                    options.debug("CONNECT_RESPONSE\n");
                    state = CONNECTED;
                }
                case ESTABLISHED -> {
                    options.debug("ESTABLISHED\n");
                    if (!server) {
                        state = CONNECTED;
                    }
                }
                case ADDR_ERROR, ROUTE_ERROR, CONNECT_ERROR, UNREACHABLE, REJECTED -> {
                    printf(ERR, "cma event %s, error %d\n", event.type().text(), event.status());
                    exit();
                }
                case DISCONNECTED -> {
                    printf(ERR, "%s DISCONNECT EVENT...\n", server ? "server" : "client");
                    state = DISCONNECTED;
                }
                case DEVICE_REMOVAL -> {
                    ERR.println("cma detected device removal!!!!");
                    exit();
                }
                default -> {
                    printf(ERR, "unhandled event: %s, ignoring\n", event.type().text());
                    return false;
                }
            }
            return true;
        }

        /** C's {@code exit(-1)} in the CM thread after an error event. */
        private static void exit() {
            OUT.flush();
            System.exit(FAILED);
        }

        /**
         * {@code rping_cq_event_handler} for the completion in {@link #wcs}: whether it posts the
         * semaphore. A flushed request or an error ends the handling of completions, as it ends
         * C's CQ thread.
         */
        private boolean completion() {
            WcStatus status = wcs.status(0);
            if (status != WcStatus.SUCCESS) {
                cqDone = true;
                if (status == WcStatus.WR_FLUSH_ERR) {
                    return false;
                }
                printf(ERR, "cq completion failed status %d\n", status.value());
                state = ERROR;
                return true;
            }
            WcOpcode opcode = wcs.opcode(0);
            switch (opcode) {
                case SEND -> {
                    options.debug("send completion\n");
                    return false;
                }
                case RDMA_WRITE -> {
                    options.debug("rdma write completion\n");
                    state = RDMA_WRITE_COMPLETE;
                }
                case RDMA_READ -> {
                    options.debug("rdma read completion\n");
                    state = RDMA_READ_COMPLETE;
                }
                case RECV -> {
                    options.debug("recv completion\n");
                    if (wcs.byteLen(0) != INFO) {
                        printf(ERR, "Received bogus data, size %d\n", wcs.byteLen(0));
                        printf(ERR, "recv wc error: %d\n", -1);
                        cqDone = true;
                        state = ERROR;
                        return true;
                    }
                    if (server) {
                        MemorySegment info = recvMr.memory();
                        remoteRkey = info.get(BE_INT, 8);
                        remoteAddr = info.get(BE_LONG, 0);
                        remoteLen = info.get(BE_INT, 12);
                        options.debug("Received rkey %x addr %x len %d from peer\n", remoteRkey, remoteAddr, remoteLen);
                        state = state <= CONNECTED || state == RDMA_WRITE_COMPLETE ? RDMA_READ_ADV : RDMA_WRITE_ADV;
                    } else {
                        state = state == RDMA_READ_ADV ? RDMA_WRITE_ADV : RDMA_WRITE_COMPLETE;
                    }
                    postRecv();
                }
                default -> {
                    options.debug("unknown!!!!! completion\n");
                    cqDone = true;
                    state = ERROR;
                }
            }
            return true;
        }

        /** {@code rping_setup_qp} and {@code rping_setup_buffers} for {@code id}: PD, CQ, QP, the registered buffers. */
        private void setup(RdmaCmId id) {
            Context ctx = id.context();
            Pd pd = ctx.pd();
            resources.add(pd);
            options.debug("created pd %s\n", pd);
            cq = ctx.cq(SQ_DEPTH * 2);
            resources.add(cq);
            options.debug("created cq %s\n", cq);
            QpInitAttr init = new QpInitAttr(QpType.RC, cq, cq).cap(new QpCap(SQ_DEPTH, 2, 1, 1, 0));
            if (options.selfCreateQp) {
                qp = pd.qp(init);
                resources.add(qp);
                qp.modify(new QpAttr().qpState(QpState.INIT).pkeyIndex(0).portNum(id.portNum()).qpAccessFlags(0));
            } else {
                qp = id.createQp(pd, init);
            }
            options.debug("created qp %s\n", qp);
            recvMr = pd.mr(arena.allocate(INFO, 8), Access.LOCAL_WRITE);
            sendMr = pd.mr(arena.allocate(INFO, 8), 0);
            rdmaMr = pd.mr(arena.allocate(options.size, 8), Access.LOCAL_WRITE | Access.REMOTE_READ | Access.REMOTE_WRITE);
            if (!server) {
                startMr = pd.mr(arena.allocate(options.size, 8),
                        Access.LOCAL_WRITE | Access.REMOTE_READ | Access.REMOTE_WRITE);
            }
            options.debug("allocated & registered buffers...\n");
            postRecv();
        }

        private void postRecv() {
            qp.postRecv(new RecvWr().sge(recvMr.sge(0, INFO)));
        }

        private void postSend() {
            qp.postSend(new SendWr().opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED).sge(sendMr.sge(0, INFO)));
        }

        private void postRdma(WrOpcode opcode, int length) {
            qp.postSend(new SendWr().opcode(opcode).flags(SendFlags.SIGNALED).sge(rdmaMr.sge(0, length))
                    .rdma(remoteAddr, remoteRkey));
        }

        /** {@code rping_init_conn_param}. */
        private ConnParam connParam() {
            ConnParam param = new ConnParam().responderResources(1).initiatorDepth(1).retryCount(7).rnrRetryCount(7);
            return options.selfCreateQp ? param.qpNum(qp.qpNum()) : param;
        }

        /** {@code rping_self_modify_qp}: INIT, RTR and RTS with {@code rdma_init_qp_attr}'s attributes. */
        private void selfModify(RdmaCmId id) {
            id.modifyQp(qp, QpState.INIT);
            id.modifyQp(qp, QpState.RTR);
            id.modifyQp(qp, QpState.RTS);
        }

        /** {@code rping_disconnect}: with {@code -q} the queue pair to ERROR first. */
        private void disconnect(RdmaCmId id) {
            if (options.selfCreateQp) {
                qp.modify(new QpAttr().qpState(QpState.ERR));
            }
            id.disconnect();
        }

        /** The server's part after a connect request for {@code id}: accept, serve pings, disconnect, free. */
        int serve(RdmaCmId id) {
            try {
                setup(id);
                options.debug("accepting client connection request\n");
                try {
                    if (options.selfCreateQp) {
                        selfModify(id);
                        id.accept(connParam());
                    } else {
                        id.accept(null);
                    }
                } catch (SysException e) {
                    perror("rdma_accept", e);
                    printf(ERR, "connect error %d\n", -1);
                    return -1;
                }
                await();
                if (state == ERROR) {
                    printf(ERR, "wait for CONNECTED state %d\n", state);
                    printf(ERR, "connect error %d\n", -1);
                    return -1;
                }
                int ret = testServer();
                if (ret != 0) {
                    printf(ERR, "rping server failed: %d\n", ret);
                }
                disconnect(id);
                return ret;
            } finally {
                free();
                id.close();
            }
        }

        /** {@code rping_test_server}: per ping, RDMA READ the source, go ahead, RDMA WRITE the sink, go ahead. */
        private int testServer() {
            while (true) {
                await();
                if (state != RDMA_READ_ADV) {
                    printf(ERR, "wait for RDMA_READ_ADV state %d\n", state);
                    break;
                }
                options.debug("server received sink adv\n");
                postRdma(WrOpcode.RDMA_READ, remoteLen);
                options.debug("server posted rdma read req \n");
                await();
                if (state != RDMA_READ_COMPLETE) {
                    printf(ERR, "wait for RDMA_READ_COMPLETE state %d\n", state);
                    break;
                }
                options.debug("server received read complete\n");
                if (options.verbose > 0) {
                    printf(OUT, "server ping data: %s\n", cString(rdmaMr.memory()));
                }
                postSend();
                options.debug("server posted go ahead\n");
                await();
                if (state != RDMA_WRITE_ADV) {
                    printf(ERR, "wait for RDMA_WRITE_ADV state %d\n", state);
                    break;
                }
                options.debug("server received sink adv\n");
                int length = cString(rdmaMr.memory()).length() + 1;
                options.debug("rdma write from lkey %x laddr %x len %d\n", rdmaMr.lkey(), rdmaMr.addr(), length);
                postRdma(WrOpcode.RDMA_WRITE, length);
                await();
                if (state != RDMA_WRITE_COMPLETE) {
                    printf(ERR, "wait for RDMA_WRITE_COMPLETE state %d\n", state);
                    break;
                }
                options.debug("server rdma write complete \n");
                postSend();
                options.debug("server posted go ahead\n");
            }
            return state == DISCONNECTED ? 0 : -1;
        }

        /** {@code rping_run_client}: resolve, set up, connect, ping, disconnect. */
        int runClient(RdmaCmId id) {
            try {
                try {
                    id.resolveAddr(options.source == null ? null : new InetSocketAddress(options.source, 0),
                            new InetSocketAddress(options.address, options.port), RESOLVE);
                } catch (SysException e) {
                    perror("rdma_resolve_addr", e);
                    return -1;
                }
                await();
                if (state != ROUTE_RESOLVED) {
                    printf(ERR, "waiting for addr/route resolution state %d\n", state);
                    return -1;
                }
                options.debug("rdma_resolve_addr - rdma_resolve_route successful\n");
                setup(id);
                try {
                    id.connect(connParam());
                } catch (SysException e) {
                    perror("rdma_connect", e);
                    printf(ERR, "connect error %d\n", -1);
                    return -1;
                }
                await();
                if (state != CONNECTED) {
                    printf(ERR, "wait for CONNECTED state %d\n", state);
                    printf(ERR, "connect error %d\n", -1);
                    return -1;
                }
                if (options.selfCreateQp) {
                    selfModify(id);
                    id.establish();
                }
                options.debug("rdma_connect successful\n");
                int ret = testClient();
                if (ret != 0) {
                    printf(ERR, "rping client failed: %d\n", ret);
                }
                disconnect(id);
                awaitDisconnected();
                return ret;
            } finally {
                free();
            }
        }

        /** After the client's disconnect: C's CM thread prints the DREP's DISCONNECTED while the client tears down. */
        private void awaitDisconnected() {
            long deadline = System.nanoTime() + DISCONNECT_WAIT.toNanos();
            while (state != DISCONNECTED && System.nanoTime() < deadline) {
                CmEvent event = channel.getEvent(Duration.ofMillis(10));
                if (event != null) {
                    event(event);
                }
            }
        }

        /** {@code rping_test_client}. */
        private int testClient() {
            MemorySegment start = startMr.memory();
            MemorySegment sink = rdmaMr.memory();
            int first = 'A';
            for (int ping = 0; options.count == 0 || ping < options.count; ping++) {
                state = RDMA_READ_ADV;
                fill(start, ping, first);
                first = first == 'z' ? 'A' : first + 1;
                format(startMr);
                postSend();
                await();
                if (state != RDMA_WRITE_ADV) {
                    printf(ERR, "wait for RDMA_WRITE_ADV state %d\n", state);
                    return -1;
                }
                format(rdmaMr);
                postSend();
                await();
                if (state != RDMA_WRITE_COMPLETE) {
                    printf(ERR, "wait for RDMA_WRITE_COMPLETE state %d\n", state);
                    return -1;
                }
                if (options.validate > 0 && start.mismatch(sink) != -1) {
                    ERR.println("data mismatch!");
                    return -1;
                }
                if (options.verbose > 0) {
                    printf(OUT, "ping data: %s\n", cString(sink));
                }
            }
            return 0;
        }

        /** {@code rping_format_send}: the {@code rping_rdma_info} of {@code mr}'s buffer into the send buffer. */
        private void format(Mr mr) {
            MemorySegment info = sendMr.memory();
            info.set(BE_LONG, 0, mr.addr());
            info.set(BE_INT, 8, mr.rkey());
            info.set(BE_INT, 12, options.size);
            options.debug("RDMA addr %x rkey %x len %d\n", mr.addr(), mr.rkey(), options.size);
        }

        private void free() {
            for (AutoCloseable resource : resources.reversed()) {
                try {
                    resource.close();
                } catch (Exception e) {
                    ERR.println("rping: " + e);
                }
            }
            resources.clear();
            arena.close();
        }
    }

    /**
     * rping's ping data: {@code "rdma-ping-N: "}, then letters from {@code first}, 'A' after 'z'
     * (and the punctuation between), the last byte NUL.
     */
    static void fill(MemorySegment buffer, int ping, int first) {
        byte[] text = ("rdma-ping-" + ping + ": ").getBytes(StandardCharsets.US_ASCII);
        int size = (int) buffer.byteSize();
        int c = first;
        for (int i = 0; i < size; i++) {
            if (i < text.length) {
                buffer.set(ValueLayout.JAVA_BYTE, i, text[i]);
            } else {
                buffer.set(ValueLayout.JAVA_BYTE, i, (byte) c);
                c = c == 'z' ? 'A' : c + 1;
            }
        }
        buffer.set(ValueLayout.JAVA_BYTE, size - 1, (byte) 0);
    }

    /** The NUL-terminated string at the start of {@code buffer} (the whole buffer if it has no NUL). */
    static String cString(MemorySegment buffer) {
        long n = 0;
        while (n < buffer.byteSize() && buffer.get(ValueLayout.JAVA_BYTE, n) != 0) {
            n++;
        }
        return new String(buffer.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.ISO_8859_1);
    }
}

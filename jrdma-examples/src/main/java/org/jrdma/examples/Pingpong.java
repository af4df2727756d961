package org.jrdma.examples;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import org.jrdma.SysException;
import org.jrdma.examples.PingpongExchange.ExchangeException;
import org.jrdma.iba.Gid;
import org.jrdma.verbs.Access;
import org.jrdma.verbs.CompChannel;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Cq;
import org.jrdma.verbs.CqEx;
import org.jrdma.verbs.Mr;
import org.jrdma.verbs.Pd;
import org.jrdma.verbs.PortAttr;
import org.jrdma.verbs.PreparedRecv;
import org.jrdma.verbs.PreparedSend;
import org.jrdma.verbs.Qp;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpEx;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.RecvWr;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendOps;
import org.jrdma.verbs.SendWr;
import org.jrdma.verbs.Verbs;
import org.jrdma.verbs.VerbsDevice;
import org.jrdma.verbs.WcBuffer;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WrException;
import org.jrdma.verbs.WrOpcode;

/**
 * What libibverbs' ping-pong examples share, whatever the transport: one buffer registered for
 * local access, a CQ of {@code rx-depth + 1} (on a completion channel with {@code -e}), a queue
 * pair with one send and {@code rx-depth} receives, the TCP exchange of {@code LID:QPN:PSN:GID}
 * ({@link PingpongExchange}), the SEND/RECV loop of their {@code main} and its two result lines.
 * A subclass creates the queue pair's transport and says how it is connected to the peer:
 * {@link RcPingpong} ({@code ibv_rc_pingpong}) and {@link UdPingpong} ({@code ibv_ud_pingpong}).
 *
 * <p>Each side keeps {@code rx-depth} receives posted on the one buffer; the client sends
 * first, and a side sends again once its previous send and the peer's next message have both
 * completed. One thread does everything, so the device is opened confined to it
 * ({@link Verbs#openConfined}); the send and the receive are each prepared once
 * ({@link PreparedSend}, {@link PreparedRecv}) and then posted with one downcall apiece, as the C
 * tools post a request built on their stack. With {@code -N} each send is built instead through
 * {@code ibv_wr_*} on an extended queue pair ({@link QpEx}), and with {@code --cq-ex} the
 * completions are read in place through {@code ibv_start_poll}/{@code ibv_next_poll} on an
 * extended CQ ({@link CqEx}), as the benchmark's {@code xpingpong.c} does in C; neither
 * allocates. A message is the {@code size} bytes after the first
 * {@link #grhBytes} of the buffer, which a UD receive fills with the GRH. The page size is taken
 * as 4096.
 */
abstract sealed class Pingpong permits RcPingpong, UdPingpong {
    static final int RECV_WRID = 1;
    static final int SEND_WRID = 2;
    static final int PAGE_SIZE = 4096;
    private static final Duration NO_TIMEOUT = Duration.ofMillis(Integer.MAX_VALUE);
    /**
     * Exchanges per call of {@link #exchange} in the warm-up: called that often, the loop is
     * compiled as a method, entered from its start by the timed call, and not only on-stack.
     */
    private static final int WARMUP_CHUNK = 10;

    /** Makes one side of a ping-pong on an open device. */
    @FunctionalInterface
    interface Factory {
        Pingpong create(PingpongSettings settings, Context ctx, Arena arena) throws PingpongException;
    }

    /** Reads a tool's command line. */
    @FunctionalInterface
    interface Parser {
        PingpongSettings parse(String[] args) throws UsageException;
    }

    final PingpongSettings settings;
    final Context ctx;
    final Qp qp;
    final SendWr sendWr;
    final int myPsn;
    private final int grhBytes;
    private final CompChannel channel;
    private final Cq cq;
    /** The CQ as an extended one, polled in place ({@code --cq-ex}), or null. */
    private final CqEx cqEx;
    /** The queue pair as an extended one, sends built through {@code ibv_wr_*} ({@code -N}), or null. */
    private final QpEx qpEx;
    private final int sendLkey;
    private final long sendAddr;
    private final MemorySegment buf;
    /** The messages each way: the warm-up's and those of every timed run. */
    private final int total;
    private final WcBuffer wcs = new WcBuffer(2);
    /** The one receive, posted {@code rx-depth} times and again as they complete. */
    private final PreparedRecv recv;
    /** {@link #sendWr} prepared, once the queue pair is connected. */
    private PreparedSend send;
    private int routs;
    private int rcnt;
    private int scnt;
    private int pending;
    private long ops;

    /**
     * {@code pp_init_ctx} up to the queue pair in RESET: a buffer of {@code grhBytes + size}
     * bytes filled with 0x7b, its MR, the CQ, a {@code type} queue pair, and the send and
     * receive requests (the send inline when the queue pair allows that many bytes).
     */
    Pingpong(PingpongSettings settings, Context ctx, Arena arena, QpType type, int grhBytes) {
        this.settings = settings;
        this.ctx = ctx;
        this.grhBytes = grhBytes;
        this.total = settings.warmup() + settings.runs() * settings.iters();
        this.buf = arena.allocate(grhBytes + settings.size(), PAGE_SIZE).fill((byte) 0x7b);
        this.channel = settings.events() ? ctx.compChannel() : null;
        Pd pd = ctx.pd();
        Mr mr = pd.mr(buf, Access.LOCAL_WRITE);
        this.cqEx = settings.cqEx() ? ctx.cqEx(settings.rxDepth() + 1, channel, 0, 0) : null;
        this.cq = cqEx != null ? cqEx.cq() : ctx.cq(settings.rxDepth() + 1, channel);
        QpInitAttr init = new QpInitAttr(type, cq, cq).cap(new QpCap(1, settings.rxDepth(), 1, 1, 0));
        this.qpEx = settings.newSend() ? pd.qpEx(init, SendOps.SEND) : null;
        this.qp = qpEx != null ? qpEx.qp() : pd.qp(init);
        this.sendLkey = mr.lkey();
        this.sendAddr = mr.addr() + grhBytes;
        int flags = SendFlags.SIGNALED;
        if (qpEx == null && qp.cap().maxInlineData() >= settings.size()) {
            flags |= SendFlags.INLINE;
        }
        this.recv = qp.prepareRecv(new RecvWr().wrId(RECV_WRID).sge(mr.sge()));
        this.sendWr = new SendWr().wrId(SEND_WRID).opcode(WrOpcode.SEND).sge(mr.sge(grhBytes, settings.size()))
                .flags(flags);
        this.myPsn = new SecureRandom().nextInt() & 0xffffff;
    }

    /** Moves the queue pair towards {@code dest}: {@code pp_connect_ctx}. */
    abstract void connect(PingpongDest dest);

    /** What the tool prints after {@code "  local address:  "}. */
    String describeLocal(PingpongDest mine) {
        return mine.describe();
    }

    /** A tool's {@code main}: reads {@code args} with {@code parser}, runs, exits 0 on success and 1 on failure. */
    static void main(String[] args, Parser parser, String usage, Factory factory) {
        PingpongSettings settings;
        try {
            settings = parser.parse(args);
        } catch (UsageException e) {
            System.out.println(e.getMessage());
            System.out.print(usage);
            System.exit(1);
            return;
        }
        System.exit(run(settings, factory));
    }

    /** Runs one side; returns the exit status, printing what failed on standard error. */
    static int run(PingpongSettings settings, Factory factory) {
        try {
            List<VerbsDevice> devices = Verbs.devices();
            String device = settings.device() != null ? settings.device()
                    : devices.isEmpty() ? null : devices.getFirst().name();
            if (device == null) {
                System.err.println("No IB devices found");
                return 1;
            }
            if (devices.stream().noneMatch(d -> d.name().equals(device))) {
                System.err.println("IB device " + device + " not found");
                return 1;
            }
            try (Arena arena = Arena.ofConfined(); Context ctx = Verbs.openConfined(device)) {
                return factory.create(settings, ctx, arena).pingpong();
            }
        } catch (ExchangeException | PingpongException | IOException e) {
            System.err.println(e.getMessage());
            return 1;
        } catch (RuntimeException e) {
            System.err.println(e);
            return 1;
        }
    }

    private int pingpong() throws ExchangeException, PingpongException, IOException {
        routs = postRecvs(settings.rxDepth());
        if (routs < settings.rxDepth()) {
            throw new PingpongException("Couldn't post receive (" + routs + ")");
        }
        if (channel != null) {
            cq.reqNotify(false);
        }
        PortAttr port = ctx.queryPort(settings.ibPort());
        if (port.linkLayer() != PortAttr.LINK_LAYER_ETHERNET && port.lid() == 0) {
            throw new PingpongException("Couldn't get local LID");
        }
        Gid gid = settings.gidIndex() >= 0 ? ctx.queryGid(settings.ibPort(), settings.gidIndex()) : new Gid(0, 0);
        PingpongDest mine = new PingpongDest(port.lid(), qp.qpNum(), myPsn, gid);
        System.out.println("  local address:  " + describeLocal(mine));
        PingpongDest remote = settings.isClient()
                ? PingpongExchange.client(settings.server(), settings.port(), mine)
                : PingpongExchange.server(settings.port(), mine, this::connect);
        System.out.println("  remote address: " + remote.describe());
        if (settings.isClient()) {
            connect(remote);
            if (settings.check()) {
                for (int i = 0; i < settings.size(); i += PAGE_SIZE) {
                    buf.set(ValueLayout.JAVA_BYTE, grhBytes + i, (byte) 0);
                }
            }
        }
        begin();
        warmUp();
        long allocated = timedRuns();
        if (settings.alloc()) {
            System.out.println(AllocationMeter.report(allocated, ops));
        }
        if (!settings.isClient() && settings.check()) {
            for (int i = 0; i < settings.size(); i += PAGE_SIZE) {
                if (buf.get(ValueLayout.JAVA_BYTE, grhBytes + i) != 0) {
                    System.out.println("invalid data in page " + i / PAGE_SIZE);
                }
            }
        }
        return 0;
    }

    /** The untimed exchanges, {@link #WARMUP_CHUNK} per call of {@link #exchange}. */
    private void warmUp() throws PingpongException {
        for (int done = 0; done < settings.warmup(); ) {
            done = Math.min(settings.warmup(), done + WARMUP_CHUNK);
            exchange(done);
        }
    }

    /**
     * The timed runs, each started by its {@link RunGate} and printing the C tools' two result
     * lines; returns the bytes they allocated, counting their work requests and completions in
     * {@link #ops}. A method of its own, entered once the warm-up is over, so that nothing the
     * JIT made of the warm-up's caller has to be undone inside a timed run.
     */
    private long timedRuns() throws PingpongException, IOException {
        AllocationMeter meter = new AllocationMeter();
        RunGate gate = new RunGate(settings.runs());
        long allocated = 0;
        ops = 0;
        for (int run = 1; run <= gate.runs(); run++) {
            gate.await(run);
            meter.start();
            long start = System.nanoTime();
            exchange(settings.warmup() + run * settings.iters());
            long end = System.nanoTime();
            allocated += meter.stop();
            report(end - start);
        }
        return allocated;
    }

    /**
     * Starts the exchanges: prepares the send as the subclass left it, awaits the receive, and
     * on the client sends the first message.
     */
    private void begin() throws PingpongException {
        send = qpEx == null ? qp.prepareSend(sendWr) : null;
        pending = RECV_WRID;
        if (settings.isClient()) {
            postSend();
            pending |= SEND_WRID;
        }
    }

    /**
     * The ping-pong's main loop, until {@code until} messages went each way (of {@link #total}).
     * The warm-up and the timed exchanges run this same code, so the JIT compiles the timed loop
     * as the warm-up used it. Allocates nothing.
     */
    private void exchange(int until) throws PingpongException {
        while (rcnt < until || scnt < until) {
            if (channel != null) {
                awaitEvent();
            }
            if (cqEx != null) {
                pollEx();
                continue;
            }
            int ne;
            do {
                ne = cq.poll(wcs);
            } while (channel == null && ne < 1);
            ops += ne;
            for (int i = 0; i < ne; i++) {
                completed(wcs.wrId(i), wcs.isSuccess(i) ? WcStatus.SUCCESS : wcs.status(i));
            }
        }
    }

    /**
     * One poll of the extended CQ: waits for a completion (unless on events), then handles it and
     * at most one more, read in place ({@code ibv_start_poll}, {@code ibv_next_poll},
     * {@code ibv_end_poll}), as {@code rc_pingpong --ts} takes them. The bound matters: the
     * provider frees a completion's slot only when the poll ends, and a ping-pong keeps producing
     * completions while it handles them, so a poll that went on while {@code ibv_next_poll} found
     * more filled the queue (see {@link CqEx}).
     */
    private void pollEx() throws PingpongException {
        boolean found;
        do {
            found = cqEx.startPoll();
        } while (channel == null && !found);
        if (!found) {
            return;
        }
        try {
            int taken = 0;
            do {
                ops++;
                completed(cqEx.wrId(), cqEx.status());
            } while (++taken < wcs.capacity() && cqEx.nextPoll());
        } finally {
            if (cqEx.polling()) {
                cqEx.endPoll();
            }
        }
    }

    private void awaitEvent() throws PingpongException {
        Cq signalled;
        do {
            signalled = channel.getEvent(NO_TIMEOUT);
        } while (signalled == null);
        if (signalled != cq) {
            throw new PingpongException("CQ event for unknown CQ " + signalled);
        }
        cq.reqNotify(false);
    }

    /** The handling of a completion, {@code wr_id} and status, in the C tools' loop. */
    private void completed(long id, WcStatus status) throws PingpongException {
        if (status != WcStatus.SUCCESS) {
            throw new PingpongException("Failed status " + status.text() + " (" + status.value()
                    + ") for wr_id " + id);
        }
        int wrId = (int) id;
        switch (wrId) {
            case SEND_WRID -> scnt++;
            case RECV_WRID -> {
                if (--routs <= 1) {
                    routs += postRecvs(settings.rxDepth() - routs);
                    if (routs < settings.rxDepth()) {
                        throw new PingpongException("Couldn't post receive (" + routs + ")");
                    }
                }
                rcnt++;
            }
            default -> throw new PingpongException("Completion for unknown wr_id " + wrId);
        }
        pending &= ~wrId;
        if (scnt < total && pending == 0) {
            postSend();
            pending = RECV_WRID | SEND_WRID;
        }
    }

    /** Posts up to {@code n} receives one by one, as {@code pp_post_recv}; returns how many went. */
    private int postRecvs(int n) {
        int i = 0;
        try {
            for (; i < n; i++) {
                recv.post();
                ops++;
            }
        } catch (WrException e) {
            // as pp_post_recv: stop at the first failure and report how many were posted
        }
        return i;
    }

    private void postSend() throws PingpongException {
        try {
            if (qpEx != null) {
                qpEx.postSend(SEND_WRID, SendFlags.SIGNALED, sendLkey, sendAddr, settings.size());
                ops++;
                return;
            }
            send.post();
            ops++;
        } catch (SysException e) {
            throw new PingpongException("Couldn't post send: " + e.getMessage());
        }
    }

    /** The two lines the C tools end with; times in single precision, as C's {@code float usec}. */
    private void report(long nanos) {
        float usec = nanos / 1000f;
        long bytes = (long) settings.size() * settings.iters() * 2;
        System.out.println(bytes + " bytes in " + CFormat.fixed(usec / 1000000.0, 2) + " seconds = "
                + CFormat.fixed(bytes * 8.0 / usec, 2) + " Mbit/sec");
        System.out.println(settings.iters() + " iters in " + CFormat.fixed(usec / 1000000.0, 2) + " seconds = "
                + CFormat.fixed(usec / settings.iters(), 2) + " usec/iter");
    }

    /** A failure of the ping-pong, in the C tools' words. */
    static final class PingpongException extends Exception {
        private static final long serialVersionUID = 1L;

        PingpongException(String message) {
            super(message);
        }
    }
}

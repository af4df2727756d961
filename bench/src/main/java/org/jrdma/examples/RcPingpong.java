package org.jrdma.examples;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import org.jrdma.WrException;
import org.jrdma.examples.CommandLine.UsageException;
import org.jrdma.examples.PingpongExchange.ExchangeException;
import org.jrdma.iba.Gid;
import org.jrdma.verbs.Access;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.CompChannel;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Cq;
import org.jrdma.verbs.Mr;
import org.jrdma.verbs.Pd;
import org.jrdma.verbs.PortAttr;
import org.jrdma.verbs.Qp;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.RecvWr;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWr;
import org.jrdma.verbs.Verbs;
import org.jrdma.verbs.VerbsDevice;
import org.jrdma.verbs.WcBuffer;
import org.jrdma.verbs.WrOpcode;

/**
 * libibverbs' {@code ibv_rc_pingpong} in Java: the same options, the same TCP exchange of
 * {@code LID:QPN:PSN:GID} ({@link PingpongExchange}), the same RC SEND/RECV ping-pong and the
 * same two result lines, so a Java side talks to a C side either way round.
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED -cp ... org.jrdma.examples.RcPingpong -d rxe0 -g 0          # server
 * java --enable-native-access=ALL-UNNAMED -cp ... org.jrdma.examples.RcPingpong -d rxe0 -g 0 10.0.0.1 # client
 * </pre>
 *
 * <p>Each side keeps {@code rx-depth} receives posted on one buffer; the client sends first, and
 * a side sends again once its previous send and the peer's next message have both completed.
 * Not supported: on-demand paging, completion timestamps, device memory and the new send API
 * ({@code -o -O -P -t -j -N}); the page size is taken as 4096.
 */
public final class RcPingpong {
    private static final int RECV_WRID = 1;
    private static final int SEND_WRID = 2;
    private static final int PAGE_SIZE = 4096;
    private static final Duration NO_TIMEOUT = Duration.ofMillis(Integer.MAX_VALUE);
    /**
     * Exchanges per call of {@link #exchange} in the warm-up: called that often, the loop is
     * compiled as a method, entered from its start by the timed call, and not only on-stack.
     */
    private static final int WARMUP_CHUNK = 10;

    private final PingpongSettings settings;
    private final Context ctx;
    private final CompChannel channel;
    private final Cq cq;
    private final Qp qp;
    private final MemorySegment buf;
    private final int myPsn;
    /** The messages each way: the warm-up's and the timed ones. */
    private final int total;
    private final WcBuffer wcs = new WcBuffer(2);
    private final RecvWr recvWr;
    private final SendWr sendWr;
    private int routs;
    private int rcnt;
    private int scnt;
    private int pending;
    private long ops;

    private RcPingpong(PingpongSettings settings, Context ctx, Arena arena) {
        this.settings = settings;
        this.ctx = ctx;
        this.total = settings.warmup() + settings.iters();
        this.buf = arena.allocate(settings.size(), PAGE_SIZE).fill((byte) 0x7b);
        this.channel = settings.events() ? ctx.compChannel() : null;
        Pd pd = ctx.pd();
        Mr mr = pd.mr(buf, Access.LOCAL_WRITE);
        this.cq = ctx.cq(settings.rxDepth() + 1, channel);
        this.qp = pd.qp(new QpInitAttr(QpType.RC, cq, cq).cap(new QpCap(1, settings.rxDepth(), 1, 1, 0)));
        int flags = SendFlags.SIGNALED;
        if (qp.cap().maxInlineData() >= settings.size()) {
            flags |= SendFlags.INLINE;
        }
        this.recvWr = new RecvWr().wrId(RECV_WRID).sge(mr.sge());
        this.sendWr = new SendWr().wrId(SEND_WRID).opcode(WrOpcode.SEND).sge(mr.sge()).flags(flags);
        this.myPsn = new SecureRandom().nextInt() & 0xffffff;
        qp.modify(new QpAttr().qpState(QpState.INIT).pkeyIndex(0).portNum(settings.ibPort()).qpAccessFlags(0));
    }

    /** Runs {@code ibv_rc_pingpong} with {@code args}; exits 0 on success, 1 on failure. */
    public static void main(String[] args) {
        PingpongSettings settings;
        try {
            settings = PingpongSettings.parse(args);
        } catch (UsageException e) {
            System.out.println(e.getMessage());
            System.out.print(PingpongSettings.USAGE);
            System.exit(1);
            return;
        }
        System.exit(run(settings));
    }

    /** Runs one side; returns the exit status, printing what failed on standard error. */
    static int run(PingpongSettings settings) {
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
            try (Arena arena = Arena.ofConfined(); Context ctx = Verbs.open(device)) {
                return new RcPingpong(settings, ctx, arena).pingpong();
            }
        } catch (ExchangeException | PingpongException e) {
            System.err.println(e.getMessage());
            return 1;
        } catch (RuntimeException e) {
            System.err.println(e);
            return 1;
        }
    }

    private int pingpong() throws ExchangeException, PingpongException {
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
        System.out.println("  local address:  " + mine.describe());
        PingpongDest remote = settings.isClient()
                ? PingpongExchange.client(settings.server(), settings.port(), mine)
                : PingpongExchange.server(settings.port(), mine, this::connect);
        System.out.println("  remote address: " + remote.describe());
        if (settings.isClient()) {
            connect(remote);
            if (settings.check()) {
                for (int i = 0; i < settings.size(); i += PAGE_SIZE) {
                    buf.set(ValueLayout.JAVA_BYTE, i, (byte) 0);
                }
            }
        }
        begin();
        for (int done = 0; done < settings.warmup(); ) {
            done = Math.min(settings.warmup(), done + WARMUP_CHUNK);
            exchange(done);
        }
        AllocationMeter meter = new AllocationMeter();
        long start = System.nanoTime();
        meter.start();
        ops = 0;
        exchange(total);
        long allocated = meter.stop();
        long end = System.nanoTime();
        report(end - start);
        if (settings.alloc()) {
            System.out.println(AllocationMeter.report(allocated, ops));
        }
        if (!settings.isClient() && settings.check()) {
            for (int i = 0; i < settings.size(); i += PAGE_SIZE) {
                if (buf.get(ValueLayout.JAVA_BYTE, i) != 0) {
                    System.out.println("invalid data in page " + i / PAGE_SIZE);
                }
            }
        }
        return 0;
    }

    /** {@code pp_connect_ctx}: RTR then RTS towards {@code dest}, with rc_pingpong's attributes. */
    private void connect(PingpongDest dest) {
        AhAttr ah = new AhAttr().dlid(dest.lid()).sl(settings.sl()).srcPathBits(0).portNum(settings.ibPort());
        try {
            if (dest.gid().interfaceId() != 0) {
                ah.grh(dest.gid(), settings.gidIndex(), 1);
            }
            qp.modify(new QpAttr().qpState(QpState.RTR).ahAttr(ah).pathMtu(settings.mtu()).destQpNum(dest.qpn())
                    .rqPsn(dest.psn()).maxDestRdAtomic(1).minRnrTimer(12));
        } catch (RuntimeException e) {
            throw new IllegalStateException("Failed to modify QP to RTR: " + e.getMessage(), e);
        }
        try {
            qp.modify(new QpAttr().qpState(QpState.RTS).timeout(14).retryCnt(7).rnrRetry(7).sqPsn(myPsn)
                    .maxRdAtomic(1));
        } catch (RuntimeException e) {
            throw new IllegalStateException("Failed to modify QP to RTS: " + e.getMessage(), e);
        }
    }

    /** Starts the exchanges: the receive is awaited, and the client sends the first message. */
    private void begin() throws PingpongException {
        pending = RECV_WRID;
        if (settings.isClient()) {
            postSend();
            pending |= SEND_WRID;
        }
    }

    /**
     * rc_pingpong's main loop, until {@code until} messages went each way (of {@link #total}).
     * The warm-up and the timed exchanges run this same code, so the JIT compiles the timed loop
     * as the warm-up used it. Allocates nothing.
     */
    private void exchange(int until) throws PingpongException {
        while (rcnt < until || scnt < until) {
            if (channel != null) {
                awaitEvent();
            }
            int ne;
            do {
                ne = cq.poll(wcs);
            } while (channel == null && ne < 1);
            ops += ne;
            for (int i = 0; i < ne; i++) {
                completed(i);
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

    /** {@code parse_single_wc} for completion {@code i} of {@link #wcs}. */
    private void completed(int i) throws PingpongException {
        if (!wcs.isSuccess(i)) {
            throw new PingpongException("Failed status " + wcs.status(i).text() + " (" + wcs.status(i).value()
                    + ") for wr_id " + wcs.wrId(i));
        }
        int wrId = (int) wcs.wrId(i);
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
                qp.postRecv(recvWr);
                ops++;
            }
        } catch (WrException e) {
            // as pp_post_recv: stop at the first failure and report how many were posted
        }
        return i;
    }

    private void postSend() throws PingpongException {
        try {
            qp.postSend(sendWr);
            ops++;
        } catch (WrException e) {
            throw new PingpongException("Couldn't post send: " + e.getMessage());
        }
    }

    /** The two lines {@code ibv_rc_pingpong} ends with; times in single precision, as C's {@code float usec}. */
    private void report(long nanos) {
        float usec = nanos / 1000f;
        long bytes = (long) settings.size() * settings.iters() * 2;
        System.out.println(bytes + " bytes in " + CFormat.fixed(usec / 1000000.0, 2) + " seconds = "
                + CFormat.fixed(bytes * 8.0 / usec, 2) + " Mbit/sec");
        System.out.println(settings.iters() + " iters in " + CFormat.fixed(usec / 1000000.0, 2) + " seconds = "
                + CFormat.fixed(usec / settings.iters(), 2) + " usec/iter");
    }

    /** A failure of the ping-pong, in {@code ibv_rc_pingpong}'s words. */
    static final class PingpongException extends Exception {
        private static final long serialVersionUID = 1L;

        PingpongException(String message) {
            super(message);
        }
    }
}

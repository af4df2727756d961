package org.jrdma.vtools;

import static org.jrdma.testkit.vm.VmChecks.equal;
import static org.jrdma.testkit.vm.VmChecks.require;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.jrdma.Rdma;
import org.jrdma.devices.EndPort;
import org.jrdma.iba.Gid;
import org.jrdma.path.IBPath;
import org.jrdma.testkit.ThreadCounters;
import org.jrdma.testkit.vm.VmChecks;
import org.jrdma.verbs.Access;
import org.jrdma.verbs.Ah;
import org.jrdma.verbs.AsyncException;
import org.jrdma.verbs.CompChannel;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Cq;
import org.jrdma.verbs.DeviceAttr;
import org.jrdma.verbs.Mr;
import org.jrdma.verbs.Pd;
import org.jrdma.verbs.Qp;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWr;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.Verbs;
import org.jrdma.verbs.Wc;
import org.jrdma.verbs.WcOpcode;
import org.jrdma.verbs.WcPath;
import org.jrdma.verbs.WrOpcode;

/**
 * The path-driven verbs and vtools checks that need a real device, run by
 * {@code VtoolsInVmTest} inside the soft-RoCE VM ({@code java -cp ... org.jrdma.vtools.VtoolsInVm}):
 * queue pairs set up from paths ({@code fillPath}, {@code establish}), the no-CM exchange over a
 * loopback TCP socket between two threads with a context each, UD with cached address handles
 * and replies on {@link WcPath} reversed, {@link BufferPool}, and {@link CqPoller} sleeping,
 * timing out, counting and raising an asynchronous error. Each check prints {@code PASS name} or
 * {@code FAIL name: reason}; the exit status is the number of failures.
 */
public final class VtoolsInVm {
    private static final int QKEY = 0x11111111;
    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final int POOL = 32;
    private static final int RECVS = 8;
    /** Threads that close one buffer pool at once. */
    private static final int CLOSERS = 8;

    private final EndPort endPort;
    private final Gid gid;
    private final Arena arena = Arena.ofShared();
    private final VmChecks checks = new VmChecks();
    private Side a;
    private Side b;

    private VtoolsInVm(EndPort endPort) {
        this.endPort = endPort;
        this.gid = endPort.defaultGid();
    }

    /** Runs every check on the default end port ({@code rxe0/1} in the VM). */
    public static void main(String[] args) throws Exception {
        VtoolsInVm program = new VtoolsInVm(Rdma.getEndPort());
        program.run();
        program.checks.exit();
    }

    private void check(String name, VmChecks.Check check) {
        checks.check(name, check);
    }

    /** One end of the RC connection: its own context, CQ with a channel, QP, pool and RDMA target. */
    private final class Side implements AutoCloseable {
        final Context ctx;
        final Cq cq;
        final Qp qp;
        final BufferPool pool;
        final Mr target;
        final CqPoller poller;
        IBPath path;

        Side() {
            ctx = Rdma.getVerbs(endPort);
            Pd pd = ctx.pd();
            cq = ctx.cq(64, ctx.compChannel());
            qp = pd.qp(new QpInitAttr(QpType.RC, cq, cq).cap(new QpCap(16, 16, 1, 1, 0)));
            pool = new BufferPool(pd, POOL, 256);
            target = pd.mr(arena.allocate(4096, 64), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            poller = new CqPoller(cq);
        }

        /** Waits for one completion of {@code opcode}, checks it, finishes it in the pool; returns its buffer's bytes. */
        String complete(WcOpcode opcode, int length) {
            for (Wc wc : poller.iterwc(1, WAIT)) {
                wc.check();
                equal(opcode, wc.opcode(), "opcode");
                String text = new String(pool.copyFrom(BufferPool.bufIdx(wc.wrId()), 0, length), StandardCharsets.US_ASCII);
                pool.finishWc(qp, wc);
                return text;
            }
            throw new AssertionError("no " + opcode + " completion within " + WAIT);
        }

        /** Sends {@code text} from a pool buffer. */
        void send(String text) {
            int buf = pool.pop();
            pool.copyTo(buf, 0, text.getBytes(StandardCharsets.US_ASCII));
            qp.postSend(pool.makeSendWr(buf, text.length(), null));
        }

        @Override
        public void close() {
            pool.close();
            ctx.close();
        }
    }

    private void run() throws Exception {
        int resourcesBefore = rdmaResources();
        check("get verbs for an end port", () -> {
            try (Context ctx = Rdma.getVerbs(endPort)) {
                equal(endPort.deviceName(), ctx.deviceName(), "device");
                equal(endPort, ctx.endPort().orElseThrow(), "end port");
            }
        });
        check("fill path", this::fillPath);
        a = new Side();
        b = new Side();
        check("no-CM exchange over TCP and establish", this::exchange);
        check("rc send/recv with buffer pools", this::sendRecv);
        check("rc rdma write both ways", this::rdmaWrite);
        check("cq poller sleeps on the channel and wakes", this::pollerWakes);
        check("cq poller timeout", this::pollerTimeout);
        check("cq poller count and stream", this::pollerCount);
        check("cq poller raises an async error (cq overrun)", this::pollerAsyncError);
        check("ud establish and cached address handles", this::udAndReply);
        check("buffer pool bookkeeping", this::poolBookkeeping);
        check("buffer pool closed by many threads at once", this::poolConcurrentClose);
        check("buffer pool whose region cannot be deregistered keeps its memory", this::poolCloseRefused);
        check("steady-state allocation (poller and pool)", this::allocation);
        a.close();
        b.close();
        check("no kernel objects left", () -> equal(resourcesBefore, rdmaResources(), "rdma resource objects"));
        arena.close();
    }

    private void fillPath() {
        try (Context ctx = Rdma.getVerbs(endPort)) {
            Cq cq = ctx.cq(4);
            Qp qp = ctx.pd().qp(QpType.RC, 4, cq, 4, cq);
            DeviceAttr device = ctx.queryDevice();
            IBPath path = qp.fillPath(IBPath.builder(endPort).build(), 4);
            System.out.println("  filled: " + path);
            equal(qp.qpNum(), path.sqpn().orElseThrow(), "sqpn");
            require(path.sqpsn() > 0 && path.sqpsn() < 1 << 24 && path.dqpsn() > 0, "random PSNs " + path);
            equal(Math.min(4, device.maxQpInitRdAtom()), path.srdatomic(), "srdatomic");
            equal(Math.min(4, device.maxQpRdAtom()), path.drdatomic(), "drdatomic");
            equal(device.localCaAckDelay(), path.sackRespTime(), "sack_resp_time");
            equal(ctx.queryPort(endPort.portNumber()).activeMtu(), path.mtu(), "MTU");
            IBPath again = qp.fillPath(path);
            equal(path.sqpsn(), again.sqpsn(), "a PSN already set is kept");
        }
    }

    private void exchange() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            FutureTask<IBPath> sideB = new FutureTask<>(() -> {
                try (Socket socket = server.accept()) {
                    socket.setSoTimeout((int) WAIT.toMillis());
                    return NoCmExchange.sideB(b.qp, IBPath.builder(endPort).sgid(gid).build(), socket,
                            Access.REMOTE_WRITE);
                }
            });
            Thread.ofPlatform().name("side B").start(sideB);
            try (Socket socket = new Socket(server.getInetAddress(), server.getLocalPort())) {
                socket.setSoTimeout((int) WAIT.toMillis());
                a.path = NoCmExchange.sideA(a.qp, IBPath.builder(endPort).hasGrh(true).sgid(gid).hopLimit(64).build(),
                        socket, Access.REMOTE_WRITE);
            }
            b.path = sideB.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        }
        System.out.println("  side A: " + a.path);
        System.out.println("  side B: " + b.path);
        equal(b.qp.qpNum(), a.path.dqpn().orElseThrow(), "A's dqpn");
        equal(a.qp.qpNum(), b.path.dqpn().orElseThrow(), "B's dqpn");
        equal(a.path.sqpsn(), b.path.dqpsn(), "A's send PSN is B's receive PSN");
        equal(b.path.sqpsn(), a.path.dqpsn(), "B's send PSN is A's receive PSN");
        equal(a.path.mtu(), b.path.mtu(), "MTU");
        for (Side side : new Side[] {a, b}) {
            Side peer = side == a ? b : a;
            QpAttr attr = side.qp.query();
            equal(QpState.RTS, attr.qpState(), "state");
            equal(peer.qp.qpNum(), attr.destQpNum(), "dest_qp_num");
            equal(side.path.dqpsn(), attr.rqPsn(), "rq_psn");
            equal(side.path.sqpsn(), attr.sqPsn(), "sq_psn");
            equal(side.path.mtu(), attr.pathMtu(), "path_mtu");
            equal(side.path.srdatomic(), attr.maxRdAtomic(), "max_rd_atomic");
            equal(side.path.drdatomic(), attr.maxDestRdAtomic(), "max_dest_rd_atomic");
            equal(gid, attr.ahAttr().dgid(), "ah_attr.grh.dgid");
            require(side.path.srdatomic() <= peer.path.drdatomic(), "reads issued within the peer's responder resources");
        }
    }

    private void sendRecv() {
        b.pool.postRecvs(b.qp, RECVS);
        equal(POOL - RECVS, b.pool.available(), "B's free buffers after posting");
        a.send("hello over no-CM");
        equal("hello over no-CM", b.complete(WcOpcode.RECV, 16), "received");
        equal(POOL - RECVS, b.pool.available(), "B's free buffers after the receive was re-posted");
        a.complete(WcOpcode.SEND, 0);
        equal(POOL, a.pool.available(), "A's send buffer is back");
    }

    private void rdmaWrite() {
        for (Side from : new Side[] {a, b}) {
            Side to = from == a ? b : a;
            String text = "written by " + (from == a ? "A" : "B");
            int buf = from.pool.pop();
            from.pool.copyTo(buf, 0, text.getBytes(StandardCharsets.US_ASCII));
            from.qp.postSend(new SendWr().wrId(buf).opcode(WrOpcode.RDMA_WRITE).sge(from.pool.makeSge(buf, text.length()))
                    .flags(SendFlags.SIGNALED).rdma(to.target.addr() + 128, to.target.rkey()));
            from.complete(WcOpcode.RDMA_WRITE, 0);
            byte[] landed = new byte[text.length()];
            MemorySegment.copy(to.target.memory(), ValueLayout.JAVA_BYTE, 128, landed, 0, landed.length);
            equal(text, new String(landed, StandardCharsets.US_ASCII), "remote memory");
            equal(POOL, from.pool.available() + (from == b ? RECVS : 0), "buffers back");
        }
    }

    private void pollerWakes() throws Exception {
        int buf = a.pool.pop();
        a.pool.copyTo(buf, 0, "late".getBytes(StandardCharsets.US_ASCII));
        SendWr wr = a.pool.makeSendWr(buf, 4, null);
        long cpu = ThreadCounters.cpuTimeNanos();
        long start = System.nanoTime();
        Thread sender = Thread.ofPlatform().start(() -> {
            try {
                Thread.sleep(400);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            a.qp.postSend(wr);
        });
        int n = 0;
        for (Wc wc : b.poller.iterwc(1, Duration.ofSeconds(10))) {
            wc.check();
            equal(WcOpcode.RECV, wc.opcode(), "opcode");
            b.pool.finishWc(b.qp, wc);
            n++;
        }
        long elapsed = (System.nanoTime() - start) / 1_000_000;
        long cpuMillis = (ThreadCounters.cpuTimeNanos() - cpu) / 1_000_000;
        sender.join();
        a.complete(WcOpcode.SEND, 0);
        System.out.printf("  woke after %d ms having used %d ms of CPU%n", elapsed, cpuMillis);
        equal(1, n, "completions");
        require(!b.poller.timedOut(), "timed out");
        require(elapsed >= 300 && elapsed < 5000, "woke after " + elapsed + " ms");
        require(cpuMillis < elapsed / 2, "slept rather than spun: " + cpuMillis + " ms CPU in " + elapsed + " ms");
    }

    private void pollerTimeout() {
        long start = System.nanoTime();
        int n = 0;
        for (Wc ignored : b.poller.iterwc(5, Duration.ofMillis(300))) {
            n++;
        }
        long elapsed = (System.nanoTime() - start) / 1_000_000;
        System.out.printf("  timed out after %d ms%n", elapsed);
        equal(0, n, "completions");
        require(b.poller.timedOut(), "timedOut()");
        require(elapsed >= 300 && elapsed < 3000, "returned after " + elapsed + " ms");
        long zero = System.nanoTime();
        require(!b.poller.iterwc(1, Duration.ZERO).iterator().hasNext() && b.poller.timedOut(), "zero time-out");
        require(System.nanoTime() - zero < TimeUnit.MILLISECONDS.toNanos(200), "a zero time-out does not wait");
    }

    private void pollerCount() {
        for (int i = 0; i < 5; i++) {
            a.send("count " + i);
        }
        for (Wc wc : a.poller.iterwc(5, WAIT)) {
            a.pool.finishWc(a.qp, wc);
        }
        equal(POOL, a.pool.available(), "A's sends completed");
        List<String> first = new ArrayList<>();
        for (Wc wc : b.poller.iterwc(3, WAIT)) {
            first.add(new String(b.pool.copyFrom(BufferPool.bufIdx(wc.wrId()), 0, 7), StandardCharsets.US_ASCII));
            b.pool.finishWc(b.qp, wc);
        }
        equal(List.of("count 0", "count 1", "count 2"), first, "the first three");
        require(!b.poller.timedOut(), "count reached, not timed out");
        long rest = b.poller.stream(10, Duration.ofMillis(500)).peek(wc -> b.pool.finishWc(b.qp, wc)).count();
        equal(2L, rest, "the remaining two");
        require(b.poller.timedOut(), "then timed out");
        equal(POOL - RECVS, b.pool.available(), "B's receives re-posted");
    }

    private void pollerAsyncError() throws Exception {
        try (Context ctx = Rdma.getVerbs(endPort)) {
            Pd pd = ctx.pd();
            CompChannel channel = ctx.compChannel();
            Cq small = ctx.cq(1, channel);
            Cq other = ctx.cq(64);
            Qp x = pd.qp(new QpInitAttr(QpType.RC, small, other).cap(new QpCap(32, 1, 1, 1, 0)));
            Qp y = pd.qp(new QpInitAttr(QpType.RC, other, other).cap(new QpCap(1, 1, 1, 1, 0)));
            Mr mr = pd.mr(arena.allocate(4096, 64), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            IBPath toY = x.fillPath(IBPath.builder(endPort).hasGrh(true).sgid(gid).dgid(gid).hopLimit(64)
                    .dqpn(y.qpNum()).build());
            IBPath toX = y.fillPath(toY.reverse(false));
            x.establish(toY);
            y.establish(toX, Access.REMOTE_WRITE);
            int writes = small.cqe() + 4;
            for (int i = 0; i < writes; i++) {
                x.postSend(new SendWr().wrId(i).opcode(WrOpcode.RDMA_WRITE).sge(mr.sge(0, 8)).flags(SendFlags.SIGNALED)
                        .rdma(mr.addr() + 1024, mr.rkey()));
            }
            Thread.sleep(300);
            CqPoller poller = new CqPoller(small);
            int seen = 0;
            try {
                for (Wc ignored : poller.iterwc(Long.MAX_VALUE, WAIT)) {
                    seen++;
                }
                throw new AssertionError("no asynchronous error; " + seen + " completions, timed out " + poller.timedOut());
            } catch (AsyncException expected) {
                System.out.println("  after " + seen + " of " + writes + " completions on a CQ of " + small.cqe() + ": "
                        + expected.getMessage());
                require(expected.getMessage().contains("CQ"), expected.getMessage());
            }
        }
    }

    private void udAndReply() {
        try (Context ctx = Rdma.getVerbs(endPort)) {
            Pd pd = ctx.pd();
            Cq cq = ctx.cq(32);
            Qp ua = pd.qp(new QpInitAttr(QpType.UD, cq, cq).cap(new QpCap(8, 8, 1, 1, 0)));
            Qp ub = pd.qp(new QpInitAttr(QpType.UD, cq, cq).cap(new QpCap(8, 8, 1, 1, 0)));
            IBPath base = IBPath.builder(endPort).hasGrh(true).sgid(gid).dgid(gid).hopLimit(64).qkey(QKEY).build();
            ua.establish(base);
            ub.establish(base);
            equal(QKEY, ub.query(QpAttr.QKEY).qkey(), "qkey from the path");
            equal(QpState.RTS, ua.query().qpState(), "state");
            IBPath toB = base.copy(p -> p.dqpn(ub.qpNum()).sqpn(ua.qpNum()));
            Ah ah = pd.ah(toB);
            require(pd.ah(toB) == ah, "the same AH for the same path");
            require(pd.ah(base.copy(p -> p.dqpn(ub.qpNum()).sqpn(ua.qpNum()))) == ah, "the same AH for an equal path");
            BufferPool pool = new BufferPool(pd, 16, WcPath.GRH_BYTES + 256);
            pool.postRecvs(ub, 2);
            pool.postRecvs(ua, 2);
            int ping = pool.pop();
            pool.copyTo(ping, 0, "ping".getBytes(StandardCharsets.US_ASCII));
            SendWr wr = pool.makeSendWr(ping, 4, toB);
            require(wr.ah() == ah, "makeSendWr uses the cached AH");
            ua.postSend(wr);
            CqPoller poller = new CqPoller(cq);
            IBPath reply = null;
            boolean ponged = false;
            for (Wc wc : poller.iterwc(4, WAIT)) {
                wc.check();
                if (wc.opcode() != WcOpcode.RECV) {
                    pool.finishWc(ub, wc);
                    continue;
                }
                int buf = BufferPool.bufIdx(wc.wrId());
                String text = new String(pool.copyFrom(buf, WcPath.GRH_BYTES, 4), StandardCharsets.US_ASCII);
                IBPath received = WcPath.of(endPort, wc, pool.segment(buf), 0, p -> p.qkey(QKEY));
                if (wc.qpNum() == ub.qpNum()) {
                    equal("ping", text, "payload at B");
                    System.out.println("  received: " + received);
                    equal(ua.qpNum(), received.sqpn().orElseThrow(), "sqpn = wc.src_qp");
                    equal(ub.qpNum(), received.dqpn().orElseThrow(), "dqpn = wc.qp_num");
                    require(received.hasGrh(), "has_grh from IBV_WC_GRH");
                    equal(gid, received.sgid().orElseThrow(), "SGID from the GRH");
                    equal(gid, received.dgid().orElseThrow(), "DGID from the GRH");
                    reply = received.reverse();
                    System.out.println("  reply:    " + reply);
                    equal(ua.qpNum(), reply.dqpn().orElseThrow(), "the reply goes to the sender");
                    equal(255, reply.hopLimit(), "reply hop limit");
                    pool.finishWc(ub, wc);
                    int pong = pool.pop();
                    pool.copyTo(pong, 0, "pong".getBytes(StandardCharsets.US_ASCII));
                    ub.postSend(pool.makeSendWr(pong, 4, reply));
                } else {
                    equal("pong", text, "payload at A");
                    equal(ub.qpNum(), wc.srcQp(), "the reply's source");
                    equal(ub.qpNum(), received.sqpn().orElseThrow(), "sqpn of the reply's path");
                    pool.finishWc(ua, wc);
                    ponged = true;
                }
            }
            require(reply != null && ponged, "ping and pong both arrived; timed out " + poller.timedOut());
            Ah replyAh = pd.ah(reply);
            require(pd.ah(reply) == replyAh && replyAh != ah, "the reply path has its own cached AH");
            ah.close();
            Ah again = pd.ah(toB);
            require(again != ah && !again.isClosed(), "closing an AH drops it from the cache");
            pd.close();
            require(again.isClosed() && replyAh.isClosed(), "closing the PD closes its cached AHs");
            try {
                pd.ah(toB);
                throw new AssertionError("pd.ah on a closed PD");
            } catch (IllegalStateException expected) {
                // closed
            }
            pool.close();
        }
    }

    private void poolBookkeeping() {
        try (Context ctx = Rdma.getVerbs(endPort)) {
            BufferPool pool = new BufferPool(ctx.pd(), 4, 64);
            equal(4, pool.count(), "count");
            equal(64, pool.size(), "size");
            Set<Integer> taken = new HashSet<>();
            for (int i = 0; i < 4; i++) {
                taken.add(pool.pop());
            }
            equal(Set.of(0, 1, 2, 3), taken, "every buffer once");
            equal(0, pool.available(), "none free");
            expect(IllegalStateException.class, pool::pop, "pop of an empty pool");
            pool.push(2);
            expect(IllegalStateException.class, () -> pool.push(2), "double push");
            expect(IndexOutOfBoundsException.class, () -> pool.push(4), "push of no buffer");
            expect(IndexOutOfBoundsException.class, () -> pool.copyTo(1, 60, new byte[5]), "copy past the buffer");
            Qp queue = dummyQueue(ctx);
            expect(IllegalStateException.class, () -> pool.postRecvs(queue, 2), "posting more receives than free buffers");
            pool.copyTo(1, 2, "abc".getBytes(StandardCharsets.US_ASCII));
            equal("abc", new String(pool.copyFrom(1, 2, 3), StandardCharsets.US_ASCII), "copied back");
            equal(pool.address(1), pool.segment(1).address(), "segment");
            Sge sge = pool.makeSge(3, 64);
            equal(pool.address(3), sge.addr(), "sge addr");
            equal(pool.mr().lkey(), sge.lkey(), "sge lkey");
            expect(IndexOutOfBoundsException.class, () -> pool.makeSge(3, 65), "sge past the buffer");
            equal(3, BufferPool.bufIdx(3 | BufferPool.RECV_FLAG), "bufIdx of a receive's wr_id");
            pool.close();
            pool.close();
            require(pool.mr().isClosed(), "closing the pool deregisters its memory");
        }
    }

    /**
     * Pools closed by {@value #CLOSERS} threads at once: exactly one deregisters the region and
     * frees the memory, none fails (before, two could both see the pool open and the second fail
     * to close the freed arena).
     */
    private void poolConcurrentClose() throws InterruptedException {
        try (Context ctx = Rdma.getVerbs(endPort)) {
            Pd pd = ctx.pd();
            List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
            for (int round = 0; round < 20; round++) {
                BufferPool pool = new BufferPool(pd, 4, 64);
                CyclicBarrier start = new CyclicBarrier(CLOSERS);
                List<Thread> closers = new ArrayList<>();
                for (int i = 0; i < CLOSERS; i++) {
                    closers.add(Thread.ofPlatform().start(() -> {
                        try {
                            start.await();
                            pool.close();
                        } catch (Throwable t) {
                            failures.add(t);
                        }
                    }));
                }
                for (Thread closer : closers) {
                    closer.join();
                }
                require(failures.isEmpty(), "close failed in round " + round + ": " + failures);
                require(pool.mr().isClosed(), "the region is deregistered");
                expect(IllegalStateException.class, () -> pool.segment(0).get(ValueLayout.JAVA_BYTE, 0), "memory freed");
                pool.close();
            }
        }
    }

    /**
     * A pool of a confined context closed from another thread: the region refuses to close, so
     * the memory it registers must not be freed (before, it was, under the device); the owner
     * closes the pool afterwards.
     */
    private void poolCloseRefused() throws Exception {
        try (Context ctx = Verbs.openConfined(endPort.deviceName())) {
            BufferPool pool = new BufferPool(ctx.pd(), 4, 64);
            pool.copyTo(1, 0, "kept".getBytes(StandardCharsets.US_ASCII));
            FutureTask<Void> stranger = new FutureTask<>(pool::close, null);
            Thread.ofPlatform().start(stranger).join();
            try {
                stranger.get();
                throw new AssertionError("a thread outside the confined context closed the pool");
            } catch (ExecutionException e) {
                require(e.getCause() instanceof IllegalStateException, "expected IllegalStateException, got " + e.getCause());
            }
            require(!pool.mr().isClosed(), "the region stays registered");
            equal("kept", new String(pool.copyFrom(1, 0, 4), StandardCharsets.US_ASCII), "the memory is still there");
            pool.close();
            require(pool.mr().isClosed(), "the owner's close deregisters the region");
            expect(IllegalStateException.class, () -> pool.segment(0).get(ValueLayout.JAVA_BYTE, 0), "memory freed");
        }
    }

    /** A UD queue pair to post receives to, for the checks that expect the pool to refuse first. */
    private static Qp dummyQueue(Context ctx) {
        Cq cq = ctx.cq(1);
        return ctx.pd().qp(QpType.UD, 1, cq, 1, cq);
    }

    private static void expect(Class<? extends Throwable> type, VmChecks.Check action, String what) throws AssertionError {
        try {
            action.run();
        } catch (Throwable t) {
            if (type.isInstance(t)) {
                return;
            }
            throw new AssertionError(what + ": expected " + type.getSimpleName() + ", got " + t, t);
        }
        throw new AssertionError(what + ": expected " + type.getSimpleName());
    }

    /**
     * Bytes allocated by this thread per UD round trip through the vtools: a send from a pool
     * buffer, the send and receive completions taken with a {@link CqPoller}, both finished in
     * the pool (which re-posts the receive). The CQ has no channel, so the poller spins rather
     * than sleeps, as a busy loop does. Measured as {@code VerbsInVm} measures the raw verbs.
     */
    private void allocation() {
        try (Context ctx = Rdma.getVerbs(endPort)) {
            Pd pd = ctx.pd();
            Cq cq = ctx.cq(16);
            Qp qa = pd.qp(new QpInitAttr(QpType.UD, cq, cq).cap(new QpCap(4, 4, 1, 1, 0)));
            Qp qb = pd.qp(new QpInitAttr(QpType.UD, cq, cq).cap(new QpCap(4, 4, 1, 1, 0)));
            IBPath base = IBPath.builder(endPort).hasGrh(true).sgid(gid).dgid(gid).hopLimit(64).qkey(QKEY).build();
            qa.establish(base);
            qb.establish(base);
            BufferPool pool = new BufferPool(pd, 8, WcPath.GRH_BYTES + 64);
            pool.postRecvs(qb, 2);
            Sge sge = new Sge(0, 32, pool.lkey());
            SendWr wr = new SendWr().opcode(WrOpcode.SEND).sge(sge).flags(SendFlags.SIGNALED)
                    .ud(pd.ah(base.copy(p -> p.dqpn(qb.qpNum()))), qb.qpNum(), QKEY);
            CqPoller poller = new CqPoller(cq);
            long start = System.nanoTime();
            int warmup = 20_000;
            int measured = 10_000;
            roundTrips(pool, qb, qa, wr, sge, poller, warmup);
            long bytes = ThreadCounters.allocatedBy(() -> roundTrips(pool, qb, qa, wr, sge, poller, measured));
            double micros = (System.nanoTime() - start) / 1e3 / (warmup + measured);
            System.out.printf("  %d bytes allocated in %d round trips (%.2f bytes each), %.1f us per round trip%n",
                    bytes, measured, (double) bytes / measured, micros);
            require(bytes < measured, bytes + " bytes allocated in " + measured + " round trips");
            pool.close();
        }
    }

    private static void roundTrips(BufferPool pool, Qp receiver, Qp sender, SendWr wr, Sge sge, CqPoller poller,
            int count) {
        for (int i = 0; i < count; i++) {
            int buf = pool.pop();
            sge.addr(pool.address(buf));
            sender.postSend(wr.wrId(buf));
            int seen = 0;
            for (Wc wc : poller.iterwc(2, null)) {
                pool.finishWc(receiver, wc);
                seen++;
            }
            if (seen != 2) {
                throw new AssertionError("round trip " + i + " took " + seen + " completions");
            }
        }
    }


    /** The kernel's count of RDMA objects ({@code rdma resource show}) on the end port's device. */
    private int rdmaResources() throws IOException, InterruptedException {
        Process process = new ProcessBuilder("rdma", "resource", "show").redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor();
        int total = 0;
        for (String line : out.lines().toList()) {
            if (line.contains(endPort.deviceName() + ":")) {
                String[] words = line.trim().split("\\s+");
                for (int i = 2; i + 1 < words.length; i += 2) {
                    total += Integer.parseInt(words[i + 1]);
                }
            }
        }
        return total;
    }
}

package org.jrdma.verbs;

import static org.jrdma.testkit.vm.VmChecks.equal;
import static org.jrdma.testkit.vm.VmChecks.require;

import java.lang.foreign.Arena;
import java.time.Duration;
import org.jrdma.Rdma;
import org.jrdma.devices.EndPort;
import org.jrdma.devices.RdmaDevice;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Mtu;
import org.jrdma.path.IBPath;
import org.jrdma.vtools.CqPoller;

/**
 * The checks of the seed's verbs members that {@link VerbsInVm} runs besides its own, on the same
 * device in the same VM boot: {@code ctx.node}, {@code query_port()}, the end-port refresh of
 * {@code handle_async_event}, {@code from_qp_num}, {@code qp.state}, {@code qp.query} with the
 * init attributes, {@code WCError}'s detail, multicast and {@code ah_attr} from a path,
 * {@code drop_cache}, {@code cq.comp_events}, {@code CQPoller.sleep} and {@code wakeat}.
 */
final class SeedVerbsInVm {
    private static final int PORT = 1;
    private static final int GID_INDEX = 0;
    private static final int ACCESS = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ;

    private final String device;
    private final Gid gid;
    private final EndPort endPort;

    SeedVerbsInVm(String device, Gid gid) {
        this.device = device;
        this.gid = gid;
        this.endPort = Rdma.getDevice(device).endPort(PORT).orElseThrow();
    }

    /** {@code ctx.node}, {@code query_port()} and the end port a port event refreshes. */
    void contextNodePortAndPortEvents() {
        EndPort stale = EndPort.builder(device, PORT).build();
        try (Context ctx = Verbs.open(stale); Context byName = Verbs.open(device)) {
            RdmaDevice node = ctx.node();
            equal(device, node.name(), "node name");
            equal(ctx.queryPort(PORT).state(), ctx.queryPort().state(), "query_port() is the end port's");
            try {
                byName.queryPort();
                throw new AssertionError("query_port() without an end port");
            } catch (IllegalStateException expected) {
                // opened by name: the port must be named
            }
            equal(stale, ctx.endPort().orElseThrow(), "end port before the event");
            ctx.handleAsyncEvent(new AsyncEvent(EventType.PORT_ACTIVE, null, null, null, PORT, endPort, node));
            equal(endPort, ctx.endPort().orElseThrow(), "end port after a port event");
            require(ctx.endPort().orElseThrow().isActive(), "refreshed end port active");
            try {
                ctx.handleAsyncEvent(new AsyncEvent(EventType.PORT_ERR, null, null, null, PORT, stale, node));
                throw new AssertionError("a port error event was not raised");
            } catch (AsyncException expected) {
                equal(stale, ctx.endPort().orElseThrow(), "end port after a port error, before raising it");
            }
        }
    }

    /** {@code qp.state}, {@code qp.query(mask)} with the init attributes, {@code from_qp_num}. */
    void qpStateQueryAndLookup() {
        try (Context ctx = Verbs.open(endPort)) {
            Pd pd = ctx.pd();
            Pd other = ctx.pd();
            Cq send = ctx.cq(8);
            Cq recv = ctx.cq(8);
            Qp qp = pd.qp(new QpInitAttr(QpType.RC, send, recv).cap(new QpCap(4, 4, 1, 1, 0)).sqSigAll(true));
            equal(QpState.RESET, qp.state(), "state after creation");
            qp.modify(new QpAttr().qpState(QpState.INIT).pkeyIndex(0).portNum(PORT).qpAccessFlags(ACCESS));
            equal(QpState.INIT, qp.state(), "state after INIT");
            Qp.Query query = qp.queryWithInit(QpAttr.STATE | QpAttr.PORT);
            equal(QpState.INIT, query.attr().qpState(), "queried state");
            equal(PORT, query.attr().portNum(), "queried port");
            equal(QpType.RC, query.init().qpType(), "init qp_type");
            equal(send, query.init().sendCq(), "init send_cq");
            equal(recv, query.init().recvCq(), "init recv_cq");
            require(query.init().sqSigAll(), "init sq_sig_all");
            require(query.init().cap().maxSendWr() >= 4 && query.init().cap().maxRecvWr() >= 4, "init cap " + query.init().cap());
            equal(qp, pd.fromQpNum(qp.qpNum()), "from_qp_num of its PD");
            require(other.fromQpNum(qp.qpNum()) == null, "from_qp_num of another PD");
            equal(qp, ctx.qp(qp.qpNum()), "from_qp_num of the context");
            qp.close();
            require(pd.fromQpNum(qp.qpNum()) == null, "from_qp_num after close");
        }
    }

    /** {@code WCError(wc, cq, obj, msg, is_rq)}: the CQ, the queue, the side and the message of an error completion. */
    void workCompletionErrorDetail() {
        try (Context ctx = Verbs.open(endPort); Arena arena = Arena.ofConfined()) {
            Pd pd = ctx.pd();
            Mr mr = pd.mr(arena.allocate(4096), ACCESS);
            Cq sendCq = ctx.cq(8);
            Cq recvCq = ctx.cq(8);
            Qp a = pd.qp(new QpInitAttr(QpType.RC, sendCq, recvCq).cap(new QpCap(4, 4, 1, 1, 0)));
            Qp b = pd.qp(new QpInitAttr(QpType.RC, sendCq, recvCq).cap(new QpCap(4, 4, 1, 1, 0)));
            connect(a, b);
            connect(b, a);
            a.postSend(new SendWr().wrId(7).opcode(WrOpcode.RDMA_WRITE).sge(mr.sge(0, 8)).flags(SendFlags.SIGNALED)
                    .rdma(mr.addr(), mr.rkey() + 1));
            WcBuffer wcs = new WcBuffer(1);
            awaitOne(sendCq, wcs);
            WcException send = expectError(wcs, sendCq, "writing to a wrong rkey");
            equal(sendCq, send.cq().orElseThrow(), "cq");
            equal(a, send.queue().orElseThrow(), "obj: the QP");
            equal(Boolean.FALSE, send.isRq().orElseThrow(), "is_rq of a send");
            equal("writing to a wrong rkey", send.detail().orElseThrow(), "msg");
            require(send.opcode().isPresent() && send.getMessage().contains("the send queue of RC QP"), send.getMessage());
            System.out.println("  " + send.getMessage());
            b.postRecv(new RecvWr().wrId(8).sge(mr.sge(64, 64)));
            b.modify(new QpAttr().qpState(QpState.ERR));
            awaitOne(recvCq, wcs);
            WcException flushed = expectError(wcs, recvCq, null);
            equal(WcStatus.WR_FLUSH_ERR.value(), flushed.status(), "flushed receive");
            equal(b, flushed.queue().orElseThrow(), "obj: the receiving QP");
            equal(Boolean.TRUE, flushed.isRq().orElseThrow(), "is_rq of a receive");
            equal(8L, flushed.wrId(), "wr_id");
            System.out.println("  " + flushed.getMessage());
        }
    }

    /** {@code attach_mcast(path)}, {@code ah_attr = path}, and {@code drop_cache} of a path's address handle. */
    void pathsForMulticastAttributesAndAddressHandles() {
        try (Context ctx = Verbs.open(endPort)) {
            Pd pd = ctx.pd();
            Cq cq = ctx.cq(4);
            Qp ud = pd.qp(new QpInitAttr(QpType.UD, cq, cq));
            ud.modify(new QpAttr().qpState(QpState.INIT).pkeyIndex(0).portNum(PORT).qkey(0x11111111));
            IBPath group = IBPath.builder(endPort).hasGrh(true).sgid(gid).dgid(Gid.parse("ff0e::ffff:e000:0102")).build();
            ud.attachMcast(group);
            ud.detachMcast(group);

            IBPath self = IBPath.builder(endPort).hasGrh(true).sgid(gid).dgid(gid).hopLimit(1).build();
            Qp rc = pd.qp(new QpInitAttr(QpType.RC, cq, cq));
            rc.modify(new QpAttr().qpState(QpState.INIT).pkeyIndex(0).portNum(PORT).qpAccessFlags(ACCESS));
            rc.modify(new QpAttr().qpState(QpState.RTR).pathMtu(Mtu.MTU_1024).destQpNum(rc.qpNum()).rqPsn(0)
                    .maxDestRdAtomic(1).minRnrTimer(1).ahAttr(self));
            equal(gid, rc.query(QpAttr.AV).ahAttr().dgid(), "dgid of an ah_attr set from a path");

            Ah first = pd.ah(self);
            require(pd.ah(self) == first, "the path's handle is cached");
            require(pd.dropCache(self), "drop_cache dropped the handle");
            require(first.isClosed(), "the dropped handle is closed");
            Ah second = pd.ah(self);
            require(second != first && !second.isClosed(), "a new handle after drop_cache");
            require(!pd.dropCache(group), "nothing cached for a path never used");
        }
    }

    /** {@code cq.comp_events}, {@code CQPoller.sleep(wakeat)} and its readable {@code wakeat}. */
    void completionEventsAndPollerSleep() {
        try (Context ctx = Verbs.open(endPort); Arena arena = Arena.ofConfined()) {
            Pd pd = ctx.pd();
            Mr mr = pd.mr(arena.allocate(4096), ACCESS);
            CompChannel channel = ctx.compChannel();
            Cq cq = ctx.cq(8, channel);
            Qp a = pd.qp(new QpInitAttr(QpType.RC, cq, cq).cap(new QpCap(4, 4, 1, 1, 0)));
            Qp b = pd.qp(new QpInitAttr(QpType.RC, cq, cq).cap(new QpCap(4, 4, 1, 1, 0)));
            connect(a, b);
            connect(b, a);
            CqPoller poller = new CqPoller(cq);
            equal(Long.MAX_VALUE, poller.wakeAt(), "wakeat without an iteration");
            equal(0L, cq.compEvents(), "comp_events before any");
            cq.reqNotify(false);
            require(!poller.sleep(System.nanoTime() + Duration.ofMillis(200).toNanos()), "woke without a completion");
            b.postRecv(new RecvWr().wrId(1).sge(mr.sge(0, 64)));
            a.postSend(new SendWr().wrId(2).opcode(WrOpcode.SEND).sge(mr.sge(64, 8)).flags(SendFlags.SIGNALED));
            require(poller.sleep(System.nanoTime() + Duration.ofSeconds(5).toNanos()), "no wakeup from the completion");
            equal(1L, cq.compEvents(), "comp_events after one event");
            long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            int seen = 0;
            for (Wc wc : poller.iterwcUntil(2, until)) {
                wc.check();
                equal(until, poller.wakeAt(), "wakeat while iterating");
                seen++;
            }
            equal(2, seen, "completions");
            require(new CqPoller(ctx.cq(4)).sleep(0), "a poller without a channel does not sleep");
        }
    }

    /**
     * Real port events: {@code veth0}, the netdev under the device, taken down and up again. Each
     * event names the device and the end port as sysfs shows it after the event, and handling it
     * refreshes the context's end port ({@code handle_async_event}'s end-port cache update); the
     * port error is raised after that.
     */
    void realPortEvents() throws Exception {
        try (Context ctx = Verbs.open(endPort)) {
            require(ctx.endPort().orElseThrow().isActive(), "end port active before");
            shell("ip", "link", "set", "veth0", "down");
            AsyncEvent down = awaitEvent(ctx, EventType.PORT_ERR);
            System.out.println("  " + down.type() + " on " + down.subject() + ": " + down.endPort());
            equal(PORT, down.portNum(), "port of the event");
            equal(device, down.device().name(), "device of the event");
            require(down.endPort() != null && !down.endPort().isActive(), "the event's end port is down: " + down.endPort());
            try {
                ctx.handleAsyncEvent(down);
                throw new AssertionError("a port error was not raised");
            } catch (AsyncException expected) {
                require(!ctx.endPort().orElseThrow().isActive(), "context's end port refreshed to down");
            }
            shell("ip", "link", "set", "veth0", "up");
            AsyncEvent up = awaitEvent(ctx, EventType.PORT_ACTIVE);
            System.out.println("  " + up.type() + " on " + up.subject() + ": " + up.endPort());
            require(up.endPort() != null && up.endPort().isActive(), "the event's end port is active: " + up.endPort());
            ctx.handleAsyncEvent(up);
            require(ctx.endPort().orElseThrow().isActive(), "context's end port refreshed to active");
        } finally {
            shell("ip", "link", "set", "veth0", "up");
        }
    }

    private static AsyncEvent awaitEvent(Context ctx, EventType type) {
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (System.nanoTime() < deadline) {
            AsyncEvent event = ctx.getAsyncEvent(Duration.ofMillis(500));
            if (event != null && event.type() == type) {
                return event;
            }
            if (event != null) {
                System.out.println("  other async event: " + event.type() + " on " + event.subject());
            }
        }
        throw new AssertionError("no " + type + " event within 15 s");
    }

    private static void shell(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        require(p.waitFor() == 0, String.join(" ", command) + " failed: " + output);
    }

    private void connect(Qp qp, Qp remote) {
        qp.modify(new QpAttr().qpState(QpState.INIT).pkeyIndex(0).portNum(PORT).qpAccessFlags(ACCESS));
        qp.modify(new QpAttr().qpState(QpState.RTR).pathMtu(Mtu.MTU_1024).destQpNum(remote.qpNum()).rqPsn(0)
                .maxDestRdAtomic(1).minRnrTimer(1).ahAttr(new AhAttr().grh(gid, GID_INDEX, 1).portNum(PORT)));
        qp.modify(new QpAttr().qpState(QpState.RTS).sqPsn(0).timeout(14).retryCnt(1).rnrRetry(1).maxRdAtomic(1));
    }

    private static void awaitOne(Cq cq, WcBuffer wcs) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (cq.poll(wcs) == 0) {
            require(System.nanoTime() < deadline, "no completion on " + cq);
        }
    }

    private static WcException expectError(WcBuffer wcs, Cq cq, String message) {
        try {
            wcs.check(0, cq, message);
        } catch (WcException e) {
            return e;
        }
        throw new AssertionError("check passed a completion with status " + wcs.status(0));
    }
}

package org.jrdma.verbs;

import static org.jrdma.testkit.vm.VmChecks.equal;
import static org.jrdma.testkit.vm.VmChecks.require;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jrdma.NoSuchDeviceException;
import org.jrdma.Rdma;
import org.jrdma.SysException;
import org.jrdma.devices.EndPort;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Mtu;
import org.jrdma.path.IBPath;
import org.jrdma.testkit.ThreadCounters;
import org.jrdma.testkit.vm.VmChecks;

/**
 * The verbs checks that need a real device, run by {@code VerbsInVmTest} inside the soft-RoCE VM
 * ({@code java -cp ... org.jrdma.verbs.VerbsInVm rxe0}). Queue pairs are connected in this one
 * process, both ends on port 1 of the device, addressed by GRH to GID index 0 (RoCE needs one).
 * Each check prints {@code PASS name} or {@code FAIL name: reason}; the exit status is the
 * number of failures.
 */
public final class VerbsInVm {
    private static final int PORT = 1;
    private static final int GID_INDEX = 0;
    private static final int ALL_ACCESS = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ
            | Access.REMOTE_ATOMIC;
    private static final int BUFFER = 4096;
    private static final int QKEY = 0x11111111;
    private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final int EINVAL = 22;

    private final String device;
    private final Arena arena = Arena.ofShared();
    private final VmChecks checks = new VmChecks();

    private Context ctx;
    private Gid gid;
    private Pd pd;
    private Cq cqA;
    private Cq cqB;
    private Qp qpA;
    private Qp qpB;
    private Mr mrA;
    private Mr mrB;
    private final WcBuffer wcs = new WcBuffer(1);

    private VerbsInVm(String device) {
        this.device = device;
    }

    /** Runs every check on the device named by the first argument (default {@code rxe0}). */
    public static void main(String[] args) throws Exception {
        VerbsInVm program = new VerbsInVm(args.length > 0 ? args[0] : "rxe0");
        program.run();
        program.checks.exit();
    }

    private void check(String name, VmChecks.Check check) {
        checks.check(name, check);
    }

    private void run() throws Exception {
        int resourcesBefore = RdmaResources.count(device);
        check("availability", () -> require(Verbs.isAvailable() && Verbs.unavailabilityCause() == null,
                "verbs unavailable: " + Verbs.unavailabilityCause()));
        check("devices", () -> require(Verbs.devices().stream().anyMatch(d -> d.name().equals(device)),
                device + " not in " + Verbs.devices()));
        check("open unknown device", () -> {
            try {
                Verbs.open("nosuchdev0").close();
                throw new AssertionError("opened nosuchdev0");
            } catch (NoSuchDeviceException expected) {
                require(expected.selector().equals("nosuchdev0") && expected.getMessage().contains(device),
                        expected.getMessage());
            }
        });
        ctx = Verbs.open(device);
        check("query device", this::queryDevice);
        check("query port", this::queryPort);
        check("query gid and pkey", this::queryGidAndPkey);
        check("errno convention NULL+errno (ibv_create_cq)", () -> expectSys("ibv_create_cq", EINVAL,
                () -> ctx.cq(1 << 30)));
        check("errno convention -1+errno (ibv_query_gid)", () -> expectSys("ibv_query_gid", EINVAL,
                () -> ctx.queryGid(PORT, 100_000)));

        pd = ctx.pd();
        cqA = ctx.cq(64);
        cqB = ctx.cq(64);
        mrA = pd.mr(arena.allocate(BUFFER, 64), ALL_ACCESS);
        mrB = pd.mr(arena.allocate(BUFFER, 64), ALL_ACCESS);
        qpA = pd.qp(new QpInitAttr(QpType.RC, cqA, cqA).cap(new QpCap(16, 16, 4, 4, 64)));
        qpB = pd.qp(new QpInitAttr(QpType.RC, cqB, cqB).cap(new QpCap(16, 16, 4, 4, 64)));
        check("errno convention returned errno (ibv_modify_qp RESET->RTS)", () -> expectSys("ibv_modify_qp", EINVAL,
                () -> qpA.modify(new QpAttr().qpState(QpState.RTS))));
        check("connect RC loopback", this::connectRc);
        check("send/recv", this::sendRecv);
        check("send with immediate", this::sendWithImm);
        check("rdma write", this::rdmaWrite);
        check("rdma write with immediate", this::rdmaWriteWithImm);
        check("rdma read", this::rdmaRead);
        check("atomic compare and swap", this::compareAndSwap);
        check("atomic fetch and add", this::fetchAndAdd);
        check("lists of work requests and gather", this::lists);
        check("inline, solicited and fenced sends", this::flags);
        check("post_send bad index from provider", this::providerBadIndex);
        check("post_send too many sges", this::tooManySges);
        check("completion channel wakeup", this::completionChannel);
        check("direct byte buffer registration", this::byteBuffer);
        check("resize cq", () -> {
            cqA.resize(200);
            require(cqA.cqe() >= 200, "cqe " + cqA.cqe());
        });
        check("uc send and rdma write", this::uc);
        check("concurrent posting from 4 threads", this::concurrentPosting);
        check("remote access violation (wrong rkey)", this::remoteAccessViolation);
        check("rnr retry exceeded", this::rnrRetryExceeded);
        check("srq and srq limit event", this::srq);
        check("ud with address handle", this::ud);
        check("address handle cache keeps the paths used last", this::ahCache);
        check("multicast attach/detach", this::multicast);
        SeedVerbsInVm seed = new SeedVerbsInVm(device, gid);
        check("seed context node, query_port and port events", seed::contextNodePortAndPortEvents);
        check("seed qp state, query with init attributes, from_qp_num", seed::qpStateQueryAndLookup);
        check("seed work completion error detail", seed::workCompletionErrorDetail);
        check("seed multicast, ah_attr and drop_cache from paths", seed::pathsForMulticastAttributesAndAddressHandles);
        check("seed comp_events, CqPoller sleep and wakeat", seed::completionEventsAndPollerSleep);
        check("steady-state allocation", this::allocation);
        check("prepared work requests", this::prepared);
        check("misuse of prepared work requests", this::preparedMisuse);
        check("confined context", this::confined);
        check("use after close", this::useAfterClose);
        check("double close and parent closes children", this::closeOrder);
        check("seed real port events refresh the end port", seed::realPortEvents);
        check("no kernel objects left", () -> equal(resourcesBefore, RdmaResources.count(device), "rdma resource objects"));
        arena.close();
    }

    private void queryDevice() {
        DeviceAttr attr = ctx.queryDevice();
        VerbsDevice listed = Verbs.devices().stream().filter(d -> d.name().equals(device)).findFirst().orElseThrow();
        equal(listed.nodeGuid(), attr.nodeGuid(), "node GUID");
        require(attr.physPortCnt() >= 1 && attr.maxQp() > 0 && attr.maxCqe() > 0 && attr.maxSge() > 0,
                attr.toString());
    }

    private void queryPort() {
        PortAttr port = ctx.queryPort(PORT);
        equal(4, port.state(), "port state (active)");
        require(port.gidTblLen() > 0 && port.activeMtu() != null && port.maxMsgSz() > 0, port.toString());
        System.out.println("  port: " + port);
    }

    private void queryGidAndPkey() {
        gid = ctx.queryGid(PORT, GID_INDEX);
        require(gid.isLinkLocal() || gid.prefix() == 0, "GID " + gid);
        equal(0xffff, ctx.queryPkey(PORT, 0), "P_Key 0");
        System.out.println("  gid[0]: " + gid);
    }

    private static void expectSys(String call, int errno, VmChecks.Check action) throws Exception {
        try {
            action.run();
            throw new AssertionError(call + " did not fail");
        } catch (SysException e) {
            equal(call, e.call(), "call in " + e.getMessage());
            equal(errno, e.errno(), "errno in " + e.getMessage());
            System.out.println("  " + e.getMessage());
        }
    }

    /** INIT, RTR and RTS towards {@code remote}, with {@code rnrRetry}. */
    private void connect(Qp qp, Qp remote, int rnrRetry) {
        qp.modify(new QpAttr().qpState(QpState.INIT).pkeyIndex(0).portNum(PORT).qpAccessFlags(ALL_ACCESS));
        qp.modify(new QpAttr().qpState(QpState.RTR).pathMtu(Mtu.MTU_1024).destQpNum(remote.qpNum()).rqPsn(0)
                .maxDestRdAtomic(4).minRnrTimer(1)
                .ahAttr(new AhAttr().grh(gid, GID_INDEX, 1).portNum(PORT)));
        qp.modify(new QpAttr().qpState(QpState.RTS).sqPsn(0).timeout(14).retryCnt(7).rnrRetry(rnrRetry)
                .maxRdAtomic(4));
    }

    private void connectRc() {
        connect(qpA, qpB, 7);
        connect(qpB, qpA, 7);
        QpAttr attr = qpA.query();
        equal(QpState.RTS, attr.qpState(), "state");
        equal(qpB.qpNum(), attr.destQpNum(), "dest_qp_num");
        equal(Mtu.MTU_1024, attr.pathMtu(), "path_mtu");
        equal(gid, attr.ahAttr().dgid(), "dgid");
        equal(ctx.qp(qpA.qpNum()), qpA, "qp by number");
    }

    /** Waits for one completion on {@code cq}, checks it succeeded with {@code opcode}; returns its index 0. */
    private int completion(Cq cq, WcOpcode opcode, long wrId) {
        long deadline = System.nanoTime() + WAIT_NANOS;
        while (cq.poll(wcs) == 0) {
            require(System.nanoTime() < deadline, "no completion on " + cq + " within 5 s");
        }
        wcs.check(0);
        equal(opcode, wcs.opcode(0), "opcode");
        equal(wrId, wcs.wrId(0), "wr_id");
        return 0;
    }

    /** Waits for one completion on {@code cq} and returns its status. */
    private WcStatus anyCompletion(Cq cq) {
        long deadline = System.nanoTime() + WAIT_NANOS;
        while (cq.poll(wcs) == 0) {
            require(System.nanoTime() < deadline, "no completion on " + cq + " within 5 s");
        }
        return wcs.status(0);
    }

    private void put(Mr mr, long offset, String text) {
        MemorySegment.copy(text.getBytes(StandardCharsets.US_ASCII), 0, mr.memory(), ValueLayout.JAVA_BYTE, offset,
                text.length());
    }

    private static String get(Mr mr, long offset, int length) {
        byte[] bytes = new byte[length];
        MemorySegment.copy(mr.memory(), ValueLayout.JAVA_BYTE, offset, bytes, 0, length);
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    private void sendRecv() {
        qpB.postRecv(new RecvWr().wrId(100).sge(mrB.sge(0, 256)));
        put(mrA, 0, "hello over rxe");
        qpA.postSend(new SendWr().wrId(1).opcode(WrOpcode.SEND).sge(mrA.sge(0, 14)).flags(SendFlags.SIGNALED));
        completion(cqA, WcOpcode.SEND, 1);
        completion(cqB, WcOpcode.RECV, 100);
        equal(14, wcs.byteLen(0), "byte_len");
        equal(qpB.qpNum(), wcs.qpNum(0), "qp_num");
        equal("hello over rxe", get(mrB, 0, 14), "received");
    }

    private void sendWithImm() {
        qpB.postRecv(new RecvWr().wrId(101).sge(mrB.sge(0, 256)));
        qpA.postSend(new SendWr().wrId(2).opcode(WrOpcode.SEND_WITH_IMM).sge(mrA.sge(0, 4))
                .flags(SendFlags.SIGNALED).immData(0xCAFEBABE));
        completion(cqA, WcOpcode.SEND, 2);
        completion(cqB, WcOpcode.RECV, 101);
        require((wcs.wcFlags(0) & WcBuffer.WITH_IMM) != 0, "no IBV_WC_WITH_IMM");
        equal(0xCAFEBABE, wcs.immData(0), "imm_data");
    }

    private void rdmaWrite() {
        put(mrA, 512, "written by RDMA");
        qpA.postSend(new SendWr().wrId(3).opcode(WrOpcode.RDMA_WRITE).sge(mrA.sge(512, 15))
                .flags(SendFlags.SIGNALED).rdma(mrB.addr() + 1024, mrB.rkey()));
        completion(cqA, WcOpcode.RDMA_WRITE, 3);
        equal("written by RDMA", get(mrB, 1024, 15), "remote memory");
    }

    private void rdmaWriteWithImm() {
        qpB.postRecv(new RecvWr().wrId(102).sge(mrB.sge(0, 16)));
        put(mrA, 600, "imm write");
        qpA.postSend(new SendWr().wrId(4).opcode(WrOpcode.RDMA_WRITE_WITH_IMM).sge(mrA.sge(600, 9))
                .flags(SendFlags.SIGNALED).immData(7).rdma(mrB.addr() + 2048, mrB.rkey()));
        completion(cqA, WcOpcode.RDMA_WRITE, 4);
        completion(cqB, WcOpcode.RECV_RDMA_WITH_IMM, 102);
        equal(7, wcs.immData(0), "imm_data");
        equal("imm write", get(mrB, 2048, 9), "remote memory");
    }

    private void rdmaRead() {
        put(mrB, 3000, "read me remotely");
        qpA.postSend(new SendWr().wrId(5).opcode(WrOpcode.RDMA_READ).sge(mrA.sge(3500, 16))
                .flags(SendFlags.SIGNALED).rdma(mrB.addr() + 3000, mrB.rkey()));
        completion(cqA, WcOpcode.RDMA_READ, 5);
        equal("read me remotely", get(mrA, 3500, 16), "read into local memory");
    }

    private void compareAndSwap() {
        mrB.memory().set(ValueLayout.JAVA_LONG, 64, 41L);
        qpA.postSend(new SendWr().wrId(6).opcode(WrOpcode.ATOMIC_CMP_AND_SWP).sge(mrA.sge(64, 8))
                .flags(SendFlags.SIGNALED).atomic(mrB.addr() + 64, mrB.rkey(), 41L, 99L));
        completion(cqA, WcOpcode.COMP_SWAP, 6);
        equal(41L, mrA.memory().get(ValueLayout.JAVA_LONG, 64), "original value");
        equal(99L, mrB.memory().get(ValueLayout.JAVA_LONG, 64), "swapped value");
        qpA.postSend(new SendWr().wrId(7).opcode(WrOpcode.ATOMIC_CMP_AND_SWP).sge(mrA.sge(64, 8))
                .flags(SendFlags.SIGNALED).atomic(mrB.addr() + 64, mrB.rkey(), 41L, 5L));
        completion(cqA, WcOpcode.COMP_SWAP, 7);
        equal(99L, mrB.memory().get(ValueLayout.JAVA_LONG, 64), "value after a failed compare");
    }

    private void fetchAndAdd() {
        mrB.memory().set(ValueLayout.JAVA_LONG, 128, 1000L);
        qpA.postSend(new SendWr().wrId(8).opcode(WrOpcode.ATOMIC_FETCH_AND_ADD).sge(mrA.sge(128, 8))
                .flags(SendFlags.SIGNALED).atomic(mrB.addr() + 128, mrB.rkey(), 234L, 0L));
        completion(cqA, WcOpcode.FETCH_ADD, 8);
        equal(1000L, mrA.memory().get(ValueLayout.JAVA_LONG, 128), "fetched value");
        equal(1234L, mrB.memory().get(ValueLayout.JAVA_LONG, 128), "sum");
    }

    private void lists() {
        List<RecvWr> recvs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            recvs.add(new RecvWr().wrId(200 + i).sge(mrB.sge(256L * i, 256)));
        }
        qpB.postRecv(recvs);
        put(mrA, 0, "ab");
        put(mrA, 100, "cd");
        SendWr third = new SendWr().wrId(12).opcode(WrOpcode.SEND).sge(mrA.sge(100, 2)).flags(SendFlags.SIGNALED);
        SendWr second = new SendWr().wrId(11).opcode(WrOpcode.SEND).sge(mrA.sge(0, 2)).next(third);
        SendWr first = new SendWr().wrId(10).opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED)
                .sgList(mrA.sge(0, 2), mrA.sge(100, 2)).next(second);
        qpA.postSend(first);
        completion(cqA, WcOpcode.SEND, 10);
        completion(cqA, WcOpcode.SEND, 12);
        int[] lengths = {4, 2, 2};
        String[] texts = {"abcd", "ab", "cd"};
        for (int i = 0; i < 3; i++) {
            completion(cqB, WcOpcode.RECV, 200 + i);
            equal(lengths[i], wcs.byteLen(0), "byte_len of receive " + i);
            equal(texts[i], get(mrB, 256L * i, lengths[i]), "receive " + i);
        }
    }

    private void flags() {
        qpB.postRecv(new RecvWr().wrId(300).sge(mrB.sge(0, 256)));
        qpB.postRecv(new RecvWr().wrId(301).sge(mrB.sge(256, 256)));
        MemorySegment unregistered = arena.allocate(32);
        unregistered.setString(0, "inline data");
        qpA.postSend(new SendWr().wrId(20).opcode(WrOpcode.SEND)
                .sge(new Sge(unregistered.address(), 11, 0)).flags(SendFlags.SIGNALED | SendFlags.INLINE));
        completion(cqA, WcOpcode.SEND, 20);
        completion(cqB, WcOpcode.RECV, 300);
        equal("inline data", get(mrB, 0, 11), "inline payload");
        qpA.postSend(new SendWr().wrId(21).opcode(WrOpcode.SEND).sge(mrA.sge(0, 2))
                .flags(SendFlags.SIGNALED | SendFlags.SOLICITED | SendFlags.FENCE));
        completion(cqA, WcOpcode.SEND, 21);
        completion(cqB, WcOpcode.RECV, 301);
    }

    private void providerBadIndex() {
        int tooLong = qpA.cap().maxInlineData() + 1;
        MemorySegment big = arena.allocate(tooLong);
        SendWr bad = new SendWr().wrId(32).opcode(WrOpcode.RDMA_WRITE).sge(new Sge(big.address(), tooLong, 0))
                .flags(SendFlags.SIGNALED | SendFlags.INLINE).rdma(mrB.addr(), mrB.rkey());
        SendWr good2 = new SendWr().wrId(31).opcode(WrOpcode.RDMA_WRITE).sge(mrA.sge(0, 8))
                .rdma(mrB.addr(), mrB.rkey()).next(bad);
        SendWr good1 = new SendWr().wrId(30).opcode(WrOpcode.RDMA_WRITE).sge(mrA.sge(0, 8))
                .flags(SendFlags.SIGNALED).rdma(mrB.addr(), mrB.rkey()).next(good2);
        try {
            qpA.postSend(good1);
            throw new AssertionError("inline data beyond max_inline_data was posted");
        } catch (WrException e) {
            equal(2, e.badIndex(), "bad index in " + e.getMessage());
            equal("ibv_post_send", e.call(), "call");
            System.out.println("  " + e.getMessage());
        }
        completion(cqA, WcOpcode.RDMA_WRITE, 30);
    }

    private void tooManySges() {
        Sge[] five = new Sge[qpA.cap().maxSendSge() + 1];
        for (int i = 0; i < five.length; i++) {
            five[i] = mrA.sge(i, 1);
        }
        try {
            qpA.postSend(new SendWr().wrId(40).opcode(WrOpcode.RDMA_WRITE).sgList(five).rdma(mrB.addr(), mrB.rkey()));
            throw new AssertionError("posted more SGEs than max_send_sge");
        } catch (WrException e) {
            equal(0, e.badIndex(), "bad index");
            equal(EINVAL, e.errno(), "errno");
        }
    }

    private void completionChannel() {
        try (CompChannel channel = ctx.compChannel()) {
            Cq cq = ctx.cq(8, channel);
            Qp sender = pd.qp(new QpInitAttr(QpType.RC, cq, cq));
            Qp receiver = pd.qp(new QpInitAttr(QpType.RC, cq, cq));
            connect(sender, receiver, 7);
            connect(receiver, sender, 7);
            cq.reqNotify(false);
            require(channel.getEvent(Duration.ofMillis(200)) == null, "event before any completion");
            receiver.postRecv(new RecvWr().wrId(50).sge(mrB.sge(0, 64)));
            sender.postSend(new SendWr().wrId(51).opcode(WrOpcode.SEND).sge(mrA.sge(0, 8)).flags(SendFlags.SIGNALED));
            Cq woken = channel.getEvent(Duration.ofSeconds(5));
            equal(cq, woken, "CQ of the event");
            cq.reqNotify(true);
            int seen = 0;
            long deadline = System.nanoTime() + WAIT_NANOS;
            while (seen < 2 && System.nanoTime() < deadline) {
                if (cq.poll(wcs) == 1) {
                    wcs.check(0);
                    seen++;
                }
            }
            equal(2, seen, "completions after the wakeup");
        }
        // closing the channel closed its CQ and, through it, the two QPs
    }

    private void byteBuffer() {
        ByteBuffer buffer = ByteBuffer.allocateDirect(256);
        try (Mr mr = pd.mr(buffer, Access.LOCAL_WRITE | Access.REMOTE_WRITE)) {
            put(mrA, 0, "into a ByteBuffer");
            qpA.postSend(new SendWr().wrId(60).opcode(WrOpcode.RDMA_WRITE).sge(mrA.sge(0, 17))
                    .flags(SendFlags.SIGNALED).rdma(mr.addr() + 10, mr.rkey()));
            completion(cqA, WcOpcode.RDMA_WRITE, 60);
            byte[] bytes = new byte[17];
            buffer.get(10, bytes);
            equal("into a ByteBuffer", new String(bytes, StandardCharsets.US_ASCII), "buffer content");
        }
        try {
            pd.mr(ByteBuffer.allocate(16), Access.LOCAL_WRITE);
            throw new AssertionError("registered a heap buffer");
        } catch (IllegalArgumentException expected) {
            // only direct buffers can be registered
        }
    }

    private void uc() {
        Qp a = pd.qp(new QpInitAttr(QpType.UC, cqA, cqA).cap(new QpCap(4, 4, 1, 1, 0)));
        Qp b = pd.qp(new QpInitAttr(QpType.UC, cqB, cqB).cap(new QpCap(4, 4, 1, 1, 0)));
        try {
            for (Qp[] ends : new Qp[][] {{a, b}, {b, a}}) {
                ends[0].modify(new QpAttr().qpState(QpState.INIT).pkeyIndex(0).portNum(PORT)
                        .qpAccessFlags(Access.REMOTE_WRITE));
                ends[0].modify(new QpAttr().qpState(QpState.RTR).pathMtu(Mtu.MTU_1024).destQpNum(ends[1].qpNum())
                        .rqPsn(0).ahAttr(new AhAttr().grh(gid, GID_INDEX, 1).portNum(PORT)));
                ends[0].modify(new QpAttr().qpState(QpState.RTS).sqPsn(0));
            }
            equal(QpType.UC, a.type(), "type");
            put(mrA, 0, "uc write");
            a.postSend(new SendWr().wrId(110).opcode(WrOpcode.RDMA_WRITE).sge(mrA.sge(0, 8))
                    .flags(SendFlags.SIGNALED).rdma(mrB.addr() + 3900, mrB.rkey()));
            completion(cqA, WcOpcode.RDMA_WRITE, 110);
            b.postRecv(new RecvWr().wrId(111).sge(mrB.sge(0, 64)));
            a.postSend(new SendWr().wrId(112).opcode(WrOpcode.SEND).sge(mrA.sge(0, 8)).flags(SendFlags.SIGNALED));
            completion(cqA, WcOpcode.SEND, 112);
            completion(cqB, WcOpcode.RECV, 111);
            long deadline = System.nanoTime() + WAIT_NANOS;
            while (!get(mrB, 3900, 8).equals("uc write")) {
                require(System.nanoTime() < deadline, "UC RDMA write did not land: " + get(mrB, 3900, 8));
            }
        } finally {
            a.close();
            b.close();
        }
    }

    /** Four threads post 200 signaled RDMA writes each on one queue pair; every completion arrives once. */
    private void concurrentPosting() throws InterruptedException {
        int threads = 4;
        int each = 200;
        try (Cq cq = ctx.cq(threads * each)) {
            Qp a = pd.qp(new QpInitAttr(QpType.RC, cq, cq).cap(new QpCap(threads * each, 1, 1, 1, 0)));
            Qp b = pd.qp(new QpInitAttr(QpType.RC, cqB, cqB).cap(new QpCap(1, 1, 1, 1, 0)));
            connect(a, b, 7);
            connect(b, a, 7);
            List<Throwable> errors = Collections.synchronizedList(new ArrayList<>());
            List<Thread> posters = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                posters.add(Thread.ofPlatform().start(() -> {
                    try {
                        SendWr wr = new SendWr().opcode(WrOpcode.RDMA_WRITE).sge(mrA.sge(8L * thread, 8))
                                .flags(SendFlags.SIGNALED).rdma(mrB.addr() + 8L * thread, mrB.rkey());
                        for (int i = 0; i < each; i++) {
                            a.postSend(wr.wrId(thread * 1000L + i));
                        }
                    } catch (Throwable e) {
                        errors.add(e);
                    }
                }));
            }
            for (Thread poster : posters) {
                poster.join();
            }
            require(errors.isEmpty(), "posting failed: " + errors);
            boolean[] seen = new boolean[threads * 1000];
            WcBuffer many = new WcBuffer(32);
            int completed = 0;
            long deadline = System.nanoTime() + WAIT_NANOS * 4;
            while (completed < threads * each) {
                require(System.nanoTime() < deadline, completed + " of " + threads * each + " completions");
                int n = cq.poll(many);
                for (int i = 0; i < n; i++) {
                    many.check(i);
                    int id = (int) many.wrId(i);
                    require(!seen[id], "wr_id " + id + " completed twice");
                    seen[id] = true;
                }
                completed += n;
            }
            b.close();
        }
    }

    /** A fresh RC pair on the shared CQs, for checks that break their queue pairs. */
    private Qp[] pair(int rnrRetry) {
        return pair(pd, cqA, cqB, null, rnrRetry);
    }

    /**
     * Two RC queue pairs on {@code domain}, connected to each other: the first completes on
     * {@code firstCq}, the second on {@code secondCq} and receives from {@code srq} unless it is
     * null; four requests of one element each.
     */
    private Qp[] pair(Pd domain, Cq firstCq, Cq secondCq, Srq srq, int rnrRetry) {
        Qp a = domain.qp(new QpInitAttr(QpType.RC, firstCq, firstCq).cap(new QpCap(4, 4, 1, 1, 0)));
        Qp b = domain.qp(new QpInitAttr(QpType.RC, secondCq, secondCq).srq(srq)
                .cap(new QpCap(4, srq == null ? 4 : 0, 1, 1, 0)));
        connect(a, b, rnrRetry);
        connect(b, a, rnrRetry);
        return new Qp[] {a, b};
    }

    private void remoteAccessViolation() {
        Qp[] qps = pair(7);
        try {
            qps[0].postSend(new SendWr().wrId(70).opcode(WrOpcode.RDMA_WRITE).sge(mrA.sge(0, 8))
                    .flags(SendFlags.SIGNALED).rdma(mrB.addr(), mrB.rkey() + 1));
            equal(WcStatus.REM_ACCESS_ERR, anyCompletion(cqA), "status");
            try {
                wcs.check(0);
                throw new AssertionError("check passed an error completion");
            } catch (WcException e) {
                equal(WcStatus.REM_ACCESS_ERR.value(), e.status(), "WcException status");
                equal(qps[0].qpNum(), e.qpNum(), "WcException QP");
                equal(70L, e.wrId(), "WcException wr_id");
                System.out.println("  " + e.getMessage());
            }
            equal(QpState.ERR, qps[0].query().qpState(), "requester state");
            for (AsyncEvent e = ctx.getAsyncEvent(Duration.ofMillis(500)); e != null;
                    e = ctx.getAsyncEvent(Duration.ofMillis(500))) {
                System.out.println("  async event after the violation: " + e.type() + " on " + e.subject());
            }
            drain(cqB);
        } finally {
            qps[0].close();
            qps[1].close();
        }
    }

    private void rnrRetryExceeded() {
        Qp[] qps = pair(0);
        try {
            qps[0].postSend(new SendWr().wrId(80).opcode(WrOpcode.SEND).sge(mrA.sge(0, 8)).flags(SendFlags.SIGNALED));
            equal(WcStatus.RNR_RETRY_EXC_ERR, anyCompletion(cqA), "status");
        } finally {
            qps[0].close();
            qps[1].close();
        }
    }

    private void drain(Cq cq) {
        while (cq.poll(wcs) > 0) {
            System.out.println("  drained " + wcs.status(0) + " wr_id " + wcs.wrId(0));
        }
    }

    private void srq() {
        try (Srq srq = pd.srq(new SrqAttr(16, 1, 0))) {
            require(srq.granted().maxWr() >= 16, "granted " + srq.granted());
            Qp[] qps = pair(pd, cqA, cqB, srq, 7);
            Qp sender = qps[0];
            Qp receiver = qps[1];
            try {
                receiver.postRecv(new RecvWr().sge(mrB.sge(0, 8)));
                throw new AssertionError("posted to the receive queue of a QP on an SRQ");
            } catch (IllegalStateException expected) {
                // receives go to the SRQ
            }
            List<RecvWr> recvs = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                recvs.add(new RecvWr().wrId(400 + i).sge(mrB.sge(64L * i, 64)));
            }
            srq.postRecv(recvs);
            srq.armLimit(3);
            equal(3, srq.query().srqLimit(), "queried limit");
            for (int i = 0; i < 2; i++) {
                sender.postSend(new SendWr().wrId(90 + i).opcode(WrOpcode.SEND).sge(mrA.sge(0, 8))
                        .flags(SendFlags.SIGNALED));
                completion(cqA, WcOpcode.SEND, 90 + i);
                completion(cqB, WcOpcode.RECV, 400 + i);
                equal(receiver.qpNum(), wcs.qpNum(0), "receiving QP");
            }
            AsyncEvent event = ctx.getAsyncEvent(Duration.ofSeconds(5));
            while (event != null && event.type() != EventType.SRQ_LIMIT_REACHED) {
                System.out.println("  earlier async event: " + event.type() + " on " + event.subject());
                event = ctx.getAsyncEvent(Duration.ofSeconds(5));
            }
            require(event != null, "no SRQ limit event");
            equal(srq, event.srq(), "event SRQ");
            ctx.handleAsyncEvent(event);
            try {
                ctx.handleAsyncEvent(new AsyncEvent(EventType.QP_FATAL, null, receiver, null, 0));
                throw new AssertionError("a QP fatal event was not raised");
            } catch (AsyncException expected) {
                equal(EventType.QP_FATAL.value(), expected.eventType(), "AsyncException type");
            }
        }
        // closing the SRQ closed the receiver QP on it
    }

    private void ud() {
        try (Pd udPd = ctx.pd()) {
            Cq cq = ctx.cq(16);
            Mr mr = udPd.mr(arena.allocate(BUFFER), Access.LOCAL_WRITE);
            Qp a = udPd.qp(new QpInitAttr(QpType.UD, cq, cq).cap(new QpCap(4, 4, 1, 1, 0)));
            Qp b = udPd.qp(new QpInitAttr(QpType.UD, cq, cq).cap(new QpCap(4, 4, 1, 1, 0)));
            for (Qp qp : new Qp[] {a, b}) {
                qp.modify(new QpAttr().qpState(QpState.INIT).pkeyIndex(0).portNum(PORT).qkey(QKEY));
                qp.modify(new QpAttr().qpState(QpState.RTR));
                qp.modify(new QpAttr().qpState(QpState.RTS).sqPsn(0));
            }
            equal(QKEY, b.query(QpAttr.QKEY).qkey(), "qkey");
            Ah ah = udPd.ah(new AhAttr().grh(gid, GID_INDEX, 1).portNum(PORT));
            b.postRecv(new RecvWr().wrId(500).sge(mr.sge(1024, 40 + 64)));
            put(mr, 0, "datagram");
            a.postSend(new SendWr().wrId(501).opcode(WrOpcode.SEND).sge(mr.sge(0, 8)).flags(SendFlags.SIGNALED)
                    .ud(ah, b.qpNum(), QKEY));
            int sends = 0;
            int recvs = 0;
            long deadline = System.nanoTime() + WAIT_NANOS;
            while ((sends == 0 || recvs == 0) && System.nanoTime() < deadline) {
                if (cq.poll(wcs) == 1) {
                    wcs.check(0);
                    if (wcs.opcode(0) == WcOpcode.RECV) {
                        recvs++;
                        equal(48, wcs.byteLen(0), "byte_len (40 GRH bytes + 8)");
                        equal(a.qpNum(), wcs.srcQp(0), "src_qp");
                        require((wcs.wcFlags(0) & WcBuffer.GRH) != 0, "no IBV_WC_GRH");
                    } else {
                        sends++;
                    }
                }
            }
            equal(1, sends, "send completions");
            equal(1, recvs, "receive completions");
            equal("datagram", get(mr, 1024 + 40, 8), "payload after the GRH");
        }
    }

    /**
     * {@link Pd#ah(IBPath)} keeps the handles of the paths looked up most recently, up to its
     * capacity, and closes the one looked up least recently beyond it; handles made with
     * {@link Pd#ah(AhAttr)} are never its to close.
     */
    private void ahCache() {
        EndPort endPort = Rdma.getDevice(device).endPort(PORT).orElseThrow();
        IBPath base = IBPath.builder(endPort).hasGrh(true).sgid(gid).dgid(gid).hopLimit(64).build();
        List<IBPath> paths = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            int label = i;
            paths.add(base.copy(b -> b.flowLabel(label)));
        }
        List<Resource> closedWithTheDomain;
        try (Pd cachePd = ctx.pd()) {
            equal(Pd.DEFAULT_AH_CACHE_CAPACITY, cachePd.ahCacheCapacity(), "default capacity");
            cachePd.ahCacheCapacity(4);
            List<Ah> ahs = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                ahs.add(cachePd.ah(paths.get(i)));
            }
            require(ahs.get(0).isClosed() && ahs.get(1).isClosed(), "the two looked up first are closed");
            for (int i = 2; i < 6; i++) {
                require(cachePd.ah(paths.get(i)) == ahs.get(i) && !ahs.get(i).isClosed(), "path " + i + " cached");
            }
            cachePd.ah(paths.get(2));
            ahs.add(cachePd.ah(paths.get(6)));
            require(ahs.get(3).isClosed() && !ahs.get(2).isClosed(), "the least recently used goes, not the oldest");
            Ah own = cachePd.ah(AhAttr.fromPath(paths.get(7)));
            cachePd.ahCacheCapacity(16);
            List<Ah> many = new ArrayList<>();
            for (IBPath path : paths) {
                many.add(cachePd.ah(path));
            }
            equal(16L, many.stream().filter(ah -> !ah.isClosed()).count(), "open handles of 200 paths");
            for (int i = 184; i < 200; i++) {
                require(!many.get(i).isClosed(), "path " + i + " cached");
            }
            cachePd.ahCacheCapacity(1);
            equal(1L, many.stream().filter(ah -> !ah.isClosed()).count(), "open handles after shrinking to 1");
            require(!many.get(199).isClosed(), "the last one used stays");
            require(!own.isClosed(), "a handle made with ah(AhAttr) is the caller's");
            closedWithTheDomain = List.of(cachePd, own, many.get(199));
        }
        for (Resource r : closedWithTheDomain) {
            require(r.isClosed(), r + " left open");
        }
    }

    private void multicast() {
        try (Cq cq = ctx.cq(4)) {
            Qp qp = pd.qp(new QpInitAttr(QpType.UD, cq, cq));
            qp.modify(new QpAttr().qpState(QpState.INIT).pkeyIndex(0).portNum(PORT).qkey(QKEY));
            Gid group = Gid.parse("ff0e::ffff:e000:0101");
            qp.attachMcast(group, 0);
            qp.detachMcast(group, 0);
        }
    }

    /**
     * Bytes allocated by this thread per SEND/RECV round trip (post a receive, post a send, poll
     * both completions) once the JIT has compiled the loop, through the general posts and
     * through prepared requests.
     */
    private void allocation() {
        RecvWr recv = new RecvWr().wrId(1).sge(mrB.sge(0, 64));
        SendWr send = new SendWr().wrId(2).opcode(WrOpcode.SEND).sge(mrA.sge(0, 64)).flags(SendFlags.SIGNALED);
        WcBuffer buffer = new WcBuffer(4);
        allocationPerRoundTrip("postRecv/postSend", () -> {
            qpB.postRecv(recv);
            qpA.postSend(send);
            awaitBoth(buffer);
        });
        PreparedRecv preparedRecv = qpB.prepareRecv(recv);
        PreparedSend preparedSend = qpA.prepareSend(send);
        allocationPerRoundTrip("prepared", () -> {
            preparedRecv.post();
            preparedSend.post();
            awaitBoth(buffer);
        });
    }

    private void awaitBoth(WcBuffer buffer) {
        while (cqA.poll(buffer) == 0) {
            Thread.onSpinWait();
        }
        while (cqB.poll(buffer) == 0) {
            Thread.onSpinWait();
        }
    }

    /**
     * Requires less than a byte allocated per {@code roundTrip} over 10,000 of them after 30,000
     * of warm-up ({@link ThreadCounters#allocatedBy}).
     */
    private static void allocationPerRoundTrip(String what, Runnable roundTrip) {
        long start = System.nanoTime();
        roundTrips(roundTrip, 30_000);
        int measured = 10_000;
        long bytes = ThreadCounters.allocatedBy(() -> roundTrips(roundTrip, measured));
        double micros = (System.nanoTime() - start) / 1e3 / (30_000 + measured);
        System.out.printf("  %s: %d bytes allocated in %d round trips (%.2f bytes each), %.1f us per round trip%n",
                what, bytes, measured, (double) bytes / measured, micros);
        require(bytes < measured, what + ": " + bytes + " bytes allocated in " + measured + " round trips");
    }

    private static void roundTrips(Runnable roundTrip, int n) {
        for (int i = 0; i < n; i++) {
            roundTrip.run();
        }
    }

    /**
     * Prepared requests of every kind, changed in place between posts: RDMA writes walking
     * through both buffers, SEND with immediate into a prepared receive, fetch-and-add, and
     * receives prepared on a shared receive queue.
     */
    private void prepared() {
        put(mrA, 2560, "0123456789abcdef");
        PreparedSend write = qpA.prepareSend(new SendWr().wrId(30).opcode(WrOpcode.RDMA_WRITE).sge(mrA.sge(2560, 4))
                .flags(SendFlags.SIGNALED).rdma(mrB.addr() + 2560, mrB.rkey()));
        equal(WrOpcode.RDMA_WRITE, write.opcode(), "opcode");
        for (int i = 0; i < 4; i++) {
            write.wrId(30 + i).sgeAddr(0, mrA.addr() + 2560 + 4L * i).remoteAddr(mrB.addr() + 2560 + 4L * i, mrB.rkey())
                    .post();
            completion(cqA, WcOpcode.RDMA_WRITE, 30 + i);
        }
        equal("0123456789abcdef", get(mrB, 2560, 16), "remote memory after four walking writes");

        PreparedRecv recv = qpB.prepareRecv(new RecvWr().wrId(34).sge(mrB.sge(0, 64)));
        PreparedSend send = qpA.prepareSend(new SendWr().wrId(35).opcode(WrOpcode.SEND_WITH_IMM).sge(mrA.sge(2560, 8)));
        equal(0, send.flags(), "flags as prepared");
        for (int imm : new int[] {1, 0x7eadbeef}) {
            recv.post();
            send.flags(SendFlags.SIGNALED).immData(imm).post();
            equal(SendFlags.SIGNALED, send.flags(), "flags after setting");
            completion(cqA, WcOpcode.SEND, 35);
            completion(cqB, WcOpcode.RECV, 34);
            equal(imm, wcs.immData(0), "imm_data");
            equal("01234567", get(mrB, 0, 8), "received");
        }
        recv.wrId(37).sge(0, mrB.sge(100, 8)).post();
        send.wrId(38).sge(0, mrA.sge(2564, 4)).post();
        completion(cqA, WcOpcode.SEND, 38);
        completion(cqB, WcOpcode.RECV, 37);
        equal(4, wcs.byteLen(0), "byte_len after sge()");
        equal("4567", get(mrB, 100, 4), "received after sge()");

        mrB.memory().set(ValueLayout.JAVA_LONG, 192, 5L);
        PreparedSend add = qpA.prepareSend(new SendWr().wrId(36).opcode(WrOpcode.ATOMIC_FETCH_AND_ADD)
                .sge(mrA.sge(192, 8)).flags(SendFlags.SIGNALED).atomic(mrB.addr() + 192, mrB.rkey(), 10L, 0L));
        add.post();
        completion(cqA, WcOpcode.FETCH_ADD, 36);
        equal(5L, mrA.memory().get(ValueLayout.JAVA_LONG, 192), "first fetched value");
        add.atomic(mrB.addr() + 192, mrB.rkey(), 100L, 0L).post();
        completion(cqA, WcOpcode.FETCH_ADD, 36);
        equal(15L, mrA.memory().get(ValueLayout.JAVA_LONG, 192), "second fetched value");
        equal(115L, mrB.memory().get(ValueLayout.JAVA_LONG, 192), "sum");

        try (Srq srq = pd.srq(new SrqAttr(8, 1, 0))) {
            Qp[] qps = pair(pd, cqA, cqB, srq, 7);
            Qp sender = qps[0];
            Qp receiver = qps[1];
            PreparedRecv shared = srq.prepareRecv(new RecvWr().wrId(39).sge(mrB.sge(0, 64)));
            PreparedSend toSrq = sender.prepareSend(new SendWr().wrId(40).opcode(WrOpcode.SEND).sge(mrA.sge(2560, 2))
                    .flags(SendFlags.SIGNALED));
            for (int i = 0; i < 2; i++) {
                shared.post();
                toSrq.post();
                completion(cqA, WcOpcode.SEND, 40);
                completion(cqB, WcOpcode.RECV, 39);
                equal(receiver.qpNum(), wcs.qpNum(0), "receiving QP");
            }
        }
    }

    /** What a prepared request refuses, what the provider refuses, and use after close. */
    private void preparedMisuse() throws Exception {
        SendWr second = new SendWr().sge(mrA.sge(0, 8));
        expect(IllegalArgumentException.class, () -> qpA.prepareSend(new SendWr().sge(mrA.sge(0, 8)).next(second)));
        int maxSge = qpA.cap().maxSendSge();
        Sge[] many = new Sge[maxSge + 1];
        Arrays.fill(many, mrA.sge(0, 8));
        expect(IllegalArgumentException.class, () -> qpA.prepareSend(new SendWr().sgList(many)));
        PreparedSend send = qpA.prepareSend(new SendWr().opcode(WrOpcode.SEND).sge(mrA.sge(0, 8)));
        expect(IllegalStateException.class, () -> send.remoteAddr(mrB.addr(), mrB.rkey()));
        expect(IllegalStateException.class, () -> send.atomic(mrB.addr(), mrB.rkey(), 1, 1));
        expect(IndexOutOfBoundsException.class, () -> send.sgeAddr(1, mrA.addr()));
        Qp[] qps = pair(7);
        PreparedRecv recv = qps[1].prepareRecv(new RecvWr().wrId(41).sge(mrB.sge(0, 8)));
        int posted = 0;
        try {
            for (; posted < 10_000; posted++) {
                recv.post();
            }
            throw new AssertionError("the provider took 10,000 receives on a queue of " + qps[1].cap().maxRecvWr());
        } catch (WrException e) {
            equal("ibv_post_recv", e.call(), "call");
            equal(0, e.badIndex(), "bad index");
            require(posted >= qps[1].cap().maxRecvWr(), posted + " posted of " + qps[1].cap().maxRecvWr());
            System.out.println("  after " + posted + " receives: " + e.getMessage());
        }
        qps[0].close();
        qps[1].close();
        expectClosed(recv::post);
        expectClosed(() -> recv.wrId(1));
        expectClosed(() -> qps[0].prepareSend(new SendWr()));
    }

    /**
     * A context opened confined to this thread: traffic as usual, while another thread can
     * neither post, poll nor close, and the owner's close frees everything.
     */
    private void confined() throws Exception {
        require(!ctx.isConfined(), "Verbs.open gave a confined context");
        Context own = Verbs.openConfined(device);
        Cq cq;
        try {
            require(own.isConfined(), "Verbs.openConfined gave a shared context");
            Pd ownPd = own.pd();
            cq = own.cq(8);
            Mr mr = ownPd.mr(arena.allocate(256), Access.LOCAL_WRITE);
            Qp[] qps = pair(ownPd, cq, cq, null, 7);
            Qp a = qps[0];
            Qp b = qps[1];
            PreparedRecv recv = b.prepareRecv(new RecvWr().wrId(50).sge(mr.sge(128, 64)));
            PreparedSend send = a.prepareSend(new SendWr().wrId(51).opcode(WrOpcode.SEND).sge(mr.sge(0, 8))
                    .flags(SendFlags.SIGNALED));
            MemorySegment.copy("confined".getBytes(StandardCharsets.US_ASCII), 0, mr.memory(), ValueLayout.JAVA_BYTE,
                    0, 8);
            WcBuffer two = new WcBuffer(2);
            sendAndReceive(send, recv, cq, two);
            equal("confined", get(mr, 128, 8), "received");
            List<RuntimeException> failures = Collections.synchronizedList(new ArrayList<>());
            Thread other = Thread.ofPlatform().start(() -> {
                for (Runnable attempt : List.<Runnable>of(send::post, () -> cq.poll(two), own::close)) {
                    try {
                        attempt.run();
                        failures.add(null);
                    } catch (RuntimeException e) {
                        failures.add(e);
                    }
                }
            });
            other.join();
            equal(3, failures.size(), "attempts from another thread");
            require(failures.get(0) instanceof WrongThreadException, "post from another thread: " + failures.get(0));
            require(failures.get(1) instanceof WrongThreadException, "poll from another thread: " + failures.get(1));
            require(failures.get(2) instanceof IllegalStateException, "close from another thread: " + failures.get(2));
            System.out.println("  close from another thread: " + failures.get(2).getMessage());
            require(!own.isClosed() && !a.isClosed() && !cq.isClosed(), "another thread's close closed something");
            sendAndReceive(send, recv, cq, two);
        } finally {
            own.close();
        }
        require(own.isClosed() && cq.isClosed(), "the owner's close left the context or its CQ open");
    }

    /** Posts {@code recv}, then {@code send}, and waits for both to complete successfully on {@code cq}. */
    private static void sendAndReceive(PreparedSend send, PreparedRecv recv, Cq cq, WcBuffer two) {
        recv.post();
        send.post();
        int completions = 0;
        long deadline = System.nanoTime() + WAIT_NANOS;
        while (completions < 2) {
            require(System.nanoTime() < deadline, completions + " of 2 completions within 5 s");
            int n = cq.poll(two);
            for (int i = 0; i < n; i++) {
                two.check(i);
            }
            completions += n;
        }
    }

    private static void expect(Class<? extends RuntimeException> type, VmChecks.Check action) throws Exception {
        try {
            action.run();
            throw new AssertionError("no " + type.getSimpleName());
        } catch (RuntimeException e) {
            require(type.isInstance(e), "expected " + type.getSimpleName() + ", got " + e);
            System.out.println("  " + type.getSimpleName() + ": " + e.getMessage());
        }
    }

    private void useAfterClose() throws Exception {
        Qp[] qps = pair(7);
        Mr mr = pd.mr(arena.allocate(64), Access.LOCAL_WRITE);
        qps[0].close();
        mr.close();
        expectClosed(() -> qps[0].postSend(new SendWr().sge(mrA.sge(0, 8))));
        expectClosed(() -> qps[0].postRecv(new RecvWr().sge(mrA.sge(0, 8))));
        expectClosed(() -> qps[0].modify(new QpAttr().qpState(QpState.RESET)));
        expectClosed(qps[0]::query);
        expectClosed(mr::sge);
        qps[1].close();
    }

    private static void expectClosed(VmChecks.Check action) throws Exception {
        try {
            action.run();
            throw new AssertionError("a closed object was used");
        } catch (IllegalStateException expected) {
            require(expected.getMessage().contains("closed"), expected.getMessage());
        }
    }

    private void closeOrder() throws Exception {
        Context second = Verbs.open(device);
        Pd pd2 = second.pd();
        CompChannel channel = second.compChannel();
        Cq cq = second.cq(8, channel);
        Mr mr = pd2.mr(arena.allocate(64), Access.LOCAL_WRITE);
        Srq srq = pd2.srq(new SrqAttr(4, 1, 0));
        Qp qp = pd2.qp(new QpInitAttr(QpType.RC, cq, cq).srq(srq));
        Ah ah = pd2.ah(new AhAttr().grh(gid, GID_INDEX, 1).portNum(PORT));
        second.close();
        for (Resource r : List.<Resource>of(second, pd2, channel, cq, mr, srq, qp, ah)) {
            require(r.isClosed(), r + " left open");
        }
        second.close();
        qp.close();
        expectClosed(second::pd);
        ctx.close();
        ctx.close();
        for (Resource r : List.<Resource>of(ctx, pd, cqA, cqB, qpA, qpB, mrA, mrB)) {
            require(r.isClosed(), r + " left open");
        }
    }
}

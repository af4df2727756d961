package org.jrdma.mad.verbs;

import static org.jrdma.testkit.vm.VmChecks.equal;
import static org.jrdma.testkit.vm.VmChecks.require;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jrdma.Rdma;
import org.jrdma.devices.EndPort;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Guid;
import org.jrdma.iba.Iba;
import org.jrdma.iba.Mad;
import org.jrdma.iba.cm.CmReq;
import org.jrdma.iba.mad.MadClassPortInfo;
import org.jrdma.iba.mad.MadHeader;
import org.jrdma.iba.sa.SaNodeRecord;
import org.jrdma.iba.sa.SaPathRecord;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.wire.Bits;
import org.jrdma.mad.GmpClient;
import org.jrdma.mad.IncomingRequest;
import org.jrdma.mad.MadAddress;
import org.jrdma.mad.MadEngine;
import org.jrdma.mad.MadException;
import org.jrdma.mad.MadTimeoutException;
import org.jrdma.mad.MadTransactor;
import org.jrdma.mad.ReceivedMad;
import org.jrdma.mad.SaTransactor;
import org.jrdma.mad.TestVendorAttributes;
import org.jrdma.mad.umad.UmadTransport;
import org.jrdma.path.IBPath;
import org.jrdma.testkit.vm.VmChecks;
import org.jrdma.verbs.Context;

/**
 * {@link VMad} against real peers on {@code rxe0} in the soft-RoCE VM, run by
 * {@code VMadInVmTest}: the kernel's GSI (QP1 of the port's own GID) answering and the kernel's
 * communication manager ({@code ib_cm}) rejecting a REQ; a jrdma SA agent registered through the
 * kernel's umad answering PathRecord and NodeRecord queries sent over the VMad (with the kernel's
 * RMPP on the server side and the engine's on the VMad's); a umad client asking a server on the
 * VMad's QP; and the error paths. Each check prints {@code PASS name (ms)} or {@code FAIL name:
 * reason}; the exit status is the number of failures.
 */
public final class VMadInVm {
    private static final Duration WAIT = Duration.ofSeconds(3);
    private static final int CM_CLASS_VERSION = 2;
    private static final int VENDOR_CLASS = 0x09;
    private static final int UNSERVED_CLASS = 0x0A;
    /** A Service ID no listener has: the top byte 0x10 is a range IBA leaves to the user. */
    private static final long UNUSED_SERVICE_ID = 0x1000_0000_0000_4321L;
    private static final int LOCAL_COMM_ID = 0x1234_5678;

    private final EndPort endPort;
    private final Gid gid;
    /** Our own GID's QP1, the kernel's GSI, with a GRH as RoCE needs. */
    private final IBPath toQp1;
    private final VmChecks checks = new VmChecks();

    private VMadInVm(EndPort endPort) {
        this.endPort = endPort;
        this.gid = endPort.defaultGid();
        this.toQp1 = IBPath.builder(endPort).hasGrh(true).dgid(gid).sgid(gid).hopLimit(255).dqpn(Iba.QP1)
                .qkey(Iba.IB_DEFAULT_QP1_QKEY).retries(1).respTime(19).build();
    }

    public static void main(String[] args) throws Exception {
        new VMadInVm(Rdma.getEndPort()).run();
    }

    private void run() {
        checks.check("open on an end port and on a context", this::open);
        checks.check("sendto and recvfrom with the kernel GSI answering a CommMgt Get from QP1", this::rawGsi);
        checks.check("kernel CM receives a REQ for an unused Service ID and sends its REJ to QP1", this::cmReject);
        checks.check("SA over verbs with a umad SA agent answering PathRecord Get and GetTable (kernel RMPP)", this::saQueries);
        checks.check("SaTransactor over verbs answering SubnGet NodeInfo from a NodeRecord", this::saTransactor);
        checks.check("server on the VMad answering a umad client's VendGet by sendReply", this::serverSide);
        checks.check("timeout when nobody answers", this::timeout);
        checks.check("bad paths (no GRH on RoCE, GRH without DGID, SMPs, QP0)", this::badPaths);
        checks.check("close then use; the QP is gone", this::closeThenUse);
        checks.check("get_gmp_mad falls back to a VMad on a port without umad", this::gmpMadFallback);
        checks.exit();
    }

    private void open() {
        try (VMad vmad = new VMad(endPort)) {
            equal(endPort, vmad.endPort().orElseThrow(), "end port");
            equal(Iba.IB_DEFAULT_QP1_QKEY, vmad.qkey(), "GSI Q_Key by default");
            equal(Iba.DEFAULT_PKEY, vmad.pkey(), "default P_Key");
            require(vmad.qpNum() > 1, "a QP of our own: " + vmad);
            System.out.println("  " + vmad);
        }
        try (Context ctx = Rdma.getVerbs(endPort)) {
            try (VMad vmad = new VMad(ctx, IBPath.builder(endPort).qkey(0x1234).build(), 4)) {
                equal(0x1234, vmad.qkey(), "Q_Key from the path");
            }
            require(!ctx.isClosed(), "closing the VMad leaves the caller's context open");
        }
    }

    /** The seed's raw API: a CommMgt Get(ClassPortInfo) to QP1, which ib_cm does not serve, so the kernel's MAD layer answers. */
    private void rawGsi() {
        try (VMad vmad = new VMad(endPort)) {
            byte[] get = header(Mad.CLASS_CM, CM_CLASS_VERSION, Mad.METHOD_GET, MadClassPortInfo.ATTRIBUTE_ID);
            Bits.u64(get, 8, 0x0102_0304_0506_0708L);
            vmad.sendto(get, toQp1);
            VMad.Datagram reply = vmad.recvfrom(System.nanoTime() + WAIT.toNanos());
            require(reply != null, "no reply within " + WAIT);
            byte[] mad = reply.mad();
            System.out.println("  reply path: " + reply.path());
            equal(256, mad.length, "MAD length");
            equal(Mad.METHOD_GET_RESP, mad[3] & 0xFF, "method GetResp");
            equal(0x000C, Bits.u16(mad, 4), "status: unsupported method/attribute");
            equal(0x0102_0304_0506_0708L, Bits.u64(mad, 8), "TID echoed");
            equal(Iba.QP1, reply.path().sqpn().orElseThrow(), "from QP1");
            equal(vmad.qpNum(), reply.path().dqpn().orElseThrow(), "to our QP");
            equal(gid, reply.path().sgid().orElseThrow(), "SGID from the GRH");
            require(vmad.recvfrom(System.nanoTime() + 100_000_000L) == null, "recvfrom returns null when nothing comes");
        }
    }

    /**
     * A REQ to the kernel's CM on QP1. ib_cm has no listener for the Service ID and rejects it
     * with reason 8 (invalid Service ID); the REJ goes to QP1 of the requester's GID, as Linux's
     * CM sends every response to QP1, so it is read from ib_cm's counters.
     */
    private void cmReject() throws IOException {
        long reqs = cmCounter("cm_rx_msgs", "req");
        long rejs = cmCounter("cm_tx_msgs", "rej");
        long rejsIn = cmCounter("cm_rx_msgs", "rej");
        try (MadEngine engine = new MadEngine(new VMad(endPort), 4)) {
            engine.registerServer(Mad.CLASS_CM, CM_CLASS_VERSION, 1L << Mad.METHOD_SEND, 0);
            MadTransactor mt = new MadTransactor(engine, endPort);
            int qpn = ((VMad) engine.transport()).qpNum();
            CmReq req = new CmReq().localCommunicationId(LOCAL_COMM_ID).serviceId(UNUSED_SERVICE_ID)
                    .localCaGuid(endPort.portGuid()).localQKey(0).localQpn(qpn + 1).startingPsn(0x123)
                    .localCmResponseTimeout(20).remoteCmResponseTimeout(20).retryCount(7).rnrRetryCount(7)
                    .maxCmRetries(1).partitionKey(Iba.DEFAULT_PKEY).pathPacketPayloadMtu(3)
                    .primaryLocalPortGid(gid).primaryRemotePortGid(gid).primaryHopLimit(255)
                    .primaryLocalAckTimeout(14).primaryPacketRate(3)
                    .primaryLocalPortLid(0xFFFF).primaryRemotePortLid(0xFFFF);
            mt.commMgtSend(req, toQp1, 0);
            ReceivedMad rej = engine.receiveRequest(WAIT);
            System.out.println(String.format("  ib_cm counters: rx REQ %d->%d, tx REJ %d->%d, rx REJ %d->%d; REJ at the VMad: %s",
                    reqs, cmCounter("cm_rx_msgs", "req"), rejs, cmCounter("cm_tx_msgs", "rej"), rejsIn,
                    cmCounter("cm_rx_msgs", "rej"), rej == null ? "none" : rej.from()));
            equal(reqs + 1, cmCounter("cm_rx_msgs", "req"), "ib_cm received the REQ");
            equal(rejs + 1, cmCounter("cm_tx_msgs", "rej"), "ib_cm sent a REJ");
            require(rej == null, "Linux's CM answers QP1, not the requester's QP: " + rej);
            equal(rejsIn + 1, cmCounter("cm_rx_msgs", "rej"), "the REJ went to QP1 of our GID, where ib_cm took it");
        }
    }

    private long cmCounter(String group, String message) throws IOException {
        return Long.parseLong(Files.readString(Path.of("/sys/class/infiniband", endPort.deviceName(), "ports",
                Integer.toString(endPort.portNumber()), group, message)).strip());
    }

    /** A umad SA agent on rxe0 answering PathRecord queries whose DLID says how many records to return. */
    private void saQueries() throws Exception {
        try (SaServer sa = new SaServer(); MadEngine engine = new MadEngine(new VMad(endPort), 4)) {
            MadTransactor mt = new MadTransactor(engine, endPort);
            SaPathRecord one = mt.subnAdmGet(new SaPathRecord().dlid(1), SaPathRecord.DLID_COMPONENT_MASK, toQp1);
            equal(pathRecords(1).getFirst(), one, "Get: the record");
            List<String> sizes = new ArrayList<>();
            for (int count : new int[] {1, 3, 40}) {
                List<SaPathRecord> table = mt.subnAdmGetTable(new SaPathRecord().dlid(count), SaPathRecord.DLID_COMPONENT_MASK, toQp1);
                equal(pathRecords(count), table, "GetTable of " + count);
                sizes.add(table.size() + " of " + count);
            }
            System.out.println("  tables " + sizes + ", " + sa.served + " requests served by " + sa.transport.describe());
            sa.check();
        }
    }

    private void saTransactor() throws Exception {
        try (SaServer sa = new SaServer(); MadEngine engine = new MadEngine(new VMad(endPort), 4)) {
            SaTransactor st = new SaTransactor(new MadTransactor(engine, endPort).withSaPath(toQp1));
            SmpNodeInfo info = st.subnGet(SmpNodeInfo.class, IBPath.builder(endPort).dlid(7).build(), 0);
            equal(0x7000L + 7, info.nodeGuid().value(), "NodeInfo of LID 7 from the SA's NodeRecord");
            sa.check();
        }
    }

    private void serverSide() throws Exception {
        try (MadEngine serverEngine = new MadEngine(new VMad(endPort), 4);
                MadEngine clientEngine = new MadEngine(UmadTransport.open(endPort.deviceName(), endPort.portNumber()), 4)) {
            MadTransactor server = new MadTransactor(serverEngine, endPort);
            server.registerServer(VENDOR_CLASS, 1, 1L << Mad.METHOD_GET, 0);
            AtomicBoolean stop = new AtomicBoolean();
            List<Throwable> failures = new ArrayList<>();
            Thread serving = Thread.ofPlatform().start(() -> {
                try {
                    while (!stop.get()) {
                        ReceivedMad in = serverEngine.receiveRequest(Duration.ofMillis(100));
                        if (in != null) {
                            IncomingRequest request = server.parseRequest(in);
                            server.sendReply(request, new TestVendorAttributes.Counters().fill((int) request.attributeModifier()));
                        }
                    }
                } catch (Throwable t) {
                    failures.add(t);
                }
            });
            try {
                int qpn = ((VMad) serverEngine.transport()).qpNum();
                IBPath toVmad = toQp1.copy(b -> b.dqpn(qpn));
                MadTransactor client = new MadTransactor(clientEngine, endPort);
                equal(new TestVendorAttributes.Counters().fill(9), client.vendGet(TestVendorAttributes.Counters.class, toVmad, 9),
                        "VendGet answered from QP " + qpn);
            } finally {
                stop.set(true);
                serving.join();
            }
            equal(List.of(), failures, "server failures");
        }
    }

    private void timeout() {
        try (MadEngine engine = new MadEngine(new VMad(endPort), 4)) {
            byte[] request = header(UNSERVED_CLASS, 1, Mad.METHOD_GET_TABLE, 0x10);
            long start = System.nanoTime();
            try {
                engine.execute(request, new MadAddress(0, Iba.QP1, Iba.IB_DEFAULT_QP1_QKEY, 0, 0, gid),
                        Duration.ofMillis(300), 2);
                throw new AssertionError("a GetTable of an unserved class was answered");
            } catch (MadTimeoutException e) {
                long ms = (System.nanoTime() - start) / 1_000_000;
                System.out.println("  " + e.getMessage());
                require(ms >= 850 && ms < 3000, "three attempts of 300 ms took " + ms + " ms");
                require(e.getMessage().contains("3 attempts"), "attempts in the message");
            }
        }
    }

    private void badPaths() {
        try (VMad vmad = new VMad(endPort); MadEngine engine = new MadEngine(new VMad(endPort), 2)) {
            byte[] get = header(VENDOR_CLASS, 1, Mad.METHOD_GET, 0x10);
            expect(IllegalArgumentException.class, "GRH", () -> vmad.sendto(get, IBPath.builder(endPort).dlid(1).build()));
            expect(IllegalArgumentException.class, "DGID", () -> vmad.sendto(get, IBPath.builder(endPort).hasGrh(true).build()));
            expect(IllegalArgumentException.class, "QP0", () -> vmad.sendto(get, toQp1.copy(b -> b.dqpn(0))));
            expect(IllegalArgumentException.class, "SMP", () -> vmad.sendto(header(Mad.CLASS_SUBN_LID_ROUTED, 1, Mad.METHOD_GET, 0x11), toQp1));
            expect(IllegalArgumentException.class, "bytes", () -> vmad.sendto(new byte[300], toQp1));
            GmpClient lidOnly = new GmpClient(engine, Duration.ofMillis(200), 0);
            expect(IllegalArgumentException.class, "GRH", () -> lidOnly.subnAdmGet(new SaPathRecord(), 0, 1));
            vmad.sendto(get, toQp1.copy(b -> b.sgid(null)));   // a missing SGID is the port's GID 0
        }
    }

    /**
     * python-rdma's {@code get_gmp_mad(end_port[, verbs=ctx])} on a port without a umad device
     * (this port as sysfs shows it, less its umad path): a transactor on a {@link VMad}, whose
     * CommMgt Get reaches the kernel's GSI, and which closes its own context but not the caller's.
     */
    private void gmpMadFallback() {
        EndPort noUmad = new EndPort(endPort.deviceName(), endPort.portNumber(), endPort.lid(), endPort.lmc(), endPort.smLid(),
                endPort.smSl(), endPort.state(), endPort.physState(), endPort.rate(), endPort.capabilityMask(),
                endPort.linkLayer(), endPort.gids(), endPort.pkeys(), endPort.subnetTimeout(), Optional.empty(),
                endPort.issmPath());
        IBPath path = toQp1.copy(b -> b.endPort(noUmad));
        try (MadTransactor mt = Rdma.getGmpMad(noUmad)) {
            require(mt.engine().transport() instanceof VMad, "transport " + mt.engine().transport().describe());
            MadException unsupported = expectMadException(() -> mt.commMgtGet(MadClassPortInfo.class, path));
            equal(0x000C, unsupported.status().orElse(-1), "the GSI's status: unsupported method/attribute");
        }
        try (Context ctx = Rdma.getVerbs(endPort)) {
            try (MadTransactor mt = Rdma.getGmpMad(noUmad, ctx)) {
                require(mt.engine().transport() instanceof VMad, "transport " + mt.engine().transport().describe());
            }
            require(!ctx.isClosed(), "closing the transactor leaves the caller's context open");
        }
        try (MadTransactor mt = Rdma.getGmpMad(endPort)) {
            require(mt.engine().transport() instanceof UmadTransport, "with umad: " + mt.engine().transport().describe());
        }
    }

    private static MadException expectMadException(Runnable rpc) {
        try {
            rpc.run();
        } catch (MadException e) {
            return e;
        }
        throw new AssertionError("the RPC succeeded");
    }

    private void closeThenUse() throws Exception {
        VMad vmad = new VMad(endPort);
        int qpn = vmad.qpNum();
        require(qps().contains("lqpn " + qpn + " "), "the QP is listed by rdma resource while open");
        vmad.close();
        vmad.close();
        require(!qps().contains("lqpn " + qpn + " "), "the QP is gone after close");
        byte[] get = header(VENDOR_CLASS, 1, Mad.METHOD_GET, 0x10);
        expect(IllegalStateException.class, "closed", () -> vmad.sendto(get, toQp1));
        expect(IllegalStateException.class, "closed", () -> vmad.recvfrom(System.nanoTime()));
        expect(IllegalStateException.class, "closed", () -> vmad.registerServer(VENDOR_CLASS, 1, 2, 0));
    }

    private static String qps() throws IOException, InterruptedException {
        Process process = new ProcessBuilder("rdma", "resource", "show", "qp").redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor();
        return out;
    }

    private static void expect(Class<? extends Throwable> type, String inMessage, Runnable action) {
        try {
            action.run();
        } catch (Throwable t) {
            require(type.isInstance(t) && t.getMessage().contains(inMessage),
                    "expected " + type.getSimpleName() + " saying \"" + inMessage + "\", got " + t);
            System.out.println("  " + t.getClass().getSimpleName() + ": " + t.getMessage());
            return;
        }
        throw new AssertionError("no " + type.getSimpleName() + " (" + inMessage + ")");
    }

    /** {@code count} distinct PathRecords. */
    private List<SaPathRecord> pathRecords(int count) {
        List<SaPathRecord> records = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            records.add(new SaPathRecord().dlid(i).slid(1000 + i).sgid(gid).dgid(gid).hopLimit(64));
        }
        return records;
    }

    /** A 256-byte MAD with its common header filled in, the TID left zero. */
    private static byte[] header(int mgmtClass, int classVersion, int method, int attributeId) {
        byte[] mad = new byte[256];
        new MadHeader(mad, 0).baseVersion(Mad.BASE_VERSION).mgmtClass(mgmtClass).classVersion(classVersion).method(method)
                .attributeId(attributeId);
        return mad;
    }

    /**
     * A jrdma SA agent registered through the kernel's umad on the end port (Get and GetTable of
     * the SA class): PathRecords by DLID ({@link #pathRecords}) and NodeRecords whose NodeGUID is
     * 0x7000 + LID.
     */
    private final class SaServer implements AutoCloseable {
        final UmadTransport transport = UmadTransport.open(endPort.deviceName(), endPort.portNumber());
        final MadEngine engine = new MadEngine(transport, 4);
        final MadTransactor server = new MadTransactor(engine, endPort);
        final AtomicBoolean stop = new AtomicBoolean();
        final List<Throwable> failures = new ArrayList<>();
        volatile int served;
        final Thread thread;

        SaServer() {
            server.registerServer(Mad.CLASS_SUBN_ADM, GmpClient.SA_CLASS_VERSION, 1L << Mad.METHOD_GET | 1L << Mad.METHOD_GET_TABLE, 0);
            thread = Thread.ofPlatform().name("sa-server").start(this::serve);
        }

        private void serve() {
            try {
                while (!stop.get()) {
                    ReceivedMad in = engine.receiveRequest(Duration.ofMillis(100));
                    if (in == null) {
                        continue;
                    }
                    IncomingRequest request = server.parseRequest(in);
                    served++;
                    if (request.attribute().orElseThrow() instanceof SaPathRecord pr) {
                        List<SaPathRecord> records = pathRecords(pr.dlid());
                        if (request.method() == Mad.METHOD_GET) {
                            server.sendReply(request, records.getFirst());
                        } else {
                            server.sendReply(request, records);
                        }
                    } else {
                        SaNodeRecord nr = request.attribute(SaNodeRecord.class);
                        SaNodeRecord answer = new SaNodeRecord().lid(nr.lid());
                        answer.nodeInfo().nodeGuid(new Guid(0x7000L + nr.lid()));
                        server.sendReply(request, answer);
                    }
                }
            } catch (Throwable t) {
                failures.add(t);
            }
        }

        void check() {
            equal(List.of(), failures, "SA server failures");
        }

        @Override
        public void close() {
            stop.set(true);
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                engine.close();
            }
        }
    }
}

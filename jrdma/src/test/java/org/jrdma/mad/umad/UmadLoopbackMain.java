package org.jrdma.mad.umad;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jrdma.Rdma;
import org.jrdma.SysException;
import org.jrdma.devices.EndPort;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Iba;
import org.jrdma.iba.Mad;
import org.jrdma.iba.sa.SaNodeRecord;
import org.jrdma.iba.wire.Bits;
import org.jrdma.mad.IncomingRequest;
import org.jrdma.mad.MadAddress;
import org.jrdma.mad.MadEngine;
import org.jrdma.mad.MadTimeoutException;
import org.jrdma.mad.MadTransactor;
import org.jrdma.mad.ReceivedMad;
import org.jrdma.mad.TestVendorAttributes;
import org.jrdma.mad.umad.ffi.UmadFile;
import org.jrdma.path.IBPath;

/**
 * Real kernel MAD traffic over one soft-RoCE port, run inside the VM by
 * {@link UmadTransportVmTest}: a {@link UmadTransport} serving a vendor class (0x09) and the SA
 * class answers requests that a second one, wrapped in a {@link MadEngine}, sends to the port's
 * own GID over QP1. Prints one PASS or FAIL line per check, then {@code DONE}.
 *
 * <p>Arguments: the RDMA device and port, e.g. {@code rxe0 1}.
 */
public final class UmadLoopbackMain {
    private static final int VENDOR_CLASS = 0x09;
    private static final int UNSERVED_CLASS = 0x0A;
    private static final int SA_CLASS_VERSION = 2;
    private static final int SA_DATA_OFFSET = 56;
    private static final int RMPP_DATA_BYTES = 1000;
    private static final int PARALLEL_REQUESTS = 16;
    private static final Duration ATTEMPT = Duration.ofSeconds(5);

    private static int failures;

    private UmadLoopbackMain() {
    }

    public static void main(String[] args) throws Exception {
        String ca = args[0];
        int port = Integer.parseInt(args[1]);
        Gid gid = Gid.parse(Files.readString(Path.of("/sys/class/infiniband", ca, "ports", args[1], "gids", "0")).strip());
        MadAddress self = new MadAddress(0, 1, Iba.IB_DEFAULT_QP1_QKEY, 0, 0, gid);
        UmadDevice device = UmadDevice.find(ca, port);
        check(device.caName().equals(ca) && device.path().toString().matches("/dev/infiniband/umad[0-9]+"),
                "sysfs lookup of " + ca + "/" + port + ": " + device);

        try (UmadTransport server = UmadTransport.open(ca, port);
                MadEngine client = new MadEngine(UmadTransport.open(device, Duration.ofSeconds(4)), PARALLEL_REQUESTS)) {
            server.registerServer(VENDOR_CLASS, 1, 1L << Mad.METHOD_GET, 0);
            server.registerServer(Mad.CLASS_SUBN_ADM, SA_CLASS_VERSION, 1L << Mad.METHOD_GET_TABLE, 0);
            Responder responder = new Responder(server);
            Thread serving = Thread.ofPlatform().name("responder").start(responder);
            try {
                vendorGets(client, self);
                rmppResponse(client, self);
                unservedClass(client, self);
            } finally {
                responder.stop = true;
                serving.join();
            }
            check(responder.failure == null, "the responder served " + responder.served.get() + " requests"
                    + (responder.failure == null ? " without error" : " and failed: " + responder.failure));
        }
        kernelTimeouts(device, self);
        duplicateRequests(device, self);
        transactors(device, gid);
        System.out.println(failures == 0 ? "DONE all passed" : "DONE " + failures + " failed");
        System.exit(failures == 0 ? 0 : 1);
    }

    /** Get requests in parallel; each GetResp must carry its request's TID and inverted payload. */
    private static void vendorGets(MadEngine client, MadAddress server) throws Exception {
        List<Future<String>> results = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < PARALLEL_REQUESTS; i++) {
                int n = i;
                results.add(pool.submit(() -> vendorGet(client, server, n)));
            }
        }
        List<String> problems = new ArrayList<>();
        String sample = null;
        for (Future<String> r : results) {
            String outcome = r.get();
            if (outcome.startsWith("ok")) {
                sample = outcome;
            } else {
                problems.add(outcome);
            }
        }
        check(problems.isEmpty(), PARALLEL_REQUESTS + " parallel vendor-class Get requests answered with matching TID and payload"
                + (problems.isEmpty() ? " (" + sample + ")" : ": " + problems));
    }

    private static String vendorGet(MadEngine client, MadAddress server, int n) {
        byte[] request = header(VENDOR_CLASS, 1, Mad.METHOD_GET, 0x10 + n, n);
        for (int i = 24; i < 256; i++) {
            request[i] = (byte) (i * 31 + n);
        }
        ReceivedMad reply = client.execute(request, server, ATTEMPT, 1);
        byte[] mad = reply.mad();
        long sent = Bits.u64(request, 8);
        long got = Bits.u64(mad, 8);
        if (mad.length != 256 || Bits.u8(mad, 3) != Mad.METHOD_GET_RESP || Bits.u16(mad, 16) != 0x10 + n) {
            return "request " + n + ": unexpected reply header " + hex(mad, 0, 24);
        }
        if ((int) sent != (int) got) {
            return String.format("request %d: TID 0x%016x answered by 0x%016x", n, sent, got);
        }
        for (int i = 24; i < 256; i++) {
            if (mad[i] != (byte) ~request[i]) {
                return "request " + n + ": payload byte " + i + " is " + mad[i] + ", not " + (byte) ~request[i];
            }
        }
        if (!server.gid().equals(reply.from().gid()) || reply.from().qpn() != 1) {
            return "request " + n + ": reply from " + reply.from();
        }
        return String.format("ok: engine TID 0x%016x, on the wire 0x%016x, reply from QP %d GID %s", sent, got,
                reply.from().qpn(), reply.from().gid());
    }

    /** A GetTable whose response the server sends as 6 RMPP segments and the kernel reassembles. */
    private static void rmppResponse(MadEngine client, MadAddress server) {
        byte[] request = header(Mad.CLASS_SUBN_ADM, SA_CLASS_VERSION, Mad.METHOD_GET_TABLE, 0x0011, 0);
        request[24] = 1; // RMPPVersion
        ReceivedMad reply = client.execute(request, server, ATTEMPT, 1);
        byte[] mad = reply.mad();
        boolean sizeOk = mad.length == SA_DATA_OFFSET + RMPP_DATA_BYTES;
        boolean dataOk = sizeOk && Arrays.equals(mad, SA_DATA_OFFSET, mad.length,
                rmppData(request), 0, RMPP_DATA_BYTES);
        check(Bits.u8(mad, 3) == Mad.METHOD_GET_TABLE_RESP && sizeOk && dataOk,
                "RMPP GetTableResp reassembled by the kernel: " + mad.length + " bytes (expected "
                        + (SA_DATA_OFFSET + RMPP_DATA_BYTES) + "), data " + (dataOk ? "identical" : "DIFFERENT")
                        + ", RMPP flags 0x" + Integer.toHexString(mad[26] & 7));
    }

    /**
     * A class no agent serves: the kernel answers a Get (or Set) itself with status 0x000C
     * (unsupported method/attribute combination) and drops any other request, which times out.
     */
    private static void unservedClass(MadEngine client, MadAddress server) {
        ReceivedMad answer = client.execute(header(UNSERVED_CLASS, 1, Mad.METHOD_GET, 0x10, 0), server, ATTEMPT, 0);
        check(Bits.u8(answer.mad(), 3) == Mad.METHOD_GET_RESP && Bits.u16(answer.mad(), 4) == Mad.STATUS_UNSUP_METHOD_ATTR_COMBO,
                "Get to unserved class 0x0a: the kernel answers GetResp status 0x"
                        + Integer.toHexString(Bits.u16(answer.mad(), 4)));
        long start = System.nanoTime();
        try {
            ReceivedMad reply = client.execute(unanswered(), server, Duration.ofMillis(800), 1);
            check(false, "GetTable to unserved class 0x0a: answered " + hex(reply.mad(), 0, 24));
        } catch (MadTimeoutException e) {
            check(e.getMessage().contains("no response after 2 attempts"), "GetTable to unserved class 0x0a timed out after "
                    + (System.nanoTime() - start) / 1_000_000 + " ms: " + e.getMessage());
        }
    }

    /**
     * The kernel's own response timer: when it is shorter than the engine's, its ETIMEDOUT ends an
     * attempt early as dropped; when it is longer, resends while the kernel still awaits a response
     * are not written again (the kernel would refuse them as duplicates).
     */
    private static void kernelTimeouts(UmadDevice device, MadAddress server) {
        try (MadEngine shortKernel = new MadEngine(UmadTransport.open(device, Duration.ofMillis(300)), 4)) {
            long start = System.nanoTime();
            try {
                shortKernel.execute(unanswered(), server, Duration.ofSeconds(20), 1);
                check(false, "kernel response timeout 300 ms: a reply came");
            } catch (MadTimeoutException e) {
                long millis = (System.nanoTime() - start) / 1_000_000;
                check(e.getMessage().contains("the fabric could not deliver it after 2 attempts") && millis < 10_000,
                        "kernel response timeout 300 ms, engine 20 s: ETIMEDOUT ends each attempt as dropped, "
                                + millis + " ms in all: " + e.getMessage());
            }
        }
        try (MadEngine longKernel = new MadEngine(UmadTransport.open(device, Duration.ofSeconds(3)), 4)) {
            long start = System.nanoTime();
            try {
                longKernel.execute(unanswered(), server, Duration.ofMillis(400), 3);
                check(false, "kernel response timeout 3 s: a reply came");
            } catch (MadTimeoutException e) {
                long millis = (System.nanoTime() - start) / 1_000_000;
                check(e.getMessage().contains("no response after 4 attempts"),
                        "kernel response timeout 3 s, engine 400 ms x 4: resends while the kernel waits are not refused, "
                                + millis + " ms in all: " + e.getMessage());
            }
        } catch (RuntimeException e) {
            check(false, "kernel response timeout 3 s, engine 400 ms x 4: " + e);
        }
    }

    /**
     * Why a resend is not written while the kernel awaits its response: written straight to the
     * device, a second request with the same TID and class is refused with EINVAL.
     */
    private static void duplicateRequests(UmadDevice device, MadAddress server) {
        try (UmadFile file = UmadFile.open(device.path())) {
            file.enablePkeyIndex();
            int agent = file.registerAgent(1, UNSERVED_CLASS, 1, 0, 0, 0);
            byte[] request = unanswered();
            file.write(agent, 3000, request, UmadTransport.address(server));
            try {
                file.write(agent, 3000, request, UmadTransport.address(server));
                check(false, "the kernel accepted a duplicate request");
            } catch (SysException e) {
                check(e.errno() == 22, "the kernel refuses a second request with the same TID while awaiting the first: " + e.getMessage());
            }
        }
    }

    /**
     * The same {@link MadTransactor} RPCs as on ibsim, over the kernel: a server transactor
     * registers a vendor class and the SA class and answers with {@code sendReply} on the path its
     * {@code parseRequest} built from the request's GRH; the client's RPCs go on a path with a GRH to
     * the port's own GID. The SA table replies are segmented and reassembled by the kernel's RMPP,
     * including a one-record reply shorter than a MAD.
     */
    private static void transactors(UmadDevice device, Gid gid) throws InterruptedException {
        EndPort endPort = Rdma.getEndPort(device.caName() + "/" + device.port());
        IBPath path = IBPath.builder(endPort).hasGrh(true).dgid(gid).retries(1).respTime(19).build();
        MadTransactor closed;
        try (MadEngine serverEngine = new MadEngine(UmadTransport.open(device, Duration.ofSeconds(4)), 4);
                MadTransactor client = Rdma.getGmpMad(endPort)) {
            closed = client;
            check(client.engine().transport() instanceof UmadTransport t && t.device().equals(device)
                    && client.endPort().orElseThrow().equals(endPort), "Rdma.getGmpMad: a transactor on the port's umad device");
            MadTransactor server = new MadTransactor(serverEngine, endPort);
            server.registerServer(VENDOR_CLASS, 1, 1L << Mad.METHOD_GET, 0);
            server.registerServer(Mad.CLASS_SUBN_ADM, SA_CLASS_VERSION, 1L << Mad.METHOD_GET_TABLE, 0);
            AtomicBoolean stop = new AtomicBoolean();
            Thread serving = Thread.ofPlatform().name("transactor-server").start(() -> {
                while (!stop.get()) {
                    ReceivedMad in = serverEngine.receiveRequest(Duration.ofMillis(100));
                    if (in == null) {
                        continue;
                    }
                    IncomingRequest request = server.parseRequest(in);
                    if (request.mgmtClass() == VENDOR_CLASS) {
                        server.sendReply(request, new TestVendorAttributes.Counters().fill((int) request.attributeModifier()));
                    } else {
                        server.sendReply(request, nodeRecords(((SaNodeRecord) request.attribute().orElseThrow()).lid()));
                    }
                }
            });
            try {
                TestVendorAttributes.Counters counters = client.vendGet(TestVendorAttributes.Counters.class, path, 5);
                check(counters.equals(new TestVendorAttributes.Counters().fill(5)), "transactor over umad: VendGet answered by a "
                        + "transactor's sendReply on the path parseRequest built from the GRH");
                List<String> sizes = new ArrayList<>();
                boolean tablesOk = true;
                for (int count : new int[] {1, 3, 40}) {
                    List<SaNodeRecord> table = client.subnAdmGetTable(new SaNodeRecord().lid(count), SaNodeRecord.LID_COMPONENT_MASK, path);
                    tablesOk &= table.equals(nodeRecords(count));
                    sizes.add(table.size() + " of " + count);
                }
                check(tablesOk, "transactor over umad: SubnAdmGetTable replies segmented and reassembled by the kernel: " + sizes);
                TestVendorAttributes.Counters later = client.async(m -> m.vendGet(TestVendorAttributes.Counters.class, path, 7)).join();
                check(later.equals(new TestVendorAttributes.Counters().fill(7)), "transactor over umad: async VendGet completed");
                int agent = ((UmadTransport) client.engine().transport()).registerClient(VENDOR_CLASS, 1, 0);
                IBPath viaAgent = path.copy(b -> b.umadAgentId(agent));
                check(client.vendGet(TestVendorAttributes.Counters.class, viaAgent, 9).equals(new TestVendorAttributes.Counters().fill(9)),
                        "umad_agent_id: a request goes through the path's agent " + agent);
                try {
                    client.vendGet(TestVendorAttributes.Counters.class, path.copy(b -> b.umadAgentId(agent + 100)), 9);
                    check(false, "umad_agent_id: sent through an agent never registered");
                } catch (IllegalArgumentException e) {
                    check(true, "umad_agent_id: an agent the transport did not register is refused: " + e.getMessage());
                }
            } catch (RuntimeException e) {
                check(false, "transactor over umad: " + e);
            } finally {
                stop.set(true);
                serving.join();
            }
        }
        try {
            closed.vendGet(TestVendorAttributes.Counters.class, path, 5);
            check(false, "Rdma.getGmpMad: the closed transactor still sent");
        } catch (IllegalStateException e) {
            check(true, "Rdma.getGmpMad: closing the transactor closed its engine: " + e.getMessage());
        }
        try (MadTransactor umad = Rdma.getUmad(endPort)) {
            check(umad.engine().transport() instanceof UmadTransport, "Rdma.getUmad: the device opens again after close");
        }
    }

    /** {@code count} distinct NodeRecords. */
    private static List<SaNodeRecord> nodeRecords(int count) {
        List<SaNodeRecord> records = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            SaNodeRecord r = new SaNodeRecord().lid(i);
            r.nodeDescription().nodeString("node-" + i);
            records.add(r);
        }
        return records;
    }

    /** A request nobody answers: a GetTable of a class no agent serves. */
    private static byte[] unanswered() {
        return header(UNSERVED_CLASS, 1, Mad.METHOD_GET_TABLE, 0x10, 0);
    }

    /** A MAD with its common header filled in (TID left to the engine). */
    private static byte[] header(int mgmtClass, int classVersion, int method, int attributeId, int modifier) {
        byte[] mad = new byte[256];
        mad[0] = Mad.BASE_VERSION;
        mad[1] = (byte) mgmtClass;
        mad[2] = (byte) classVersion;
        mad[3] = (byte) method;
        Bits.u16(mad, 16, attributeId);
        Bits.u32(mad, 20, modifier);
        return mad;
    }

    /** The data the responder returns for a GetTable: a pattern seeded by the request's TID. */
    private static byte[] rmppData(byte[] request) {
        byte[] data = new byte[RMPP_DATA_BYTES];
        int seed = (int) Bits.u32(request, 12);
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (seed + i * 7);
        }
        return data;
    }

    private static String hex(byte[] b, int from, int to) {
        StringBuilder s = new StringBuilder();
        for (int i = from; i < Math.min(to, b.length); i++) {
            s.append(String.format("%02x", b[i]));
        }
        return s.toString();
    }

    private static void check(boolean ok, String what) {
        System.out.println((ok ? "PASS " : "FAIL ") + what);
        if (!ok) {
            failures++;
        }
    }

    /** Answers vendor Gets with a GetResp of inverted payload and SA GetTables with 1000 bytes of RMPP data. */
    private static final class Responder implements Runnable {
        private final UmadTransport transport;
        private final AtomicInteger served = new AtomicInteger();
        private volatile boolean stop;
        private volatile Throwable failure;

        Responder(UmadTransport transport) {
            this.transport = transport;
        }

        @Override
        public void run() {
            try {
                while (!stop) {
                    ReceivedMad in = transport.receive(100);
                    if (in == null || Mad.isResponse(in.mad()[3])) {
                        continue;
                    }
                    byte[] request = in.mad();
                    if (request[1] == VENDOR_CLASS) {
                        byte[] reply = Arrays.copyOf(request, 256);
                        reply[3] = (byte) Mad.METHOD_GET_RESP;
                        for (int i = 24; i < 256; i++) {
                            reply[i] = (byte) ~request[i];
                        }
                        transport.send(reply, in.from());
                    } else if (request[1] == Mad.CLASS_SUBN_ADM) {
                        byte[] reply = Arrays.copyOf(request, SA_DATA_OFFSET + RMPP_DATA_BYTES);
                        reply[3] = (byte) Mad.METHOD_GET_TABLE_RESP;
                        reply[24] = 1; // RMPPVersion
                        reply[25] = 1; // RMPPType DATA
                        reply[26] = 1; // RMPPFlags Active: the kernel segments, numbers and flags the rest
                        System.arraycopy(rmppData(request), 0, reply, SA_DATA_OFFSET, RMPP_DATA_BYTES);
                        transport.send(reply, in.from());
                    }
                    served.incrementAndGet();
                }
            } catch (Throwable t) {
                failure = t;
            }
        }
    }
}

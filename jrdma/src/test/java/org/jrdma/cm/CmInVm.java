package org.jrdma.cm;

import static org.jrdma.testkit.vm.VmChecks.equal;
import static org.jrdma.testkit.vm.VmChecks.require;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jrdma.SysException;
import org.jrdma.iba.Gid;
import org.jrdma.path.IBPath;
import org.jrdma.verbs.Access;
import org.jrdma.verbs.Ah;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Cq;
import org.jrdma.verbs.EventType;
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
import org.jrdma.verbs.WrOpcode;
import org.jrdma.testkit.vm.VmChecks;

/**
 * The checks of {@link CmInVmTest}, run inside the soft-RoCE VM ({@code rdma_cm} and
 * {@code rdma_ucm} loaded, rxe0 on veth0 at 10.0.0.1): the connection manager's calls and events
 * between Java identifiers, and against C {@code rping} both ways, each printed as a PASS or FAIL
 * line.
 */
public final class CmInVm {
    private static final String HOST = "10.0.0.1";
    private static final String HOST6 = "fd00::1";
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final long WAIT_NANOS = WAIT.toNanos();
    /** rping's buffer size here ({@code -S}), and the size of its {@code struct rping_rdma_info}. */
    private static final int RPING_SIZE = 64;
    private static final int RPING_INFO = 16;
    private static final int RPING_COUNT = 3;
    /** The 40 bytes of GRH before a UD receive's payload. */
    private static final int GRH = 40;
    /** rping's data: {@code "rdma-ping-%d: "} then letters from 'A' + ping, wrapping after 'z'. */
    private static final int FIRST_LETTER = 65;
    private static final int LAST_LETTER = 122;
    /** The C examples' (ucmatose, udaddy) message count and size. */
    private static final int MESSAGES = 10;
    private static final int MESSAGE_SIZE = 100;
    /** udaddy's fixed port. */
    private static final int UDADDY_PORT = 7174;
    /** The IPv4 group C {@code mckey -s} sends to. */
    private static final String MCKEY_GROUP = "239.1.2.4";
    private static final int EISCONN = 106;
    private static final int ENETUNREACH = 101;
    /** The IB CM's reject reason when no one listens on the service ID (IBA 12.6.7.2). */
    private static final int INVALID_SERVICE_ID = 8;
    private static final int ETIMEDOUT = 110;

    private final VmChecks checks = new VmChecks();
    /** The C program {@code cm_oracle.c}, built on the host. */
    private final String oracle;
    private final Arena arena = Arena.ofShared();
    private final WcBuffer wcs = new WcBuffer(1);
    private int nextPort = 7400;

    private CmInVm(String oracle) {
        this.oracle = oracle;
    }

    /** Runs every check. */
    public static void main(String[] args) throws Exception {
        CmInVm program = new CmInVm(args[0]);
        program.run();
        program.checks.exit();
    }

    private void run() throws Exception {
        checks.check("availability", () -> require(RdmaCm.isAvailable(), "librdmacm: " + RdmaCm.unavailabilityCause()));
        int[] before = cmResources();
        checks.check("resolve address and route (IPv4)", this::resolveIpv4);
        checks.check("resolve address (IPv6)", this::resolveIpv6);
        checks.check("address that does not resolve (no route)", this::noRoute);
        checks.check("address resolution timeout (nobody answers ARP)", this::arpTimeout);
        checks.check("connect to a port nobody listens on", this::nobodyListens);
        checks.check("reject with private data", this::rejectWithPrivateData);
        checks.check("accept with private data, send and receive, client disconnects", () -> connectAndDisconnect(true));
        checks.check("server disconnects", () -> connectAndDisconnect(false));
        checks.check("notify on an established connection (EISCONN)", this::notifyEstablished);
        checks.check("migrate an identifier to another channel", this::migrate);
        checks.check("synchronous identifiers (get_request, accept, connect)", this::synchronous);
        checks.check("UD over SIDR resolves the remote QPN and Q_Key, then a datagram", this::udSidr);
        checks.check("multicast join and leave", this::multicast);
        checks.check("Java client against C rping -s", this::javaClientCServer);
        checks.check("C rping -c against Java server", this::cClientJavaServer);
        checks.check("Java client against C ucmatose server (RC)", () -> javaClientCUcmatose(PortSpace.TCP));
        checks.check("C ucmatose client against Java server (RC)", () -> cUcmatoseJavaServer(PortSpace.TCP));
        checks.check("Java client against C udaddy server (UD)", this::javaClientCUdaddy);
        checks.check("C udaddy client against Java server (UD)", this::cUdaddyJavaServer);
        checks.check("C mckey sender to a Java member (multicast)", this::cMckeySenderJavaMember);
        checks.check("Java sender to a C mckey member (multicast)", () -> javaSenderCMckeyMember("239.1.2.5", null));
        checks.check("rdma_getaddrinfo answers as in C", this::getAddrInfo);
        checks.check("rdma_set_option answers as in C", this::optionsAsInC);
        checks.check("TOS and ACK timeout options reach the route and the queue pair", this::tosAndAckTimeout);
        checks.check("the route's path record as an IBPath, as C reads it", this::pathAsInC);
        checks.check("RDMA_OPTION_IB_PATH from another identifier's IBPath, then a connection", this::ibPathOption);
        checks.check("AF_IB (sockaddr_ib) on rxe0 as in C", this::afIbAsInC);
        checks.check("RDMA_PS_IB connection between Java identifiers", this::portSpaceIb);
        checks.check("Java RDMA_PS_IB client against C ucmatose -P ib server", () -> javaClientCUcmatose(PortSpace.IB));
        checks.check("C ucmatose -P ib client against a Java RDMA_PS_IB server", () -> cUcmatoseJavaServer(PortSpace.IB));
        checks.check("CONNECT_RESPONSE and rdma_establish with queue pairs made by verbs", this::establishOwnQps);
        checks.check("Java send-only member (rdma_join_multicast_ex) to a C mckey member",
                () -> javaSenderCMckeyMember("239.1.2.6", MulticastJoin.SEND_ONLY_FULL_MEMBER));
        checks.check("use after close, double close, channel closes its identifiers", this::closing);
        checks.check("no cm_id or QP left", () -> equal(Arrays.toString(before), Arrays.toString(cmResources()),
                "rdma resource cm_id and qp counts"));
        arena.close();
    }

    private InetSocketAddress address(int port) throws IOException {
        return new InetSocketAddress(InetAddress.getByName(HOST), port);
    }

    private int port() {
        return nextPort++;
    }

    private void resolveIpv4() throws Exception {
        try (EventChannel channel = EventChannel.create()) {
            RdmaCmId id = channel.createId(PortSpace.TCP);
            equal(PortSpace.TCP, id.portSpace(), "port space");
            id.resolveAddr(null, address(port()), WAIT);
            CmEvent resolved = channel.expect(CmEventType.ADDR_RESOLVED, WAIT);
            equal(id, resolved.id(), "event's identifier");
            equal(0, resolved.status(), "status");
            equal("rxe0", id.context().deviceName(), "device");
            equal(1, id.portNum(), "port");
            equal(id.context(), id.context(), "one context per device");
            equal(HOST, id.localAddress().getAddress().getHostAddress(), "local address");
            id.resolveRoute(WAIT);
            channel.expect(CmEventType.ROUTE_RESOLVED, WAIT);
            require(id.numPaths() >= 1, "paths " + id.numPaths());
            equal(id.context().queryGid(1, 1).toString(), id.sgid().toString(), "sgid: the port's IPv4-mapped GID");
        }
    }

    private void resolveIpv6() throws Exception {
        shell("ip -6 addr add " + HOST6 + "/64 dev veth0 nodad");
        try (EventChannel channel = EventChannel.create()) {
            RdmaCmId id = channel.createId(PortSpace.TCP);
            id.resolveAddr(null, new InetSocketAddress(InetAddress.getByName(HOST6), port()), WAIT);
            CmEvent event = channel.expect(CmEventType.ADDR_RESOLVED, WAIT);
            equal(0, event.status(), "status");
            equal(InetAddress.getByName(HOST6), id.localAddress().getAddress(), "local address");
            id.resolveRoute(WAIT);
            channel.expect(CmEventType.ROUTE_RESOLVED, WAIT);
        }
    }

    private void noRoute() throws Exception {
        try (EventChannel channel = EventChannel.create()) {
            RdmaCmId id = channel.createId(PortSpace.TCP);
            try {
                id.resolveAddr(null, new InetSocketAddress(InetAddress.getByName("192.0.2.1"), 7000), WAIT);
                throw new AssertionError("rdma_resolve_addr accepted an address without a route: " + channel.getEvent(WAIT));
            } catch (SysException e) {
                System.out.println("  no route: " + e.getMessage());
                equal(ENETUNREACH, e.errno(), "errno");
                require(e.getMessage().startsWith("rdma_resolve_addr"), e.getMessage());
            }
        }
    }

    private void arpTimeout() throws Exception {
        try (EventChannel channel = EventChannel.create()) {
            RdmaCmId id = channel.createId(PortSpace.TCP);
            id.resolveAddr(null, new InetSocketAddress(InetAddress.getByName("10.0.0.99"), 7000), Duration.ofMillis(500));
            CmEvent event = channel.expect(CmEventType.ADDR_ERROR, WAIT);
            System.out.println("  nobody answers ARP: " + event);
            equal(-ETIMEDOUT, event.status(), "status (-ETIMEDOUT)");
        }
    }

    private void nobodyListens() throws Exception {
        try (EventChannel channel = EventChannel.create()) {
            Side client = active(channel, address(port()));
            client.id.connect(new ConnParam().retryCount(1));
            CmEvent event = channel.getEvent(WAIT);
            System.out.println("  connect to a closed port: " + event);
            require(event != null && event.type() == CmEventType.REJECTED, "REJECTED, got " + event);
            equal(INVALID_SERVICE_ID, event.status(), "status (IB CM reject reason 8, invalid service ID)");
        }
    }

    private void rejectWithPrivateData() throws Exception {
        try (EventChannel server = EventChannel.create(); EventChannel clients = EventChannel.create()) {
            InetSocketAddress at = address(port());
            RdmaCmId listener = listen(server, at);
            Side client = active(clients, at);
            client.id.connect(new ConnParam().privateData(ascii("hello")));
            CmEvent request = server.expect(CmEventType.CONNECT_REQUEST, WAIT);
            equal(listener, request.listenId(), "listening identifier");
            require(request.id() != listener, "a new identifier for the request");
            equal("hello", prefix(request.privateData(), 5), "request's private data");
            request.id().reject(ascii("go away"));
            CmEvent rejected = clients.expect(CmEventType.REJECTED, WAIT);
            System.out.println("  rejected: " + rejected);
            equal("go away", prefix(rejected.privateData(), 7), "reject's private data");
            equal(28, rejected.status(), "status (IB CM reject reason 28, consumer reject)");
        }
    }

    private void connectAndDisconnect(boolean clientDisconnects) throws Exception {
        try (EventChannel server = EventChannel.create(); EventChannel clients = EventChannel.create()) {
            InetSocketAddress at = address(port());
            listen(server, at);
            Side client = active(clients, at);
            client.id.connect(new ConnParam().privateData(ascii("request")).responderResources(1).initiatorDepth(1)
                    .retryCount(7).rnrRetryCount(7));
            CmEvent request = server.expect(CmEventType.CONNECT_REQUEST, WAIT);
            equal(1, request.conn().initiatorDepth(), "initiator depth seen by the server");
            Side passive = passive(request.id());
            passive.qp.postRecv(new RecvWr().wrId(1).sge(passive.mr.sge(0, 64)));
            passive.id.accept(new ConnParam().privateData(ascii("accepted")).responderResources(1).initiatorDepth(1));
            CmEvent established = clients.expect(CmEventType.ESTABLISHED, WAIT);
            equal("accepted", prefix(established.privateData(), 8), "reply's private data");
            server.expect(CmEventType.ESTABLISHED, WAIT);
            equal(passive.qp.qpNum(), established.conn().qpNum(), "server's QPN in the reply");
            equal(client.qp, client.id.qp(), "identifier's QP");
            put(client.mr, 0, "over rdma_cm");
            client.qp.postSend(new SendWr().wrId(2).opcode(WrOpcode.SEND).sge(client.mr.sge(0, 12)).flags(SendFlags.SIGNALED));
            completion(client.cq, WcOpcode.SEND);
            completion(passive.cq, WcOpcode.RECV);
            equal("over rdma_cm", get(passive.mr, 0, 12), "received");
            equal(at, passive.id.localAddress(), "server's local address");
            equal(client.id.localAddress(), passive.id.peerAddress(), "server's peer is the client");
            Side first = clientDisconnects ? client : passive;
            Side second = clientDisconnects ? passive : client;
            first.id.disconnect();
            EventChannel secondChannel = clientDisconnects ? server : clients;
            equal(second.id, secondChannel.expect(CmEventType.DISCONNECTED, WAIT).id(), "peer's DISCONNECTED (DREQ)");
            second.id.disconnect();
            EventChannel firstChannel = clientDisconnects ? clients : server;
            equal(first.id, firstChannel.expect(CmEventType.DISCONNECTED, WAIT).id(), "own DISCONNECTED (DREP)");
        }
    }

    private void notifyEstablished() throws Exception {
        try (EventChannel server = EventChannel.create(); EventChannel clients = EventChannel.create()) {
            InetSocketAddress at = address(port());
            listen(server, at);
            Side client = active(clients, at);
            client.id.connect(new ConnParam());
            Side passive = passive(server.expect(CmEventType.CONNECT_REQUEST, WAIT).id());
            passive.id.accept(new ConnParam());
            clients.expect(CmEventType.ESTABLISHED, WAIT);
            server.expect(CmEventType.ESTABLISHED, WAIT);
            try {
                passive.id.notify(EventType.COMM_EST);
                throw new AssertionError("rdma_notify on an established connection succeeded");
            } catch (SysException e) {
                equal(EISCONN, e.errno(), "errno of " + e.getMessage());
            }
        }
    }

    private void migrate() throws Exception {
        EventChannel first = EventChannel.create();
        try (EventChannel second = EventChannel.create()) {
            RdmaCmId id = first.createId(PortSpace.TCP);
            id.migrate(second);
            equal(second, id.channel(), "channel");
            id.resolveAddr(null, address(port()), WAIT);
            equal(id, second.expect(CmEventType.ADDR_RESOLVED, WAIT).id(), "event on the new channel");
            require(first.getEvent(Duration.ofMillis(200)) == null, "an event on the old channel");
            first.close();
            require(!id.isClosed(), "closing the old channel closed a migrated identifier");
        }
    }

    private void synchronous() throws Exception {
        InetSocketAddress at = address(port());
        try (RdmaCmId listener = RdmaCmId.createSync(PortSpace.TCP)) {
            listener.bindAddr(at);
            listener.listen(4);
            CompletableFuture<String> server = CompletableFuture.supplyAsync(() -> {
                try (RdmaCmId request = listener.getRequest()) {
                    Side passive = passive(request);
                    passive.qp.postRecv(new RecvWr().wrId(1).sge(passive.mr.sge(0, 64)));
                    request.accept(new ConnParam());
                    // the server's own buffer: the client polls into wcs at the same time
                    completion(passive.cq, WcOpcode.RECV, new WcBuffer(1));
                    return get(passive.mr, 0, 4);
                }
            });
            try (RdmaCmId id = RdmaCmId.createSync(PortSpace.TCP)) {
                require(id.channel() == null, "a synchronous identifier has no channel");
                id.resolveAddr(null, at, WAIT);
                id.resolveRoute(WAIT);
                Side client = sideOn(id);
                id.connect(new ConnParam());
                put(client.mr, 0, "sync");
                client.qp.postSend(new SendWr().wrId(2).opcode(WrOpcode.SEND).sge(client.mr.sge(0, 4)).flags(SendFlags.SIGNALED));
                completion(client.cq, WcOpcode.SEND);
                equal("sync", server.get(WAIT.toMillis(), TimeUnit.MILLISECONDS), "received by the synchronous server");
            }
        }
    }

    private void udSidr() throws Exception {
        try (EventChannel server = EventChannel.create(); EventChannel clients = EventChannel.create()) {
            InetSocketAddress at = address(port());
            RdmaCmId listener = server.createId(PortSpace.UDP);
            listener.bindAddr(at);
            listener.listen(4);
            RdmaCmId id = clients.createId(PortSpace.UDP);
            id.resolveAddr(null, at, WAIT);
            clients.expect(CmEventType.ADDR_RESOLVED, WAIT);
            id.resolveRoute(WAIT);
            clients.expect(CmEventType.ROUTE_RESOLVED, WAIT);
            Side client = sideOn(id);
            equal(QpType.UD, client.qp.type(), "QP type");
            id.connect(new ConnParam().privateData(ascii("sidr")));
            CmEvent request = server.expect(CmEventType.CONNECT_REQUEST, WAIT);
            require(request.ud() != null && request.conn() == null, "UD parameters on a UDP request");
            equal("sidr", prefix(request.privateData(), 4), "SIDR request's private data");
            Side passive = passive(request.id());
            passive.qp.postRecv(new RecvWr().wrId(1).sge(passive.mr.sge(0, 40 + 64)));
            passive.id.accept(new ConnParam().qpNum(passive.qp.qpNum()));
            CmEvent established = clients.expect(CmEventType.ESTABLISHED, WAIT);
            System.out.println("  SIDR: " + established);
            equal(passive.qp.qpNum(), established.ud().qpNum(), "remote QPN");
            equal(RdmaCmId.UDP_QKEY, established.ud().qkey(), "remote Q_Key");
            Ah ah = client.pd.ah(established.ud().ahAttr());
            put(client.mr, 0, "datagram");
            client.qp.postSend(new SendWr().wrId(2).opcode(WrOpcode.SEND).sge(client.mr.sge(0, 8)).flags(SendFlags.SIGNALED)
                    .ud(ah, established.ud().qpNum(), established.ud().qkey()));
            completion(client.cq, WcOpcode.SEND);
            completion(passive.cq, WcOpcode.RECV);
            equal(client.qp.qpNum(), wcs.srcQp(0), "source QPN");
            equal("datagram", get(passive.mr, 40, 8), "payload after the GRH");
        }
    }

    private void multicast() throws Exception {
        try (EventChannel channel = EventChannel.create()) {
            RdmaCmId id = channel.createId(PortSpace.UDP);
            id.bindAddr(address(0));
            Side side = sideOn(id);
            InetSocketAddress group = new InetSocketAddress(InetAddress.getByName("239.1.2.3"), 0);
            id.joinMulticast(group);
            CmEvent joined = channel.expect(CmEventType.MULTICAST_JOIN, WAIT);
            System.out.println("  joined: " + joined);
            equal(0xFFFFFF, joined.ud().qpNum(), "a group's QPN");
            require(joined.ud().ahAttr().isGlobal(), "a group's address has a GRH");
            id.leaveMulticast(group);
            require(side.qp.qpNum() > 0, "QP");
        }
    }

    private void javaClientCServer() throws Exception {
        int port = port();
        Process rping = new ProcessBuilder("rping", "-s", "-v", "-a", HOST, "-p", Integer.toString(port),
                "-S", Integer.toString(RPING_SIZE), "-C", Integer.toString(RPING_COUNT)).redirectErrorStream(true).start();
        try (EventChannel channel = EventChannel.create()) {
            Side client = connectRetrying(channel, address(port));
            MemorySegment start = client.mr.memory().asSlice(0, RPING_SIZE);
            MemorySegment sink = client.mr.memory().asSlice(RPING_SIZE, RPING_SIZE);
            MemorySegment info = client.mr.memory().asSlice(2 * RPING_SIZE, RPING_INFO);
            List<String> pings = new ArrayList<>();
            for (int ping = 0; ping < RPING_COUNT; ping++) {
                rpingData(start, ping);
                rpingInfo(info, client.mr.addr(), client.mr.rkey(), RPING_SIZE);
                sendInfo(client);
                awaitGoAhead(client);
                rpingInfo(info, client.mr.addr() + RPING_SIZE, client.mr.rkey(), RPING_SIZE);
                sendInfo(client);
                awaitGoAhead(client);
                equal(cString(start), cString(sink), "data read by rping and written back");
                pings.add(cString(sink));
            }
            client.id.disconnect();
            channel.expect(CmEventType.DISCONNECTED, WAIT);
            String out = output(rping);
            System.out.println("  rping -s said:\n" + out.indent(4));
            for (String ping : pings) {
                require(out.contains("server ping data: " + ping), "rping -s did not see " + ping);
            }
        } finally {
            rping.destroy();
        }
    }

    private void cClientJavaServer() throws Exception {
        int port = port();
        try (EventChannel server = EventChannel.create()) {
            listen(server, address(port));
            Process rping = new ProcessBuilder("rping", "-c", "-v", "-V", "-a", HOST, "-p", Integer.toString(port),
                    "-S", Integer.toString(RPING_SIZE), "-C", Integer.toString(RPING_COUNT)).redirectErrorStream(true).start();
            try {
                Side passive = passive(server.expect(CmEventType.CONNECT_REQUEST, WAIT).id());
                MemorySegment buffer = passive.mr.memory().asSlice(0, RPING_SIZE);
                passive.qp.postRecv(recvInfo(passive));
                passive.id.accept(new ConnParam().responderResources(1).initiatorDepth(1));
                server.expect(CmEventType.ESTABLISHED, WAIT);
                for (int ping = 0; ping < RPING_COUNT; ping++) {
                    long[] source = awaitInfo(passive);
                    passive.qp.postSend(new SendWr().wrId(10).opcode(WrOpcode.RDMA_READ).sge(passive.mr.sge(0, source[2]))
                            .flags(SendFlags.SIGNALED).rdma(source[0], (int) source[1]));
                    completion(passive.cq, WcOpcode.RDMA_READ);
                    require(cString(buffer).startsWith("rdma-ping-" + ping + ": "), "read " + cString(buffer));
                    goAhead(passive);
                    long[] sink = awaitInfo(passive);
                    passive.qp.postSend(new SendWr().wrId(11).opcode(WrOpcode.RDMA_WRITE).sge(passive.mr.sge(0, sink[2]))
                            .flags(SendFlags.SIGNALED).rdma(sink[0], (int) sink[1]));
                    completion(passive.cq, WcOpcode.RDMA_WRITE);
                    goAhead(passive);
                }
                server.expect(CmEventType.DISCONNECTED, WAIT);
                require(rping.waitFor(WAIT.toMillis(), TimeUnit.MILLISECONDS), "rping -c still running");
                String out = output(rping);
                System.out.println("  rping -c said:\n" + out.indent(4));
                equal(0, rping.exitValue(), "rping -c exit status (it validates the data with -V)");
                require(out.contains("ping data: rdma-ping-" + (RPING_COUNT - 1)), "rping -c output");
            } finally {
                rping.destroy();
            }
        }
    }

    /** A Java client in port space {@code ps} against C {@code ucmatose -P tcp|ib} as the server. */
    private void javaClientCUcmatose(PortSpace ps) throws Exception {
        int port = port();
        Process ucmatose = new ProcessBuilder("ucmatose", "-b", HOST, "-p", Integer.toString(port), "-P",
                ps.name().toLowerCase(Locale.ROOT), "-C", Integer.toString(MESSAGES), "-S",
                Integer.toString(MESSAGE_SIZE)).redirectErrorStream(true).start();
        try (EventChannel channel = EventChannel.create()) {
            Side client = null;
            long deadline = System.nanoTime() + WAIT_NANOS;
            while (client == null) {
                Side attempt = active(channel, address(port), ps);
                postMessageRecvs(attempt, 0);
                attempt.id.connect(new ConnParam().responderResources(1).initiatorDepth(1).retryCount(5));
                CmEvent event = channel.getEvent(WAIT);
                if (event != null && event.type() == CmEventType.ESTABLISHED) {
                    client = attempt;
                } else {
                    attempt.id.close();
                    attempt.pd.close();
                    require(System.nanoTime() < deadline, "ucmatose never accepted; last event " + event);
                    Thread.sleep(300);
                }
            }
            equal(MESSAGES, completions(client.cq, WcOpcode.RECV, MESSAGES), "messages from ucmatose");
            postMessageSends(client, null, 0, 0);
            equal(MESSAGES, completions(client.cq, WcOpcode.SEND, MESSAGES), "messages to ucmatose");
            channel.expect(CmEventType.DISCONNECTED, WAIT);
            client.id.disconnect();
            require(ucmatose.waitFor(WAIT.toMillis(), TimeUnit.MILLISECONDS), "ucmatose still running");
            String out = output(ucmatose);
            System.out.println("  ucmatose said:\n" + out.indent(4));
            equal(0, ucmatose.exitValue(), "ucmatose exit status");
            require(out.contains("data transfers complete"), "ucmatose output");
        } finally {
            ucmatose.destroy();
        }
    }

    /** C {@code ucmatose -P tcp|ib} as the client against a Java server in port space {@code ps}. */
    private void cUcmatoseJavaServer(PortSpace ps) throws Exception {
        int port = port();
        try (EventChannel server = EventChannel.create()) {
            RdmaCmId listener = server.createId(ps);
            listener.bindAddr(address(port));
            listener.listen(8);
            Process ucmatose = new ProcessBuilder("ucmatose", "-s", HOST, "-p", Integer.toString(port), "-P",
                    ps.name().toLowerCase(Locale.ROOT), "-C", Integer.toString(MESSAGES), "-S",
                    Integer.toString(MESSAGE_SIZE)).redirectErrorStream(true).start();
            try {
                Side passive = passive(server.expect(CmEventType.CONNECT_REQUEST, WAIT).id());
                postMessageRecvs(passive, 0);
                passive.id.accept(new ConnParam().responderResources(1).initiatorDepth(1));
                server.expect(CmEventType.ESTABLISHED, WAIT);
                postMessageSends(passive, null, 0, 0);
                equal(MESSAGES, completions(passive.cq, WcOpcode.SEND, MESSAGES), "messages to ucmatose");
                equal(MESSAGES, completions(passive.cq, WcOpcode.RECV, MESSAGES), "messages from ucmatose");
                passive.id.disconnect();
                server.expect(CmEventType.DISCONNECTED, WAIT);
                require(ucmatose.waitFor(WAIT.toMillis(), TimeUnit.MILLISECONDS), "ucmatose still running");
                String out = output(ucmatose);
                System.out.println("  ucmatose -s said:\n" + out.indent(4));
                equal(0, ucmatose.exitValue(), "ucmatose exit status");
                require(out.contains("data transfers complete"), "ucmatose output");
            } finally {
                ucmatose.destroy();
            }
        }
    }

    private void javaClientCUdaddy() throws Exception {
        Process udaddy = new ProcessBuilder("udaddy", "-b", HOST, "-C", Integer.toString(MESSAGES), "-S",
                Integer.toString(MESSAGE_SIZE)).redirectErrorStream(true).start();
        try (EventChannel channel = EventChannel.create()) {
            CmEvent established = null;
            Side client = null;
            long deadline = System.nanoTime() + WAIT_NANOS;
            while (established == null) {
                RdmaCmId id = channel.createId(PortSpace.UDP);
                id.resolveAddr(null, address(UDADDY_PORT), WAIT);
                channel.expect(CmEventType.ADDR_RESOLVED, WAIT);
                id.resolveRoute(WAIT);
                channel.expect(CmEventType.ROUTE_RESOLVED, WAIT);
                client = sideOn(id);
                postMessageRecvs(client, GRH);
                id.connect(new ConnParam());
                CmEvent event = channel.getEvent(WAIT);
                if (event != null && event.type() == CmEventType.ESTABLISHED) {
                    established = event;
                } else {
                    id.close();
                    client.pd.close();
                    require(System.nanoTime() < deadline, "udaddy never answered; last event " + event);
                    Thread.sleep(300);
                }
            }
            Ah ah = client.pd.ah(established.ud().ahAttr());
            postMessageSends(client, ah, established.ud().qpNum(), established.ud().qkey());
            equal(MESSAGES, completions(client.cq, WcOpcode.RECV, MESSAGES, WcOpcode.SEND), "replies from udaddy");
            require(udaddy.waitFor(WAIT.toMillis(), TimeUnit.MILLISECONDS), "udaddy still running");
            String out = output(udaddy);
            System.out.println("  udaddy said:\n" + out.indent(4));
            equal(0, udaddy.exitValue(), "udaddy exit status");
            require(out.contains("data transfers complete"), "udaddy output");
        } finally {
            udaddy.destroy();
        }
    }

    private void cUdaddyJavaServer() throws Exception {
        try (EventChannel server = EventChannel.create()) {
            RdmaCmId listener = server.createId(PortSpace.UDP);
            listener.bindAddr(address(UDADDY_PORT));
            listener.listen(4);
            Process udaddy = new ProcessBuilder("udaddy", "-s", HOST, "-C", Integer.toString(MESSAGES), "-S",
                    Integer.toString(MESSAGE_SIZE)).redirectErrorStream(true).start();
            try {
                Side passive = passive(server.expect(CmEventType.CONNECT_REQUEST, WAIT).id());
                postMessageRecvs(passive, GRH);
                passive.id.accept(new ConnParam().qpNum(passive.qp.qpNum()));
                equal(MESSAGES, completions(passive.cq, WcOpcode.RECV, MESSAGES), "messages from udaddy");
                int remoteQpn = wcs.immData(0);
                Ah ah = passive.pd.ah(new org.jrdma.verbs.AhAttr().grh(passive.id.dgid(), gidIndex(passive.id), 64)
                        .portNum(passive.id.portNum()));
                postMessageSends(passive, ah, remoteQpn, RdmaCmId.UDP_QKEY);
                equal(MESSAGES, completions(passive.cq, WcOpcode.SEND, MESSAGES), "replies to udaddy");
                require(udaddy.waitFor(WAIT.toMillis(), TimeUnit.MILLISECONDS), "udaddy still running");
                String out = output(udaddy);
                System.out.println("  udaddy -s said:\n" + out.indent(4));
                equal(0, udaddy.exitValue(), "udaddy exit status");
                require(out.contains("data transfers complete"), "udaddy output");
            } finally {
                udaddy.destroy();
            }
        }
    }

    private void cMckeySenderJavaMember() throws Exception {
        try (EventChannel channel = EventChannel.create()) {
            Side member = multicastMember(channel, MCKEY_GROUP);
            postMessageRecvs(member, GRH);
            member.id.joinMulticast(group(MCKEY_GROUP));
            CmEvent joined = channel.expect(CmEventType.MULTICAST_JOIN, WAIT);
            System.out.println("  joined: " + joined);
            Process mckey = new ProcessBuilder("mckey", "-m", MCKEY_GROUP, "-b", HOST, "-s", "-C", Integer.toString(MESSAGES),
                    "-S", Integer.toString(MESSAGE_SIZE)).redirectErrorStream(true).start();
            try {
                equal(MESSAGES, completions(member.cq, WcOpcode.RECV, MESSAGES), "datagrams from mckey -s to the group");
                equal(GRH + MESSAGE_SIZE, wcs.byteLen(0), "a datagram's length (GRH and payload)");
                String out = output(mckey);
                System.out.println("  mckey -s said:\n" + out.indent(4));
                equal(0, mckey.exitValue(), "mckey exit status");
                require(out.contains("data transfers complete"), "mckey output");
            } finally {
                mckey.destroy();
            }
            member.id.leaveMulticast(group(MCKEY_GROUP));
        }
    }

    /**
     * Sends bursts of {@link #MESSAGES} datagrams to a group until C {@code mckey}, which joins it
     * on its own schedule, has received {@link #MESSAGES} of them and exited.
     */
    private void javaSenderCMckeyMember(String groupAddress, MulticastJoin join) throws Exception {
        Process mckey = new ProcessBuilder("mckey", "-m", groupAddress, "-b", HOST, "-C", Integer.toString(MESSAGES),
                "-S", Integer.toString(MESSAGE_SIZE)).redirectErrorStream(true).start();
        try (EventChannel channel = EventChannel.create()) {
            Side sender = multicastMember(channel, groupAddress);
            if (join == null) {
                sender.id.joinMulticast(group(groupAddress));
            } else {
                sender.id.joinMulticast(group(groupAddress), join);
            }
            CmEvent joined = channel.expect(CmEventType.MULTICAST_JOIN, WAIT);
            System.out.println("  joined " + (join == null ? "" : join + " ") + joined);
            Ah ah = sender.pd.ah(joined.ud().ahAttr());
            long deadline = System.nanoTime() + WAIT_NANOS;
            int bursts = 0;
            while (mckey.isAlive()) {
                require(System.nanoTime() < deadline, "mckey still waiting after " + bursts + " bursts");
                postMessageSends(sender, ah, joined.ud().qpNum(), joined.ud().qkey());
                equal(MESSAGES, completions(sender.cq, WcOpcode.SEND, MESSAGES), "sends to the group");
                bursts++;
                mckey.waitFor(300, TimeUnit.MILLISECONDS);
            }
            String out = output(mckey);
            System.out.println("  mckey (member) said after " + bursts + " bursts:\n" + out.indent(4));
            equal(0, mckey.exitValue(), "mckey exit status");
            require(out.contains("data transfers complete"), "mckey output");
            sender.id.leaveMulticast(group(groupAddress));
        } finally {
            mckey.destroy();
        }
    }

    /** A UDP-port-space identifier bound to the VM's address, with a UD QP, ready to join {@code groupAddress}. */
    private Side multicastMember(EventChannel channel, String groupAddress) throws IOException {
        RdmaCmId id = channel.createId(PortSpace.UDP);
        id.resolveAddr(new InetSocketAddress(InetAddress.getByName(HOST), 0), group(groupAddress), WAIT);
        channel.expect(CmEventType.ADDR_RESOLVED, WAIT);
        return sideOn(id);
    }

    private static InetSocketAddress group(String address) throws IOException {
        return new InetSocketAddress(InetAddress.getByName(address), 0);
    }

    /** The index of the identifier's source GID in its port's GID table. */
    private static int gidIndex(RdmaCmId id) {
        Context ctx = id.context();
        for (int i = 0; i < ctx.queryPort(id.portNum()).gidTblLen(); i++) {
            if (ctx.queryGid(id.portNum(), i).equals(id.sgid())) {
                return i;
            }
        }
        throw new AssertionError("no GID " + id.sgid() + " on port " + id.portNum());
    }

    /** The receive buffers of the C examples' messages: {@link #MESSAGES} of {@code grh} + {@link #MESSAGE_SIZE} bytes. */
    private static void postMessageRecvs(Side side, int grh) {
        for (int i = 0; i < MESSAGES; i++) {
            side.qp.postRecv(new RecvWr().wrId(100 + i).sge(side.mr.sge(1024 + i * 256L, grh + MESSAGE_SIZE)));
        }
    }

    /** {@link #MESSAGES} signaled sends of {@link #MESSAGE_SIZE} bytes; with {@code ah} UD ones carrying our QPN as immediate data, as udaddy's. */
    private static void postMessageSends(Side side, Ah ah, int remoteQpn, int remoteQkey) {
        for (int i = 0; i < MESSAGES; i++) {
            SendWr wr = new SendWr().wrId(200 + i).sge(side.mr.sge(0, MESSAGE_SIZE)).flags(SendFlags.SIGNALED);
            if (ah == null) {
                wr.opcode(WrOpcode.SEND);
            } else {
                wr.opcode(WrOpcode.SEND_WITH_IMM).immData(side.qp.qpNum()).ud(ah, remoteQpn, remoteQkey);
            }
            side.qp.postSend(wr);
        }
    }

    /** Polls until {@code count} successful completions of {@code opcode}, ignoring those of {@code also}; returns how many came. */
    private int completions(Cq cq, WcOpcode opcode, int count, WcOpcode... also) {
        int seen = 0;
        long deadline = System.nanoTime() + WAIT_NANOS;
        while (seen < count && System.nanoTime() < deadline) {
            if (cq.poll(wcs) == 0) {
                Thread.onSpinWait();
                continue;
            }
            wcs.check(0);
            if (wcs.opcode(0) == opcode) {
                seen++;
            } else if (!Arrays.asList(also).contains(wcs.opcode(0))) {
                throw new AssertionError("unexpected " + wcs.opcode(0) + " completion while waiting for " + opcode);
            }
        }
        return seen;
    }

    private void closing() throws Exception {
        EventChannel channel = EventChannel.create();
        RdmaCmId id = channel.createId(PortSpace.TCP);
        id.resolveAddr(null, address(port()), WAIT);
        channel.expect(CmEventType.ADDR_RESOLVED, WAIT);
        id.resolveRoute(WAIT);
        channel.expect(CmEventType.ROUTE_RESOLVED, WAIT);
        Side side = sideOn(id);
        RdmaCmId other = channel.createId(PortSpace.UDP);
        channel.close();
        require(id.isClosed() && other.isClosed(), "channel closed its identifiers");
        require(side.qp.isClosed(), "identifier closed its QP");
        require(!side.pd.isClosed(), "the PD is the context's, not the identifier's");
        expectClosed(() -> id.resolveRoute(WAIT));
        expectClosed(() -> id.connect(new ConnParam()));
        expectClosed(id::context);
        expectClosed(() -> channel.getEvent(Duration.ZERO));
        expectClosed(() -> channel.createId(PortSpace.TCP));
        expectClosed(() -> side.qp.postRecv(new RecvWr().wrId(1).sge(side.mr.sge(0, 8))));
        id.close();
        channel.close();
        side.pd.close();
        try (EventChannel again = EventChannel.create()) {
            RdmaCmId fresh = again.createId(PortSpace.TCP);
            fresh.resolveAddr(null, address(port()), WAIT);
            again.expect(CmEventType.ADDR_RESOLVED, WAIT);
            Side next = sideOn(fresh);
            next.qp.close();
            require(fresh.qp() == null, "no QP after closing it");
            sideOn(fresh);
            require(fresh.qp() != null, "a second QP after the first was closed");
        }
    }

    /** {@code rdma_getaddrinfo} of numeric, passive, UD, AF_IB and unresolvable nodes: the same answers as C's. */
    private void getAddrInfo() throws Exception {
        String gid = gidText(rxe0Gid());
        String service = "7471";
        List<String[]> cases = List.of(
                new String[] {HOST, service, "0", "0", "0", "0"},
                new String[] {HOST, service, Integer.toString(AddrInfo.NUMERIC_HOST), "0",
                        Integer.toString(QpType.UD.value()), Integer.toString(PortSpace.UDP.value())},
                new String[] {"-", service, Integer.toString(AddrInfo.PASSIVE), "2", "0", "0"},
                new String[] {gid, service, Integer.toString(AddrInfo.NUMERIC_HOST | AddrInfo.FAMILY),
                        Integer.toString(AddrInfo.AF_IB), "0", Integer.toString(PortSpace.TCP.value())},
                new String[] {"no.such.host", service, Integer.toString(AddrInfo.NUMERIC_HOST), "0", "0", "0"});
        for (String[] c : cases) {
            StringBuilder java = new StringBuilder();
            int qpType = Integer.parseInt(c[4]);
            int ps = Integer.parseInt(c[5]);
            AddrInfo hints = AddrInfo.hints(Integer.parseInt(c[2]), Integer.parseInt(c[3]),
                    qpType == 0 ? null : QpType.fromValue(qpType), ps == 0 ? null : PortSpace.fromValue(ps));
            try {
                for (AddrInfo ai : AddrInfo.resolve(c[0].equals("-") ? null : c[0], c[1], hints)) {
                    java.append("flags ").append(ai.flags()).append(" family ").append(ai.family())
                            .append(" qp_type ").append(ai.qpType() == null ? 0 : ai.qpType().value())
                            .append(" port_space 0x").append(Integer.toHexString(ai.portSpace() == null ? 0 : ai.portSpace().value()))
                            .append(" src ").append(text(ai.source())).append(" dst ").append(text(ai.destination()))
                            .append(" route_len ").append(ai.route().length).append(" connect_len ")
                            .append(ai.connect().length).append('\n');
                }
            } catch (AddrInfoException e) {
                System.out.println("  " + e.getMessage());
                java.append("error ").append(e.code()).append(" errno 0\n");
            } catch (SysException e) {
                java.append("error -1 errno ").append(e.errno()).append('\n');
            }
            List<String> args = new ArrayList<>(List.of("getaddrinfo"));
            args.addAll(Arrays.asList(c));
            asInC(java.toString(), args.toArray(String[]::new));
        }
    }

    /** {@code rdma_set_option} in and out of the states each option needs, and binding one port twice with and without REUSEADDR. */
    private void optionsAsInC() throws Exception {
        int port = port();
        int port2 = port();
        StringBuilder java = new StringBuilder();
        try (EventChannel channel = EventChannel.create()) {
            RdmaCmId id = channel.createId(PortSpace.TCP);
            java.append("tos ").append(errno(() -> id.setTypeOfService(32))).append('\n');
            java.append("reuseaddr ").append(errno(() -> id.setReuseAddress(true))).append('\n');
            java.append("afonly ").append(errno(() -> id.setAfOnly(true))).append('\n');
            java.append("ack_timeout ").append(errno(() -> id.setAckTimeout(14))).append('\n');
            java.append("ib_path unresolved ").append(errno(() -> id.setIbPath(IBPath.builder(null).build())))
                    .append('\n');
            java.append("resolve_addr ").append(errno(() -> id.resolveAddr(null, address(port), Duration.ofSeconds(2))))
                    .append('\n');
            java.append(eventLine(channel));
            java.append("afonly resolved ").append(errno(() -> id.setAfOnly(true))).append('\n');
            RdmaCmId ud = channel.createId(PortSpace.UDP);
            java.append("ack_timeout udp ").append(errno(() -> ud.setAckTimeout(14))).append('\n');
            RdmaCmId a = channel.createId(PortSpace.TCP);
            RdmaCmId b = channel.createId(PortSpace.TCP);
            java.append("bind ").append(errno(() -> a.bindAddr(address(port)))).append('\n');
            java.append("bind again ").append(errno(() -> b.bindAddr(address(port)))).append('\n');
            RdmaCmId c = channel.createId(PortSpace.TCP);
            RdmaCmId d = channel.createId(PortSpace.TCP);
            c.setReuseAddress(true);
            d.setReuseAddress(true);
            java.append("bind reuse ").append(errno(() -> c.bindAddr(address(port2)))).append('\n');
            java.append("bind reuse again ").append(errno(() -> d.bindAddr(address(port2)))).append('\n');
            java.append("listen reuse ").append(errno(() -> c.listen(1))).append('\n');
            java.append("reuseaddr listening ").append(errno(() -> c.setReuseAddress(true))).append('\n');
        }
        asInC(java.toString(), "options", HOST, Integer.toString(port), Integer.toString(port2));
    }

    /** A connection whose client set TOS 32 and ACK timeout 14: the route's traffic class and the QP's GRH and timeout. */
    private void tosAndAckTimeout() throws Exception {
        try (EventChannel server = EventChannel.create(); EventChannel clients = EventChannel.create()) {
            InetSocketAddress at = address(port());
            listen(server, at);
            RdmaCmId id = clients.createId(PortSpace.TCP);
            id.setTypeOfService(32);
            id.setAckTimeout(14);
            id.resolveAddr(null, at, WAIT);
            clients.expect(CmEventType.ADDR_RESOLVED, WAIT);
            id.resolveRoute(WAIT);
            clients.expect(CmEventType.ROUTE_RESOLVED, WAIT);
            equal(32, id.paths().get(0).trafficClass(), "the route's traffic class");
            Side client = sideOn(id);
            id.connect(new ConnParam().retryCount(7));
            Side passive = passive(server.expect(CmEventType.CONNECT_REQUEST, WAIT).id());
            passive.id.accept(new ConnParam());
            clients.expect(CmEventType.ESTABLISHED, WAIT);
            server.expect(CmEventType.ESTABLISHED, WAIT);
            QpAttr attr = client.qp.query(QpAttr.TIMEOUT | QpAttr.AV);
            System.out.println("  client QP: timeout " + attr.timeout() + " traffic class " + attr.ahAttr().trafficClass());
            equal(14, attr.timeout(), "the QP's local ACK timeout");
            equal(32, attr.ahAttr().trafficClass(), "the QP's GRH traffic class");
        }
    }

    /** The first path record of a resolved route, without and with TOS 32: Java's IBPath against C's ibv_sa_path_rec. */
    private void pathAsInC() throws Exception {
        for (int tos : new int[] {-1, 32}) {
            int port = port();
            StringBuilder java = new StringBuilder();
            try (EventChannel channel = EventChannel.create()) {
                RdmaCmId id = channel.createId(PortSpace.TCP);
                if (tos >= 0) {
                    id.setTypeOfService(tos);
                }
                id.resolveAddr(null, address(port), Duration.ofSeconds(2));
                java.append(eventLine(channel));
                id.resolveRoute(Duration.ofSeconds(2));
                java.append(eventLine(channel));
                java.append("num_paths ").append(id.numPaths()).append('\n');
                IBPath p = id.paths().get(0);
                System.out.println("  " + p);
                java.append("dgid ").append(hex(p.dgid().orElseThrow().toBytes())).append(" sgid ")
                        .append(hex(p.sgid().orElseThrow().toBytes())).append(" dlid ").append(p.dlid()).append(" slid ")
                        .append(p.slid()).append(" hop_limit ")
                        .append(p.hopLimit()).append(" traffic_class ").append(p.trafficClass()).append(" pkey 0x")
                        .append(Integer.toHexString(p.pkey())).append(" sl ").append(p.sl()).append(" mtu ")
                        .append(p.mtu().value()).append(" packet_life_time ")
                        .append(p.packetLifeTime()).append('\n');
            }
            asInC(java.toString(), "path", HOST, Integer.toString(port), Integer.toString(tos));
        }
    }

    /** The IBPath of one identifier's route set on another with RDMA_OPTION_IB_PATH: ROUTE_RESOLVED, then a connection and a message. */
    private void ibPathOption() throws Exception {
        try (EventChannel server = EventChannel.create(); EventChannel clients = EventChannel.create()) {
            InetSocketAddress at = address(port());
            listen(server, at);
            RdmaCmId first = clients.createId(PortSpace.TCP);
            first.resolveAddr(null, at, WAIT);
            clients.expect(CmEventType.ADDR_RESOLVED, WAIT);
            first.resolveRoute(WAIT);
            clients.expect(CmEventType.ROUTE_RESOLVED, WAIT);
            IBPath path = first.paths().get(0).copy(b -> b.trafficClass(64));
            first.close();
            RdmaCmId id = clients.createId(PortSpace.TCP);
            id.resolveAddr(null, at, WAIT);
            clients.expect(CmEventType.ADDR_RESOLVED, WAIT);
            id.setIbPath(path);
            clients.expect(CmEventType.ROUTE_RESOLVED, WAIT);
            equal(1, id.numPaths(), "paths after RDMA_OPTION_IB_PATH");
            equal(path.dgid(), id.paths().get(0).dgid(), "DGID of the path set");
            equal(64, id.paths().get(0).trafficClass(), "traffic class of the path set");
            Side client = sideOn(id);
            id.connect(new ConnParam().retryCount(7));
            Side passive = passive(server.expect(CmEventType.CONNECT_REQUEST, WAIT).id());
            passive.qp.postRecv(new RecvWr().wrId(1).sge(passive.mr.sge(0, 64)));
            passive.id.accept(new ConnParam());
            clients.expect(CmEventType.ESTABLISHED, WAIT);
            server.expect(CmEventType.ESTABLISHED, WAIT);
            equal(64, client.qp.query(QpAttr.AV).ahAttr().trafficClass(), "the QP's traffic class");
            sendOne(client, passive, "on a set path");
        }
    }

    /** AF_IB: bind, listen, resolve_addr and resolve_route on rxe0's GID, each answer as C's. */
    private void afIbAsInC() throws Exception {
        Gid gid = rxe0Gid();
        int port = port();
        IbSocketAddress ib = IbSocketAddress.of(gid, PortSpace.TCP, port);
        StringBuilder java = new StringBuilder();
        try (EventChannel channel = EventChannel.create()) {
            RdmaCmId listener = channel.createId(PortSpace.TCP);
            int bound = errno(() -> listener.bindAddr(ib));
            java.append("bind ").append(bound).append('\n');
            if (bound == 0) {
                java.append("local ").append(text(listener.localSocketAddress())).append('\n');
                java.append("device ").append(listener.context().deviceName()).append(" port ").append(listener.portNum())
                        .append('\n');
                java.append("listen ").append(errno(() -> listener.listen(1))).append('\n');
            }
            RdmaCmId id = channel.createId(PortSpace.TCP);
            int resolved = errno(() -> id.resolveAddr(null, ib, Duration.ofSeconds(2)));
            java.append("resolve_addr ").append(resolved).append('\n');
            if (resolved == 0) {
                CmEvent event = channel.getEvent(WAIT);
                java.append(eventLine(event));
                if (event.type() == CmEventType.ADDR_RESOLVED) {
                    java.append("peer ").append(text(id.peerSocketAddress())).append('\n');
                    int route = errno(() -> id.resolveRoute(Duration.ofSeconds(2)));
                    java.append("resolve_route ").append(route).append('\n');
                    if (route == 0) {
                        java.append(eventLine(channel));
                    }
                }
            }
        }
        System.out.println("  AF_IB " + ib + " on rxe0:\n" + java.toString().indent(4));
        asInC(java.toString(), "afib", gidText(gid), Integer.toString(port));
    }

    /** A listener and a client in RDMA_PS_IB (an IP address, service ID 0x13F << 16 | port): ESTABLISHED and a message. */
    private void portSpaceIb() throws Exception {
        try (EventChannel server = EventChannel.create(); EventChannel clients = EventChannel.create()) {
            InetSocketAddress at = address(port());
            RdmaCmId listener = server.createId(PortSpace.IB);
            listener.bindAddr(at);
            listener.listen(4);
            Side client = active(clients, at, PortSpace.IB);
            equal(QpType.RC, client.qp.type(), "QP type in RDMA_PS_IB");
            client.id.connect(new ConnParam().retryCount(7).privateData(ascii("ps ib")));
            CmEvent request = server.expect(CmEventType.CONNECT_REQUEST, WAIT);
            equal(PortSpace.IB, request.id().portSpace(), "port space of the request's identifier");
            equal("ps ib", prefix(request.privateData(), 5), "request's private data");
            Side passive = passive(request.id());
            passive.qp.postRecv(new RecvWr().wrId(1).sge(passive.mr.sge(0, 64)));
            passive.id.accept(new ConnParam());
            clients.expect(CmEventType.ESTABLISHED, WAIT);
            server.expect(CmEventType.ESTABLISHED, WAIT);
            sendOne(client, passive, "in RDMA_PS_IB");
        }
    }

    /**
     * Queue pairs made with verbs, not rdma_create_qp: the server moves its own to INIT, RTR and
     * RTS with rdma_init_qp_attr's attributes and accepts with its QPN; the client connects with
     * its QPN, gets CONNECT_RESPONSE, moves its QP to RTR and RTS, and calls rdma_establish, upon
     * which the server gets ESTABLISHED; then a message.
     */
    private void establishOwnQps() throws Exception {
        try (EventChannel server = EventChannel.create(); EventChannel clients = EventChannel.create()) {
            InetSocketAddress at = address(port());
            listen(server, at);
            RdmaCmId id = clients.createId(PortSpace.TCP);
            id.resolveAddr(null, at, WAIT);
            clients.expect(CmEventType.ADDR_RESOLVED, WAIT);
            id.resolveRoute(WAIT);
            clients.expect(CmEventType.ROUTE_RESOLVED, WAIT);
            Side client = ownQp(id);
            id.modifyQp(client.qp, QpState.INIT);
            id.connect(new ConnParam().qpNum(client.qp.qpNum()).responderResources(1).initiatorDepth(1).retryCount(7)
                    .rnrRetryCount(7));
            CmEvent request = server.expect(CmEventType.CONNECT_REQUEST, WAIT);
            equal(client.qp.qpNum(), request.conn().qpNum(), "the client's QPN in the request");
            Side passive = ownQp(request.id());
            passive.id.modifyQp(passive.qp, QpState.INIT);
            passive.qp.postRecv(new RecvWr().wrId(1).sge(passive.mr.sge(0, 64)));
            passive.id.modifyQp(passive.qp, QpState.RTR);
            passive.id.modifyQp(passive.qp, QpState.RTS);
            passive.id.accept(new ConnParam().qpNum(passive.qp.qpNum()).responderResources(1).initiatorDepth(1));
            CmEvent response = clients.expect(CmEventType.CONNECT_RESPONSE, WAIT);
            System.out.println("  " + response);
            equal(passive.qp.qpNum(), response.conn().qpNum(), "the server's QPN in the reply");
            RdmaCmId.InitQpAttr rtr = id.initQpAttr(QpState.RTR);
            equal(passive.qp.qpNum(), rtr.attr().destQpNum(), "rdma_init_qp_attr's destination QPN");
            client.qp.modify(rtr.attr(), rtr.mask());
            id.modifyQp(client.qp, QpState.RTS);
            equal(QpState.RTS, client.qp.state(), "client QP state");
            require(id.qp() == null, "no QP made by rdma_create_qp");
            id.establish();
            server.expect(CmEventType.ESTABLISHED, WAIT);
            require(clients.getEvent(Duration.ofMillis(200)) == null, "an event on the client after rdma_establish");
            sendOne(client, passive, "own queue pairs");
            client.qp.close();
            passive.qp.close();
        }
    }

    /** An identifier with a queue pair made by verbs on its context ({@code ibv_create_qp}), not by librdmacm. */
    private Side ownQp(RdmaCmId id) {
        Context ctx = id.context();
        Pd pd = ctx.pd();
        Cq cq = ctx.cq(32);
        Qp qp = pd.qp(new QpInitAttr(QpType.RC, cq, cq).cap(new QpCap(16, 16, 1, 1, 0)));
        Mr mr = pd.mr(arena.allocate(4096, 4096), Access.LOCAL_WRITE);
        return new Side(id, pd, cq, qp, mr);
    }

    /** Sends {@code text} from {@code from} to {@code to}, whose receive is posted, and checks it arrived. */
    private void sendOne(Side from, Side to, String text) {
        put(from.mr, 0, text);
        from.qp.postSend(new SendWr().wrId(2).opcode(WrOpcode.SEND).sge(from.mr.sge(0, text.length()))
                .flags(SendFlags.SIGNALED));
        completion(from.cq, WcOpcode.SEND);
        completion(to.cq, WcOpcode.RECV);
        equal(text, get(to.mr, 0, text.length()), "received");
    }

    /** rxe0's GID at index 0 of port 1, found through an identifier resolved to the VM's address. */
    private Gid rxe0Gid() throws Exception {
        try (EventChannel channel = EventChannel.create()) {
            RdmaCmId id = channel.createId(PortSpace.TCP);
            id.resolveAddr(null, address(port()), WAIT);
            channel.expect(CmEventType.ADDR_RESOLVED, WAIT);
            return id.context().queryGid(id.portNum(), 0);
        }
    }

    /** A GID in IPv6 notation, as inet_pton reads it. */
    private static String gidText(Gid gid) throws IOException {
        return InetAddress.getByAddress(gid.toBytes()).getHostAddress();
    }

    /** Runs {@code cm_oracle} with {@code args} and checks it printed {@code java}. */
    private void asInC(String java, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(oracle));
        command.addAll(Arrays.asList(args));
        Process c = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = output(c);
        equal(0, c.exitValue(), "cm_oracle " + String.join(" ", args) + " exit status; it said " + out);
        equal(out, java, "Java's answers to " + String.join(" ", args) + " (left: C's)");
    }

    /** The errno of {@code call}'s {@link SysException}, 0 when it succeeds. */
    private static int errno(VmChecks.Check call) throws Exception {
        try {
            call.run();
            return 0;
        } catch (SysException e) {
            return e.errno();
        }
    }

    private static String eventLine(EventChannel channel) {
        return eventLine(channel.getEvent(WAIT));
    }

    /** An event as {@code cm_oracle} prints one. */
    private static String eventLine(CmEvent event) {
        return "event " + event.type().text() + " status " + event.status() + "\n";
    }

    /** A socket address as {@code cm_oracle} prints one. */
    private static String text(SocketAddress address) {
        return switch (address) {
            case null -> "-";
            case InetSocketAddress ip when ip.getAddress() instanceof Inet4Address ->
                    ip.getAddress().getHostAddress() + ":" + ip.getPort();
            case InetSocketAddress ip -> "[" + hex(ip.getAddress().getAddress()) + "]:" + ip.getPort();
            case IbSocketAddress ib -> "ib[" + hex(ib.gid().toBytes()) + "] sid 0x" + Long.toHexString(ib.serviceId())
                    + " mask 0x" + Long.toHexString(ib.serviceIdMask()) + " pkey 0x" + Integer.toHexString(ib.pkey());
            default -> throw new AssertionError(address);
        };
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    private static void expectClosed(VmChecks.Check call) throws Exception {
        try {
            call.run();
            throw new AssertionError("no IllegalStateException");
        } catch (IllegalStateException expected) {
            require(expected.getMessage().contains("closed"), expected.getMessage());
        }
    }

    /** An identifier with its verbs objects: the context's PD, one CQ, the QP and a registered buffer. */
    private record Side(RdmaCmId id, Pd pd, Cq cq, Qp qp, Mr mr) {
    }

    private Side active(EventChannel channel, InetSocketAddress to) {
        return active(channel, to, PortSpace.TCP);
    }

    private Side active(EventChannel channel, InetSocketAddress to, PortSpace ps) {
        RdmaCmId id = channel.createId(ps);
        id.resolveAddr(null, to, WAIT);
        channel.expect(CmEventType.ADDR_RESOLVED, WAIT);
        id.resolveRoute(WAIT);
        channel.expect(CmEventType.ROUTE_RESOLVED, WAIT);
        return sideOn(id);
    }

    private static RdmaCmId listen(EventChannel channel, InetSocketAddress at) {
        RdmaCmId listener = channel.createId(PortSpace.TCP);
        listener.bindAddr(at);
        listener.listen(8);
        return listener;
    }

    private Side passive(RdmaCmId request) {
        return sideOn(request);
    }

    private Side sideOn(RdmaCmId id) {
        Context ctx = id.context();
        Pd pd = ctx.pd();
        Cq cq = ctx.cq(32);
        QpType type = id.portSpace().qpType();
        Qp qp = id.createQp(pd, new QpInitAttr(type, cq, cq).cap(new QpCap(16, 16, 1, 1, 0)));
        Mr mr = pd.mr(arena.allocate(4096, 4096), Access.LOCAL_WRITE | Access.REMOTE_READ | Access.REMOTE_WRITE);
        return new Side(id, pd, cq, qp, mr);
    }

    /** Connects to a C server that may not listen yet: a rejected attempt is retried with a new identifier. */
    private Side connectRetrying(EventChannel channel, InetSocketAddress to) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT_NANOS;
        while (true) {
            Side client = active(channel, to);
            client.qp.postRecv(recvInfo(client));
            client.id.connect(new ConnParam().responderResources(1).initiatorDepth(1).retryCount(7).rnrRetryCount(7));
            CmEvent event = channel.getEvent(WAIT);
            if (event != null && event.type() == CmEventType.ESTABLISHED) {
                return client;
            }
            client.id.close();
            client.pd.close();
            if (System.nanoTime() > deadline) {
                throw new AssertionError("rping -s never accepted; last event " + event);
            }
            Thread.sleep(300);
        }
    }

    private RecvWr recvInfo(Side side) {
        return new RecvWr().wrId(20).sge(side.mr.sge(3 * RPING_SIZE, RPING_INFO));
    }

    private void sendInfo(Side side) {
        side.qp.postSend(new SendWr().wrId(21).opcode(WrOpcode.SEND).sge(side.mr.sge(2 * RPING_SIZE, RPING_INFO))
                .flags(SendFlags.SIGNALED));
        completion(side.cq, WcOpcode.SEND);
    }

    private void awaitGoAhead(Side side) {
        completion(side.cq, WcOpcode.RECV);
        equal(RPING_INFO, wcs.byteLen(0), "go-ahead length");
        side.qp.postRecv(recvInfo(side));
    }

    /** Waits for an rping_rdma_info from the client, reposts the receive: {buf, rkey, size}. */
    private long[] awaitInfo(Side side) {
        completion(side.cq, WcOpcode.RECV);
        equal(RPING_INFO, wcs.byteLen(0), "rping_rdma_info length");
        MemorySegment info = side.mr.memory().asSlice(3 * RPING_SIZE, RPING_INFO);
        long[] result = {info.get(BE_LONG, 0), Integer.toUnsignedLong(info.get(BE_INT, 8)),
                Integer.toUnsignedLong(info.get(BE_INT, 12))};
        side.qp.postRecv(recvInfo(side));
        return result;
    }

    private void goAhead(Side side) {
        side.qp.postSend(new SendWr().wrId(22).opcode(WrOpcode.SEND).sge(side.mr.sge(2 * RPING_SIZE, RPING_INFO))
                .flags(SendFlags.SIGNALED));
        completion(side.cq, WcOpcode.SEND);
    }

    private static final ValueLayout.OfLong BE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfInt BE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private static void rpingInfo(MemorySegment info, long buf, int rkey, int size) {
        info.set(BE_LONG, 0, buf);
        info.set(BE_INT, 8, rkey);
        info.set(BE_INT, 12, size);
    }

    /** rping's client data for ping {@code ping}, as {@code rping_test_client} fills its start buffer. */
    private static void rpingData(MemorySegment buffer, int ping) {
        byte[] text = ("rdma-ping-" + ping + ": ").getBytes(StandardCharsets.US_ASCII);
        int size = (int) buffer.byteSize();
        int c = FIRST_LETTER + ping;
        for (int i = 0; i < size; i++) {
            if (i < text.length) {
                buffer.set(ValueLayout.JAVA_BYTE, i, text[i]);
            } else {
                buffer.set(ValueLayout.JAVA_BYTE, i, (byte) c);
                c = c == LAST_LETTER ? FIRST_LETTER : c + 1;
            }
        }
        buffer.set(ValueLayout.JAVA_BYTE, size - 1, (byte) 0);
    }

    private static String cString(MemorySegment s) {
        return s.getString(0, StandardCharsets.US_ASCII);
    }

    /** Polls {@code cq} until one completion arrives, which must succeed with {@code opcode}; it stays in {@link #wcs}. */
    private void completion(Cq cq, WcOpcode opcode) {
        completion(cq, opcode, wcs);
    }

    /** Waits for {@code opcode}'s completion on {@code cq}, polled into {@code into} (a thread's own buffer). */
    private static void completion(Cq cq, WcOpcode opcode, WcBuffer into) {
        long deadline = System.nanoTime() + WAIT_NANOS;
        while (cq.poll(into) == 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no " + opcode + " completion within " + WAIT);
            }
            Thread.onSpinWait();
        }
        into.check(0);
        equal(opcode, into.opcode(0), "completion opcode");
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static String prefix(byte[] data, int length) {
        return new String(data, 0, Math.min(length, data.length), StandardCharsets.US_ASCII);
    }

    private static void put(Mr mr, long offset, String text) {
        MemorySegment.copy(ascii(text), 0, mr.memory(), ValueLayout.JAVA_BYTE, offset, text.length());
    }

    private static String get(Mr mr, long offset, int length) {
        byte[] bytes = new byte[length];
        MemorySegment.copy(mr.memory(), ValueLayout.JAVA_BYTE, offset, bytes, 0, length);
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    private static String output(Process process) throws IOException, InterruptedException {
        if (!process.waitFor(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroy();
        }
        return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }

    private static void shell(String command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("bash", "-c", command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        equal(0, p.waitFor(), command + ": " + out);
    }

    /** The {@code cm_id} and {@code qp} counts {@code rdma resource show} gives for rxe0. */
    private static int[] cmResources() throws IOException, InterruptedException {
        Process process = new ProcessBuilder("rdma", "resource", "show").redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor();
        int[] counts = new int[2];
        for (String line : out.lines().toList()) {
            String[] words = line.trim().split("\\s+");
            for (int i = 0; i + 1 < words.length; i++) {
                if (words[i].equals("cm_id")) {
                    counts[0] += Integer.parseInt(words[i + 1]);
                } else if (words[i].equals("qp")) {
                    counts[1] += Integer.parseInt(words[i + 1]);
                }
            }
        }
        return counts;
    }
}

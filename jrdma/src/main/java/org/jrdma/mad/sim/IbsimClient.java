package org.jrdma.mad.sim;

import static org.jrdma.iba.UntrustedText.quote;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.jrdma.RdmaException;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.devices.EndPort;
import org.jrdma.devices.RdmaDevice;
import org.jrdma.iba.NodeType;
import org.jrdma.devices.LinkLayer;
import org.jrdma.ffi.UnixDatagramSocket;
import org.jrdma.iba.Gid;
import org.jrdma.iba.LinkSpeed;
import org.jrdma.iba.LinkWidth;
import org.jrdma.iba.PhysPortState;
import org.jrdma.iba.PortState;
import org.jrdma.iba.StaticRate;
import org.jrdma.iba.mad.SmpDirectedFormat;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.smp.SmpPortInfo;

/**
 * A client of an ibsim simulated fabric, attached at one node: ibsim's client protocol
 * (ibsim 0.10, {@code include/ibsim.h}) on abstract-namespace Unix datagram sockets named after
 * the fabric's socket base name ({@code IBSIM_SOCKNAME}, default {@code sim}).
 *
 * <p>Two sockets: a control socket ({@code @<base>:ctl<id>} to {@code @<base>:ctl}) carrying
 * 80-byte {@code struct sim_ctl} messages in host byte order (CONNECT, DISCONNECT, GET_NODEINFO,
 * GET_PORTINFO, GET_PKEYS, SET_ISSM, ...), and a data socket ({@code @<base>:in<id>} to
 * {@code @<base>:out<client>}) carrying 288-byte {@code struct sim_request} packets:
 *
 * <pre>
 *  byte  0  dlid    u16 big-endian, then 2 zero bytes (a __be16 kept in a u32)
 *  byte  4  slid    likewise
 *  byte  8  dqp     u32 big-endian
 *  byte 12  sqp     u32 big-endian
 *  byte 16  status  u32 big-endian (110 = ETIMEDOUT: ibsim could not route or answer it)
 *  byte 24  length  u64 big-endian
 *  byte 32  mad     256 bytes
 * </pre>
 *
 * ibsim answers SMPs and performance MADs itself and forwards other classes (SA) to the client
 * attached as SM. It writes the requesting client's number into the top 16 bits of every request's
 * TID and routes a forwarded response back to the client that number names, so any number of
 * forwarded transactions may be in flight; the low 48 bits come back unchanged.
 */
public final class IbsimClient implements AutoCloseable {
    /** The default socket base name ({@code SIM_BASENAME}). */
    public static final String DEFAULT_SOCKET_NAME = "sim";
    /** Bytes in a {@code struct sim_request}. */
    public static final int REQUEST_SIZE = 288;
    /** Where the MAD starts in a {@code struct sim_request}. */
    public static final int MAD_OFFSET = 32;
    /** The status ibsim puts on a request it dropped ({@code ETIMEDOUT}). */
    public static final int STATUS_DROPPED = 110;

    private static final int SIM_MAGIC = 0xdeadbeef;
    private static final int CTL_SIZE = 80;
    private static final int CTL_DATA = 16;
    private static final int CTL_MAX_DATA = 64;
    private static final int CTL_ERROR = 0;
    private static final int CTL_CONNECT = 1;
    private static final int CTL_DISCONNECT = 2;
    private static final int CTL_GET_VENDOR = 4;
    private static final int CTL_GET_NODEINFO = 7;
    private static final int CTL_GET_PORTINFO = 8;
    private static final int CTL_SET_ISSM = 9;
    private static final int CTL_GET_PKEYS = 10;
    private static final int CTL_TIMEOUT_MILLIS = 5000;
    private static final int SMP_DATA_OFFSET = 64;
    private static final int IBSIM_UNSET_SUBNET_TIMEOUT = 31;
    private static final int DEFAULT_SUBNET_TIMEOUT = 18;
    /** What libumad2sim writes into {@code hca_type} for a simulated device. */
    public static final String SIM_HCA_TYPE = "simulator";
    /** The device name libumad2sim gives a simulated port, used for ours too. */
    public static final String SIM_DEVICE = "ibsim0";
    private static final VarHandle HOST_INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.nativeOrder());
    private static final VarHandle HOST_LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());
    private static final VarHandle BE_SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle BE_INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle BE_LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private final String socketName;
    private final UnixDatagramSocket control;
    private final UnixDatagramSocket data;
    private final ReentrantLock controlLock = new ReentrantLock();
    /** The packet {@link #receive} reads into: one receiving thread at a time, as {@link org.jrdma.mad.MadTransport} says. */
    private final byte[] receivePacket = new byte[REQUEST_SIZE];
    private final AtomicBoolean closed = new AtomicBoolean();
    private final int clientId;
    private final String nodeName;
    private final SmpNodeInfo nodeInfo;
    private final SmpPortInfo portInfo;
    private final int[] pkeys;
    private final EndPort endPort;
    private final RdmaDevice device;

    private IbsimClient(String socketName, String node, boolean issm) {
        this.socketName = socketName;
        // ibsim names our input socket after the id we send, so the id must be unique on this machine.
        int id = (int) ((ProcessHandle.current().pid() % 20_000_000L) * 100 + SEQUENCE.getAndIncrement() % 100);
        UnixDatagramSocket ctl = null;
        UnixDatagramSocket in = null;
        try {
            ctl = UnixDatagramSocket.open().bind(socketName + ":ctl" + id).connect(socketName + ":ctl");
            in = UnixDatagramSocket.open().bind(socketName + ":in" + id);
        } catch (RuntimeException e) {
            closeQuietly(ctl, e);
            closeQuietly(in, e);
            throw new RdmaException("cannot reach ibsim at @" + socketName + ":ctl (is the simulator running?)", e);
        }
        this.control = ctl;
        this.data = in;
        try {
            byte[] info = new byte[44];
            HOST_INT.set(info, 0, id);
            HOST_INT.set(info, 8, issm ? 1 : 0);
            if (node != null) {
                byte[] name = node.getBytes(StandardCharsets.UTF_8);
                if (name.length > 31) {
                    throw new IllegalArgumentException("ibsim node names are at most 31 bytes: " + quote(node));
                }
                System.arraycopy(name, 0, info, 12, name.length);
            }
            byte[] reply = control(CTL_CONNECT, 0, info, "CONNECT to node " + (node == null ? "(default)" : quote(node)));
            this.clientId = connectedClient(reply);
            this.nodeName = connectedNode(reply);
            data.connect(socketName + ":out" + clientId);
            this.nodeInfo = nodeInfo(control(CTL_GET_NODEINFO, clientId, new byte[0], "GET_NODEINFO"));
            this.portInfo = portInfo(control(CTL_GET_PORTINFO, clientId, new byte[1], "GET_PORTINFO"));
            this.pkeys = pkeys(control(CTL_GET_PKEYS, clientId, new byte[0], "GET_PKEYS"));
            this.endPort = readEndPort();
            this.device = device(control(CTL_GET_VENDOR, clientId, new byte[0], "GET_VENDOR"), nodeInfo, endPort);
        } catch (RuntimeException e) {
            closeQuietly(control, e);
            closeQuietly(data, e);
            throw e;
        }
    }

    /**
     * Attaches to an ibsim fabric.
     *
     * @param socketName the fabric's socket base name ({@code IBSIM_SOCKNAME})
     * @param node       the node to attach at (its name in the topology), or null for ibsim's default
     */
    public static IbsimClient attach(String socketName, String node) {
        return new IbsimClient(socketName, node, false);
    }

    /** The fabric's socket base name. */
    public String socketName() {
        return socketName;
    }

    /** The node this client is attached at, as ibsim names it. */
    public String nodeName() {
        return nodeName;
    }

    /** The client number ibsim gave this client (0..9). */
    public int clientId() {
        return clientId;
    }

    /**
     * NodeInfo of the node attached at, as ibsim reported it when attaching: ibsim's record of the
     * node, whose PortGUID is the node GUID (ask the node by SMP for the real per-port value).
     */
    public SmpNodeInfo nodeInfo() {
        return SmpNodeInfo.decode(nodeInfo.toBytes(), 0);
    }

    /** PortInfo of the port attached at, as ibsim reported it when attaching. */
    public SmpPortInfo portInfo() {
        return SmpPortInfo.decode(portInfo.toBytes(), 0);
    }

    /** The port's P_Key table (the first 32 entries), as ibsim reported it when attaching. */
    public int[] pkeys() {
        return pkeys.clone();
    }

    /**
     * The simulated port as an end port, named {@code ibsim0} like libumad2sim names it: its LID,
     * LMC, SM LID and SL, state, rate, capability mask, GID and P_Keys as the node itself answered
     * directed-route SMPs when this client attached (port 0 for a switch).
     */
    public EndPort endPort() {
        return endPort;
    }

    /**
     * The simulated node as the RDMA device libumad2sim presents it: {@code ibsim0}, HCA type
     * {@code simulator}, the firmware and hardware versions ibsim reports (GET_VENDOR: firmware
     * version 1, hardware version NodeInfo:Revision, both written in hex as libumad2sim writes
     * {@code fw_ver} and {@code hw_rev}), the node and system image GUIDs, and {@link #endPort()}
     * as its only port. The node description is empty: libumad2sim writes none.
     */
    public RdmaDevice device() {
        return device;
    }

    /*
     * ibsim's replies, parsed: pure functions of the bytes received, so that they can be fuzzed
     * (IbsimFuzzTest). Each fails only with an RdmaException.
     */

    /** The client number in a CONNECT reply's {@code struct sim_client_info}. */
    static int connectedClient(byte[] reply) {
        return (int) HOST_INT.get(reply, CTL_DATA);
    }

    /** The node's name in a CONNECT reply's {@code struct sim_client_info} (up to 32 bytes, NUL-ended). */
    static String connectedNode(byte[] reply) {
        return text(reply, CTL_DATA + 12, 32);
    }

    /** The NodeInfo in a GET_NODEINFO reply. */
    static SmpNodeInfo nodeInfo(byte[] reply) {
        return SmpNodeInfo.decode(reply, CTL_DATA);
    }

    /** The PortInfo in a GET_PORTINFO reply. */
    static SmpPortInfo portInfo(byte[] reply) {
        return SmpPortInfo.decode(reply, CTL_DATA);
    }

    /** The first 32 P_Keys in a GET_PKEYS reply (big-endian, as the SMP's P_KeyTable block). */
    static int[] pkeys(byte[] reply) {
        int[] pkeys = new int[CTL_MAX_DATA / 2];
        for (int i = 0; i < pkeys.length; i++) {
            pkeys[i] = (short) BE_SHORT.get(reply, CTL_DATA + 2 * i) & 0xFFFF;
        }
        return pkeys;
    }

    /**
     * The device of {@link #device()}, from ibsim's GET_VENDOR reply ({@code struct sim_vendor}),
     * the node's NodeInfo and its end port.
     */
    static RdmaDevice device(byte[] vendor, SmpNodeInfo nodeInfo, EndPort endPort) {
        int hwVersion = (int) HOST_INT.get(vendor, CTL_DATA + 8);
        long fwVersion = (long) HOST_LONG.get(vendor, CTL_DATA + 16);
        return RdmaDevice.builder(SIM_DEVICE).nodeType(NodeType.fromValueOrNull(nodeInfo.nodeType()))
                .nodeGuid(nodeInfo.nodeGuid()).sysImageGuid(nodeInfo.systemImageGuid())
                .fwVersion(Long.toHexString(fwVersion)).hwRevision(Integer.toHexString(hwVersion)).hcaType(SIM_HCA_TYPE)
                .endPort(endPort).build();
    }

    /** Asks the attached node for its NodeInfo and PortInfo by directed route to itself. */
    private EndPort readEndPort() {
        SmpNodeInfo self = SmpNodeInfo.decode(directedGetToSelf(SmpNodeInfo.ATTRIBUTE_ID, 0), SMP_DATA_OFFSET);
        int port = selfPort(self);
        return endPort(self, port, SmpPortInfo.decode(directedGetToSelf(SmpPortInfo.ATTRIBUTE_ID, port), SMP_DATA_OFFSET),
                pkeys);
    }

    /** The port a client attached at a node with this NodeInfo is on: 0 for a switch, else LocalPortNum. */
    static int selfPort(SmpNodeInfo self) {
        return self.nodeType() == 2 ? 0 : self.localPortNum();
    }

    /**
     * The end port of {@link #endPort()}: the node's own NodeInfo and PortInfo, read by SMP, and the P_Keys.
     *
     * @throws RdmaException if the port number is 255 or the port state or physical state is not an IBA value
     */
    static EndPort endPort(SmpNodeInfo self, int port, SmpPortInfo pi, int[] pkeys) {
        PortState state = PortState.fromValueOrNull(pi.portState());
        PhysPortState physState = PhysPortState.fromValueOrNull(pi.portPhysicalState());
        if (port > EndPort.MAX_PORT_NUMBER || state == null || physState == null) {
            throw new RdmaException(String.format("the simulated node reported port %d in state %d, physical state %d:"
                    + " not an end port of the IBA", port, pi.portState(), pi.portPhysicalState()));
        }
        List<Integer> keys = new ArrayList<>();
        for (int k : pkeys) {
            keys.add(k);
        }
        return EndPort.builder(SIM_DEVICE, port).lid(pi.lid()).lmc(pi.lmc()).smLid(pi.masterSmLid()).smSl(pi.masterSmSl())
                .state(state).physState(physState)
                .rate(rate(pi)).capabilityMask((int) pi.capabilityMask()).linkLayer(LinkLayer.INFINIBAND)
                .gids(List.of(Gid.of(pi.gidPrefix(), self.portGuid()))).pkeys(keys).subnetTimeout(subnetTimeout(pi))
                .build();
    }

    /**
     * PortInfo:SubnetTimeOut, except ibsim's 31: ibsim never stores the value the SM sets, so every
     * port reports 31 (2^31 x 4.096 us, about 2.4 hours); the IBA default 18 (about 1 s) is used instead.
     */
    private static int subnetTimeout(SmpPortInfo pi) {
        return pi.subnetTimeOut() == IBSIM_UNSET_SUBNET_TIMEOUT ? DEFAULT_SUBNET_TIMEOUT : pi.subnetTimeOut();
    }

    /** The port's rate: lanes times the per-lane speed, as the encoded static rate with that figure. */
    private static StaticRate rate(SmpPortInfo pi) {
        LinkWidth width = LinkWidth.fromValueOrNull(pi.linkWidthActive());
        LinkSpeed speed = LinkSpeed.fromValueOrNull(pi.linkSpeedActive());
        if (width == null || speed == null) {
            return null;
        }
        double gbps = width.lanes() * speed.gbps();
        for (StaticRate r : StaticRate.values()) {
            if (Math.abs(r.gbps() - gbps) < 0.01) {
                return r;
            }
        }
        return null;
    }

    /** A directed-route SubnGet to the node itself, answered before any engine reads this client. */
    private byte[] directedGetToSelf(int attributeId, int modifier) {
        byte[] mad = new byte[256];
        long tid = 0x6a72646dL << 32 | attributeId;
        new SmpDirectedFormat(mad, 0).baseVersion(1).mgmtClass(0x81).classVersion(1).method(1).transactionId(tid)
                .attributeId(attributeId).attributeModifier(modifier).drSlid(0xFFFF).drDlid(0xFFFF);
        for (int attempt = 0; attempt < 3; attempt++) {
            send(mad, 0xFFFF, 0, 0);
            long deadline = System.nanoTime() + 2_000_000_000L;
            while (System.nanoTime() < deadline) {
                SimPacket reply = receive(200);
                if (reply != null && reply.status() == 0 && (reply.mad()[3] & 0x80) != 0
                        && (int) BE_INT.get(reply.mad(), 12) == (int) tid) {
                    return reply.mad();
                }
            }
        }
        throw new RdmaException("the simulated node " + quote(nodeName) + " did not answer a directed-route SMP to itself");
    }

    /** Tells ibsim whether this client is the port's subnet manager (so it gets SA and trap traffic). */
    public void setIsSm(boolean issm) {
        byte[] value = new byte[4];
        HOST_INT.set(value, 0, issm ? 1 : 0);
        control(CTL_SET_ISSM, clientId, value, "SET_ISSM");
    }

    /**
     * Sends a MAD.
     *
     * @param mad  the 256-byte MAD
     * @param dlid the destination LID, or 0xFFFF (permissive) for a directed-route SMP
     * @param dqp  the destination QP (0 for SMPs, 1 for GMPs)
     * @param sqp  the QP it is sent from
     */
    public void send(byte[] mad, int dlid, int dqp, int sqp) {
        if (mad.length < 256) {
            throw new IllegalArgumentException("a MAD is 256 bytes, not " + mad.length);
        }
        byte[] packet = new byte[REQUEST_SIZE];
        BE_SHORT.set(packet, 0, (short) dlid);
        BE_SHORT.set(packet, 4, (short) (dlid == 0xFFFF ? 0xFFFF : 0));
        BE_INT.set(packet, 8, dqp);
        BE_INT.set(packet, 12, sqp);
        BE_LONG.set(packet, 24, 256L);
        System.arraycopy(mad, 0, packet, MAD_OFFSET, 256);
        data.send(packet, REQUEST_SIZE);
    }

    /**
     * Receives one packet from the fabric; one thread at a time.
     *
     * @param timeoutMillis how long to wait
     * @return the packet, or null if none came in time
     */
    public SimPacket receive(int timeoutMillis) {
        byte[] packet = receivePacket;
        int n = data.receive(packet, timeoutMillis);
        return n < 0 ? null : packet(packet, n);
    }

    /**
     * The packet in a datagram from ibsim's data socket.
     *
     * @param packet the datagram's bytes, at least {@code n}
     * @param n      its length
     * @throws RdmaException if it is not a {@code struct sim_request}
     */
    static SimPacket packet(byte[] packet, int n) {
        if (n != REQUEST_SIZE) {
            throw new RdmaException("ibsim sent a " + n + "-byte packet; expected " + REQUEST_SIZE);
        }
        // libumad2sim relays a short MAD (an SA response of a few records) with its true length and
        // leaves the rest of the 256 bytes unwritten: keep the length and zero what was not sent.
        long sent = (long) BE_LONG.get(packet, 24);
        int length = sent < 0 || sent > 256 ? 256 : (int) sent;
        byte[] mad = new byte[256];
        System.arraycopy(packet, MAD_OFFSET, mad, 0, length);
        return new SimPacket(mad, length, (short) BE_SHORT.get(packet, 4) & 0xFFFF, (short) BE_SHORT.get(packet, 0) & 0xFFFF,
                (int) BE_INT.get(packet, 12), (int) BE_INT.get(packet, 8), (int) BE_INT.get(packet, 16));
    }

    /**
     * A packet from the fabric.
     *
     * @param mad    the MAD, 256 bytes, zero past {@code length}
     * @param length how many bytes the sender sent
     * @param slid   the LID it came from
     * @param dlid   the LID it was sent to
     * @param sqp    the QP it came from
     * @param dqp    the QP it was sent to
     * @param status 0, or {@link #STATUS_DROPPED} when ibsim returns a request it could not deliver
     */
    public record SimPacket(byte[] mad, int length, int slid, int dlid, int sqp, int dqp, int status) {
    }

    /** Detaches from ibsim and closes both sockets. Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        RuntimeException failure = null;
        try {
            control(CTL_DISCONNECT, clientId, new byte[0], "DISCONNECT");
        } catch (RuntimeException e) {
            failure = e;
        }
        failure = closeQuietly(data, failure);
        failure = closeQuietly(control, failure);
        if (failure != null) {
            throw failure;
        }
    }

    private byte[] control(int type, int client, byte[] payload, String what) {
        byte[] ctl = new byte[CTL_SIZE];
        HOST_INT.set(ctl, 0, SIM_MAGIC);
        HOST_INT.set(ctl, 4, client);
        HOST_INT.set(ctl, 8, type);
        HOST_INT.set(ctl, 12, payload.length);
        System.arraycopy(payload, 0, ctl, CTL_DATA, payload.length);
        controlLock.lock();
        try {
            control.send(ctl, CTL_SIZE);
            byte[] reply = new byte[CTL_SIZE];
            int n = control.receive(reply, CTL_TIMEOUT_MILLIS);
            if (n < 0) {
                throw new RdmaException("ibsim did not answer " + what + " within " + CTL_TIMEOUT_MILLIS + " ms");
            }
            return controlReply(reply, n, what);
        } finally {
            controlLock.unlock();
        }
    }

    /**
     * A reply from ibsim's control socket, checked.
     *
     * @param reply the datagram's bytes, at least {@code n}
     * @param n     its length
     * @param what  the request it answers, for the message
     * @return {@code reply}
     * @throws RdmaException if it is not an 80-byte {@code struct sim_ctl}, or is ibsim's SIM_CTL_ERROR
     */
    static byte[] controlReply(byte[] reply, int n, String what) {
        if (n != CTL_SIZE || (int) HOST_INT.get(reply, 8) == CTL_ERROR) {
            throw new RdmaException("ibsim refused " + what + (n != CTL_SIZE ? " (" + n + "-byte reply)" : ""));
        }
        return reply;
    }

    private static String text(byte[] b, int at, int max) {
        int end = at;
        while (end < at + max && b[end] != 0) {
            end++;
        }
        return new String(b, at, end - at, StandardCharsets.UTF_8);
    }

    private static RuntimeException closeQuietly(AutoCloseable c, RuntimeException failure) {
        if (c == null) {
            return failure;
        }
        try {
            c.close();
        } catch (Exception e) {
            if (failure == null) {
                return e instanceof RuntimeException r ? r : new RdmaException("close failed", e);
            }
            failure.addSuppressed(e);
        }
        return failure;
    }
}

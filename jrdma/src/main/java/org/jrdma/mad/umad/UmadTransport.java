package org.jrdma.mad.umad;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jrdma.RdmaException;
import org.jrdma.devices.EndPort;
import org.jrdma.devices.SysfsDevices;
import org.jrdma.iba.Iba;
import org.jrdma.iba.Mad;
import org.jrdma.iba.wire.Bits;
import org.jrdma.mad.MadAddress;
import org.jrdma.mad.MadTransport;
import org.jrdma.mad.ReceivedMad;
import org.jrdma.mad.umad.ffi.UmadFile;

/**
 * The kernel's user MAD interface ({@code ib_umad}, {@code /dev/infiniband/umadN}) as a
 * {@link MadTransport} for one end port: MADs leave from the port's QP0 (SMI) for the subnet
 * management classes 0x01 and 0x81 and from QP1 (GSI) for every other class, and arrive for the
 * MAD agents (IBA 13.4.6) this transport registered.
 *
 * <h2>Agents</h2>
 * The kernel delivers a MAD only to an agent registered for its management class and class
 * version: a response to the agent whose request it answers, a request to the agent registered
 * for its method. {@link #send} registers a client agent (no methods) for each class and version
 * on first use, with RMPP on for the subnet administration class 0x03 so that the kernel
 * reassembles multi-packet SA responses and segments the SA transfers sent (a MAD of that class
 * with the RMPP Active flag is a whole transfer, and may be shorter than 256 bytes);
 * {@link #registerServer} registers an agent that receives requests. The kernel replaces the upper 32 bits of every request's transaction ID with its
 * agent's own (the responses find their agent by them); {@link org.jrdma.mad.MadEngine} matches
 * responses on the lower 32 bits.
 *
 * <h2>Requests and the kernel's response timer</h2>
 * The kernel delivers a response only while the request it answers is still awaiting one, so
 * every request is written with a response timeout ({@code timeout_ms}, the {@code responseTimeout}
 * given when opening, and no kernel retries). When it expires without a response the kernel hands
 * the request back with status {@code ETIMEDOUT}, which {@link #receive} reports as
 * {@linkplain ReceivedMad#dropped() dropped}: no response to it can arrive any more. Until then the
 * kernel refuses a second request with the same transaction ID and class, so a resend of a request
 * that is still awaiting its response is not written again: the response to the first copy answers
 * both. Pick a response timeout no longer than the timeout of the caller's attempts.
 *
 * <h2>Received MADs</h2>
 * {@link ReceivedMad#mad()} is 256 bytes, except for a response the kernel reassembled from RMPP
 * segments (SA), which is longer: the first segment whole (MAD, RMPP and SA headers, first data),
 * then the data of every further segment, in order. A request that timed out comes back as its
 * first 24 bytes (the MAD header, with the kernel's TID) padded with zeros to 256. The sender's
 * address has the GRH's source GID when a GRH came (always on RoCE); the kernel does not report
 * the sender's Q_Key, so a MAD from a QP other than 0 carries the GSI's well-known Q_Key
 * {@code 0x80010000}, ready to answer it with.
 *
 * <p>A MAD goes at its address's P_Key index ({@link MadAddress#pkeyIndex()}, the header's
 * {@code pkey_index}, as libibumad's {@code umad_set_pkey} sets it; the diags' {@code -Y}), in the
 * header {@code IB_USER_MAD_ENABLE_PKEY} turns on when the device is opened. Under libumad2sim the
 * header is the legacy one, which has no P_Key index: every MAD goes at index 0 there, as ibsim
 * has no P_Keys anyway.
 *
 * <p>Sends to an address with a GID carry a GRH from source GID index 0 with hop limit 255. Any
 * number of threads may send; one thread at a time receives. {@link #close()} unregisters the
 * agents and closes the device.
 */
public final class UmadTransport implements MadTransport {
    /** The kernel's response timeout used unless told otherwise: 1 s, libibmad's default. */
    public static final Duration DEFAULT_RESPONSE_TIMEOUT = Duration.ofSeconds(1);

    private static final int MAD_SIZE = 256;
    private static final int MAD_HEADER_SIZE = 24;
    private static final int TID_LOW_OFFSET = 12;
    private static final int VENDOR_OUI_OFFSET = 37;
    /** Where the RMPP header ends: an RMPP transfer the kernel segments may carry less than a whole MAD. */
    private static final int RMPP_HEADER_END = 36;
    private static final int RMPP_FLAGS_OFFSET = 26;
    private static final int RMPP_ACTIVE = 0x01;
    /** How long past its response timeout a request is still believed to be in the kernel. */
    private static final long KERNEL_GRACE_NANOS = 1_000_000_000L;
    /** Above this many requests in the kernel, expired entries are swept out on each send. */
    private static final int AWAITING_SWEEP = 4096;

    private final UmadDevice device;
    private final UmadFile file;
    private final int responseTimeoutMillis;
    /** Agent IDs by class and version ({@code class << 8 | version}); guarded by itself. */
    private final Map<Integer, Integer> agents = new HashMap<>();
    /** Every agent registered, to unregister on close; guarded by {@link #agents}. */
    private final List<Integer> registered = new ArrayList<>();
    /**
     * Requests the kernel is awaiting a response to, by agent and lower TID, with when the kernel
     * is sure to have given up on them ({@link System#nanoTime()}); guarded by itself.
     */
    private final Map<Long, Long> awaiting = new HashMap<>();
    private final AtomicBoolean closed = new AtomicBoolean();

    private UmadTransport(UmadDevice device, UmadFile file, int responseTimeoutMillis) {
        this.device = device;
        this.file = file;
        this.responseTimeoutMillis = responseTimeoutMillis;
    }

    /**
     * Opens the umad device of a port, with the {@linkplain #DEFAULT_RESPONSE_TIMEOUT default
     * response timeout}.
     *
     * @param caName the RDMA device, e.g. {@code mlx5_0} or {@code rxe0}
     * @param port   the port number
     */
    public static UmadTransport open(String caName, int port) {
        return open(UmadDevice.find(caName, port), DEFAULT_RESPONSE_TIMEOUT);
    }

    /**
     * Opens a umad device and turns on P_Key indexes in its header
     * ({@code IB_USER_MAD_ENABLE_PKEY}), except under libumad2sim where the process's libibumad
     * takes the legacy header ({@link UmadFile#headerNeedsPkeyIndex()}).
     *
     * @param device          the device, from {@link UmadDevice#find}
     * @param responseTimeout how long the kernel awaits the response to each request (1 ms to
     *                        about 24 days)
     */
    public static UmadTransport open(UmadDevice device, Duration responseTimeout) {
        long millis = responseTimeout.toMillis();
        if (millis < 1 || millis > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("response timeout " + responseTimeout + " outside 1 ms.." + Integer.MAX_VALUE + " ms");
        }
        UmadFile file = UmadFile.open(device.path());
        try {
            if (UmadFile.headerNeedsPkeyIndex()) {
                file.enablePkeyIndex();
            }
        } catch (RuntimeException e) {
            try {
                file.close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        return new UmadTransport(device, file, (int) millis);
    }

    /** The umad device this transport has open. */
    public UmadDevice device() {
        return device;
    }

    /** How long the kernel awaits the response to each request. */
    public Duration responseTimeout() {
        return Duration.ofMillis(responseTimeoutMillis);
    }

    /**
     * Registers an agent that receives the requests of a management class and version: the
     * kernel then delivers them to {@link #receive}, and sends of that class and version go
     * through this agent. The kernel refuses a method another agent on the port already serves.
     *
     * @param mgmtClass    the management class (0x01 and 0x81 on QP0, others on QP1)
     * @param classVersion the class version
     * @param methodMask   the request methods to receive, bit N for method N, as the
     *                     {@code METHOD_MASK} constants of the attribute classes
     * @param oui          the vendor's OUI for vendor classes 0x30-0x4F, else 0
     */
    @Override
    public void registerServer(int mgmtClass, int classVersion, long methodMask, int oui) {
        checkByte("management class", mgmtClass);
        checkByte("class version", classVersion);
        if (oui < 0 || oui > 0xFFFFFF) {
            throw new IllegalArgumentException("OUI 0x" + Integer.toHexString(oui) + " outside 0..0xFFFFFF");
        }
        synchronized (agents) {
            checkOpen();
            int id = file.registerAgent(qpn(mgmtClass), mgmtClass, classVersion, methodMask, oui, rmppVersion(mgmtClass));
            registered.add(id);
            agents.put(mgmtClass << 8 | classVersion, id);
        }
    }

    /** True for the subnet administration class, whose agents this transport registers with the kernel's RMPP. */
    @Override
    public boolean reassemblesRmpp(int mgmtClass) {
        return rmppVersion(mgmtClass) != 0;
    }

    @Override
    public void send(byte[] mad, MadAddress to) {
        boolean rmpp = mad.length >= RMPP_HEADER_END && reassemblesRmpp(mad[1] & 0xFF) && (mad[RMPP_FLAGS_OFFSET] & RMPP_ACTIVE) != 0;
        if (mad.length < (rmpp ? RMPP_HEADER_END : MAD_SIZE)) {
            throw new IllegalArgumentException("a MAD is at least " + MAD_SIZE + " bytes, not " + mad.length);
        }
        int agent = to.agentId() >= 0 ? registeredAgent(to.agentId()) : agentFor(mad);
        if (Mad.answersRequest(mad[3] & 0xFF)) {
            file.write(agent, 0, mad, address(to));
            return;
        }
        long key = awaitingKey(agent, mad);
        long now = System.nanoTime();
        synchronized (awaiting) {
            Long expiry = awaiting.get(key);
            if (expiry != null && expiry - now > 0) {
                return; // still awaited by the kernel, which would refuse this copy as a duplicate
            }
            if (awaiting.size() >= AWAITING_SWEEP) {
                awaiting.values().removeIf(e -> e - now <= 0);
            }
            awaiting.put(key, now + responseTimeoutMillis * 1_000_000L + KERNEL_GRACE_NANOS);
        }
        try {
            file.write(agent, responseTimeoutMillis, mad, address(to));
        } catch (RuntimeException e) {
            release(key);
            throw e;
        }
    }

    @Override
    public ReceivedMad receive(int timeoutMillis) {
        UmadFile.Packet p = file.read(timeoutMillis);
        if (p == null) {
            return null;
        }
        ReceivedMad received = received(p, describe());
        if (p.status() != 0 || Mad.answersRequest(p.mad()[3] & 0xFF)) {
            release(awaitingKey(p.agentId(), p.mad()));
        }
        return received;
    }

    /**
     * A packet read from the device as the MAD received: a request the kernel gave up waiting on
     * ({@code status} not 0) as a dropped MAD to where it was sent, padded to 256 bytes; anything
     * else as the MAD from its sender, with the GSI's Q_Key for a GMP. A pure function of the
     * packet, so that it can be fuzzed (UmadFuzzTest).
     *
     * @param p     the packet
     * @param where the device, for the message
     * @throws RdmaException if the MAD is shorter than a MAD header
     */
    static ReceivedMad received(UmadFile.Packet p, String where) {
        byte[] mad = p.mad();
        if (mad.length < MAD_HEADER_SIZE) {
            throw new RdmaException("the kernel returned a " + mad.length + "-byte MAD on " + where);
        }
        if (p.status() != 0) {
            UmadFile.Address to = p.from();
            MadAddress sentTo = new MadAddress(to.lid(), to.qpn(), to.qkey(), to.sl(), to.pkeyIndex(), to.gid());
            return new ReceivedMad(Arrays.copyOf(mad, Math.max(MAD_SIZE, mad.length)), sentTo, true);
        }
        UmadFile.Address from = p.from();
        int qkey = from.qpn() != 0 && from.qkey() == 0 ? Iba.IB_DEFAULT_QP1_QKEY : from.qkey();
        return new ReceivedMad(mad, new MadAddress(from.lid(), from.qpn(), qkey, from.sl(), from.pkeyIndex(), from.gid()), false);
    }

    /** {@code to} as the addressing fields of the kernel's MAD header. */
    static UmadFile.Address address(MadAddress to) {
        return new UmadFile.Address(to.lid(), to.qpn(), to.qkey(), to.sl(), to.pkeyIndex(), to.gid());
    }

    /**
     * The end port of this umad device ({@link UmadDevice#caName()}, {@link UmadDevice#port()}) as
     * this machine's sysfs shows it now; empty if sysfs does not list that port.
     *
     * @throws RdmaException if sysfs holds a malformed device (see {@link SysfsDevices})
     */
    @Override
    public Optional<EndPort> endPort() {
        return SysfsDevices.system().read().stream().filter(d -> d.name().equals(device.caName()))
                .flatMap(d -> d.endPort(device.port()).stream()).findFirst();
    }

    @Override
    public String describe() {
        return "umad " + device.path() + " (" + device.caName() + " port " + device.port() + ")";
    }

    /** Unregisters every agent and closes the device, collecting failures. Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        RuntimeException failure = null;
        synchronized (agents) {
            for (int id : registered) {
                try {
                    file.unregisterAgent(id);
                } catch (RuntimeException e) {
                    failure = add(failure, e);
                }
            }
        }
        try {
            file.close();
        } catch (RuntimeException e) {
            failure = add(failure, e);
        }
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * Registers the client agent of a management class and version now, where {@link #send}
     * would register it on first use: as libibmad's {@code mad_rpc_open_port} registers the
     * classes a diagnostic tool uses when it opens the port, so that a port refusing one fails
     * at once (a RoCE port has no QP0: the kernel refuses the SMI classes 0x01 and 0x81 with
     * {@code EPROTONOSUPPORT}). Nothing happens if the agent exists.
     */
    public void registerClient(int mgmtClass, int classVersion) {
        checkByte("management class", mgmtClass);
        checkByte("class version", classVersion);
        client(mgmtClass, classVersion, 0);
    }

    /**
     * Registers the client agent of a management class, version and (for vendor classes
     * 0x30-0x4F) OUI now, python-rdma's {@code register_client(mgmt_class, class_version, oui)},
     * and returns its agent ID: a path whose {@link org.jrdma.path.IBPath#umadAgentId()} names it
     * sends through it. Returns the existing agent of the class and version if there is one.
     */
    public int registerClient(int mgmtClass, int classVersion, int oui) {
        checkByte("management class", mgmtClass);
        checkByte("class version", classVersion);
        if (oui < 0 || oui > 0xFFFFFF) {
            throw new IllegalArgumentException("OUI 0x" + Integer.toHexString(oui) + " outside 0..0xFFFFFF");
        }
        return client(mgmtClass, classVersion, oui);
    }

    /** {@code agentId}, checked to be an agent this transport registered (a path's {@code umad_agent_id}). */
    private int registeredAgent(int agentId) {
        synchronized (agents) {
            checkOpen();
            if (!registered.contains(agentId)) {
                throw new IllegalArgumentException("umad agent " + agentId + " is not one " + describe() + " registered: "
                        + registered);
            }
            return agentId;
        }
    }

    /** The agent for a MAD's class and version, registered as a client on first use. */
    private int agentFor(byte[] mad) {
        int mgmtClass = mad[1] & 0xFF;
        boolean vendorOui = mgmtClass >= Mad.CLASS_VENDOR_RANGE2_START && mgmtClass <= Mad.CLASS_VENDOR_RANGE2_END;
        return client(mgmtClass, mad[2] & 0xFF, vendorOui ? (int) Bits.get(mad, VENDOR_OUI_OFFSET, 0, 24) : 0);
    }

    private int client(int mgmtClass, int classVersion, int oui) {
        synchronized (agents) {
            checkOpen();
            Integer id = agents.get(mgmtClass << 8 | classVersion);
            if (id != null) {
                return id;
            }
            int agent = file.registerAgent(qpn(mgmtClass), mgmtClass, classVersion, 0, oui, rmppVersion(mgmtClass));
            registered.add(agent);
            agents.put(mgmtClass << 8 | classVersion, agent);
            return agent;
        }
    }

    private static long awaitingKey(int agent, byte[] mad) {
        return (long) agent << 32 | Bits.u32(mad, TID_LOW_OFFSET);
    }

    private void release(long key) {
        synchronized (awaiting) {
            awaiting.remove(key);
        }
    }

    private static int qpn(int mgmtClass) {
        return mgmtClass == Mad.CLASS_SUBN_LID_ROUTED || mgmtClass == Mad.CLASS_SUBN_DIRECTED_ROUTE ? 0 : 1;
    }

    private static int rmppVersion(int mgmtClass) {
        return mgmtClass == Mad.CLASS_SUBN_ADM ? 1 : 0;
    }

    private static void checkByte(String what, int value) {
        if (value < 0 || value > 0xFF) {
            throw new IllegalArgumentException(what + " " + value + " outside 0..255");
        }
    }

    private void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException(describe() + " is closed");
        }
    }

    private static RuntimeException add(RuntimeException failure, RuntimeException e) {
        if (failure == null) {
            return e;
        }
        failure.addSuppressed(e);
        return failure;
    }
}

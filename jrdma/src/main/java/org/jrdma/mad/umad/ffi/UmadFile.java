package org.jrdma.mad.umad.ffi;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import org.jrdma.RdmaException;
import org.jrdma.SysException;
import org.jrdma.ffi.Errors;
import org.jrdma.ffi.Libc;
import org.jrdma.iba.Gid;

/**
 * An open umad character device ({@code /dev/infiniband/umadN}, one per end port): the
 * {@code IB_USER_MAD_*} ioctls, and MADs written and read behind the {@code ib_user_mad} header,
 * all in Java types. The header is the kernel's legacy 56-byte one (no P_Key index; the kernel
 * uses index 0) until {@link #enablePkeyIndex()} turns on the 64-byte one.
 *
 * <p>Under libumad2sim (ibsim's preload, which emulates this device for a process) the header is
 * what libibumad's {@code umad_size()} says in that process, since libumad2sim parses it with
 * libibumad's helpers: 64 bytes only once libibumad's own {@code umad_open_port} ran there, which
 * a Java process never calls, so 56. {@link #headerNeedsPkeyIndex()} tells which to use.
 *
 * <p>One thread may write while another reads. Reads poll in short slices, so {@link #close()}
 * waits at most one slice for a reader; use after close throws {@link IllegalStateException}.
 */
public final class UmadFile implements AutoCloseable {
    /** {@code IB_USER_MAD_ABI_VERSION}, the only ABI this class speaks. */
    public static final int ABI_VERSION = 5;
    /** {@code O_RDWR | O_NONBLOCK | O_CLOEXEC} from {@code <fcntl.h>}. */
    static final int OPEN_FLAGS = 02 | 04000 | 02000000;
    /** {@code ENOSPC}: the read buffer is smaller than an RMPP-reassembled MAD. */
    static final int ENOSPC = 28;

    /**
     * The largest read buffer an RMPP-reassembled MAD may make this file allocate: 64 MiB, about
     * 900,000 72-byte SA records, far beyond any subnet's table.
     */
    static final long MAX_READ_SIZE = 64L << 20;
    /** {@code ETIMEDOUT}, the status of a sent request the kernel saw no response to. */
    static final int ETIMEDOUT = 110;
    /** The header before every MAD once {@link #enablePkeyIndex()} ran. */
    static final int HEADER_SIZE = (int) IbUserMad.USER_MAD.byteSize();
    /** The legacy header, without {@code pkey_index} and the reserved bytes after it. */
    static final int LEGACY_HEADER_SIZE = (int) IbUserMad.PKEY_INDEX_OFFSET;
    /** The hop limit of the GRH sent when the destination has a GID (255, as the kernel replies). */
    static final int HOP_LIMIT = 255;

    private static final int MAD_SIZE = 256;
    private static final int POLL_SLICE_MILLIS = 100;

    private final int fd;
    private final Path device;
    private final Buffer sendBuffer = new Buffer(HEADER_SIZE + MAD_SIZE);
    private final Buffer receiveBuffer = new Buffer(HEADER_SIZE + MAD_SIZE);
    private final ReentrantLock sendLock = new ReentrantLock();
    private final ReentrantLock receiveLock = new ReentrantLock();
    private final AtomicBoolean closed = new AtomicBoolean();
    /** {@link #HEADER_SIZE} or {@link #LEGACY_HEADER_SIZE}; set before the first agent, then read only. */
    private volatile int headerSize = LEGACY_HEADER_SIZE;

    private UmadFile(int fd, Path device) {
        this.fd = fd;
        this.device = device;
    }

    /** Opens a umad device read-write, non-blocking. */
    public static UmadFile open(Path device) {
        return new UmadFile(Libc.open(device.toString(), OPEN_FLAGS), device);
    }

    /**
     * Opens a file that is not a umad device (a FIFO) with the header {@link #enablePkeyIndex()}
     * turns on, without the ioctl such a file refuses: what {@link #write} writes there can be read
     * back byte for byte.
     */
    static UmadFile openWithPkeyIndex(Path file) {
        UmadFile opened = open(file);
        opened.headerSize = HEADER_SIZE;
        return opened;
    }

    /**
     * {@code IB_USER_MAD_ENABLE_PKEY}: the header carries the P_Key index. Must come before the
     * first agent is registered.
     */
    public void enablePkeyIndex() {
        checkOpen();
        Libc.ioctl(fd, IbUserMad.ENABLE_PKEY, MemorySegment.NULL, "IB_USER_MAD_ENABLE_PKEY");
        headerSize = HEADER_SIZE;
    }

    /**
     * Whether the umad devices of this process take the 64-byte header ({@link #enablePkeyIndex()}
     * should run): true for the kernel's; for libumad2sim's (its {@code sim_client_init} is in the
     * global scope) only if the libibumad it parses headers with says {@code umad_size()} 64.
     */
    public static boolean headerNeedsPkeyIndex() {
        if (Libc.findGlobal("sim_client_init").isEmpty()) {
            return true;
        }
        return Libc.findGlobal("umad_size").map(UmadFile::callSizeFunction).orElse((long) LEGACY_HEADER_SIZE) == HEADER_SIZE;
    }

    @SuppressWarnings("restricted")
    private static long callSizeFunction(MemorySegment function) {
        try {
            return (long) Linker.nativeLinker().downcallHandle(function, FunctionDescriptor.of(ValueLayout.JAVA_LONG)).invokeExact();
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /**
     * {@code IB_USER_MAD_REGISTER_AGENT}: registers a MAD agent.
     *
     * @param qpn          0 for the SMI (classes 0x01, 0x81), 1 for the GSI
     * @param mgmtClass    the management class
     * @param classVersion the class version
     * @param methodMask   the request methods the agent receives, bit N for method N (0 for a
     *                     client that only sends requests and receives their responses)
     * @param oui          the vendor OUI (vendor classes 0x30-0x4F), else 0
     * @param rmppVersion  1 to have the kernel run RMPP (segmentation and reassembly), else 0
     * @return the agent ID the kernel gave
     */
    public int registerAgent(int qpn, int mgmtClass, int classVersion, long methodMask, int oui, int rmppVersion) {
        checkOpen();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment req = arena.allocate(IbUserMad.REG_REQ);
            IbUserMad.REG_METHOD_MASK.set(req, 0L, 0L, methodMask);
            IbUserMad.REG_QPN.set(req, 0L, (byte) qpn);
            IbUserMad.REG_MGMT_CLASS.set(req, 0L, (byte) mgmtClass);
            IbUserMad.REG_MGMT_CLASS_VERSION.set(req, 0L, (byte) classVersion);
            for (int i = 0; i < 3; i++) {
                req.set(ValueLayout.JAVA_BYTE, IbUserMad.REG_OUI_OFFSET + i, (byte) (oui >>> (16 - 8 * i)));
            }
            IbUserMad.REG_RMPP_VERSION.set(req, 0L, (byte) rmppVersion);
            Libc.ioctl(fd, IbUserMad.REGISTER_AGENT, req, String.format(
                    "IB_USER_MAD_REGISTER_AGENT class 0x%02x version %d", mgmtClass, classVersion));
            return (int) IbUserMad.REG_ID.get(req, 0L);
        }
    }

    /** {@code IB_USER_MAD_UNREGISTER_AGENT}. */
    public void unregisterAgent(int agentId) {
        checkOpen();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment id = arena.allocateFrom(ValueLayout.JAVA_INT, agentId);
            Libc.ioctl(fd, IbUserMad.UNREGISTER_AGENT, id, "IB_USER_MAD_UNREGISTER_AGENT agent " + agentId);
        }
    }

    /**
     * Writes one MAD.
     *
     * @param agentId       the agent to send through
     * @param timeoutMillis how long the kernel waits for the response to a request (0 for none:
     *                      the kernel then drops the response)
     * @param mad           the MAD, 256 bytes, or longer for an RMPP-active MAD of an RMPP agent
     * @param to            the destination; with a GID, a GRH is sent from source GID index 0
     */
    public void write(int agentId, int timeoutMillis, byte[] mad, Address to) {
        sendLock.lock();
        try {
            checkOpen();
            int header = headerSize;
            MemorySegment b = sendBuffer.ensure(header + mad.length);
            b.asSlice(0, header).fill((byte) 0);
            IbUserMad.AGENT_ID.set(b, 0L, agentId);
            IbUserMad.TIMEOUT_MS.set(b, 0L, timeoutMillis);
            IbUserMad.LENGTH.set(b, 0L, mad.length);
            IbUserMad.QPN.set(b, 0L, to.qpn());
            IbUserMad.QKEY.set(b, 0L, to.qkey());
            IbUserMad.LID.set(b, 0L, (short) to.lid());
            IbUserMad.SL.set(b, 0L, (byte) to.sl());
            if (header == HEADER_SIZE) {
                IbUserMad.PKEY_INDEX.set(b, 0L, (short) to.pkeyIndex());
            }
            if (to.gid() != null) {
                IbUserMad.GRH_PRESENT.set(b, 0L, (byte) 1);
                IbUserMad.HOP_LIMIT.set(b, 0L, (byte) HOP_LIMIT);
                to.gid().writeTo(b, IbUserMad.GID_OFFSET);
            }
            MemorySegment.copy(mad, 0, b, ValueLayout.JAVA_BYTE, header, mad.length);
            long n = Libc.write(fd, b, header + mad.length);
            if (n != header + mad.length) {
                throw new RdmaException("wrote " + n + " of " + (header + mad.length) + " bytes to " + device);
            }
        } finally {
            sendLock.unlock();
        }
    }

    /**
     * Reads the next MAD, growing the buffer when the kernel has an RMPP-reassembled MAD larger
     * than it ({@code ENOSPC}; the header's {@code length} then tells the size needed).
     *
     * @param timeoutMillis how long to wait
     * @return the MAD, or null if none came in time or the file was closed meanwhile
     */
    public Packet read(int timeoutMillis) {
        receiveLock.lock();
        try {
            long deadline = System.nanoTime() + Math.max(0, timeoutMillis) * 1_000_000L;
            while (true) {
                checkOpen();
                long left = (deadline - System.nanoTime()) / 1_000_000L;
                if (!Libc.pollIn(fd, Math.clamp(left, 0, POLL_SLICE_MILLIS))) {
                    if (left <= 0 || closed.get()) {
                        return null;
                    }
                    continue;
                }
                MemorySegment b = receiveBuffer.segment;
                long n;
                try {
                    n = Libc.read(fd, b, b.byteSize());
                } catch (SysException e) {
                    if (e.errno() == ENOSPC) {
                        long needed = Integer.toUnsignedLong((int) IbUserMad.LENGTH.get(b, 0L));
                        receiveBuffer.ensure(grownReadSize(device.toString(), needed, b.byteSize(), e));
                        continue;
                    }
                    throw e;
                }
                if (n < 0) {
                    continue; // EAGAIN: nothing was waiting after all
                }
                return packet(b, (int) n, headerSize);
            }
        } finally {
            receiveLock.unlock();
        }
    }

    /**
     * The read buffer's next size after an {@code ENOSPC}: the header's {@code length} word, which
     * the kernel sets to what the reassembled MAD needs. A length no larger than the buffer, or
     * beyond {@link #MAX_READ_SIZE}, is refused rather than trusted.
     *
     * @param device what the message names
     * @param needed the header's length word, unsigned
     * @param have   the buffer's size now
     * @param cause  the read's failure
     * @return {@code needed}
     * @throws RdmaException if {@code needed} is not a size to grow to
     */
    static long grownReadSize(String device, long needed, long have, SysException cause) {
        if (needed <= have) {
            throw new RdmaException("umad read of " + device + " failed with ENOSPC into "
                    + have + " bytes, yet the MAD needs " + needed, cause);
        }
        if (needed > MAX_READ_SIZE) {
            throw new RdmaException("umad read of " + device + " failed with ENOSPC: the MAD claims " + needed
                    + " bytes, more than the " + MAX_READ_SIZE + " a reassembled RMPP MAD is allowed", cause);
        }
        return needed;
    }

    /**
     * The packet in what a {@code read(2)} of the device returned: a pure function of the bytes,
     * so that it can be fuzzed (UmadFuzzTest).
     *
     * @param b      the read buffer, at least {@code header} bytes and at least {@code n}
     * @param n      how many bytes the read returned
     * @param header the header's size, {@link #HEADER_SIZE} or {@link #LEGACY_HEADER_SIZE}
     * @throws RdmaException if the read returned less than a header
     */
    public static Packet packet(MemorySegment b, int n, int header) {
        if (n < header) {
            throw new RdmaException("umad read returned " + n + " bytes, less than its " + header + "-byte header");
        }
        byte[] mad = b.asSlice(header, n - header).toArray(ValueLayout.JAVA_BYTE);
        boolean grh = (byte) IbUserMad.GRH_PRESENT.get(b, 0L) != 0;
        Address from = new Address(
                (short) IbUserMad.LID.get(b, 0L) & 0xFFFF,
                (int) IbUserMad.QPN.get(b, 0L) & 0xFFFFFF,
                (int) IbUserMad.QKEY.get(b, 0L),
                (byte) IbUserMad.SL.get(b, 0L) & 0xF,
                header == HEADER_SIZE ? (short) IbUserMad.PKEY_INDEX.get(b, 0L) & 0xFFFF : 0,
                grh ? Gid.fromSegment(b, IbUserMad.GID_OFFSET) : null);
        return new Packet((int) IbUserMad.AGENT_ID.get(b, 0L), (int) IbUserMad.STATUS.get(b, 0L), mad, from);
    }

    /**
     * A MAD read from the device.
     *
     * @param agentId the agent it arrived for
     * @param status  0, or {@link #ETIMEDOUT} for a request of ours the kernel gives up waiting
     *                on (then {@code mad} holds its 24-byte MAD header only)
     * @param mad     the MAD: 256 bytes, or more when the kernel reassembled an RMPP transfer
     * @param from    the sender (for a timed-out request, the address it was sent to); the kernel
     *                reports no Q_Key (0) for a received MAD, and the GID is that of the GRH's
     *                source when a GRH came with it
     */
    public record Packet(int agentId, int status, byte[] mad, Address from) {
    }

    /**
     * The header's {@code struct ib_mad_addr}, the fields this class uses: where a MAD goes, or
     * where it came from, as the kernel takes and reports them.
     *
     * @param lid       {@code lid}, the remote port's LID (0..0xFFFF)
     * @param qpn       {@code qpn}, the remote queue pair (24 bits)
     * @param qkey      {@code qkey}
     * @param sl        {@code sl}, the service level (4 bits)
     * @param pkeyIndex {@code pkey_index}, into the local port's P_Key table
     * @param gid       {@code gid} when {@code grh_present}, else null
     */
    public record Address(int lid, int qpn, int qkey, int sl, int pkeyIndex, Gid gid) {
    }

    /**
     * Closes the device: the kernel unregisters any agent left. Waits for a reader to finish its
     * poll slice. Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        sendLock.lock();
        receiveLock.lock();
        try {
            Libc.close(fd);
        } finally {
            sendBuffer.close();
            receiveBuffer.close();
            receiveLock.unlock();
            sendLock.unlock();
        }
    }

    private void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException(device + " is closed");
        }
    }

    /** A native buffer that grows by being replaced, each generation in its own arena. */
    private static final class Buffer {
        private Arena arena;
        private MemorySegment segment;

        Buffer(long size) {
            arena = Arena.ofShared();
            segment = arena.allocate(size, 8);
        }

        MemorySegment ensure(long size) {
            if (size > segment.byteSize()) {
                Arena bigger = Arena.ofShared();
                MemorySegment grown = bigger.allocate(size, 8);
                arena.close();
                arena = bigger;
                segment = grown;
            }
            return segment;
        }

        void close() {
            arena.close();
        }
    }
}

package org.jrdma.verbs;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jrdma.NoSuchDeviceException;
import org.jrdma.RdmaException;
import org.jrdma.SysException;
import org.jrdma.devices.EndPort;
import org.jrdma.devices.RdmaDevice;
import org.jrdma.devices.SysfsDevices;
import org.jrdma.iba.Gid;
import org.jrdma.verbs.ffi.IbvContext;
import org.jrdma.verbs.ffi.IbvContextEx;

/**
 * An open RDMA device, {@code struct ibv_context} ({@code ibv_open_device}; IBA 11.2.1.1 Open
 * HCA): python-rdma's {@code rdma.ibverbs.Context}, from {@link Verbs#open} or
 * {@link org.jrdma.Rdma#getVerbs(EndPort)}. It queries the
 * device and its ports, makes protection domains, completion queues and completion channels,
 * and delivers the device's asynchronous events. Closing it closes everything made from it.
 *
 * <pre>{@code
 * try (Context ctx = Verbs.open("rxe0")) {
 *     Pd pd = ctx.pd();
 *     Cq cq = ctx.cq(64);
 *     ...
 * }
 * }</pre>
 */
public final class Context extends Resource {
    /** {@code O_CREAT} of {@code open(2)}: {@link #xrcd(int, int)} makes the file's domain when it has none. */
    public static final int O_CREAT = 0100;
    /** {@code O_EXCL} of {@code open(2)}: with {@code O_CREAT}, {@link #xrcd(int, int)} fails if the file has a domain. */
    public static final int O_EXCL = 0200;

    private final IbvContext handle;
    private final String deviceName;
    /** Replaced by a port event's fresh state ({@link #handleAsyncEvent}). */
    private volatile EndPort endPort;
    /** The CQs, QPs and SRQs of this context by the address of their C structure, for events. */
    private final Map<Long, Resource> byAddress = new ConcurrentHashMap<>();
    private final Map<Integer, Qp> qpsByNum = new ConcurrentHashMap<>();

    private Context(IbvContext handle, String deviceName, EndPort endPort) {
        this.handle = handle;
        this.deviceName = deviceName;
        this.endPort = endPort;
    }

    /**
     * Opens {@code deviceName} for {@code endPort} (null for none), confined to this thread or
     * not ({@link Verbs#openConfined}), or returns null when there is no such device.
     */
    static Context open(String deviceName, EndPort endPort, boolean confined) {
        IbvContext handle = IbvContext.open(deviceName, confined);
        return handle == null ? null : new Context(handle, deviceName, endPort);
    }

    /**
     * Internal, for {@code org.jrdma.cm}: a context on a device another library opened and keeps
     * open (librdmacm's {@code cm_id->verbs}). Closing it closes what was made from it, not the
     * device. Its parameter's type is not exported: no one outside the module can call it.
     */
    @SuppressWarnings("exports")
    public static Context borrowed(IbvContext handle, String deviceName) {
        return new Context(handle, deviceName, null);
    }

    /**
     * The end port this context was opened for ({@link Verbs#open(EndPort)}), python-rdma's
     * {@code ctx.end_port}; empty when it was opened by device name.
     */
    public Optional<EndPort> endPort() {
        return Optional.ofNullable(endPort);
    }

    /**
     * Whether the context, and everything made from it, belong to the thread that opened it
     * ({@link Verbs#openConfined}).
     */
    public boolean isConfined() {
        return handle.isConfined();
    }

    /** The device's name, for example {@code rxe0}. */
    public String deviceName() {
        return deviceName;
    }

    /** The device's limits and capabilities ({@code ibv_query_device}). */
    public DeviceAttr queryDevice() {
        checkOpen();
        return DeviceAttr.of(handle.queryDevice());
    }

    /**
     * The attributes of the port of this context's end port ({@code ibv_query_port}),
     * python-rdma's {@code query_port()} without a port.
     *
     * @throws IllegalStateException if the context was opened by device name, without an end port
     */
    public PortAttr queryPort() {
        EndPort port = endPort;
        if (port == null) {
            throw new IllegalStateException(describe() + " was opened without an end port; name the port");
        }
        return queryPort(port.portNumber());
    }

    /**
     * The RDMA device this context is open on, as the system lists it now ({@code sysfs}):
     * python-rdma's {@code ctx.node}.
     *
     * @throws NoSuchDeviceException if the system no longer lists the device
     */
    public RdmaDevice node() {
        return RdmaDevice.find(SysfsDevices.system().read(), deviceName);
    }

    /** The attributes of port {@code port}, from 1 ({@code ibv_query_port}). */
    public PortAttr queryPort(int port) {
        checkOpen();
        return PortAttr.of(handle.queryPort(Args.unsigned("port_num", port, 8)));
    }

    /** Entry {@code index} of port {@code port}'s GID table ({@code ibv_query_gid}). */
    public Gid queryGid(int port, int index) {
        checkOpen();
        return handle.queryGid(Args.unsigned("port_num", port, 8), Args.positiveOrZero("index", index));
    }

    /** Entry {@code index} of port {@code port}'s P_Key table ({@code ibv_query_pkey}), 16 bits. */
    public int queryPkey(int port, int index) {
        checkOpen();
        return handle.queryPkey(Args.unsigned("port_num", port, 8), Args.positiveOrZero("index", index));
    }

    /**
     * The device's extended limits and capabilities ({@code ibv_query_device_ex}): on-demand
     * paging, completion timestamps, the core clock, TSO, RSS, packet pacing, ...
     */
    public DeviceAttrEx queryDeviceEx() {
        checkOpen();
        return DeviceAttrEx.of(IbvContextEx.queryDeviceEx(handle));
    }

    /**
     * The device's free-running clock now, in nanoseconds ({@code ibv_query_rt_values_ex},
     * {@code raw_clock}).
     *
     * @throws UnsupportedVerbException if the provider has no real-time values
     */
    public long queryRtValuesEx() {
        checkOpen();
        try {
            return IbvContextEx.queryRawClockNanos(handle);
        } catch (SysException e) {
            throw UnsupportedVerbException.translate(e, "ibv_query_rt_values_ex (IBV_VALUES_MASK_RAW_CLOCK)");
        }
    }

    /** Entry {@code index} of port {@code port}'s GID table with its type ({@code ibv_query_gid_ex}). */
    public GidEntry queryGidEx(int port, int index) {
        checkOpen();
        return GidEntry.of(IbvContextEx.queryGidEx(handle, Args.unsigned("port_num", port, 8),
                Args.positiveOrZero("index", index)));
    }

    /** The valid GIDs of every port, with their types ({@code ibv_query_gid_table}). */
    public List<GidEntry> queryGidTable() {
        checkOpen();
        int max = 0;
        for (int port = 1; port <= queryDevice().physPortCnt(); port++) {
            max += queryPort(port).gidTblLen();
        }
        return IbvContextEx.queryGidTable(handle, Math.max(max, 1)).stream().map(GidEntry::of).toList();
    }

    /**
     * A new extended completion queue ({@code ibv_create_cq_ex}) of at least {@code cqe} entries
     * reporting the fields {@code wcFlags} ({@link WcFlagsEx}).
     *
     * @param channel    where its completion events go, or null
     * @param compVector the completion vector, below {@link #numCompVectors()}
     * @throws UnsupportedVerbException if the provider has no extended CQs, or not with these fields
     *                                  (completion timestamps need a device clock:
     *                                  {@link DeviceAttrEx#completionTimestampMask()})
     */
    public CqEx cqEx(int cqe, CompChannel channel, int compVector, long wcFlags) {
        checkOpen();
        if (channel != null && channel.context() != this) {
            throw new IllegalArgumentException(channel + " belongs to another context");
        }
        if ((wcFlags & (WcFlagsEx.COMPLETION_TIMESTAMP | WcFlagsEx.COMPLETION_TIMESTAMP_WALLCLOCK)) != 0) {
            UnsupportedVerbException.require(queryDeviceEx().completionTimestampMask() != 0, "ibv_create_cq_ex",
                    "completion timestamps (completion_timestamp_mask 0)");
        }
        return CqEx.create(this, Args.positiveOrZero("cqe", cqe), channel, Args.positiveOrZero("comp_vector", compVector),
                wcFlags);
    }

    /**
     * A new XRC domain of its own ({@code ibv_open_xrcd}, {@code fd} -1, {@code O_CREAT}).
     *
     * @throws UnsupportedVerbException if the device has no XRC ({@code IBV_DEVICE_XRC})
     */
    public Xrcd xrcd() {
        return xrcd(-1, O_CREAT);
    }

    /**
     * The XRC domain of the file open as {@code fd} ({@code ibv_open_xrcd}), which other processes
     * opening the same file share, or a domain of its own when {@code fd} is -1; {@code oflags} of
     * {@code open(2)} ({@link #O_CREAT}, {@link #O_EXCL}).
     *
     * @throws UnsupportedVerbException if the device has no XRC ({@code IBV_DEVICE_XRC})
     */
    public Xrcd xrcd(int fd, int oflags) {
        if (fd < -1) {
            throw new IllegalArgumentException("an XRC domain's file descriptor is -1 or one open, not " + fd);
        }
        checkOpen();
        UnsupportedVerbException.require(queryDeviceEx().has(DeviceAttrEx.XRC) || IbvContextEx.op(handle, "open_xrcd") != null,
                "ibv_open_xrcd", "IBV_DEVICE_XRC");
        return Xrcd.open(this, fd, oflags);
    }

    /**
     * A new thread domain ({@code ibv_alloc_td}).
     *
     * @throws UnsupportedVerbException if the provider has no thread domains
     */
    public Td td() {
        checkOpen();
        return Td.alloc(this);
    }

    /** How many completion vectors CQs may be spread over ({@code num_comp_vectors}). */
    public int numCompVectors() {
        checkOpen();
        return handle.numCompVectors();
    }

    /** The file descriptor that becomes readable when an asynchronous event waits ({@code async_fd}). */
    public int asyncFd() {
        checkOpen();
        return handle.asyncFd();
    }

    /**
     * The device file of this context ({@code context->cmd_fd}), which another context imports
     * ({@link Verbs#importDevice}) to share this one's kernel objects.
     */
    public int cmdFd() {
        checkOpen();
        return handle.cmdFd();
    }

    /**
     * The protection domain numbered {@code pdHandle} ({@link Pd#kernelHandle()} of the process
     * that made it) on the device file this context was imported from, imported
     * ({@code ibv_import_pd}); closing it unimports it, its owner keeps it.
     *
     * @throws UnsupportedVerbException if the provider cannot import
     */
    public Pd importPd(int pdHandle) {
        checkOpen();
        return Pd.importPd(this, pdHandle);
    }

    /** {@code ibv_import_device} of {@code cmdFd}. */
    static Context importDevice(int cmdFd) {
        IbvContext handle;
        try {
            handle = IbvContext.importDevice(cmdFd, false);
        } catch (SysException e) {
            throw UnsupportedVerbException.translate(e, "ibv_import_device (sharing between processes)");
        }
        return new Context(handle, handle.deviceName(), null);
    }

    /** A new protection domain ({@code ibv_alloc_pd}). */
    public Pd pd() {
        checkOpen();
        return Pd.alloc(this);
    }

    /** A new completion channel ({@code ibv_create_comp_channel}). */
    public CompChannel compChannel() {
        checkOpen();
        return CompChannel.create(this);
    }

    /** A new completion queue of at least {@code cqe} entries, without a completion channel. */
    public Cq cq(int cqe) {
        return cq(cqe, null, 0);
    }

    /** A new completion queue of at least {@code cqe} entries whose events go to {@code channel}. */
    public Cq cq(int cqe, CompChannel channel) {
        return cq(cqe, channel, 0);
    }

    /**
     * A new completion queue ({@code ibv_create_cq}).
     *
     * @param cqe        the least number of entries
     * @param channel    where its completion events go, or null
     * @param compVector the completion vector, below {@link #numCompVectors()}
     */
    public Cq cq(int cqe, CompChannel channel, int compVector) {
        checkOpen();
        if (channel != null && channel.context() != this) {
            throw new IllegalArgumentException(channel + " belongs to another context");
        }
        return Cq.create(this, Args.positiveOrZero("cqe", cqe), channel, Args.positiveOrZero("comp_vector", compVector));
    }

    /** The open queue pair numbered {@code qpNum} made in this context, or null (python-rdma's {@code from_qp_num}). */
    public Qp qp(int qpNum) {
        return qpsByNum.get(qpNum);
    }

    /**
     * Waits up to {@code timeout} for an asynchronous event ({@code ibv_get_async_event}) and
     * acknowledges it. One waiting thread per context: a second may block after the first took
     * the event.
     *
     * @return the event, or null when none came in time
     */
    public AsyncEvent getAsyncEvent(Duration timeout) {
        checkOpen();
        IbvContext.RawAsyncEvent raw = handle.getAsyncEvent(millis(timeout));
        if (raw == null) {
            return null;
        }
        EventType type = EventType.fromValue(raw.eventType());
        return switch (type.element()) {
            case CQ -> new AsyncEvent(type, (Cq) byAddress.get(raw.element()), null, null, 0);
            case QP -> new AsyncEvent(type, null, (Qp) byAddress.get(raw.element()), null, 0);
            case SRQ -> new AsyncEvent(type, null, null, (Srq) byAddress.get(raw.element()), 0);
            case PORT -> portEvent(type, raw.portNum());
            case NONE -> new AsyncEvent(type, null, null, null, 0, null, systemDevice());
        };
    }

    /**
     * python-rdma's {@code handle_async_event}: reloads the cached end port from a port event
     * ({@link #endPort()} then reports the port's state after it, as the seed updates its end-port
     * cache) and raises the events that report a failure.
     *
     * @throws AsyncException if {@code event.type().isError()}
     */
    public void handleAsyncEvent(AsyncEvent event) {
        EndPort refreshed = event.endPort();
        EndPort current = endPort;
        if (refreshed != null && current != null && refreshed.isSamePort(current)) {
            endPort = refreshed;
        }
        if (event.type().isError()) {
            throw new AsyncException(event.type().value(), event.type().text() + " on " + event.subject());
        }
    }

    /** An event of port {@code portNum}, with the device and the port as the system reports them now (null if it does not). */
    private AsyncEvent portEvent(EventType type, int portNum) {
        RdmaDevice device = systemDevice();
        EndPort port = device == null ? null : device.endPort(portNum).orElse(null);
        return new AsyncEvent(type, null, null, null, portNum, port, device);
    }

    /** This context's device as sysfs shows it now, or null if sysfs does not list it or cannot be read. */
    private RdmaDevice systemDevice() {
        try {
            return node();
        } catch (RdmaException e) {
            return null;
        }
    }

    /** The native object, for the objects made from this context. */
    IbvContext handle() {
        return handle;
    }

    /** Makes {@code resource} (a CQ, QP or SRQ at {@code address}) findable by events. */
    void map(long address, Resource resource) {
        byAddress.put(address, resource);
        if (resource instanceof Qp qp) {
            qpsByNum.put(qp.qpNum(), qp);
        }
    }

    /** Undoes {@link #map}. */
    void unmap(long address, Resource resource) {
        byAddress.remove(address, resource);
        if (resource instanceof Qp qp) {
            qpsByNum.remove(qp.qpNum(), qp);
        }
    }

    /** The CQ at {@code address}, for a completion event. */
    Cq cqAt(long address) {
        return (Cq) byAddress.get(address);
    }

    /** {@code timeout} in milliseconds for poll(2), at most {@code Integer.MAX_VALUE}. */
    static int millis(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must not be negative: " + timeout);
        }
        return (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
    }

    @Override
    String describe() {
        return "context of " + deviceName;
    }

    @Override
    void release() {
        handle.close();
    }
}

package org.jrdma.verbs;

import java.util.List;
import java.util.Objects;
import org.jrdma.NoSuchDeviceException;
import org.jrdma.devices.EndPort;
import org.jrdma.verbs.ffi.IbvContext;
import org.jrdma.verbs.ffi.IbvFork;
import org.jrdma.verbs.ffi.Ibv;

/**
 * The entry to the verbs interface, libibverbs ({@code libibverbs.so.1}) through
 * {@code java.lang.foreign}: whether it can be used here, the devices it finds
 * ({@code ibv_get_device_list}), and opening one ({@code ibv_open_device}) as a {@link Context}.
 * Needs {@code --enable-native-access} for the module {@code org.jrdma} (or
 * {@code ALL-UNNAMED} on the class path).
 */
public final class Verbs {
    private Verbs() {
    }

    /** Whether libibverbs can be used in this JVM; checked once. */
    public static boolean isAvailable() {
        return Ibv.unavailabilityCause() == null;
    }

    /**
     * Why libibverbs cannot be used, or null when it can: a throwable whose message says what is
     * missing and what to install, caused by the failure to load the library when there was one.
     */
    public static Throwable unavailabilityCause() {
        return Ibv.unavailabilityCause();
    }

    /**
     * Throws unless libibverbs can be used.
     *
     * @throws UnsupportedOperationException with the message of {@link #unavailabilityCause()},
     *                                       which is its cause
     */
    public static void ensureAvailable() {
        Throwable cause = Ibv.unavailabilityCause();
        if (cause != null) {
            throw new UnsupportedOperationException(cause.getMessage(), cause);
        }
    }

    /**
     * The RDMA devices of this host, as {@code ibv_devices} lists them.
     *
     * @throws UnsupportedOperationException if libibverbs cannot be used
     * @throws org.jrdma.SysException        if libibverbs cannot list devices (for example
     *                                       {@code ENOSYS} without kernel RDMA support)
     */
    public static List<VerbsDevice> devices() {
        ensureAvailable();
        return IbvContext.devices().stream().map(VerbsDevice::of).toList();
    }

    /**
     * Opens device {@code deviceName}.
     *
     * @throws NoSuchDeviceException         if there is no such device; the message lists those there are
     * @throws UnsupportedOperationException if libibverbs cannot be used
     * @throws org.jrdma.SysException        if the device cannot be opened
     */
    public static Context open(String deviceName) {
        Objects.requireNonNull(deviceName, "deviceName");
        return open(deviceName, null, false);
    }

    /**
     * Opens device {@code deviceName} for the calling thread alone: the context and every object
     * made from it (protection domains, memory regions, CQs, QPs, ...) may be used and closed
     * only by this thread; any other gets {@link WrongThreadException}, or
     * {@link IllegalStateException} when it tries to close one. In exchange, each data-path call
     * (post, poll) keeps its object alive with two plain increments instead of two atomic
     * operations: for a data path driven by one thread, an event loop's.
     *
     * @throws NoSuchDeviceException         if there is no such device; the message lists those there are
     * @throws UnsupportedOperationException if libibverbs cannot be used
     * @throws org.jrdma.SysException        if the device cannot be opened
     */
    public static Context openConfined(String deviceName) {
        Objects.requireNonNull(deviceName, "deviceName");
        return open(deviceName, null, true);
    }

    /**
     * Opens the device of {@code endPort}, remembering the end port
     * ({@link Context#endPort()}): python-rdma's {@code rdma.get_verbs(end_port)}.
     *
     * @throws NoSuchDeviceException         if there is no such device
     * @throws UnsupportedOperationException if libibverbs cannot be used
     * @throws org.jrdma.SysException        if the device cannot be opened
     */
    public static Context open(EndPort endPort) {
        Objects.requireNonNull(endPort, "endPort");
        return open(endPort.deviceName(), endPort, false);
    }

    /**
     * {@code ibv_fork_init}: makes registered memory safe across fork(2), as far as this kernel
     * needs it; call it before registering memory.
     *
     * @return {@code ibv_is_fork_initialized} afterwards
     * @throws org.jrdma.SysException if libibverbs refuses (for example once memory is registered
     *                                on a kernel that needs it)
     */
    public static ForkStatus forkInit() {
        ensureAvailable();
        return ForkStatus.fromValue(IbvFork.forkInit());
    }

    /**
     * A context on the device file {@code cmdFd} of another context ({@link Context#cmdFd()}, in
     * this process or passed from another), sharing its kernel objects: python-rdma has none,
     * rdma-core's {@code ibv_import_device}. Its domains and regions are imported by number
     * ({@link Context#importPd}, {@link Pd#importMr}); closing it leaves the other context's
     * objects alone.
     *
     * @throws UnsupportedVerbException if the provider cannot import a context
     */
    public static Context importDevice(int cmdFd) {
        ensureAvailable();
        return Context.importDevice(cmdFd);
    }

    private static Context open(String deviceName, EndPort endPort, boolean confined) {
        ensureAvailable();
        Context context = Context.open(deviceName, endPort, confined);
        if (context == null) {
            throw new NoSuchDeviceException(deviceName, "no RDMA device " + deviceName + "; devices: "
                    + devices().stream().map(VerbsDevice::name).toList());
        }
        return context;
    }
}

package org.jrdma;

import java.util.List;
import org.jrdma.devices.EndPort;
import org.jrdma.devices.RdmaDevice;
import org.jrdma.devices.SysfsDevices;
import org.jrdma.iba.Iba;
import org.jrdma.mad.MadTransactor;
import org.jrdma.mad.umad.UmadTransport;
import org.jrdma.mad.verbs.VMad;
import org.jrdma.path.IBPath;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Verbs;

/**
 * The entry points of jrdma, python-rdma's {@code rdma} module functions: the RDMA devices of this
 * machine and the end port to work on. Each call reads a fresh snapshot of the kernel's devices
 * from sysfs ({@link SysfsDevices#system()}); nothing is cached, so a port that came up since is
 * seen at once.
 *
 * <pre>{@code
 * EndPort port = Rdma.getEndPort();              // the first active port
 * EndPort named = Rdma.getEndPort("mlx4_0/1");   // or a device, port GUID or port GID
 * try (Context ctx = Rdma.getVerbs(port)) {      // its verbs
 *     ...
 * }
 * try (MadTransactor umad = Rdma.getGmpMad(port)) {  // its MADs
 *     IBPath path = PathResolver.getMadPath(umad, dlid);
 * }
 * }</pre>
 */
public final class Rdma {
    /** MADs in flight at once on the transactors made here. */
    private static final int MAX_OUTSTANDING = 16;

    private Rdma() {
    }

    /**
     * Every RDMA device of this machine, in name order; empty when there are none, python-rdma's
     * {@code rdma.get_devices()}.
     *
     * @throws RdmaException if sysfs holds a malformed device (see {@link SysfsDevices})
     */
    public static List<RdmaDevice> getDevices() {
        return SysfsDevices.system().read();
    }

    /**
     * The device named {@code nameOrGuid}, or whose node GUID it is.
     *
     * @throws NoSuchDeviceException if there is no such device
     * @see RdmaDevice#find
     */
    public static RdmaDevice getDevice(String nameOrGuid) {
        return RdmaDevice.find(getDevices(), nameOrGuid);
    }

    /**
     * The default end port: the first active port of all devices, python-rdma's
     * {@code rdma.get_end_port()}.
     *
     * @throws NoSuchDeviceException if this machine has no RDMA device
     * @see EndPort#select
     */
    public static EndPort getEndPort() {
        return EndPort.select(getDevices(), null);
    }

    /**
     * The end port {@code selector} names: {@code mlx4_0}, {@code mlx4_0/1}, a port GUID or a port
     * GID; null for the default port. python-rdma's {@code rdma.get_end_port(name)}.
     *
     * @throws NoSuchDeviceException    if nothing matches
     * @throws IllegalArgumentException if the selector is malformed
     * @see EndPort#select
     */
    public static EndPort getEndPort(String selector) {
        return EndPort.select(getDevices(), selector);
    }

    /**
     * The verbs context of {@code endPort}'s device, opened for that end port: python-rdma's
     * {@code rdma.get_verbs(end_port)}. The caller closes it.
     *
     * @throws NoSuchDeviceException         if libibverbs has no such device
     * @throws UnsupportedOperationException if libibverbs cannot be used here
     * @throws SysException                  if the device cannot be opened
     * @see Verbs#open(EndPort)
     */
    public static Context getVerbs(EndPort endPort) {
        return Verbs.open(endPort);
    }

    /**
     * A MAD transactor on the kernel's MAD device of {@code endPort} ({@code /dev/infiniband/umadN},
     * the ib_umad module), python-rdma's {@code rdma.get_umad(end_port)}: it sends SMPs and GMPs
     * alike. Closing it closes its engine and the device.
     *
     * @throws NoSuchDeviceException if the end port has no umad device
     * @throws SysException          if the device cannot be opened (its permissions, most often)
     */
    public static MadTransactor getUmad(EndPort endPort) {
        return MadTransactor.open(UmadTransport.open(endPort.deviceName(), endPort.portNumber()), endPort, MAX_OUTSTANDING);
    }

    /**
     * A MAD transactor for general MADs (SA, PerfMgt, ...; no SMPs) from {@code endPort},
     * python-rdma's {@code rdma.get_gmp_mad(end_port)}: on the kernel's umad device when the port
     * has one ({@link #getUmad}), else on a UD queue pair of its own sending to QP1
     * ({@link VMad}, in a verbs context it opens). Closing it closes its engine, the transport
     * and that context.
     *
     * @throws SysException if the device cannot be opened
     */
    public static MadTransactor getGmpMad(EndPort endPort) {
        return endPort.umadPath().isPresent() ? getUmad(endPort) : MadTransactor.open(new VMad(endPort), endPort, MAX_OUTSTANDING);
    }

    /**
     * {@link #getGmpMad(EndPort)}, the {@link VMad} queue pair made in {@code context} (which stays
     * the caller's) when the port has no umad device: python-rdma's
     * {@code rdma.get_gmp_mad(end_port, verbs=ctx)}.
     *
     * @throws SysException if the device or the queue pair cannot be made
     */
    public static MadTransactor getGmpMad(EndPort endPort, Context context) {
        return endPort.umadPath().isPresent() ? getUmad(endPort)
                : MadTransactor.open(new VMad(context, IBPath.builder(endPort).qkey(Iba.IB_DEFAULT_QP1_QKEY).build(),
                        VMad.DEFAULT_DEPTH), endPort, MAX_OUTSTANDING);
    }
}

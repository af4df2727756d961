package org.jrdma;

import java.util.List;
import org.jrdma.devices.EndPort;
import org.jrdma.devices.RdmaDevice;
import org.jrdma.devices.SysfsDevices;
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
 * }</pre>
 */
public final class Rdma {
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
}

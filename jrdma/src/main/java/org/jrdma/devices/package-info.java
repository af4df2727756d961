/**
 * RDMA devices and their end ports as immutable snapshots: {@link org.jrdma.devices.RdmaDevice}
 * (an IBA node: channel adapter, switch or router) and {@link org.jrdma.devices.EndPort} (one of
 * its ports, with LIDs, GID and P_Key tables, state and the kernel MAD devices), read from sysfs by
 * {@link org.jrdma.devices.SysfsDevices} or built by any other source, such as a simulated fabric.
 * python-rdma's {@code rdma.devices}; {@link org.jrdma.Rdma} is the usual way in.
 */
package org.jrdma.devices;

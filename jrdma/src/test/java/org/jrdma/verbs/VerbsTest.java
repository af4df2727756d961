package org.jrdma.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.jrdma.NoSuchDeviceException;
import org.jrdma.SysException;
import org.jrdma.testkit.junit.Peers;
import org.junit.jupiter.api.Test;

/**
 * {@link Verbs} on the build host, which has libibverbs but (normally) no RDMA kernel support:
 * the library loads, and asking it for devices reports {@code ENOSYS} through the NULL+errno
 * convention. On a host with RDMA devices the device list is checked instead.
 */
class VerbsTest {
    @Test
    void libraryLoadsAndUnknownDevicesAreReported() {
        Peers.require(Verbs.isAvailable(), String.valueOf(Verbs.unavailabilityCause()));
        Verbs.ensureAvailable();
        try {
            java.util.List<VerbsDevice> devices = Verbs.devices();
            NoSuchDeviceException e = assertThrows(NoSuchDeviceException.class, () -> Verbs.open("nosuchdev0"));
            assertEquals("nosuchdev0", e.selector());
            assertEquals("no RDMA device nosuchdev0; devices: " + devices.stream().map(VerbsDevice::name).toList(),
                    e.getMessage());
        } catch (SysException noKernelSupport) {
            assertEquals("ibv_get_device_list", noKernelSupport.call());
            assertEquals(38, noKernelSupport.errno(), noKernelSupport.getMessage());
            SysException again = assertThrows(SysException.class, () -> Verbs.open("rxe0"));
            assertEquals("ibv_get_device_list(..) failed with error(38): Function not implemented", again.getMessage());
        }
    }
}

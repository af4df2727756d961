package org.jrdma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jrdma.devices.EndPort;
import org.jrdma.devices.RdmaDevice;
import org.jrdma.devices.SysfsDevices;
import org.junit.jupiter.api.Test;

/**
 * {@link Rdma} on this machine's own sysfs: the build hosts have no RDMA device, where every
 * lookup must fail clearly; on a machine with devices (the soft-RoCE VM, see
 * {@code SoftRoceDevicesTest}) the lookups must agree with the selectors.
 */
class RdmaTest {
    @Test
    void getDevicesReadsThisMachinesSysfs() {
        assertEquals(SysfsDevices.system().read(), Rdma.getDevices());
    }

    @Test
    void lookupsAgreeWithTheSelectorsOrFailClearly() {
        List<RdmaDevice> devices = Rdma.getDevices();
        if (devices.isEmpty()) {
            NoSuchDeviceException none = assertThrows(NoSuchDeviceException.class, Rdma::getEndPort);
            assertEquals("No RDMA devices found", none.getMessage());
            assertThrows(NoSuchDeviceException.class, () -> Rdma.getEndPort("mlx4_0/1"));
            NoSuchDeviceException device = assertThrows(NoSuchDeviceException.class, () -> Rdma.getDevice("mlx4_0"));
            assertEquals("No RDMA device named \"mlx4_0\"; present: none", device.getMessage());
            assertEquals("mlx4_0", device.selector());
            assertTrue(device instanceof RdmaException);
            return;
        }
        EndPort chosen = EndPort.select(devices, null);
        assertEquals(chosen, Rdma.getEndPort());
        assertEquals(chosen, Rdma.getEndPort(chosen.toString()));
        assertEquals(chosen, Rdma.getEndPort(null));
        assertEquals(chosen.deviceName(), Rdma.getDevice(chosen.deviceName()).name());
        assertThrows(IllegalArgumentException.class, () -> Rdma.getEndPort(chosen.deviceName() + "/x"));
        assertThrows(NoSuchDeviceException.class, () -> Rdma.getDevice("no-such-device"));
    }
}

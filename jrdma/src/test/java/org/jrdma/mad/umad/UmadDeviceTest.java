package org.jrdma.mad.umad;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.jrdma.NoSuchDeviceException;
import org.jrdma.RdmaException;
import org.jrdma.SysException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Finding the umad device of a port in fake sysfs trees laid out as the kernel's. */
class UmadDeviceTest {
    @TempDir
    Path sysfs;

    /** Two HCAs: mlx5_0 with two ports (umad0, umad1), rxe0 with one (umad2), and their issm devices. */
    private void fakeTree(String abiVersion) throws IOException {
        Path dir = Files.createDirectories(sysfs.resolve("class/infiniband_mad"));
        Files.writeString(dir.resolve("abi_version"), abiVersion + "\n");
        device(dir, "umad0", "mlx5_0", 1);
        device(dir, "umad1", "mlx5_0", 2);
        device(dir, "umad2", "rxe0", 1);
        device(dir, "issm2", "rxe0", 1);
    }

    private static void device(Path dir, String name, String ibdev, int port) throws IOException {
        Path d = Files.createDirectories(dir.resolve(name));
        Files.writeString(d.resolve("ibdev"), ibdev + "\n");
        Files.writeString(d.resolve("port"), port + "\n");
    }

    @Test
    void findsTheUmadDeviceOfAPort() throws IOException {
        fakeTree("5");
        assertEquals(new UmadDevice("umad1", "mlx5_0", 2, Path.of("/dev/infiniband/umad1")), UmadDevice.find(sysfs, "mlx5_0", 2));
        assertEquals(new UmadDevice("umad2", "rxe0", 1, Path.of("/dev/infiniband/umad2")), UmadDevice.find(sysfs, "rxe0", 1));
    }

    @Test
    void aPortWithoutUmadDeviceNamesWhatIsPresent() throws IOException {
        fakeTree("5");
        NoSuchDeviceException e = assertThrows(NoSuchDeviceException.class, () -> UmadDevice.find(sysfs, "rxe0", 2));
        assertEquals("rxe0/2", e.selector());
        assertTrue(e.getMessage().contains("no umad device for port 2 of rxe0"), e.getMessage());
        assertTrue(e.getMessage().contains("present: mlx5_0/1 (umad0), mlx5_0/2 (umad1), rxe0/1 (umad2)"), e.getMessage());
        assertThrows(NoSuchDeviceException.class, () -> UmadDevice.find(sysfs, "mlx4_0", 1));
    }

    @Test
    void anotherAbiVersionIsRefused() throws IOException {
        fakeTree("4");
        RdmaException e = assertThrows(RdmaException.class, () -> UmadDevice.find(sysfs, "rxe0", 1));
        assertTrue(e.getMessage().contains("user MAD ABI version is 4"), e.getMessage());
        assertTrue(e.getMessage().contains("speaks version 5 only"), e.getMessage());
    }

    @Test
    void aMissingUmadModuleIsNamed() {
        RdmaException e = assertThrows(RdmaException.class, () -> UmadDevice.find(sysfs, "rxe0", 1));
        assertTrue(e.getMessage().contains("modprobe ib_umad"), e.getMessage());
    }

    @Test
    void openingChecksTheResponseTimeoutThenReportsTheMissingDevice() {
        UmadDevice nowhere = new UmadDevice("umad9", "rxe9", 1, sysfs.resolve("umad9"));
        assertThrows(IllegalArgumentException.class, () -> UmadTransport.open(nowhere, Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> UmadTransport.open(nowhere, Duration.ofDays(30)));
        SysException e = assertThrows(SysException.class, () -> UmadTransport.open(nowhere, Duration.ofSeconds(1)));
        assertEquals(2, e.errno(), e.getMessage());
        assertTrue(e.getMessage().contains(nowhere.path().toString()), e.getMessage());
    }
}

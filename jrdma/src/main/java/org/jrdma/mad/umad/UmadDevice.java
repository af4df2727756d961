package org.jrdma.mad.umad;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.jrdma.NoSuchDeviceException;
import org.jrdma.RdmaException;
import org.jrdma.SysException;
import org.jrdma.ffi.Libc;
import org.jrdma.mad.umad.ffi.UmadFile;

/**
 * The kernel's user MAD device of one end port: {@code /dev/infiniband/umadN}, through which a
 * process registers MAD agents on the port's QP0 (SMI) and QP1 (GSI) and sends and receives MADs
 * (the {@code ib_umad} module). Found as libibumad finds it, in sysfs: each
 * {@code /sys/class/infiniband_mad/umadN} names its channel adapter in {@code ibdev} and its port
 * in {@code port}, and {@code /sys/class/infiniband_mad/abi_version} must be 5. sysfs is read
 * through the C library ({@link Libc}), so a preloaded libumad2sim shows its simulated node here
 * as it does to libibumad.
 *
 * @param name   the device's name, {@code umadN}
 * @param caName the RDMA device (channel adapter) it belongs to, e.g. {@code mlx5_0} or {@code rxe0}
 * @param port   the port number on that device
 * @param path   the character device, {@code /dev/infiniband/umadN}
 */
public record UmadDevice(String name, String caName, int port, Path path) {
    /** The sysfs mount point a real system reads. */
    public static final Path SYSFS = Path.of("/sys");
    /** Where the kernel creates the umad character devices. */
    public static final Path DEV = Path.of("/dev/infiniband");

    /** The most a sysfs attribute holds. */
    private static final int SYSFS_PAGE = 4096;
    private static final Pattern UMAD_NAME = Pattern.compile("umad[0-9]+");

    /** Finds the umad device of a port in the real sysfs. */
    public static UmadDevice find(String caName, int port) {
        return find(SYSFS, caName, port);
    }

    /**
     * Finds the umad device of a port.
     *
     * @param sysfs  the sysfs root to read ({@code /sys}, or a copy of its layout in tests)
     * @param caName the RDMA device name
     * @param port   the port number
     * @throws NoSuchDeviceException when no umad device belongs to that port
     * @throws RdmaException         when {@code ib_umad} is not loaded or speaks another ABI version
     */
    public static UmadDevice find(Path sysfs, String caName, int port) {
        Path classDir = sysfs.resolve("class/infiniband_mad");
        checkAbiVersion(classDir.resolve("abi_version"));
        List<String> present = new ArrayList<>();
        List<String> names;
        try {
            names = Libc.listDirectory(classDir.toString());
        } catch (SysException e) {
            throw new RdmaException("cannot list " + classDir + ": " + e.getMessage(), e);
        }
        for (String name : names.stream().sorted().toList()) {
            if (!UMAD_NAME.matcher(name).matches()) {
                continue;
            }
            Path dir = classDir.resolve(name);
            String ibdev = read(dir.resolve("ibdev"));
            String portText = read(dir.resolve("port"));
            present.add(ibdev + "/" + portText + " (" + name + ")");
            if (ibdev.equals(caName) && portText.equals(Integer.toString(port))) {
                return new UmadDevice(name, caName, port, DEV.resolve(name));
            }
        }
        throw new NoSuchDeviceException(caName + "/" + port, "no umad device for port " + port + " of " + caName
                + " in " + classDir + "; present: " + (present.isEmpty() ? "none" : String.join(", ", present)));
    }

    private static void checkAbiVersion(Path file) {
        String text;
        try {
            text = read(file);
        } catch (SysException e) {
            if (e.errno() == Libc.ENOENT) {
                throw new RdmaException("no " + file + ": the kernel's user MAD interface is missing (modprobe ib_umad)", e);
            }
            throw e;
        }
        if (!text.equals(Integer.toString(UmadFile.ABI_VERSION))) {
            throw new RdmaException("the kernel's user MAD ABI version is " + text + " (" + file + "); jrdma speaks version "
                    + UmadFile.ABI_VERSION + " only");
        }
    }

    /** A sysfs attribute's text (one page at most), without surrounding blanks and line ends. */
    private static String read(Path file) {
        return new String(Libc.readFile(file.toString(), SYSFS_PAGE), StandardCharsets.UTF_8).strip();
    }
}

package org.jrdma.mad.umad;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jrdma.NoSuchDeviceException;
import org.jrdma.RdmaException;
import org.jrdma.mad.umad.ffi.UmadFile;

/**
 * The kernel's user MAD device of one end port: {@code /dev/infiniband/umadN}, through which a
 * process registers MAD agents on the port's QP0 (SMI) and QP1 (GSI) and sends and receives MADs
 * (the {@code ib_umad} module). Found as libibumad finds it, in sysfs: each
 * {@code /sys/class/infiniband_mad/umadN} names its channel adapter in {@code ibdev} and its port
 * in {@code port}, and {@code /sys/class/infiniband_mad/abi_version} must be 5.
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
        try (Stream<Path> entries = Files.list(classDir)) {
            for (Path dir : entries.sorted().toList()) {
                String name = dir.getFileName().toString();
                if (!UMAD_NAME.matcher(name).matches()) {
                    continue;
                }
                String ibdev = read(dir.resolve("ibdev"));
                String portText = read(dir.resolve("port"));
                present.add(ibdev + "/" + portText + " (" + name + ")");
                if (ibdev.equals(caName) && portText.equals(Integer.toString(port))) {
                    return new UmadDevice(name, caName, port, DEV.resolve(name));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + classDir, e);
        }
        throw new NoSuchDeviceException(caName + "/" + port, "no umad device for port " + port + " of " + caName
                + " in " + classDir + "; present: " + (present.isEmpty() ? "none" : String.join(", ", present)));
    }

    private static void checkAbiVersion(Path file) {
        String text;
        try {
            text = Files.readString(file).strip();
        } catch (NoSuchFileException e) {
            throw new RdmaException("no " + file + ": the kernel's user MAD interface is missing (modprobe ib_umad)", e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        if (!text.equals(Integer.toString(UmadFile.ABI_VERSION))) {
            throw new RdmaException("the kernel's user MAD ABI version is " + text + " (" + file + "); jrdma speaks version "
                    + UmadFile.ABI_VERSION + " only");
        }
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file).strip();
    }
}

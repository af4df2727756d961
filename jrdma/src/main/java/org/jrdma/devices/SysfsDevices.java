package org.jrdma.devices;

import org.jrdma.iba.UntrustedText;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import org.jrdma.RdmaException;
import org.jrdma.SysException;
import org.jrdma.ffi.Libc;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Guid;
import org.jrdma.iba.NodeType;
import org.jrdma.iba.PhysPortState;
import org.jrdma.iba.PortState;
import org.jrdma.iba.StaticRate;

/**
 * Reads the RDMA devices of the kernel from sysfs, as python-rdma's {@code rdma.devices} does:
 * {@code <sys>/class/infiniband/<dev>/} for the devices and their ports, and
 * {@code <sys>/class/infiniband_mad/umadN|issmN/} (files {@code ibdev} and {@code port}) for the
 * kernel MAD devices {@code <dev>/infiniband/umadN|issmN} of each port. Both roots are injectable,
 * so tests read fake trees, and the tree libumad2sim writes for a node of an ibsim fabric
 * ({@code ./sys-<pid>/sys}) can be read too.
 *
 * <p>Each {@link #read()} takes a new snapshot. Files a kernel or driver may lack are optional:
 * {@code fw_ver}, {@code hw_rev}, {@code board_id}, {@code hca_type}, {@code node_desc} (empty
 * values), {@code rate} (unknown; the kernel fails to read it on a port that is down),
 * {@code link_layer} ({@link LinkLayer#INFINIBAND}, as libibumad takes it: kernels before RoCE and
 * libumad2sim write none), and the {@code gids} and {@code pkeys} tables
 * (an iWARP device has no P_Key table); a GID or P_Key entry that cannot be read or parsed reads as
 * the zero GID or P_Key 0, the kernel's own marker of an empty entry. The files that identify a
 * device or port ({@code node_type}, {@code node_guid}, {@code sys_image_guid}, {@code ports/},
 * and {@code lid}, {@code lid_mask_count}, {@code sm_lid}, {@code sm_sl}, {@code state},
 * {@code phys_state}, {@code cap_mask} of each port) are required: a missing or malformed one
 * makes {@code read} fail with an {@link RdmaException} naming the file and its content.
 *
 * <p>Files and folders are read with the C library's {@code open}, {@code read},
 * {@code opendir} and {@code readdir} ({@link Libc}), the calls libibumad makes, so a preloaded
 * libumad2sim shows this reader the same tree it shows the C tools: it redirects
 * {@code /sys/class/infiniband*} to its {@code ./sys-<pid>} copy, which the JDK's own file
 * access would not see.
 */
public final class SysfsDevices {
    /** The folder sysfs is mounted on. */
    public static final Path SYSFS = Path.of("/sys");
    /** The folder of the device nodes. */
    public static final Path DEV = Path.of("/dev");

    /** Largest number of bytes read from one sysfs attribute (a sysfs attribute is one page at most). */
    private static final int MAX_FILE_BYTES = 8192;
    /** Largest GID or P_Key table index accepted: P_Key tables have at most 2^16 entries. */
    private static final int MAX_TABLE_INDEX = 0xFFFF;
    /** The kernel's IB_PORT_ACTIVE_DEFER, a transient form of ACTIVE outside the IBA numbering. */
    private static final int ACTIVE_DEFER = 5;

    private final Path sysfsRoot;
    private final Path devRoot;

    /**
     * A reader of the sysfs tree under {@code sysfsRoot} (normally {@code /sys}) that names the
     * umad and issm devices under {@code devRoot} (normally {@code /dev}).
     */
    public SysfsDevices(Path sysfsRoot, Path devRoot) {
        this.sysfsRoot = Objects.requireNonNull(sysfsRoot, "sysfsRoot");
        this.devRoot = Objects.requireNonNull(devRoot, "devRoot");
    }

    /** The reader of this machine's devices: {@code /sys} and {@code /dev}. */
    public static SysfsDevices system() {
        return new SysfsDevices(SYSFS, DEV);
    }

    /**
     * Reads every device, in name order; an empty list when the kernel has no RDMA devices (no
     * {@code class/infiniband} folder).
     *
     * @throws RdmaException if a required file of a device or port is missing or malformed
     */
    public List<RdmaDevice> read() {
        Path classDir = sysfsRoot.resolve("class/infiniband");
        if (!isDirectory(classDir)) {
            return List.of();
        }
        Map<String, Path> umads = madDevices("umad");
        Map<String, Path> issms = madDevices("issm");
        List<RdmaDevice> devices = new ArrayList<>();
        for (Path dir : sortedEntries(classDir)) {
            if (isDirectory(dir)) {
                devices.add(readDevice(dir, umads, issms));
            }
        }
        return List.copyOf(devices);
    }

    /**
     * The text of one attribute of an end port, {@code class/infiniband/<device>/ports/<port>/<name>},
     * stripped as {@link #read()} strips it; empty if the file is missing or unreadable. For what
     * the parsed {@link EndPort} does not keep: whether {@code link_layer} exists at all, the
     * {@code rate} text as the kernel wrote it.
     *
     * @throws IllegalArgumentException if {@code device} or {@code name} is not a plain file name
     */
    public Optional<String> portAttribute(String device, int port, String name) {
        for (String part : List.of(device, name)) {
            if (part.isEmpty() || part.contains("/") || part.equals(".") || part.equals("..")) {
                throw new IllegalArgumentException("not a sysfs file name: " + UntrustedText.quote(part));
            }
        }
        return Optional.ofNullable(readOrNull(sysfsRoot.resolve("class/infiniband").resolve(device).resolve("ports")
                .resolve(Integer.toString(port)).resolve(name)));
    }

    private RdmaDevice readDevice(Path dir, Map<String, Path> umads, Map<String, Path> issms) {
        String name = dir.getFileName().toString();
        RdmaDevice.Builder device = RdmaDevice.builder(name)
                .nodeType(NodeType.fromValueOrNull(nodeType(dir.resolve("node_type"))))
                .nodeGuid(guid(dir.resolve("node_guid")))
                .sysImageGuid(guid(dir.resolve("sys_image_guid")))
                .nodeDescription(optional(dir.resolve("node_desc")).orElse(""))
                .fwVersion(optional(dir.resolve("fw_ver")).orElse(null))
                .hwRevision(optional(dir.resolve("hw_rev")).orElse(null))
                .boardId(optional(dir.resolve("board_id")).orElse(null))
                .hcaType(optional(dir.resolve("hca_type")).orElse(null));
        Path portsDir = dir.resolve("ports");
        if (!isDirectory(portsDir)) {
            throw malformed(portsDir, "is missing");
        }
        for (Path portDir : sortedEntries(portsDir)) {
            String number = portDir.getFileName().toString();
            int portNumber = parseDecimal(number, EndPort.MAX_PORT_NUMBER);
            if (portNumber < 0) {
                throw malformed(portDir, "is not named by a port number 0 to " + EndPort.MAX_PORT_NUMBER);
            }
            String key = name + "/" + portNumber;
            device.endPort(readPort(name, portNumber, portDir, umads.get(key), issms.get(key)));
        }
        return device.build();
    }

    private EndPort readPort(String device, int portNumber, Path dir, Path umad, Path issm) {
        return EndPort.builder(device, portNumber)
                .lid((int) hex(dir.resolve("lid"), 0xFFFF))
                .lmc(decimal(dir.resolve("lid_mask_count"), 7))
                .smLid((int) hex(dir.resolve("sm_lid"), 0xFFFF))
                .smSl(decimal(dir.resolve("sm_sl"), 15))
                .state(portState(dir.resolve("state")))
                .physState(physState(dir.resolve("phys_state")))
                .rate(rate(dir.resolve("rate")))
                .capabilityMask((int) hex(dir.resolve("cap_mask"), 0xFFFF_FFFFL))
                .linkLayer(optional(dir.resolve("link_layer")).map(LinkLayer::fromText).orElse(LinkLayer.INFINIBAND))
                .gids(table(dir.resolve("gids"), new Gid(0, 0), SysfsDevices::gidOrZero))
                .pkeys(table(dir.resolve("pkeys"), 0, text -> Math.max(0, (int) parseHex(text, 0xFFFF))))
                .umadPath(umad)
                .issmPath(issm)
                .build();
    }

    /** {@code ibdev/port} of each {@code <kind>N} entry of class/infiniband_mad, to its device node. */
    private Map<String, Path> madDevices(String kind) {
        Path madDir = sysfsRoot.resolve("class/infiniband_mad");
        Map<String, Path> found = new HashMap<>();
        if (!isDirectory(madDir)) {
            return found;
        }
        for (Path entry : sortedEntries(madDir)) {
            String entryName = entry.getFileName().toString();
            if (!entryName.startsWith(kind) || parseDecimal(entryName.substring(kind.length()), Integer.MAX_VALUE) < 0) {
                continue;
            }
            Optional<String> ibdev = optional(entry.resolve("ibdev"));
            int port = optional(entry.resolve("port")).map(p -> parseDecimal(p, EndPort.MAX_PORT_NUMBER)).orElse(-1);
            if (ibdev.isPresent() && port >= 0) {
                found.putIfAbsent(ibdev.get() + "/" + port, devRoot.resolve("infiniband").resolve(entryName));
            }
        }
        return found;
    }

    /** The entries of a table folder (gids, pkeys) by index, gaps and unreadable entries filled with {@code empty}. */
    private static <T> List<T> table(Path dir, T empty, Function<String, T> parse) {
        if (!isDirectory(dir)) {
            return List.of();
        }
        TreeMap<Integer, T> entries = new TreeMap<>();
        for (Path entry : sortedEntries(dir)) {
            int index = parseDecimal(entry.getFileName().toString(), MAX_TABLE_INDEX);
            if (index < 0) {
                throw malformed(entry, "is not named by a table index 0 to " + MAX_TABLE_INDEX);
            }
            entries.put(index, readOrNull(entry) instanceof String text ? parse.apply(text) : empty);
        }
        int size = entries.isEmpty() ? 0 : entries.lastKey() + 1;
        List<T> table = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            table.add(entries.getOrDefault(i, empty));
        }
        return table;
    }

    private static Gid gidOrZero(String text) {
        try {
            return Gid.parse(text);
        } catch (IllegalArgumentException e) {
            return new Gid(0, 0);
        }
    }

    private static Guid guid(Path file) {
        String text = required(file);
        try {
            return Guid.parse(text);
        } catch (IllegalArgumentException e) {
            throw malformed(file, "holds " + UntrustedText.quote(text) + ", expected a GUID such as 0002:c903:0000:1490");
        }
    }

    private static int nodeType(Path file) {
        return numberBeforeColon(file, required(file), "N: text");
    }

    private static PortState portState(Path file) {
        String text = required(file);
        int value = numberBeforeColon(file, text, "N: STATE");
        PortState state = PortState.fromValueOrNull(value == ACTIVE_DEFER ? PortState.ACTIVE.value() : value);
        if (state == null) {
            throw malformed(file, "holds " + UntrustedText.quote(text) + ": port state " + value
                    + " is not one of IBA 14.2.5.6 (0 to 4)");
        }
        return state;
    }

    private static PhysPortState physState(Path file) {
        String text = required(file);
        int value = numberBeforeColon(file, text, "N: State");
        PhysPortState state = PhysPortState.fromValueOrNull(value);
        if (state == null) {
            throw malformed(file, "holds " + UntrustedText.quote(text) + ": physical port state " + value
                    + " is not one of IBA 14.2.5.6 (0 to 7)");
        }
        return state;
    }

    /** The rate of a {@code 40 Gb/sec (4X QDR)} text, or null when unreadable or not an IBA rate. */
    private static StaticRate rate(Path file) {
        String text = readOrNull(file);
        if (text == null) {
            return null;
        }
        int end = text.indexOf(" Gb/sec");
        if (end <= 0 || end > 8) {
            return null;
        }
        double gbps;
        try {
            gbps = Double.parseDouble(text.substring(0, end));
        } catch (NumberFormatException e) {
            return null;
        }
        for (StaticRate rate : StaticRate.values()) {
            if (rate.gbps() == gbps) {
                return rate;
            }
        }
        return null;
    }

    /** The number before the colon of the {@code N: text} content of a file (node_type, state, phys_state). */
    private static int numberBeforeColon(Path file, String text, String form) {
        int colon = text.indexOf(':');
        int value = colon > 0 ? parseDecimal(text.substring(0, colon), 0xFF) : -1;
        if (value < 0) {
            throw malformed(file, "holds " + UntrustedText.quote(text) + ", expected " + form);
        }
        return value;
    }

    private static int decimal(Path file, int max) {
        String text = required(file);
        int value = parseDecimal(text, max);
        if (value < 0) {
            throw malformed(file, "holds " + UntrustedText.quote(text) + ", expected a decimal number 0 to " + max);
        }
        return value;
    }

    private static long hex(Path file, long max) {
        String text = required(file);
        long value = parseHex(text, max);
        if (value < 0) {
            throw malformed(file, "holds " + UntrustedText.quote(text) + ", expected 0x and a hex number up to 0x"
                    + Long.toHexString(max));
        }
        return value;
    }

    /** A decimal number of 1 to 10 digits, at most {@code max}, or -1. */
    private static int parseDecimal(String text, int max) {
        if (text.isEmpty() || text.length() > 10 || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return -1;
        }
        long value = Long.parseLong(text);
        return value <= max ? (int) value : -1;
    }

    /** {@code 0x} and 1 to 8 hex digits, at most {@code max}, or -1. */
    private static long parseHex(String text, long max) {
        if (!text.startsWith("0x") || text.length() < 3 || text.length() > 10
                || !text.substring(2).chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            return -1;
        }
        long value = Long.parseLong(text.substring(2), 16);
        return value <= max ? value : -1;
    }

    private static String required(Path file) {
        String text;
        try {
            text = read(file);
        } catch (SysException e) {
            throw malformed(file, e.errno() == Libc.ENOENT ? "is missing" : "cannot be read");
        }
        if (text == null) {
            throw malformed(file, "cannot be read");
        }
        return text;
    }

    /** The stripped text of an optional file, empty when missing, unreadable or blank. */
    private static Optional<String> optional(Path file) {
        String text = readOrNull(file);
        return text == null || text.isEmpty() ? Optional.empty() : Optional.of(text);
    }

    /** {@link #read}, null where it throws. */
    private static String readOrNull(Path file) {
        try {
            return read(file);
        } catch (SysException e) {
            return null;
        }
    }

    /**
     * The text of a sysfs attribute, UTF-8, without surrounding blanks and line ends; null if it
     * is longer than a sysfs attribute can be.
     *
     * @throws SysException if it cannot be opened or read
     */
    private static String read(Path file) {
        byte[] bytes = Libc.readFile(file.toString(), MAX_FILE_BYTES + 1);
        return bytes.length > MAX_FILE_BYTES ? null : new String(bytes, StandardCharsets.UTF_8).strip();
    }

    /** Whether {@code path} is a folder that can be listed. */
    private static boolean isDirectory(Path path) {
        try {
            Libc.listDirectory(path.toString());
            return true;
        } catch (SysException e) {
            return false;
        }
    }

    private static List<Path> sortedEntries(Path dir) {
        try {
            return Libc.listDirectory(dir.toString()).stream().sorted().map(dir::resolve).toList();
        } catch (SysException e) {
            throw new RdmaException("Cannot list " + dir + ": " + e.getMessage(), e);
        }
    }

    private static RdmaException malformed(Path file, String what) {
        return new RdmaException("Cannot read RDMA devices from sysfs: " + file + " " + what);
    }
}

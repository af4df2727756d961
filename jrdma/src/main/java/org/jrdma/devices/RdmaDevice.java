package org.jrdma.devices;

import org.jrdma.iba.UntrustedText;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;
import org.jrdma.NoSuchDeviceException;
import org.jrdma.iba.Guid;
import org.jrdma.iba.NodeType;

/**
 * An RDMA device: one IBA node (IBA 3.5: a channel adapter, switch or router) as the kernel
 * presents it, with its end ports; python-rdma's {@code rdma.devices.RDMADevice}. End ports of one
 * device share protection domains and memory registrations. An immutable snapshot of what the
 * device reported when it was read: {@link SysfsDevices} reads the kernel's view
 * ({@code /sys/class/infiniband/<dev>/}), and any other source builds one with {@link #builder}.
 * Equal by value; {@link #toString()} is the name.
 *
 * @param name            the kernel's name of the device, for example {@code mlx4_0} or {@code rxe0}
 * @param nodeType        NodeInfo:NodeType; empty for a device the kernel does not present as an
 *                        IBA node (an iWARP RNIC or usNIC)
 * @param nodeGuid        NodeInfo:NodeGUID
 * @param sysImageGuid    NodeInfo:SystemImageGUID
 * @param nodeDescription NodeDescription (IBA 14.2.5.2), the text the SMA reports for the node
 * @param fwVersion       the firmware version, if the driver reports one
 * @param hwRevision      the hardware revision, if the driver reports one
 * @param boardId         the board identifier (PSID), if the driver reports one
 * @param hcaType         the HCA model, if the driver reports one
 * @param endPorts        the end ports in increasing port number: port 0 alone on a switch,
 *                        ports 1 and up on a channel adapter
 */
public record RdmaDevice(
        String name,
        Optional<NodeType> nodeType,
        Guid nodeGuid,
        Guid sysImageGuid,
        String nodeDescription,
        Optional<String> fwVersion,
        Optional<String> hwRevision,
        Optional<String> boardId,
        Optional<String> hcaType,
        List<EndPort> endPorts) {

    /** The longest device name, {@code IB_DEVICE_NAME_MAX} of the kernel less its NUL. */
    public static final int MAX_NAME_LENGTH = 63;

    /**
     * Checks every component.
     *
     * @throws IllegalArgumentException if the name is not a valid device name, an end port
     *                                  belongs to another device, or two end ports have the same
     *                                  number
     * @throws NullPointerException     if a component or list element is null
     */
    public RdmaDevice {
        checkName(name);
        Objects.requireNonNull(nodeType, "nodeType");
        Objects.requireNonNull(nodeGuid, "nodeGuid");
        Objects.requireNonNull(sysImageGuid, "sysImageGuid");
        Objects.requireNonNull(nodeDescription, "nodeDescription");
        Objects.requireNonNull(fwVersion, "fwVersion");
        Objects.requireNonNull(hwRevision, "hwRevision");
        Objects.requireNonNull(boardId, "boardId");
        Objects.requireNonNull(hcaType, "hcaType");
        List<EndPort> sorted = new ArrayList<>(endPorts);
        sorted.sort((a, b) -> Integer.compare(a.portNumber(), b.portNumber()));
        for (int i = 0; i < sorted.size(); i++) {
            EndPort port = sorted.get(i);
            if (!port.deviceName().equals(name)) {
                throw new IllegalArgumentException("End port " + port + " does not belong to device " + name);
            }
            if (i > 0 && sorted.get(i - 1).portNumber() == port.portNumber()) {
                throw new IllegalArgumentException("Device " + name + " has port " + port.portNumber() + " twice");
            }
        }
        endPorts = List.copyOf(sorted);
    }

    /**
     * A builder for device {@code name}. Until set, the device has no node type, node and system
     * image GUID 0, an empty node description, no firmware version, hardware revision, board id or
     * HCA type, and no end ports.
     */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** The end port numbered {@code portNumber}, if the device has it. */
    public Optional<EndPort> endPort(int portNumber) {
        return endPorts.stream().filter(p -> p.portNumber() == portNumber).findFirst();
    }

    /** The device name. */
    @Override
    public String toString() {
        return name;
    }

    /**
     * The device of {@code devices} named {@code nameOrGuid}, else the one whose node GUID it is
     * (in either form {@link Guid#parse} reads); python-rdma's {@code find_node_guid} and lookup
     * by name.
     *
     * @throws NoSuchDeviceException if no device has that name or node GUID; the message lists the
     *                               devices present
     */
    public static RdmaDevice find(List<RdmaDevice> devices, String nameOrGuid) {
        Objects.requireNonNull(nameOrGuid, "nameOrGuid");
        for (RdmaDevice device : devices) {
            if (device.name.equals(nameOrGuid)) {
                return device;
            }
        }
        Guid guid;
        try {
            guid = Guid.parse(nameOrGuid);
        } catch (IllegalArgumentException notAGuid) {
            guid = null;
        }
        for (RdmaDevice device : devices) {
            if (device.nodeGuid.equals(guid)) {
                return device;
            }
        }
        String present = devices.isEmpty() ? "none"
                : devices.stream().map(d -> d.name + " (" + d.nodeGuid + ")").collect(Collectors.joining(", "));
        throw new NoSuchDeviceException(nameOrGuid, "No RDMA device " + (guid == null ? "named " : "named or with node GUID ")
                + UntrustedText.quote(nameOrGuid) + "; present: " + present);
    }

    /**
     * Checks a device name: 1 to 63 printable ASCII characters other than {@code /}, {@code %},
     * quotes and backslash (which would break {@code device/port} selectors, scoped GIDs
     * {@code gid%device} and quoted path specifications), not starting or ending with a blank.
     */
    static void checkName(String name) {
        Objects.requireNonNull(name, "device name");
        if (name.isEmpty() || name.length() > MAX_NAME_LENGTH) {
            throw new IllegalArgumentException("Device name " + UntrustedText.quote(name) + " must have 1 to "
                    + MAX_NAME_LENGTH + " characters");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x20 || c > 0x7e || c == '/' || c == '%' || c == '\'' || c == '"' || c == '\\') {
                throw new IllegalArgumentException("Device name " + UntrustedText.quote(name)
                        + " holds " + UntrustedText.quote(String.valueOf(c)) + " at index " + i
                        + "; names are printable ASCII without / % ' \" \\");
            }
        }
        if (name.charAt(0) == ' ' || name.charAt(name.length() - 1) == ' ') {
            throw new IllegalArgumentException("Device name " + UntrustedText.quote(name) + " starts or ends with a blank");
        }
    }

    /**
     * Collects the values of an {@link RdmaDevice} from any source. Not thread-safe; {@link #build}
     * may be called more than once.
     */
    public static final class Builder {
        private final String name;
        private NodeType nodeType;
        private Guid nodeGuid = new Guid(0);
        private Guid sysImageGuid = new Guid(0);
        private String nodeDescription = "";
        private String fwVersion;
        private String hwRevision;
        private String boardId;
        private String hcaType;
        private final List<EndPort> endPorts = new ArrayList<>();

        private Builder(String name) {
            this.name = name;
        }

        /** Sets NodeInfo:NodeType; null for a device that is not an IBA node. */
        public Builder nodeType(NodeType nodeType) {
            this.nodeType = nodeType;
            return this;
        }

        /** Sets NodeInfo:NodeGUID. */
        public Builder nodeGuid(Guid nodeGuid) {
            this.nodeGuid = nodeGuid;
            return this;
        }

        /** Sets NodeInfo:SystemImageGUID. */
        public Builder sysImageGuid(Guid sysImageGuid) {
            this.sysImageGuid = sysImageGuid;
            return this;
        }

        /** Sets the node description. */
        public Builder nodeDescription(String nodeDescription) {
            this.nodeDescription = nodeDescription;
            return this;
        }

        /** Sets the firmware version; null for none. */
        public Builder fwVersion(String fwVersion) {
            this.fwVersion = fwVersion;
            return this;
        }

        /** Sets the hardware revision; null for none. */
        public Builder hwRevision(String hwRevision) {
            this.hwRevision = hwRevision;
            return this;
        }

        /** Sets the board identifier; null for none. */
        public Builder boardId(String boardId) {
            this.boardId = boardId;
            return this;
        }

        /** Sets the HCA model; null for none. */
        public Builder hcaType(String hcaType) {
            this.hcaType = hcaType;
            return this;
        }

        /** Adds an end port, which must carry this device's name. */
        public Builder endPort(EndPort endPort) {
            endPorts.add(Objects.requireNonNull(endPort, "endPort"));
            return this;
        }

        /**
         * The device with these values.
         *
         * @throws IllegalArgumentException if the name is invalid or the end ports do not fit it
         * @throws NullPointerException     if a required value was set to null
         */
        public RdmaDevice build() {
            return new RdmaDevice(name, Optional.ofNullable(nodeType), nodeGuid, sysImageGuid, nodeDescription,
                    Optional.ofNullable(fwVersion), Optional.ofNullable(hwRevision), Optional.ofNullable(boardId),
                    Optional.ofNullable(hcaType), endPorts);
        }
    }
}

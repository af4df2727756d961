package org.jrdma.devices;

import static org.jrdma.iba.UntrustedText.quote;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jrdma.NoSuchDeviceException;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Guid;
import org.jrdma.iba.Lid;
import org.jrdma.iba.PhysPortState;
import org.jrdma.iba.PortState;
import org.jrdma.iba.StaticRate;

/**
 * An end port (IBA 3.5.5): a port of a channel adapter, or port 0 of a switch, that sends and
 * receives packets and has its own LIDs and GIDs; python-rdma's {@code rdma.devices.EndPort}. An
 * immutable snapshot of what the port reported when it was read: {@link SysfsDevices} reads the
 * kernel's view ({@code /sys/class/infiniband/<dev>/ports/<n>/}), and any other source (the MAD
 * engine building the end port of a simulated node from its NodeInfo, PortInfo and P_Key table)
 * builds one with {@link #builder}.
 *
 * <p>Equal by value. Its {@link #toString()} is python-rdma's {@code device/port}, for example
 * {@code mlx4_0/1}, which {@link #select} reads back.
 *
 * @param deviceName     the name of the {@link RdmaDevice} this port belongs to, for example {@code mlx4_0}
 * @param portNumber     the port number, 1 and up on a channel adapter, 0 on a switch
 * @param lid            the base LID, PortInfo:LID (0 before the subnet manager assigns one, and on RoCE)
 * @param lmc            the LID mask control, PortInfo:LMC, 0 to 7: the port answers to 2<sup>LMC</sup> LIDs
 * @param smLid          the LID of the master subnet manager, PortInfo:MasterSMLID
 * @param smSl           the service level to reach the subnet manager with, PortInfo:MasterSMSL, 0 to 15
 * @param state          the logical port state, PortInfo:PortState
 * @param physState      the physical port state, PortInfo:PortPhysicalState
 * @param rate           the active data rate (link width times lane speed), empty when unknown (a port that is down)
 * @param capabilityMask PortInfo:CapabilityMask, 32 bits
 * @param linkLayer      InfiniBand or Ethernet (RoCE)
 * @param gids           the GID table, indexed as verbs' {@code sgid_index}; empty entries hold the zero GID
 * @param pkeys          the P_Key table, indexed as verbs' {@code pkey_index}, each 16 bits; empty entries hold 0
 * @param subnetTimeout  PortInfo:SubnetTimeOut, 0 to 31: the packet lifetime of paths without one
 *                       (4.096 µs × 2<sup>value</sup>); {@link #DEFAULT_SUBNET_TIMEOUT} when unknown, as sysfs never says
 * @param umadPath       the kernel MAD device of this port ({@code /dev/infiniband/umadN}), if ib_umad provides one
 * @param issmPath       the "is subnet manager" device of this port ({@code /dev/infiniband/issmN}), if any
 */
public record EndPort(
        String deviceName,
        int portNumber,
        int lid,
        int lmc,
        int smLid,
        int smSl,
        PortState state,
        PhysPortState physState,
        Optional<StaticRate> rate,
        int capabilityMask,
        LinkLayer linkLayer,
        List<Gid> gids,
        List<Integer> pkeys,
        int subnetTimeout,
        Optional<Path> umadPath,
        Optional<Path> issmPath) {

    /** The largest port number: PortInfo:LocalPortNum is 8 bits and 255 is reserved. */
    public static final int MAX_PORT_NUMBER = 254;

    /**
     * The subnet timeout used when the source does not know the port's PortInfo:SubnetTimeOut,
     * python-rdma's default of 18 (about 1.07 s).
     */
    public static final int DEFAULT_SUBNET_TIMEOUT = 18;

    /**
     * Checks every component.
     *
     * @throws IllegalArgumentException if a number is outside its IBA field, the device name is
     *                                  not a valid device name, or a P_Key is not 16 bits
     * @throws NullPointerException     if a component or list element is null
     */
    public EndPort {
        RdmaDevice.checkName(deviceName);
        checkRange("port number", portNumber, MAX_PORT_NUMBER);
        checkRange("LID", lid, Lid.PERMISSIVE);
        checkRange("LMC", lmc, Lid.LMC_MAX);
        checkRange("SM LID", smLid, Lid.PERMISSIVE);
        checkRange("SM SL", smSl, 15);
        checkRange("subnet timeout", subnetTimeout, 31);
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(physState, "physState");
        Objects.requireNonNull(rate, "rate");
        Objects.requireNonNull(linkLayer, "linkLayer");
        Objects.requireNonNull(umadPath, "umadPath");
        Objects.requireNonNull(issmPath, "issmPath");
        gids = List.copyOf(gids);
        pkeys = List.copyOf(pkeys);
        for (int i = 0; i < pkeys.size(); i++) {
            if ((pkeys.get(i) & ~0xFFFF) != 0) {
                throw new IllegalArgumentException("P_Key " + pkeys.get(i) + " at index " + i
                        + " is outside the 16-bit range 0 to 0xFFFF");
            }
        }
    }

    /**
     * A builder for the end port {@code portNumber} of device {@code deviceName}. Until set, the
     * port has LID, LMC, SM LID and SM SL 0, state {@link PortState#DOWN}, physical state
     * {@link PhysPortState#POLLING}, no known rate, capability mask 0, link layer
     * {@link LinkLayer#INFINIBAND}, empty GID and P_Key tables, subnet timeout
     * {@link #DEFAULT_SUBNET_TIMEOUT} and no umad or issm device.
     */
    public static Builder builder(String deviceName, int portNumber) {
        return new Builder(deviceName, portNumber);
    }

    /** True if the port is {@link PortState#ACTIVE}: configured and passing data. */
    public boolean isActive() {
        return state == PortState.ACTIVE;
    }

    /**
     * The port's default GID, entry 0 of its GID table: its subnet prefix and port GUID on
     * InfiniBand (IBA 4.1.1), the link-local GID made from its MAC address on RoCE.
     *
     * @throws IllegalStateException if the GID table is empty
     */
    public Gid defaultGid() {
        if (gids.isEmpty()) {
            throw new IllegalStateException("End port " + this + " has an empty GID table");
        }
        return gids.getFirst();
    }

    /**
     * The port GUID, the interface ID of the {@link #defaultGid() default GID} (IBA 4.1.1), as
     * python-rdma reads it.
     *
     * @throws IllegalStateException if the GID table is empty
     */
    public Guid portGuid() {
        return defaultGid().guid();
    }

    /** True if {@code other} is the same port of the same device, whatever either snapshot holds. */
    public boolean isSamePort(EndPort other) {
        return portNumber == other.portNumber && deviceName.equals(other.deviceName);
    }

    /** The python-rdma name of this end port, {@code device/port}, for example {@code mlx4_0/1}. */
    @Override
    public String toString() {
        return deviceName + "/" + portNumber;
    }

    /**
     * The end port of {@code devices} that {@code selector} names, python-rdma's
     * {@code rdma.get_end_port}. Selectors, tried in this order:
     * <table>
     *   <caption>End port selectors</caption>
     *   <tr><th>selector</th><th>example</th><th>selects</th></tr>
     *   <tr><td>null</td><td></td><td>the default port: the first {@link PortState#ACTIVE} port of
     *       all devices in name order, else the first whose physical link is up, else the first port</td></tr>
     *   <tr><td>device/port</td><td>{@code mlx4_0/1}</td><td>that port of that device</td></tr>
     *   <tr><td>device</td><td>{@code mlx4_0}</td><td>the default port of that device, chosen as above</td></tr>
     *   <tr><td>port GUID</td><td>{@code 0002:c903:0000:1491} or {@code 0x0002c90300001491}</td>
     *       <td>the port whose default GID has that interface ID</td></tr>
     *   <tr><td>port GID</td><td>{@code fe80::2:c903:0:1491}</td><td>the port whose GID table holds it</td></tr>
     * </table>
     * Choosing the active port first is what libibumad does for a device or port left unspecified;
     * python-rdma takes the first port.
     *
     * @throws NoSuchDeviceException    if the selector is well formed but nothing matches, or
     *                                  there are no devices; the message lists what is present
     * @throws IllegalArgumentException if {@code device/port} has a port that is not a number 0 to 254
     */
    public static EndPort select(List<RdmaDevice> devices, String selector) {
        if (devices.isEmpty()) {
            throw new NoSuchDeviceException(selector, "No RDMA devices found");
        }
        if (selector == null) {
            return preferred(devices.stream().flatMap(d -> d.endPorts().stream()).toList(), null, devices);
        }
        int slash = selector.indexOf('/');
        if (slash >= 0) {
            return byNumber(devices, selector, slash);
        }
        for (RdmaDevice device : devices) {
            if (device.name().equals(selector)) {
                return preferred(device.endPorts(), selector, devices);
            }
        }
        Guid guid = parseOrNull(selector, Guid::parse);
        if (guid != null) {
            for (RdmaDevice device : devices) {
                for (EndPort port : device.endPorts()) {
                    if (!port.gids.isEmpty() && port.portGuid().equals(guid)) {
                        return port;
                    }
                }
            }
            throw notFound(selector, "No RDMA end port has port GUID " + guid, devices);
        }
        Gid gid = parseOrNull(selector, Gid::parse);
        if (gid != null) {
            boolean empty = gid.prefix() == 0 && gid.interfaceId() == 0; // the marker of an unused entry
            for (RdmaDevice device : devices) {
                for (EndPort port : device.endPorts()) {
                    if (!empty && port.gids.contains(gid)) {
                        return port;
                    }
                }
            }
            throw notFound(selector, "No RDMA end port has GID " + gid, devices);
        }
        throw notFound(selector, "No RDMA device named " + quote(selector), devices);
    }

    private static EndPort byNumber(List<RdmaDevice> devices, String selector, int slash) {
        String name = selector.substring(0, slash);
        String number = selector.substring(slash + 1);
        if (number.isEmpty() || number.length() > 3 || !number.chars().allMatch(c -> c >= '0' && c <= '9')
                || Integer.parseInt(number) > MAX_PORT_NUMBER) {
            throw new IllegalArgumentException("Invalid end port selector " + quote(selector)
                    + ": the part after '/' must be a port number 0 to " + MAX_PORT_NUMBER);
        }
        int portNumber = Integer.parseInt(number);
        for (RdmaDevice device : devices) {
            if (device.name().equals(name)) {
                return device.endPort(portNumber).orElseThrow(() -> notFound(selector,
                        "RDMA device " + name + " has no port " + portNumber, devices));
            }
        }
        throw notFound(selector, "No RDMA device named " + quote(name), devices);
    }

    /** The first active port of {@code ports}, else the first with its link up, else the first. */
    private static EndPort preferred(List<EndPort> ports, String selector, List<RdmaDevice> devices) {
        if (ports.isEmpty()) {
            throw notFound(selector, "No RDMA end ports found", devices);
        }
        return ports.stream().filter(EndPort::isActive).findFirst()
                .or(() -> ports.stream().filter(p -> p.physState == PhysPortState.LINK_UP).findFirst())
                .orElse(ports.getFirst());
    }

    private static <T> T parseOrNull(String text, Function<String, T> parser) {
        try {
            return parser.apply(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static NoSuchDeviceException notFound(String selector, String what, List<RdmaDevice> devices) {
        String present = devices.stream().flatMap(d -> d.endPorts().isEmpty()
                        ? Stream.of(d.name() + " (no ports)")
                        : d.endPorts().stream().map(EndPort::toString))
                .collect(Collectors.joining(", "));
        return new NoSuchDeviceException(selector, what + "; present: " + present);
    }

    private static void checkRange(String what, int value, int max) {
        if (value < 0 || value > max) {
            throw new IllegalArgumentException(what + " " + value + " is outside 0 to " + max);
        }
    }

    /**
     * Collects the values of an {@link EndPort} from any source. Not thread-safe; {@link #build}
     * may be called more than once.
     */
    public static final class Builder {
        private final String deviceName;
        private final int portNumber;
        private int lid;
        private int lmc;
        private int smLid;
        private int smSl;
        private PortState state = PortState.DOWN;
        private PhysPortState physState = PhysPortState.POLLING;
        private StaticRate rate;
        private int capabilityMask;
        private LinkLayer linkLayer = LinkLayer.INFINIBAND;
        private List<Gid> gids = List.of();
        private List<Integer> pkeys = List.of();
        private int subnetTimeout = DEFAULT_SUBNET_TIMEOUT;
        private Path umadPath;
        private Path issmPath;

        private Builder(String deviceName, int portNumber) {
            this.deviceName = deviceName;
            this.portNumber = portNumber;
        }

        /** Sets the base LID, PortInfo:LID. */
        public Builder lid(int lid) {
            this.lid = lid;
            return this;
        }

        /** Sets the LID mask control, PortInfo:LMC. */
        public Builder lmc(int lmc) {
            this.lmc = lmc;
            return this;
        }

        /** Sets the master SM's LID, PortInfo:MasterSMLID. */
        public Builder smLid(int smLid) {
            this.smLid = smLid;
            return this;
        }

        /** Sets the master SM's service level, PortInfo:MasterSMSL. */
        public Builder smSl(int smSl) {
            this.smSl = smSl;
            return this;
        }

        /** Sets the logical port state, PortInfo:PortState. */
        public Builder state(PortState state) {
            this.state = state;
            return this;
        }

        /** Sets the physical port state, PortInfo:PortPhysicalState. */
        public Builder physState(PhysPortState physState) {
            this.physState = physState;
            return this;
        }

        /** Sets the active data rate; null for unknown. */
        public Builder rate(StaticRate rate) {
            this.rate = rate;
            return this;
        }

        /** Sets PortInfo:CapabilityMask. */
        public Builder capabilityMask(int capabilityMask) {
            this.capabilityMask = capabilityMask;
            return this;
        }

        /** Sets the link layer. */
        public Builder linkLayer(LinkLayer linkLayer) {
            this.linkLayer = linkLayer;
            return this;
        }

        /** Sets the GID table, index 0 first. */
        public Builder gids(List<Gid> gids) {
            this.gids = List.copyOf(gids);
            return this;
        }

        /** Sets the P_Key table, index 0 first. */
        public Builder pkeys(List<Integer> pkeys) {
            this.pkeys = List.copyOf(pkeys);
            return this;
        }

        /** Sets the P_Key table from an array, as the MAD engine unpacks a PKeyTable attribute. */
        public Builder pkeys(int... pkeys) {
            List<Integer> list = new ArrayList<>(pkeys.length);
            for (int pkey : pkeys) {
                list.add(pkey);
            }
            this.pkeys = List.copyOf(list);
            return this;
        }

        /** Sets PortInfo:SubnetTimeOut. */
        public Builder subnetTimeout(int subnetTimeout) {
            this.subnetTimeout = subnetTimeout;
            return this;
        }

        /** Sets the umad device of the port; null for none. */
        public Builder umadPath(Path umadPath) {
            this.umadPath = umadPath;
            return this;
        }

        /** Sets the issm device of the port; null for none. */
        public Builder issmPath(Path issmPath) {
            this.issmPath = issmPath;
            return this;
        }

        /**
         * The end port with these values.
         *
         * @throws IllegalArgumentException if a value is out of its range (see {@link EndPort})
         * @throws NullPointerException     if a required value was set to null
         */
        public EndPort build() {
            return new EndPort(deviceName, portNumber, lid, lmc, smLid, smSl, state, physState,
                    Optional.ofNullable(rate), capabilityMask, linkLayer, gids, pkeys, subnetTimeout,
                    Optional.ofNullable(umadPath), Optional.ofNullable(issmPath));
        }
    }
}

package org.jrdma.mad.umad;

import java.util.List;
import java.util.Optional;
import org.jrdma.devices.EndPort;
import org.jrdma.devices.LinkLayer;
import org.jrdma.devices.RdmaDevice;
import org.jrdma.iba.NodeType;
import org.jrdma.iba.PhysPortState;
import org.jrdma.iba.PortState;

/**
 * The end port whose umad device a diagnostic tool opens, chosen as libibumad's
 * {@code umad_open_port(ca, port)} chooses it from the {@code -C CA} and {@code -P PORT} options
 * (a null CA and port 0 where they are not given):
 * <ul>
 *   <li>CA and a port: that port, unchecked (opening it fails if it has no umad device);</li>
 *   <li>CA alone: port 0 of a switch; else the CA's first InfiniBand port that is
 *       {@linkplain PortState#ACTIVE Active}, else its first InfiniBand port whose physical
 *       state is {@linkplain PhysPortState#LINK_UP LinkUp}, else its first port of any link
 *       layer that is not {@linkplain PhysPortState#DISABLED Disabled}; no port if none is;</li>
 *   <li>no CA: of the InfiniBand-type devices (channel adapter, switch or router node type; an
 *       iWARP RNIC is not one), the first where the rule above (or, with a port, that port:
 *       InfiniBand and Active, or InfiniBand and not Disabled) finds an Active port, else the first where it
 *       finds a usable one; no port if there is neither (libibumad then falls back on a device
 *       named {@code mthca0}, port 1, which fails to open on a machine without it).</li>
 * </ul>
 * A port without a {@code link_layer} file counts as InfiniBand, as it does to libibumad.
 * Devices are taken in name order, libibumad in the order the kernel lists
 * {@code /sys/class/infiniband}.
 *
 * @param caName the device
 * @param port   the port number
 */
public record UmadPortChoice(String caName, int port) {
    /** How a device's ports can serve: as libibumad's {@code resolve_ca_port} ranks them. */
    private enum Rank { NONE, USABLE, ACTIVE }

    /** The port in {@code devices} that {@code caName} (null for any) and {@code port} (0 for any) choose, if any. */
    public static Optional<UmadPortChoice> choose(List<RdmaDevice> devices, String caName, int port) {
        if (caName != null && port != 0) {
            return Optional.of(new UmadPortChoice(caName, port));
        }
        if (caName != null) {
            return devices.stream().filter(d -> d.name().equals(caName)).findFirst()
                    .flatMap(d -> resolve(d, 0)).map(Resolved::choice);
        }
        Resolved usable = null;
        for (RdmaDevice device : devices) {
            if (device.nodeType().isEmpty()) {
                continue;
            }
            Optional<Resolved> resolved = resolve(device, port);
            if (resolved.isEmpty()) {
                continue;
            }
            if (resolved.get().rank() == Rank.ACTIVE) {
                return Optional.of(resolved.get().choice());
            }
            if (usable == null) {
                usable = resolved.get();
            }
        }
        return Optional.ofNullable(usable).map(Resolved::choice);
    }

    /** A port and how it can serve. */
    private record Resolved(UmadPortChoice choice, Rank rank) {
    }

    /** libibumad's {@code resolve_ca_port}: the port of {@code device} to use, {@code port} if not 0. */
    private static Optional<Resolved> resolve(RdmaDevice device, int port) {
        if (device.nodeType().orElse(null) == NodeType.SWITCH) {
            return Optional.of(new Resolved(new UmadPortChoice(device.name(), 0), Rank.ACTIVE));
        }
        if (port > 0) {
            Optional<EndPort> p = device.endPort(port).filter(UmadPortChoice::isInfiniBand);
            Rank rank = p.map(e -> e.state() == PortState.ACTIVE ? Rank.ACTIVE
                    : e.physState() != PhysPortState.DISABLED ? Rank.USABLE : Rank.NONE).orElse(Rank.NONE);
            return rank == Rank.NONE ? Optional.empty() : Optional.of(new Resolved(new UmadPortChoice(device.name(), port), rank));
        }
        EndPort linkUp = null;
        for (EndPort p : device.endPorts()) {
            if (!isInfiniBand(p)) {
                continue;
            }
            if (p.state() == PortState.ACTIVE) {
                return Optional.of(new Resolved(new UmadPortChoice(device.name(), p.portNumber()), Rank.ACTIVE));
            }
            if (linkUp == null && p.physState() == PhysPortState.LINK_UP) {
                linkUp = p;
            }
        }
        EndPort usable = linkUp != null ? linkUp
                : device.endPorts().stream().filter(p -> p.physState() != PhysPortState.DISABLED).findFirst().orElse(null);
        return Optional.ofNullable(usable).map(p -> new Resolved(new UmadPortChoice(device.name(), p.portNumber()), Rank.USABLE));
    }

    private static boolean isInfiniBand(EndPort port) {
        return port.linkLayer() == LinkLayer.INFINIBAND;
    }
}

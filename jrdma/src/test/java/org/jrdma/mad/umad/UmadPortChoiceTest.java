package org.jrdma.mad.umad;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.jrdma.devices.EndPort;
import org.jrdma.devices.LinkLayer;
import org.jrdma.devices.RdmaDevice;
import org.jrdma.iba.NodeType;
import org.jrdma.iba.PhysPortState;
import org.jrdma.iba.PortState;
import org.junit.jupiter.api.Test;

/** {@link UmadPortChoice}: libibumad's {@code resolve_ca_name} and {@code resolve_ca_port} on fake devices. */
class UmadPortChoiceTest {
    private static EndPort port(String device, int number, PortState state, PhysPortState phys, LinkLayer layer) {
        return EndPort.builder(device, number).state(state).physState(phys).linkLayer(layer).build();
    }

    private static EndPort ib(String device, int number, PortState state, PhysPortState phys) {
        return port(device, number, state, phys, LinkLayer.INFINIBAND);
    }

    private static RdmaDevice device(String name, NodeType type, EndPort... ports) {
        RdmaDevice.Builder b = RdmaDevice.builder(name).nodeType(type);
        for (EndPort p : ports) {
            b.endPort(p);
        }
        return b.build();
    }

    /** roce0 Ethernet and up; mlx4_0 with port 1 polling and port 2 LinkUp; mlx4_1 with port 2 Active; an RNIC; a disabled CA. */
    private static final List<RdmaDevice> DEVICES = List.of(
            device("iwarp0", null, port("iwarp0", 1, PortState.ACTIVE, PhysPortState.LINK_UP, LinkLayer.ETHERNET)),
            device("mlx4_0", NodeType.CA, ib("mlx4_0", 1, PortState.DOWN, PhysPortState.POLLING),
                    ib("mlx4_0", 2, PortState.INIT, PhysPortState.LINK_UP)),
            device("mlx4_1", NodeType.CA, ib("mlx4_1", 1, PortState.DOWN, PhysPortState.POLLING),
                    ib("mlx4_1", 2, PortState.ACTIVE, PhysPortState.LINK_UP)),
            device("off0", NodeType.CA, ib("off0", 1, PortState.DOWN, PhysPortState.DISABLED)),
            device("roce0", NodeType.CA, port("roce0", 1, PortState.ACTIVE, PhysPortState.LINK_UP, LinkLayer.ETHERNET)));

    private static Optional<UmadPortChoice> choose(List<RdmaDevice> devices, String ca, int port) {
        return UmadPortChoice.choose(devices, ca, port);
    }

    @Test
    void withNeitherTheFirstDeviceWithAnActiveInfiniBandPort() {
        assertEquals(Optional.of(new UmadPortChoice("mlx4_1", 2)), choose(DEVICES, null, 0));
    }

    @Test
    void withoutAnActivePortTheFirstUsableOne() {
        List<RdmaDevice> noActive = List.of(DEVICES.get(3), DEVICES.get(1), DEVICES.get(4));
        assertEquals(Optional.of(new UmadPortChoice("mlx4_0", 2)), choose(noActive, null, 0));
        // An Ethernet port is no InfiniBand port, but when nothing else is up it is taken as not Disabled.
        assertEquals(Optional.of(new UmadPortChoice("roce0", 1)), choose(List.of(DEVICES.get(3), DEVICES.get(4)), null, 0));
        assertEquals(Optional.empty(), choose(List.of(DEVICES.get(0), DEVICES.get(3)), null, 0));
        assertEquals(Optional.empty(), choose(List.of(), null, 0));
    }

    /** With a port and no device: that port of the first device where it is Active, else of the first where it is up. */
    @Test
    void aPortAloneIsLookedForOnEveryDevice() {
        assertEquals(Optional.of(new UmadPortChoice("mlx4_1", 2)), choose(DEVICES, null, 2));
        assertEquals(Optional.of(new UmadPortChoice("mlx4_0", 1)), choose(DEVICES, null, 1));
        assertEquals(Optional.empty(), choose(List.of(DEVICES.get(3), DEVICES.get(4)), null, 1));
    }

    @Test
    void aDeviceAloneGetsItsBestPort() {
        assertEquals(Optional.of(new UmadPortChoice("mlx4_0", 2)), choose(DEVICES, "mlx4_0", 0));
        assertEquals(Optional.of(new UmadPortChoice("roce0", 1)), choose(DEVICES, "roce0", 0));
        assertEquals(Optional.empty(), choose(DEVICES, "off0", 0));
        assertEquals(Optional.empty(), choose(DEVICES, "mlx5_0", 0));
    }

    @Test
    void aDeviceAndAPortAreTakenAsGiven() {
        assertEquals(Optional.of(new UmadPortChoice("mlx5_0", 3)), choose(DEVICES, "mlx5_0", 3));
        assertEquals(Optional.of(new UmadPortChoice("off0", 1)), choose(DEVICES, "off0", 1));
    }

    @Test
    void aSwitchIsAlwaysItsPortZero() {
        List<RdmaDevice> devices = List.of(device("sw0", NodeType.SWITCH, ib("sw0", 0, PortState.DOWN, PhysPortState.DISABLED)));
        assertEquals(Optional.of(new UmadPortChoice("sw0", 0)), choose(devices, null, 0));
        assertEquals(Optional.of(new UmadPortChoice("sw0", 0)), choose(devices, null, 1));
        assertEquals(Optional.of(new UmadPortChoice("sw0", 0)), choose(devices, "sw0", 0));
    }
}

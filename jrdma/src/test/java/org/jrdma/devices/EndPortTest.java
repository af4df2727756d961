package org.jrdma.devices;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.jrdma.NoSuchDeviceException;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Guid;
import org.jrdma.iba.PhysPortState;
import org.jrdma.iba.PortState;
import org.jrdma.iba.StaticRate;
import org.junit.jupiter.api.Test;

/** {@link EndPort}: built from plain values (as for a simulated node), checked, and selected. */
class EndPortTest {
    private static EndPort port(String device, int number, PortState state, PhysPortState phys, String... gids) {
        return EndPort.builder(device, number).state(state).physState(phys)
                .gids(Arrays.stream(gids).map(Gid::parse).toList()).pkeys(0xFFFF).build();
    }

    /** mlx4_0 with port 1 down and port 2 active, mlx4_1 with its link up but not active, rxe0 active. */
    private static final List<RdmaDevice> DEVICES = List.of(
            RdmaDevice.builder("mlx4_0").nodeGuid(Guid.parse("0002:c903:0000:1490"))
                    .endPort(port("mlx4_0", 2, PortState.ACTIVE, PhysPortState.LINK_UP, "fe80::2:c903:0:1492"))
                    .endPort(port("mlx4_0", 1, PortState.DOWN, PhysPortState.POLLING, "fe80::2:c903:0:1491",
                            "::", "fec0::2:c903:0:1491"))
                    .build(),
            RdmaDevice.builder("mlx4_1").nodeGuid(Guid.parse("0002:c903:0000:2490"))
                    .endPort(port("mlx4_1", 1, PortState.DOWN, PhysPortState.POLLING, "fe80::2:c903:0:2491"))
                    .endPort(port("mlx4_1", 2, PortState.INIT, PhysPortState.LINK_UP, "fe80::2:c903:0:2492"))
                    .build(),
            RdmaDevice.builder("rxe0")
                    .endPort(port("rxe0", 1, PortState.ACTIVE, PhysPortState.LINK_UP, "fe80::5054:ff:fe12:3456"))
                    .build(),
            RdmaDevice.builder("down0")
                    .endPort(port("down0", 1, PortState.DOWN, PhysPortState.DISABLED, "fe80::1"))
                    .endPort(port("down0", 2, PortState.DOWN, PhysPortState.POLLING, "fe80::2"))
                    .build(),
            RdmaDevice.builder("empty0").build());

    private static EndPort select(String selector) {
        return EndPort.select(DEVICES, selector);
    }

    @Test
    void builderDefaults() {
        EndPort port = EndPort.builder("sim0", 1).build();
        assertEquals(new EndPort("sim0", 1, 0, 0, 0, 0, PortState.DOWN, PhysPortState.POLLING, Optional.empty(), 0,
                LinkLayer.INFINIBAND, List.of(), List.of(), EndPort.DEFAULT_SUBNET_TIMEOUT, Optional.empty(),
                Optional.empty()), port);
        assertFalse(port.isActive());
    }

    @Test
    void builtFromPlainValuesAsForASimulatedNode() {
        EndPort port = EndPort.builder("ibsim-node03", 1).lid(0xFFFF).lmc(7).smLid(0xFFFF).smSl(15)
                .state(PortState.ACTIVE).physState(PhysPortState.LINK_UP).rate(StaticRate.RATE_40_GBPS)
                .capabilityMask(0xFFFF_FFFF).linkLayer(LinkLayer.INFINIBAND)
                .gids(List.of(Gid.parse("fe80::2:c903:0:1031"))).pkeys(0xFFFF, 0x7FFF, 0).subnetTimeout(31)
                .umadPath(Path.of("/dev/infiniband/umad0")).issmPath(Path.of("/dev/infiniband/issm0")).build();
        assertEquals(0xFFFF, port.lid());
        assertEquals(7, port.lmc());
        assertEquals(0xFFFF, port.smLid());
        assertEquals(15, port.smSl());
        assertEquals(0xFFFF_FFFF, port.capabilityMask());
        assertEquals(List.of(0xFFFF, 0x7FFF, 0), port.pkeys());
        assertEquals(31, port.subnetTimeout());
        assertEquals(Optional.of(StaticRate.RATE_40_GBPS), port.rate());
        assertEquals(Guid.parse("0002:c903:0000:1031"), port.portGuid());
        assertTrue(port.isActive());
        assertEquals("ibsim-node03/1", port.toString());
        assertEquals(Optional.of(Path.of("/dev/infiniband/umad0")), port.umadPath());
    }

    @Test
    void equalByValueAndSamePortByName() {
        EndPort a = EndPort.builder("mlx4_0", 1).lid(1).build();
        EndPort b = EndPort.builder("mlx4_0", 1).lid(1).build();
        EndPort moved = EndPort.builder("mlx4_0", 1).lid(2).build();
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertNotEquals(a, moved);
        assertTrue(a.isSamePort(moved));
        assertFalse(a.isSamePort(EndPort.builder("mlx4_0", 2).build()));
        assertFalse(a.isSamePort(EndPort.builder("mlx4_1", 1).build()));
    }

    @Test
    void listsAreCopiedAndImmutable() {
        var gids = new java.util.ArrayList<>(List.of(Gid.parse("fe80::1")));
        EndPort port = EndPort.builder("d", 1).gids(gids).build();
        gids.clear();
        assertEquals(1, port.gids().size());
        assertThrows(UnsupportedOperationException.class, () -> port.pkeys().add(1));
    }

    @Test
    void rejectsValuesOutsideTheirFields() {
        record Case(String what, Runnable build) {
        }
        for (Case c : List.of(
                new Case("port number 255 is outside 0 to 254", () -> EndPort.builder("d", 255).build()),
                new Case("port number -1 is outside 0 to 254", () -> EndPort.builder("d", -1).build()),
                new Case("LID 65536 is outside 0 to 65535", () -> EndPort.builder("d", 1).lid(0x10000).build()),
                new Case("LMC 8 is outside 0 to 7", () -> EndPort.builder("d", 1).lmc(8).build()),
                new Case("SM LID -1 is outside 0 to 65535", () -> EndPort.builder("d", 1).smLid(-1).build()),
                new Case("SM SL 16 is outside 0 to 15", () -> EndPort.builder("d", 1).smSl(16).build()),
                new Case("subnet timeout 32 is outside 0 to 31", () -> EndPort.builder("d", 1).subnetTimeout(32).build()),
                new Case("P_Key 65536 at index 1 is outside the 16-bit range 0 to 0xFFFF",
                        () -> EndPort.builder("d", 1).pkeys(0xFFFF, 0x10000).build()))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, c.build::run, c.what);
            assertEquals(c.what, e.getMessage());
        }
        assertThrows(NullPointerException.class, () -> EndPort.builder("d", 1).state(null).build());
        assertThrows(NullPointerException.class, () -> EndPort.builder("d", 1).linkLayer(null).build());
        assertThrows(NullPointerException.class,
                () -> EndPort.builder("d", 1).gids(Arrays.asList(Gid.parse("::1"), null)).build());
    }

    @Test
    void rejectsDeviceNamesThatWouldBreakSelectors() {
        for (String name : List.of("", "a/b", "a%b", "a'b", "a\"b", "a\\b", "a\nb", " a", "a ", "x".repeat(64), "é")) {
            assertThrows(IllegalArgumentException.class, () -> EndPort.builder(name, 1).build(), name);
        }
        assertThrows(NullPointerException.class, () -> EndPort.builder(null, 1).build());
        assertEquals("ibsim node03 HCA-1", EndPort.builder("ibsim node03 HCA-1", 1).build().deviceName());
        assertEquals(63, EndPort.builder("x".repeat(63), 1).build().deviceName().length());
    }

    @Test
    void defaultGidOfAnEmptyTableFails() {
        EndPort port = EndPort.builder("d", 1).build();
        IllegalStateException e = assertThrows(IllegalStateException.class, port::portGuid);
        assertEquals("End port d/1 has an empty GID table", e.getMessage());
    }

    @Test
    void noSelectorTakesTheFirstActivePortOfAllDevices() {
        assertEquals("mlx4_0/2", select(null).toString());
    }

    @Test
    void aDeviceSelectorTakesItsActivePortElseItsLinkedUpPortElseItsFirst() {
        assertEquals("mlx4_0/2", select("mlx4_0").toString());
        assertEquals("mlx4_1/2", select("mlx4_1").toString());
        assertEquals("down0/1", select("down0").toString());
        assertEquals("rxe0/1", select("rxe0").toString());
    }

    @Test
    void withoutActivePortsTheDefaultIsTheFirstLinkedUpThenTheFirstPort() {
        assertEquals("mlx4_1/2", EndPort.select(DEVICES.subList(1, 2), null).toString());
        assertEquals("down0/1", EndPort.select(DEVICES.subList(3, 4), null).toString());
    }

    @Test
    void aDevicePortSelectorTakesThatPort() {
        assertSame(DEVICES.get(0).endPorts().get(0), select("mlx4_0/1"));
        assertEquals("mlx4_1/1", select("mlx4_1/1").toString());
    }

    @Test
    void aPortGuidSelectorInEitherForm() {
        assertEquals("mlx4_0/1", select("0002:c903:0000:1491").toString());
        assertEquals("mlx4_1/2", select("0x0002c90300002492").toString());
    }

    @Test
    void aPortGidSelectorMatchesAnyNonEmptyEntry() {
        assertEquals("mlx4_0/2", select("fe80::2:c903:0:1492").toString());
        assertEquals("mlx4_0/1", select("fec0::2:c903:0:1491").toString());
        assertEquals("rxe0/1", select("fe80:0000:0000:0000:5054:00ff:fe12:3456").toString());
        NoSuchDeviceException e = assertThrows(NoSuchDeviceException.class, () -> select("::"));
        assertTrue(e.getMessage().startsWith("No RDMA end port has GID ::;"), e.getMessage());
    }

    @Test
    void unmatchedSelectorsListWhatIsPresent() {
        String present = "; present: mlx4_0/1, mlx4_0/2, mlx4_1/1, mlx4_1/2, rxe0/1, down0/1, down0/2, empty0 (no ports)";
        record Case(String selector, String message) {
        }
        for (Case c : List.of(
                new Case("mlx5_0", "No RDMA device named \"mlx5_0\""),
                new Case("mlx5_0/1", "No RDMA device named \"mlx5_0\""),
                new Case("mlx4_0/3", "RDMA device mlx4_0 has no port 3"),
                new Case("0002:c903:0000:9999", "No RDMA end port has port GUID 0002:c903:0000:9999"),
                new Case("fe80::9", "No RDMA end port has GID fe80::9"),
                new Case("empty0", "No RDMA end ports found"))) {
            NoSuchDeviceException e = assertThrows(NoSuchDeviceException.class, () -> select(c.selector), c.selector);
            assertEquals(c.message + present, e.getMessage());
            assertEquals(c.selector, e.selector());
        }
    }

    @Test
    void noDevicesAtAll() {
        NoSuchDeviceException e = assertThrows(NoSuchDeviceException.class, () -> EndPort.select(List.of(), null));
        assertEquals("No RDMA devices found", e.getMessage());
        assertNull(e.selector());
        assertThrows(NoSuchDeviceException.class, () -> EndPort.select(List.of(), "mlx4_0/1"));
    }

    @Test
    void malformedPortNumbersAreIllegalArguments() {
        for (String selector : List.of("mlx4_0/", "mlx4_0/x", "mlx4_0/255", "mlx4_0/-1", "mlx4_0/0001", "mlx4_0/1/2")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> select(selector), selector);
            assertTrue(e.getMessage().startsWith("Invalid end port selector \"" + selector + "\""), e.getMessage());
        }
    }
}

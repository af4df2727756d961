package org.jrdma.devices;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Optional;
import org.jrdma.NoSuchDeviceException;
import org.jrdma.iba.Guid;
import org.jrdma.iba.NodeType;
import org.junit.jupiter.api.Test;

/** {@link RdmaDevice}: built from plain values, checked, and found by name or node GUID. */
class RdmaDeviceTest {
    private static final RdmaDevice MLX = RdmaDevice.builder("mlx4_0").nodeType(NodeType.CA)
            .nodeGuid(Guid.parse("0002:c903:0000:1490")).sysImageGuid(Guid.parse("0002:c903:0000:1493"))
            .nodeDescription("node01 HCA-1").fwVersion("2.9.1000").hwRevision("b0").boardId("MT_0D90110009")
            .hcaType("MT26428").endPort(EndPort.builder("mlx4_0", 2).build()).endPort(EndPort.builder("mlx4_0", 1).build())
            .build();
    private static final RdmaDevice SWITCH = RdmaDevice.builder("sw0").nodeType(NodeType.SWITCH)
            .nodeGuid(Guid.parse("0002:c903:0000:0a01")).endPort(EndPort.builder("sw0", 0).build()).build();

    @Test
    void holdsItsValuesWithPortsInOrder() {
        assertEquals("mlx4_0", MLX.name());
        assertEquals(Optional.of(NodeType.CA), MLX.nodeType());
        assertEquals(Guid.parse("0002:c903:0000:1490"), MLX.nodeGuid());
        assertEquals(Guid.parse("0002:c903:0000:1493"), MLX.sysImageGuid());
        assertEquals("node01 HCA-1", MLX.nodeDescription());
        assertEquals(Optional.of("2.9.1000"), MLX.fwVersion());
        assertEquals(Optional.of("b0"), MLX.hwRevision());
        assertEquals(Optional.of("MT_0D90110009"), MLX.boardId());
        assertEquals(Optional.of("MT26428"), MLX.hcaType());
        assertEquals(List.of(1, 2), MLX.endPorts().stream().map(EndPort::portNumber).toList());
        assertEquals(Optional.of(MLX.endPorts().get(1)), MLX.endPort(2));
        assertEquals(Optional.empty(), MLX.endPort(0));
        assertEquals("mlx4_0", MLX.toString());
    }

    @Test
    void builderDefaults() {
        RdmaDevice device = RdmaDevice.builder("sim0").build();
        assertEquals(new RdmaDevice("sim0", Optional.empty(), new Guid(0), new Guid(0), "", Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), List.of()), device);
    }

    @Test
    void rejectsForeignAndDuplicatePorts() {
        IllegalArgumentException foreign = assertThrows(IllegalArgumentException.class,
                () -> RdmaDevice.builder("mlx4_0").endPort(EndPort.builder("mlx4_1", 1).build()).build());
        assertEquals("End port mlx4_1/1 does not belong to device mlx4_0", foreign.getMessage());
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> RdmaDevice.builder("d").endPort(EndPort.builder("d", 1).build())
                        .endPort(EndPort.builder("d", 1).lid(3).build()).build());
        assertEquals("Device d has port 1 twice", twice.getMessage());
        assertThrows(IllegalArgumentException.class, () -> RdmaDevice.builder("a/b").build());
        assertThrows(NullPointerException.class, () -> RdmaDevice.builder("d").nodeGuid(null).build());
        assertThrows(NullPointerException.class, () -> RdmaDevice.builder("d").endPort(null));
    }

    @Test
    void findsByNameOrNodeGuid() {
        List<RdmaDevice> devices = List.of(MLX, SWITCH);
        assertSame(SWITCH, RdmaDevice.find(devices, "sw0"));
        assertSame(MLX, RdmaDevice.find(devices, "0002:c903:0000:1490"));
        assertSame(SWITCH, RdmaDevice.find(devices, "0x0002c90300000a01"));
    }

    @Test
    void aMissingDeviceListsThePresentOnes() {
        List<RdmaDevice> devices = List.of(MLX, SWITCH);
        NoSuchDeviceException name = assertThrows(NoSuchDeviceException.class, () -> RdmaDevice.find(devices, "mlx5_0"));
        assertEquals("No RDMA device named \"mlx5_0\"; present: mlx4_0 (0002:c903:0000:1490), sw0 (0002:c903:0000:0a01)",
                name.getMessage());
        NoSuchDeviceException guid = assertThrows(NoSuchDeviceException.class,
                () -> RdmaDevice.find(devices, "0002:c903:0000:ffff"));
        assertEquals("No RDMA device named or with node GUID \"0002:c903:0000:ffff\"; present: mlx4_0 "
                + "(0002:c903:0000:1490), sw0 (0002:c903:0000:0a01)", guid.getMessage());
        NoSuchDeviceException none = assertThrows(NoSuchDeviceException.class, () -> RdmaDevice.find(List.of(), "x"));
        assertEquals("No RDMA device named \"x\"; present: none", none.getMessage());
    }
}

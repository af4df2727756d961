package org.jrdma.devices;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.jrdma.RdmaException;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Guid;
import org.jrdma.iba.NodeType;
import org.jrdma.iba.PhysPortState;
import org.jrdma.iba.PortState;
import org.jrdma.iba.StaticRate;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link SysfsDevices} on fake sysfs trees: several devices, CA and switch, IB and Ethernet, broken files. */
class SysfsDevicesTest {
    private static final Path DEV = Path.of("/dev");

    @TempDir
    Path root;

    private FakeSysfs sys;

    @BeforeEach
    void tree() {
        sys = new FakeSysfs(root);
    }

    private List<RdmaDevice> read() {
        return new SysfsDevices(root, DEV).read();
    }

    /** mlx4_0 (a dual-port CA, port 1 IB and active, port 2 Ethernet and down), sw0 (a switch), rxe0, iwarp0. */
    private void fullTree() throws IOException {
        sys.device("mlx4_0", "1: CA", "0002:c903:0000:1490", "node01 HCA-1")
                .port("mlx4_0", 1, "0x12", "2", "0x1", "4: ACTIVE", "5: LinkUp", "40 Gb/sec (4X QDR)", "InfiniBand")
                .gids("mlx4_0", 1, "fe80:0000:0000:0000:0002:c903:0000:1491",
                        "0000:0000:0000:0000:0000:0000:0000:0000",
                        "fec0:0000:0000:0000:0002:c903:0000:1491")
                .pkeys("mlx4_0", 1, "0xffff", "0x8001", "0x0000")
                .port("mlx4_0", 2, "0x0", "0", "0x0", "1: DOWN", "3: Disabled", "unused", "Ethernet")
                .gids("mlx4_0", 2, "fe80:0000:0000:0000:0202:c9ff:fe00:1492",
                        "0000:0000:0000:0000:0000:ffff:0a00:0001")
                .pkeys("mlx4_0", 2, "0xffff");
        // The kernel fails reading the rate of a port that is down: here, the rate is unreadable.
        Files.delete(sys.port("mlx4_0", 2).resolve("rate"));
        Files.createDirectories(sys.port("mlx4_0", 2).resolve("rate"));

        sys.device("sw0", "2: switch", "0002:c903:0000:0a01", "switch-1")
                .port("sw0", 0, "0x1", "0", "0x1", "4: ACTIVE", "5: LinkUp", "10 Gb/sec (4X)", "InfiniBand")
                .gids("sw0", 0, "fe80:0000:0000:0000:0002:c903:0000:0a01")
                .pkeys("sw0", 0, "0xffff", "0x7fff");
        for (String optional : List.of("fw_ver", "hw_rev", "board_id", "hca_type", "ports/0/link_layer")) {
            Files.delete(sys.device("sw0").resolve(optional));
        }

        // rxe0 lives elsewhere and is linked from class/infiniband, as real sysfs does.
        FakeSysfs elsewhere = new FakeSysfs(root.resolve("elsewhere"));
        elsewhere.device("rxe0", "1: CA", "5054:00ff:fe12:3456", "rxe0")
                .port("rxe0", 1, "0x0", "0", "0x0", "4: ACTIVE", "5: LinkUp", "2.5 Gb/sec (1X)", "Ethernet")
                .gids("rxe0", 1, "fe80:0000:0000:0000:5054:00ff:fe12:3456")
                .pkeys("rxe0", 1, "0xffff");
        Path real = root.resolve("devices/virtual/infiniband/rxe0");
        Files.createDirectories(real.getParent());
        Files.move(elsewhere.device("rxe0"), real);
        Files.createSymbolicLink(sys.device("rxe0"), sys.device("rxe0").getParent().relativize(real));

        sys.device("iwarp0", "4: RNIC", "0007:4301:0203:0000", "")
                .port("iwarp0", 1, "0x0", "0", "0x0", "4: ACTIVE", "5: LinkUp", "10 Gb/sec (1X QDR)", "Ethernet")
                .gids("iwarp0", 1, "0007:4301:0203:0000:0000:0000:0000:0000");

        sys.mad("umad0", "mlx4_0", 1).mad("umad1", "mlx4_0", 2).mad("umad2", "sw0", 0)
                .mad("issm0", "mlx4_0", 1).mad("issm2", "sw0", 0).mad("umad3", "rxe0", 1)
                .write(root.resolve("class/infiniband_mad/abi_version"), "5")
                .write(root.resolve("class/infiniband_mad/umad9/port"), "1")
                .mad("umadX", "mlx4_0", 2);
    }

    @Test
    void readsEveryDeviceInNameOrder() throws IOException {
        fullTree();
        List<RdmaDevice> devices = read();
        assertEquals(List.of("iwarp0", "mlx4_0", "rxe0", "sw0"), devices.stream().map(RdmaDevice::name).toList());
    }

    @Test
    void readsADualPortChannelAdapter() throws IOException {
        fullTree();
        RdmaDevice mlx = RdmaDevice.find(read(), "mlx4_0");
        assertEquals(Optional.of(NodeType.CA), mlx.nodeType());
        assertEquals(Guid.parse("0002:c903:0000:1490"), mlx.nodeGuid());
        assertEquals(Guid.parse("0002:c903:0000:1490"), mlx.sysImageGuid());
        assertEquals("node01 HCA-1", mlx.nodeDescription());
        assertEquals(Optional.of("2.9.1000"), mlx.fwVersion());
        assertEquals(Optional.of("b0"), mlx.hwRevision());
        assertEquals(Optional.of("MT_0D90110009"), mlx.boardId());
        assertEquals(Optional.of("MT26428"), mlx.hcaType());
        assertEquals(List.of(1, 2), mlx.endPorts().stream().map(EndPort::portNumber).toList());

        EndPort ib = mlx.endPort(1).orElseThrow();
        assertEquals("mlx4_0", ib.deviceName());
        assertEquals(0x12, ib.lid());
        assertEquals(2, ib.lmc());
        assertEquals(1, ib.smLid());
        assertEquals(0, ib.smSl());
        assertEquals(PortState.ACTIVE, ib.state());
        assertTrue(ib.isActive());
        assertEquals(PhysPortState.LINK_UP, ib.physState());
        assertEquals(Optional.of(StaticRate.RATE_40_GBPS), ib.rate());
        assertEquals(0x02510868, ib.capabilityMask());
        assertEquals(LinkLayer.INFINIBAND, ib.linkLayer());
        assertEquals(List.of(Gid.parse("fe80::2:c903:0:1491"), new Gid(0, 0), Gid.parse("fec0::2:c903:0:1491")),
                ib.gids());
        assertEquals(Gid.parse("fe80::2:c903:0:1491"), ib.defaultGid());
        assertEquals(Guid.parse("0002:c903:0000:1491"), ib.portGuid());
        assertEquals(List.of(0xFFFF, 0x8001, 0), ib.pkeys());
        assertEquals(EndPort.DEFAULT_SUBNET_TIMEOUT, ib.subnetTimeout());
        assertEquals(Optional.of(Path.of("/dev/infiniband/umad0")), ib.umadPath());
        assertEquals(Optional.of(Path.of("/dev/infiniband/issm0")), ib.issmPath());
        assertEquals("mlx4_0/1", ib.toString());

        EndPort eth = mlx.endPort(2).orElseThrow();
        assertEquals(PortState.DOWN, eth.state());
        assertEquals(PhysPortState.DISABLED, eth.physState());
        assertEquals(Optional.empty(), eth.rate());
        assertEquals(LinkLayer.ETHERNET, eth.linkLayer());
        assertEquals(Gid.parse("::ffff:10.0.0.1"), eth.gids().get(1));
        assertEquals(Optional.of(Path.of("/dev/infiniband/umad1")), eth.umadPath());
        assertEquals(Optional.empty(), eth.issmPath());
    }

    @Test
    void readsASwitchWithPortZeroAndNoOptionalFiles() throws IOException {
        fullTree();
        RdmaDevice sw = RdmaDevice.find(read(), "sw0");
        assertEquals(Optional.of(NodeType.SWITCH), sw.nodeType());
        assertEquals("switch-1", sw.nodeDescription());
        assertEquals(Optional.empty(), sw.fwVersion());
        assertEquals(Optional.empty(), sw.hwRevision());
        assertEquals(Optional.empty(), sw.boardId());
        assertEquals(Optional.empty(), sw.hcaType());
        EndPort port0 = sw.endPorts().getFirst();
        assertEquals(0, port0.portNumber());
        assertEquals(Optional.of(StaticRate.RATE_10_GBPS), port0.rate());
        assertEquals(List.of(0xFFFF, 0x7FFF), port0.pkeys());
        assertEquals(LinkLayer.INFINIBAND, port0.linkLayer(), "no link_layer file: InfiniBand, as libibumad takes it");
        assertEquals(Optional.of(Path.of("/dev/infiniband/umad2")), port0.umadPath());
        assertEquals(Optional.of(Path.of("/dev/infiniband/issm2")), port0.issmPath());
    }

    @Test
    void followsTheSymbolicLinksOfClassInfiniband() throws IOException {
        fullTree();
        RdmaDevice rxe = RdmaDevice.find(read(), "rxe0");
        EndPort port = rxe.endPorts().getFirst();
        assertEquals(LinkLayer.ETHERNET, port.linkLayer());
        assertEquals(Optional.of(StaticRate.RATE_2_5_GBPS), port.rate());
        assertEquals(Optional.of(Path.of("/dev/infiniband/umad3")), port.umadPath());
    }

    @Test
    void readsADeviceThatIsNotAnIbaNode() throws IOException {
        fullTree();
        RdmaDevice iwarp = RdmaDevice.find(read(), "iwarp0");
        assertEquals(Optional.empty(), iwarp.nodeType());
        assertEquals("", iwarp.nodeDescription());
        EndPort port = iwarp.endPorts().getFirst();
        assertEquals(List.of(), port.pkeys(), "no pkeys folder");
        assertEquals(LinkLayer.ETHERNET, port.linkLayer());
        assertEquals(Optional.empty(), port.umadPath());
    }

    @Test
    void findsUmadDevicesUnderTheGivenDevFolder() throws IOException {
        fullTree();
        EndPort port = RdmaDevice.find(new SysfsDevices(root, Path.of("/tmp/dev")).read(), "mlx4_0").endPorts().get(0);
        assertEquals(Optional.of(Path.of("/tmp/dev/infiniband/umad0")), port.umadPath());
    }

    @Test
    void noInfinibandClassMeansNoDevices() {
        assertEquals(List.of(), read());
    }

    @Test
    void anEmptyClassFolderMeansNoDevices() throws IOException {
        Files.createDirectories(root.resolve("class/infiniband"));
        assertEquals(List.of(), read());
    }

    @Test
    void anUnknownLinkLayerIsUnknown() {
        minimal("4: ACTIVE");
        sys.write(sys.port("mlx4_0", 1).resolve("link_layer"), "Unknown");
        assertEquals(LinkLayer.UNKNOWN, read().getFirst().endPorts().getFirst().linkLayer());
    }

    @Test
    void activeDeferReadsAsActive() {
        minimal("4: ACTIVE");
        sys.write(sys.port("mlx4_0", 1).resolve("state"), "5: ACTIVE_DEFER");
        assertEquals(PortState.ACTIVE, read().getFirst().endPorts().getFirst().state());
    }

    @Test
    void emptyOrMalformedTableEntriesReadAsEmptyEntries() throws IOException {
        minimal("4: ACTIVE");
        sys.gids("mlx4_0", 1, "fe80:0000:0000:0000:0002:c903:0000:1491", "not a gid")
                .pkeys("mlx4_0", 1, "0xffff", "ffff", "0x10000");
        sys.write(sys.port("mlx4_0", 1).resolve("gids/3"), "fe80:0000:0000:0000:0000:0000:0000:0003");
        Files.createDirectories(sys.port("mlx4_0", 1).resolve("pkeys/3"));
        EndPort port = read().getFirst().endPorts().getFirst();
        assertEquals(List.of(Gid.parse("fe80::2:c903:0:1491"), new Gid(0, 0), new Gid(0, 0), Gid.parse("fe80::3")),
                port.gids(), "a gap and a malformed entry are zero GIDs");
        assertEquals(List.of(0xFFFF, 0, 0, 0), port.pkeys(), "malformed, too large and unreadable entries are 0");
    }

    @Test
    void unknownRatesAreEmpty() {
        for (String rate : List.of("fast", "1600 Gb/sec (8X XDR)", " Gb/sec", "1e400 Gb/sec", "NaN Gb/sec")) {
            minimal("4: ACTIVE");
            sys.write(sys.port("mlx4_0", 1).resolve("rate"), rate);
            assertEquals(Optional.empty(), read().getFirst().endPorts().getFirst().rate(), rate);
        }
        for (String rate : List.of("56 Gb/sec (4X FDR)", "100 Gb/sec (4X EDR)", "200 Gb/sec (4X HDR)", "14 Gb/sec (1X FDR)")) {
            sys.write(sys.port("mlx4_0", 1).resolve("rate"), rate);
            double gbps = Double.parseDouble(rate.substring(0, rate.indexOf(' ')));
            assertEquals(gbps, read().getFirst().endPorts().getFirst().rate().orElseThrow().gbps(), rate);
        }
    }

    @Test
    void readsUtf8NodeDescriptionsAndIgnoresHugeOptionalFiles() {
        minimal("4: ACTIVE");
        sys.write(sys.device("mlx4_0").resolve("node_desc"), "nœud-1 HCA-1")
                .write(sys.device("mlx4_0").resolve("fw_ver"), "x".repeat(10_000));
        RdmaDevice device = read().getFirst();
        assertEquals("nœud-1 HCA-1", device.nodeDescription());
        assertEquals(Optional.empty(), device.fwVersion());
    }

    @Test
    void aMalformedRequiredFileFailsNamingItAndItsContent() {
        record Case(String file, String content, String expected) {
        }
        for (Case c : List.of(
                new Case("node_guid", "xyz", "expected a GUID"),
                new Case("sys_image_guid", "12", "expected a GUID"),
                new Case("node_type", "CA", "expected N: text"),
                new Case("ports/1/state", "9: WEIRD", "port state 9"),
                new Case("ports/1/state", "ACTIVE", "expected N: STATE"),
                new Case("ports/1/phys_state", "8: Beyond", "physical port state 8"),
                new Case("ports/1/lid", "12", "expected 0x and a hex number up to 0xffff"),
                new Case("ports/1/lid", "0x10000", "up to 0xffff"),
                new Case("ports/1/sm_lid", "0xzz", "hex number"),
                new Case("ports/1/lid_mask_count", "8", "decimal number 0 to 7"),
                new Case("ports/1/sm_sl", "-1", "decimal number 0 to 15"),
                new Case("ports/1/cap_mask", "0x100000000", "up to 0xffffffff"))) {
            minimal("4: ACTIVE");
            Path file = sys.device("mlx4_0").resolve(c.file);
            sys.write(file, c.content);
            RdmaException e = assertThrows(RdmaException.class, this::read, c.toString());
            assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
            assertTrue(e.getMessage().contains("\"" + c.content + "\""), e.getMessage());
            assertTrue(e.getMessage().contains(c.expected), e.getMessage());
        }
    }

    @Test
    void aMissingRequiredFileFailsNamingIt() throws IOException {
        for (String required : List.of("node_type", "node_guid", "sys_image_guid", "ports/1/lid", "ports/1/state",
                "ports/1/phys_state", "ports/1/lid_mask_count", "ports/1/sm_lid", "ports/1/sm_sl", "ports/1/cap_mask")) {
            minimal("4: ACTIVE");
            Path file = sys.device("mlx4_0").resolve(required);
            Files.delete(file);
            RdmaException e = assertThrows(RdmaException.class, this::read, required);
            assertEquals("Cannot read RDMA devices from sysfs: " + file + " is missing", e.getMessage());
            sys.write(file, "restored");
        }
    }

    @Test
    void anUnreadableRequiredFileFails() throws IOException {
        minimal("4: ACTIVE");
        Path lid = sys.port("mlx4_0", 1).resolve("lid");
        Files.delete(lid);
        Files.createDirectories(lid);
        RdmaException e = assertThrows(RdmaException.class, this::read);
        assertTrue(e.getMessage().endsWith(lid + " cannot be read"), e.getMessage());
    }

    @Test
    void aMissingPortsFolderOrAStrayPortEntryFails() throws IOException {
        sys.device("mlx4_0", "1: CA", "0002:c903:0000:1490", "x");
        RdmaException missing = assertThrows(RdmaException.class, this::read);
        assertTrue(missing.getMessage().endsWith("ports is missing"), missing.getMessage());

        minimal("4: ACTIVE");
        Files.createDirectories(sys.device("mlx4_0").resolve("ports/one"));
        RdmaException stray = assertThrows(RdmaException.class, this::read);
        assertTrue(stray.getMessage().endsWith("ports/one is not named by a port number 0 to 254"), stray.getMessage());
    }

    @Test
    void aTableIndexBeyondSixteenBitsFails() {
        minimal("4: ACTIVE");
        sys.write(sys.port("mlx4_0", 1).resolve("gids/70000"), "fe80:0000:0000:0000:0000:0000:0000:0001");
        RdmaException e = assertThrows(RdmaException.class, this::read);
        assertTrue(e.getMessage().endsWith("gids/70000 is not named by a table index 0 to 65535"), e.getMessage());
    }

    @Test
    void ignoresMalformedMadEntries() {
        minimal("4: ACTIVE");
        sys.write(root.resolve("class/infiniband_mad/umad0/ibdev"), "mlx4_0")
                .write(root.resolve("class/infiniband_mad/umad0/port"), "one")
                .mad("umadfoo", "mlx4_0", 1)
                .mad("umad12", "mlx4_0", 1);
        assertEquals(Optional.of(Path.of("/dev/infiniband/umad12")), read().getFirst().endPorts().getFirst().umadPath());
    }

    @Test
    void eachReadIsANewSnapshot() {
        minimal("1: DOWN");
        List<RdmaDevice> before = read();
        sys.write(sys.port("mlx4_0", 1).resolve("state"), "4: ACTIVE");
        List<RdmaDevice> after = read();
        assertEquals(PortState.DOWN, before.getFirst().endPorts().getFirst().state());
        assertEquals(PortState.ACTIVE, after.getFirst().endPorts().getFirst().state());
        assertEquals(read(), after, "snapshots of the same state are equal");
        assertThrows(UnsupportedOperationException.class, () -> Collections.sort(after, null));
    }

    /** One CA mlx4_0 with one port in {@code state}. */
    private void minimal(String state) {
        sys.device("mlx4_0", "1: CA", "0002:c903:0000:1490", "x")
                .port("mlx4_0", 1, "0x1", "0", "0x1", state, "5: LinkUp", "40 Gb/sec (4X QDR)", "InfiniBand");
    }
}

package org.jrdma.devices;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jrdma.iba.Guid;
import org.jrdma.iba.NodeType;
import org.jrdma.iba.PhysPortState;
import org.jrdma.iba.PortState;
import org.jrdma.testkit.Executables;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.ToolResult;
import org.jrdma.testkit.junit.Peers;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SysfsDevices} on the sysfs tree libumad2sim writes for a node of a real ibsim fabric
 * ({@code ./sys-<pid>/sys}, removed when the process exits), compared with what {@code ibstat}
 * prints for the same node.
 */
@SimulatedFabric(topology = "single-switch")
class SimulatedSysfsTest {
    /**
     * A Python process attached at the node: opening a sysfs path through libc's {@code open}
     * (which libumad2sim wraps) makes libumad2sim write its tree, which is copied out before the
     * process exits; then ibstat prints the same node.
     */
    private static final String COPY_TREE = """
            import ctypes, os, shutil, subprocess
            ctypes.CDLL(None).open(b'/sys/class/infiniband/ibsim0/node_type', 0)
            shutil.copytree('sys-%%d/sys' %% os.getpid(), '%s')
            print(subprocess.run(['ibstat', 'ibsim0'], capture_output=True, text=True, check=True).stdout)
            """;

    @Test
    void readsTheTreeOfASimulatedNodeAsIbstatSeesIt(Fabric fabric, @TempDir Path copy) {
        Peers.require(Executables.isInstalled("python3"), "python3 (Debian package python3)");
        Path sys = copy.resolve("sys");
        ToolResult ibstat = fabric.runAt("node02 HCA-1", "python3", "-c", COPY_TREE.formatted(sys)).orThrow();
        String out = ibstat.stdout();

        List<RdmaDevice> devices = new SysfsDevices(sys, Path.of("/dev")).read();
        assertEquals(1, devices.size(), devices.toString());
        RdmaDevice device = devices.getFirst();
        assertEquals("ibsim0", device.name());
        assertEquals(Optional.of(NodeType.CA), device.nodeType());
        assertEquals(Guid.parse(field(out, "Node GUID")), device.nodeGuid());
        assertEquals(Guid.parse("0x0002c90300001020"), device.nodeGuid(), "node02 of the bundled topology");
        assertEquals(Guid.parse(field(out, "System image GUID")), device.sysImageGuid());

        EndPort port = device.endPorts().getFirst();
        assertEquals(Integer.parseInt(field(out, "Number of ports")), device.endPorts().size());
        assertEquals(1, port.portNumber());
        assertEquals(PortState.ACTIVE, port.state());
        assertEquals("Active", field(out, "State"));
        assertEquals(PhysPortState.LINK_UP, port.physState());
        assertEquals(port.physState().text(), field(out, "Physical state"));
        assertEquals(Double.parseDouble(field(out, "Rate")), port.rate().orElseThrow().gbps());
        assertEquals(Integer.parseInt(field(out, "Base lid")), port.lid());
        assertEquals(Integer.parseInt(field(out, "LMC")), port.lmc());
        assertEquals(Integer.parseInt(field(out, "SM lid")), port.smLid());
        assertEquals(Long.decode(field(out, "Capability mask")).intValue(), port.capabilityMask());
        assertEquals(Guid.parse(field(out, "Port GUID")), port.portGuid());
        assertEquals(LinkLayer.INFINIBAND, port.linkLayer(), "no link_layer file: InfiniBand, as ibstat's \""
                + field(out, "Link layer") + "\"");
        assertEquals(0xFFFF, port.pkeys().getFirst());
        assertEquals(Optional.of(Path.of("/dev/infiniband/umad0")), port.umadPath());
        assertEquals(Optional.of(Path.of("/dev/infiniband/issm0")), port.issmPath());
        assertTrue(port.isActive());
    }

    /** The value of a {@code Name: value} line of ibstat's output. */
    private static String field(String ibstat, String name) {
        Matcher m = Pattern.compile("^\\s*" + Pattern.quote(name) + ": (.*)$", Pattern.MULTILINE).matcher(ibstat);
        assertTrue(m.find(), "no " + name + " in ibstat output:\n" + ibstat);
        return m.group(1).strip();
    }
}

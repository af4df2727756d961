package org.jrdma.tools;

import java.util.List;
import java.util.function.Predicate;
import org.jrdma.devices.EndPort;
import org.jrdma.devices.RdmaDevice;
import org.jrdma.iba.Guid;
import org.jrdma.iba.StaticRate;

/**
 * The text infiniband-diags' {@code ibstat} prints for RDMA devices (its {@code ca_dump} and
 * {@code port_dump}): a device header (type, name, number of ports, firmware and hardware
 * versions, node and system image GUIDs) and per end port its state, physical state, rate, LIDs,
 * capability mask, port GUID and link layer, with ibstat's own names for the states.
 *
 * @param reportsLinkLayer whether the source says a port's link layer; libibumad, and so ibstat, prints
 *                         {@code IB} for a port without a {@code link_layer} sysfs file (old
 *                         kernels, and libumad2sim's simulated nodes)
 * @param fdr10            whether a port runs at FDR10 (IBA's 10 Gb/s per lane with 64b/66b encoding),
 *                         which ibstat marks after the rate; a {@link StaticRate} cannot tell it from QDR
 */
record IbstatFormat(Predicate<EndPort> reportsLinkLayer, Predicate<EndPort> fdr10) {
    private static final List<String> NODE_TYPES = List.of("???", "CA", "Switch", "Router", "iWARP RNIC");
    private static final List<String> PORT_STATES = List.of("???", "Down", "Initializing", "Armed", "Active");
    private static final List<String> PHYS_STATES = List.of("No state change", "Sleep", "Polling", "Disabled",
            "PortConfigurationTraining", "LinkUp", "LinkErrorRecovery", "PhyTest");

    /**
     * The number of ports ibstat prints: libibumad's highest port number under {@code ports/}
     * (0 for a switch, whose only end port is port 0).
     */
    static int numPorts(RdmaDevice device) {
        return device.endPorts().isEmpty() ? 0 : device.endPorts().getLast().portNumber();
    }

    /** ibstat's word for the device's node type ({@code CA}, {@code Switch}, ...). */
    static String nodeType(RdmaDevice device) {
        return NODE_TYPES.get(device.nodeType().orElseThrow().value());
    }

    /** The device header, {@code ca_dump}; nothing for a device that is not an IBA node. */
    String header(RdmaDevice device) {
        if (device.nodeType().isEmpty()) {
            return "";
        }
        String type = nodeType(device);
        return type + " '" + device.name() + "'\n"
                + "\t" + type + " type: " + device.hcaType().orElse("") + "\n"
                + "\tNumber of ports: " + numPorts(device) + "\n"
                + "\tFirmware version: " + device.fwVersion().orElse("") + "\n"
                + "\tHardware version: " + device.hwRevision().orElse("") + "\n"
                + "\tNode GUID: " + device.nodeGuid().toHexString() + "\n"
                + "\tSystem image GUID: " + device.sysImageGuid().toHexString() + "\n";
    }

    /** The device header followed by every end port, as {@code ibstat CA} prints it. */
    String device(RdmaDevice device) {
        if (device.nodeType().isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder(header(device));
        device.endPorts().forEach(port -> out.append(port(port, "\t", "\t\t")));
        return out.toString();
    }

    /** One end port alone, as {@code ibstat CA PORT} prints it: a {@code CA: 'name'} line, then the port unindented. */
    String alone(RdmaDevice device, EndPort port) {
        return nodeType(device) + ": '" + device.name() + "'\n" + port(port, "", "");
    }

    private String port(EndPort port, String headerIndent, String indent) {
        return headerIndent + "Port " + port.portNumber() + ":\n"
                + indent + "State: " + PORT_STATES.get(port.state().value()) + "\n"
                + indent + "Physical state: " + PHYS_STATES.get(port.physState().value()) + "\n"
                + indent + "Rate: " + rate(port) + (fdr10.test(port) ? " (FDR10)" : "") + "\n"
                + indent + "Base lid: " + port.lid() + "\n"
                + indent + "LMC: " + port.lmc() + "\n"
                + indent + "SM lid: " + port.smLid() + "\n"
                + indent + "Capability mask: " + String.format("0x%08x", port.capabilityMask()) + "\n"
                + indent + "Port GUID: " + portGuid(port).toHexString() + "\n"
                + indent + "Link layer: " + (reportsLinkLayer.test(port) ? port.linkLayer().text() : "IB") + "\n";
    }

    /**
     * {@code --json}: a device with the header's values and its end ports ({@code port} alone when
     * not null; none when {@code withPorts} is false), states named as ibstat names them.
     */
    JsonDevice json(RdmaDevice device, EndPort port, boolean withPorts) {
        List<JsonPort> ports = !withPorts ? null
                : (port != null ? List.of(port) : device.endPorts()).stream().map(p -> new JsonPort(p.portNumber(),
                        PORT_STATES.get(p.state().value()), PHYS_STATES.get(p.physState().value()), rate(p) + (fdr10.test(p) ? " (FDR10)" : ""),
                        p.lid(), p.lmc(), p.smLid(), p.capabilityMask(), portGuid(p),
                        reportsLinkLayer.test(p) ? p.linkLayer().text() : "IB")).toList();
        return new JsonDevice(device.name(), device.nodeType().map(_ -> nodeType(device)).orElse(null), device.hcaType().orElse(null),
                numPorts(device), device.fwVersion().orElse(null), device.hwRevision().orElse(null), device.nodeGuid(),
                device.sysImageGuid(), ports);
    }

    /** {@code --json} of one device (ibstat's header). */
    record JsonDevice(String name, String nodeType, String caType, int numPorts, String firmwareVersion, String hardwareVersion,
            Guid nodeGuid, Guid systemImageGuid, List<JsonPort> ports) {
    }

    /** {@code --json} of one end port; {@code rate} in Gb/s as ibstat prints it. */
    record JsonPort(int portNum, String state, String physicalState, String rate, int lid, int lmc, int smLid, long capabilityMask,
            Guid portGuid, String linkLayer) {
    }

    /** The port GUID libibumad reads (the interface ID of GID 0), GUID 0 for a port without GIDs. */
    static Guid portGuid(EndPort port) {
        return port.gids().isEmpty() ? new Guid(0) : port.portGuid();
    }

    /**
     * The rate as ibstat prints it: libibumad reads the integer Gb/s of the kernel's rate text
     * ({@code 56 Gb/sec (4X FDR)}), and ibstat prints its 2 as {@code 2.5}; 0 when unknown.
     */
    private static String rate(EndPort port) {
        double gbps = port.rate().map(StaticRate::gbps).orElse(0.0);
        return gbps == 2.5 ? "2.5" : Integer.toString((int) gbps);
    }
}

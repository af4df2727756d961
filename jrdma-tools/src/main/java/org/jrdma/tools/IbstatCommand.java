package org.jrdma.tools;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jrdma.NoSuchDeviceException;
import org.jrdma.Rdma;
import org.jrdma.devices.EndPort;
import org.jrdma.devices.RdmaDevice;
import org.jrdma.devices.SysfsDevices;
import org.jrdma.mad.sim.IbsimTransport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtool ibstat}: the local RDMA devices and their end ports as infiniband-diags' ibstat
 * prints them, read from sysfs ({@link Rdma#getDevices()}), or with {@code --sim} the simulated
 * node as libumad2sim presents it to the C tools ({@code ibsim0}).
 */
@Command(name = "ibstat", mixinStandardHelpOptions = true,
        description = {"Show the local RDMA devices (CAs) and their ports: state, physical state, rate, LIDs, capability "
                + "mask, port GUID, link layer, as infiniband-diags' ibstat prints them.",
                "With CA only that device (the first whose name CA starts with), with PORT only that port."})
final class IbstatCommand extends IbtoolCommand {
    @Mixin
    SimOptions sim;

    @Option(names = {"-l", "--list_of_cas"}, description = "list the names of the RDMA devices")
    boolean listOnly;

    @Option(names = {"-s", "--short"}, description = "short output: the device headers without the ports")
    boolean shortFormat;

    @Option(names = {"-p", "--port_list"}, description = "list the port GUIDs")
    boolean listPorts;

    @Parameters(index = "0", arity = "0..1", paramLabel = "CA", description = "the device to show, for example mlx5_0")
    String ca;

    @Parameters(index = "1", arity = "0..1", paramLabel = "PORT", description = "the port of CA to show")
    String port;

    @Override
    int run() {
        Integer portNumber = portNumber();
        List<RdmaDevice> devices = devices();
        if (ca != null) {
            devices = List.of(devices.stream().filter(d -> ca.startsWith(d.name())).findFirst()
                    .orElseThrow(() -> DiagError.panic("main", "'" + ca + "' IB device can't be found", "Success",
                            new NoSuchDeviceException(ca, "no RDMA device is named " + ca))));
        }
        // A simulated node has no link_layer file under libumad2sim, so ibstat says "IB" there, and never FDR10.
        IbstatFormat format = sim.requested() ? new IbstatFormat(p -> false, p -> false)
                : new IbstatFormat(p -> attribute(p, "link_layer").isPresent(), IbstatCommand::isFdr10);
        if (json()) {
            List<IbstatFormat.JsonDevice> shown = new ArrayList<>();
            for (RdmaDevice device : devices) {
                shown.add(format.json(device, portNumber == null ? null : selectedPort(device, portNumber), !listOnly && !shortFormat));
            }
            return json(shown, ExitCodes.OK);
        }
        StringBuilder text = new StringBuilder();
        for (RdmaDevice device : devices) {
            if (listPorts) {
                device.endPorts().stream().map(IbstatFormat::portGuid).filter(g -> g.value() != 0)
                        .forEach(g -> text.append(g.toHexString()).append('\n'));
            } else if (listOnly) {
                text.append(device.name()).append('\n');
            } else if (shortFormat) {
                text.append(format.header(device));
            } else if (portNumber != null) {
                text.append(format.alone(device, selectedPort(device, portNumber)));
            } else {
                text.append(format.device(device));
            }
        }
        out().print(text);
        return ExitCodes.OK;
    }

    private List<RdmaDevice> devices() {
        if (!sim.requested()) {
            return Rdma.getDevices();
        }
        try (IbsimTransport transport = sim.attach()) {
            return List.of(transport.client().device());
        }
    }

    /** PORT, if given; like ibstat's {@code strtol}, a number in decimal, hex {@code 0x..} or octal {@code 0..}. */
    private Integer portNumber() {
        try {
            return port == null ? null : Integer.decode(port);
        } catch (NumberFormatException e) {
            throw new UsageException("bad port number \"" + port + "\"");
        }
    }

    /**
     * Whether the kernel's rate text of the port ({@code 10 Gb/sec (1X FDR10)}) names FDR10 before
     * its closing parenthesis, the test ibstat makes on sysfs itself.
     */
    private static boolean isFdr10(EndPort port) {
        return attribute(port, "rate").filter(text -> {
            int close = text.indexOf(')');
            return close >= 5 && text.regionMatches(true, close - 5, "FDR10", 0, 5);
        }).isPresent();
    }

    /** A sysfs attribute of the port, read as {@link SysfsDevices} reads them (so libumad2sim's tree too). */
    private static Optional<String> attribute(EndPort port, String name) {
        return SysfsDevices.system().portAttribute(port.deviceName(), port.portNumber(), name);
    }

    /**
     * The port {@code number} of {@code device}; a port it does not have fails as ibstat fails, with
     * the errno its sysfs read left behind (ENOENT).
     */
    private static EndPort selectedPort(RdmaDevice device, int number) {
        return device.endPort(number).orElseThrow(() -> DiagError.stderr(DiagError.ibwarn("ca_stat", IbstatFormat.nodeType(device)
                + ": '" + device.name() + "' has no port number " + number + " - max (" + IbstatFormat.numPorts(device) + ")"),
                ExitCodes.FAILED, null).stderrLine(DiagError.ibpanic("main", "stat of IB device '" + device.name() + "' failed",
                "No such file or directory")));
    }
}

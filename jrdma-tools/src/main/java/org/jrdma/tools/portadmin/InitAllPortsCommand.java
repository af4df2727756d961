package org.jrdma.tools.portadmin;

import java.util.ArrayList;
import java.util.List;
import org.jrdma.RdmaException;
import org.jrdma.iba.Guid;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.subnet.Node;
import org.jrdma.subnet.Port;
import org.jrdma.subnet.Subnet;
import org.jrdma.subnet.SubnetDiscovery;
import org.jrdma.tools.CmdError;
import org.jrdma.tools.ExitCodes;
import org.jrdma.tools.PackageFabricCommand;
import org.jrdma.tools.PythonRdmaOptions;
import picocli.CommandLine.Command;

/**
 * {@code ibtool init_all_ports}: python-rdma's command that drops every link of the subnet back to
 * Initialize, blocking all but management traffic, to recover a subnet from a deadlock: after a
 * directed-route discovery, every port (not a switch's port 0) whose PortState is neither Down
 * nor Initialize gets a SubnSet(PortInfo) (IBA 14.2.5.6) with PortState Down, which makes the
 * link retrain to Initialize (physical state, speeds and widths unchanged: zero). A port whose
 * Set fails is reported ({@code Failed to set port state on GUID port N via DR Path (...)} and
 * the reason) and the others are still set; python-rdma notes it may need running more than once.
 *
 * <p>{@code --json} writes {@link Json}: every port a Set was sent to, in the order sent.
 * python-rdma's {@link PythonRdmaOptions} are taken as it takes them, without effect: the command
 * sends no SA MAD and prints no field.
 */
@Command(name = "init_all_ports", mixinStandardHelpOptions = true,
        description = "Set the port state of every link of the subnet to INIT (python-rdma), blocking non-management traffic.")
public final class InitAllPortsCommand extends PackageFabricCommand {
    private static final int PORT_STATE_DOWN = 1;
    private static final int PORT_STATE_INIT = 2;

    /** The JSON document: the ports set, in the order the Sets were sent. */
    record Json(List<Reset> ports) {
    }

    /**
     * One port set to Down.
     *
     * @param portGuid  the port's GUID (a switch's port 0 GUID for its ports)
     * @param portNum   its number
     * @param route     the directed route to its node, 0 (the local port) first
     * @param portState its PortState before the Set (3 Armed, 4 Active)
     * @param failure   why the Set failed (the text's indented line), absent when it was answered
     */
    record Reset(Guid portGuid, int portNum, List<Integer> route, int portState, String failure) {
    }

    @Override
    protected int execute() {
        Subnet subnet;
        try {
            subnet = SubnetDiscovery.run(smp()).subnet();
        } catch (RdmaException e) {
            throw new CmdError(e);
        }
        List<Reset> resets = new ArrayList<>();
        for (Node node : subnet.nodes()) {
            for (Port port : node.ports()) {
                int state = port.info().portState();
                if (port.number() == 0 || state == PORT_STATE_DOWN || state == PORT_STATE_INIT) {
                    continue;
                }
                SmpPortInfo info = port.info().portPhysicalState(0).linkSpeedEnabled(0).linkWidthEnabled(0).portState(PORT_STATE_DOWN);
                String failure = null;
                try {
                    smp().set(info, node.route(), port.number());
                } catch (RdmaException e) {
                    failure = e.getMessage();
                    if (!jsonRequested()) {
                        out().println("Failed to set port state on " + port.guid() + " port " + port.number() + " via "
                                + DirectedRoutes.text(node.route()));
                        out().println("    " + failure);
                    }
                }
                resets.add(new Reset(port.guid(), port.number(), DirectedRoutes.hops(node.route()), state, failure));
            }
        }
        return jsonRequested() ? jsonDocument(new Json(resets), ExitCodes.OK) : ExitCodes.OK;
    }
}

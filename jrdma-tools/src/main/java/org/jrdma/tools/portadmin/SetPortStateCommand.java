package org.jrdma.tools.portadmin;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jrdma.RdmaException;
import org.jrdma.iba.Guid;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.mad.SmpTarget;
import org.jrdma.subnet.Node;
import org.jrdma.subnet.Port;
import org.jrdma.subnet.Subnet;
import org.jrdma.tools.CmdError;
import org.jrdma.tools.DiscoveryOptions;
import org.jrdma.tools.DiscoversSubnet;
import org.jrdma.tools.ExitCodes;
import org.jrdma.tools.PackageFabricCommand;
import org.jrdma.tools.PathTarget;
import org.jrdma.tools.PathTargetOptions;
import org.jrdma.tools.PythonRdmaOptions;
import org.jrdma.tools.UsageException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtool set_port_state}: python-rdma's command that disables or enables links by
 * SubnSet(PortInfo) (IBA 14.2.5.6) with PortPhysicalState Disabled (3) or Polling (2), choosing
 * for each port a directed route that does not cross any link the command changes, so that
 * cutting a subnet in two from one side never cuts the routes to the ports still to be set. The
 * subnet is discovered first ({@link DiscoveryOptions}); every PortInfo is read before any is set.
 * Without {@code --disable} or {@code --enable} nothing is set: each port is reported as
 * {@code Would have changed GUID@PORT on DR Path (...)}. {@code --init} also asks for PortState
 * Initialize, which python-rdma only sends along with a physical state.
 *
 * <p>A target is an end port ({@link PathTarget}); {@code @PORT} names the port of its node to change,
 * needed for a switch and defaulting to the end port's own number on a channel adapter.
 * Failures are python-rdma's: {@code E: ...} on standard output, status 100 ({@link CmdError}).
 * python-rdma's {@link PythonRdmaOptions}: {@code --sa-path} implies {@code --discovery SA} (its
 * {@code --sa}) and is the SA's path with {@code --smkey}; {@code --int-names} changes nothing
 * (no field is printed).
 *
 * <p>{@code --json} writes {@link Json}: the physical state and port state asked for, and each port
 * as the text names it, with the PortInfo read before the change and whether a SubnSet was sent.
 */
@Command(name = "set_port_state", mixinStandardHelpOptions = true,
        description = "Set the port state value for multiple end ports (python-rdma): --disable turns the ports off, --enable "
                + "turns them back on, over directed routes that avoid the links being changed.")
public final class SetPortStateCommand extends PackageFabricCommand implements DiscoversSubnet {
    private static final int PHYS_POLLING = 2;
    private static final int PHYS_DISABLED = 3;
    private static final int PORT_STATE_INIT = 2;

    @Option(names = "--disable", description = "set the physical port state to Disabled")
    boolean disable;

    @Option(names = "--enable", description = "set the physical port state to Polling")
    boolean enable;

    @Option(names = "--init", description = "set the port state to Initialize")
    boolean init;

    @Mixin
    PathTargetOptions targetKind;

    @Parameters(paramLabel = "TARGET@PORT_NUM", arity = "1..*", description = "an end port (LID, GUID, GID, directed route or "
            + "IBPath(...) specification) and the number of its node's port to change")
    List<String> targets;

    /**
     * The JSON document: {@code portPhysicalState} and {@code portState} the values set (0: no
     * change; absent when nothing is set), one {@link Change} per target in the command line's order.
     */
    record Json(Integer portPhysicalState, Integer portState, List<Change> ports) {
    }

    /**
     * One port of the document.
     *
     * @param portGuid  the port's GUID (a switch's port 0 GUID for its ports)
     * @param portNum   its number
     * @param route     the directed route the SMPs took to its node, 0 (the local port) first
     * @param portInfo  its PortInfo as read before any Set
     * @param set       whether a SubnSet(PortInfo) was sent ({@code --disable} or {@code --enable})
     */
    record Change(Guid portGuid, int portNum, List<Integer> route, SmpPortInfo portInfo, boolean set) {
    }

    @Override
    protected int execute() {
        if (disable && enable) {
            throw new UsageException(null, "--disable and --enable exclude each other");
        }
        List<PathTarget> parsed = new ArrayList<>();
        List<Integer> portNumbers = new ArrayList<>();
        PathTarget.Kind kind = targetKind.kind();
        for (int i = 0; i < targets.size(); i++) {
            String text = targets.get(i);
            int at = text.indexOf('@');
            portNumbers.add(at < 0 ? null : portNumber(text.substring(at + 1)));
            parsed.add(PathTarget.parse(at < 0 ? text : text.substring(0, at), kind, i + 1));
        }
        try {
            return change(parsed, portNumbers);
        } catch (RdmaException e) {
            throw new CmdError(e);
        }
    }

    private int change(List<PathTarget> parsed, List<Integer> portNumbers) {
        Subnet subnet = discover().subnet();
        List<Port> ports = new ArrayList<>();
        Set<Port> changed = new HashSet<>();
        for (int i = 0; i < parsed.size(); i++) {
            PathTarget target = parsed.get(i);
            Port endPort = target.find(subnet).orElseThrow(() -> new CmdError("Could not find path " + target.text() + " in the subnet"));
            Node node = endPort.node();
            Integer number = portNumbers.get(i);
            if (number == null) {
                if (node.isSwitch()) {
                    throw new CmdError("Need to have a port index for switch " + endPort.guid());
                }
                number = endPort.number();
            }
            Port port = node.port(number);
            if (port == null) {
                throw new CmdError("Could not find port " + number + " of " + endPort.guid() + " in the subnet");
            }
            ports.add(port);
            changed.add(port);
        }
        DirectedRoutes routes = new DirectedRoutes(subnet, subnet.from().info().localPortNum(), changed);
        List<SmpTarget.DirectedRoute> paths = new ArrayList<>();
        for (Port port : ports) {
            paths.add(route(routes, port));
        }
        List<SmpPortInfo> infos = new ArrayList<>();
        for (int i = 0; i < ports.size(); i++) {
            infos.add(smp().get(new SmpPortInfo(), paths.get(i), ports.get(i).number()));
        }
        boolean set = disable || enable;
        int physicalState = disable ? PHYS_DISABLED : enable ? PHYS_POLLING : 0;
        int portState = init ? PORT_STATE_INIT : 0;
        List<Change> changes = new ArrayList<>();
        for (int i = 0; i < ports.size(); i++) {
            Port port = ports.get(i);
            SmpPortInfo info = infos.get(i);
            changes.add(new Change(port.guid(), port.number(), DirectedRoutes.hops(paths.get(i)), SmpPortInfo.decode(info.toBytes(), 0), set));
            info.portState(portState).portPhysicalState(physicalState).linkSpeedEnabled(0).linkWidthEnabled(0);
            if (set) {
                smp().set(info, paths.get(i), port.number());
            } else if (!jsonRequested()) {
                out().println("Would have changed " + port.guid() + "@" + port.number() + " on " + DirectedRoutes.text(paths.get(i)));
            }
        }
        if (jsonRequested()) {
            return jsonDocument(new Json(set ? physicalState : null, set ? portState : null, changes), ExitCodes.OK);
        }
        return ExitCodes.OK;
    }

    /** The route to the port's node over the remaining links, or python-rdma's advice when there is none. */
    private static SmpTarget.DirectedRoute route(DirectedRoutes routes, Port port) {
        SmpTarget.DirectedRoute route = routes.to(port.node());
        if (route != null) {
            return route;
        }
        Port peer = port.remote();
        String where = port.guid() + " port " + port.number();
        if (peer == null || routes.to(peer.node()) == null) {
            throw new CmdError("No DR path exists to " + where);
        }
        throw new CmdError("No DR path exists to " + where + " - try using the peer " + peer.guid() + " port " + peer.number());
    }

    private static int portNumber(String text) {
        try {
            int number = Integer.parseInt(text);
            if (number < 0 || number > 254) {
                throw new UsageException(null, "port number " + number + " outside 0..254");
            }
            return number;
        } catch (NumberFormatException e) {
            throw new UsageException(null, "bad port number \"" + text + "\" after @");
        }
    }
}

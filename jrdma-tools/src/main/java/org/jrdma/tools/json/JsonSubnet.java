package org.jrdma.tools.json;

import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import org.jrdma.iba.Guid;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.subnet.Node;
import org.jrdma.subnet.Port;
import org.jrdma.subnet.Subnet;

/**
 * The JSON shape of a discovered subnet, shared by the commands that print one or part of one
 * (ibnetdiscover, ibhosts, ibswitches, ibrouters, ibnodes, iblinkinfo): its nodes in discovery
 * order, each with its ports and where each port is cabled. Values are IBA's: node types 1 CA,
 * 2 switch, 3 router; PortInfo's encodings for states, widths and speeds (PortState 4 Active,
 * LinkWidthActive 2 4x, LinkSpeedActive 4 10.0 Gb/s per lane...).
 *
 * @param nodes    the nodes
 * @param problems the parts of the fabric that did not answer (the warnings on standard error)
 */
public record JsonSubnet(List<JsonNode> nodes, List<String> problems) {
    /**
     * A node.
     *
     * @param nodeType        1 CA, 2 switch, 3 router
     * @param nodeGuid        NodeInfo NodeGUID
     * @param systemImageGuid NodeInfo SystemImageGUID
     * @param nodeDescription the NodeDescription, or the node name map's name for the node
     * @param numPorts        NodeInfo NumPorts
     * @param lid             a switch's port 0 LID, else its first port's
     * @param ports           the ports discovery read (port 0 of a switch first)
     */
    public record JsonNode(int nodeType, Guid nodeGuid, Guid systemImageGuid, String nodeDescription, int numPorts, int lid,
            List<JsonPort> ports) {
    }

    /**
     * A port and its link.
     *
     * @param portNum  the port number
     * @param portGuid the port GUID (a switch's external ports share port 0's)
     * @param lid      the port's LID (a switch's external ports have none of their own: port 0's)
     * @param lmc      PortInfo LMC
     * @param portState PortInfo PortState (1 Down, 2 Init, 3 Armed, 4 Active)
     * @param portPhysicalState PortInfo PortPhysicalState (2 Polling, 3 Disabled, 5 LinkUp...)
     * @param linkWidthActive PortInfo LinkWidthActive (1 1x, 2 4x, 4 8x, 8 12x, 16 2x)
     * @param linkSpeedActive PortInfo LinkSpeedActive (1 SDR, 2 DDR, 4 QDR)
     * @param remote   the port at the other end of the cable, absent for a port with no link
     */
    public record JsonPort(int portNum, Guid portGuid, int lid, int lmc, int portState, int portPhysicalState, int linkWidthActive,
            int linkSpeedActive, JsonRemote remote) {
    }

    /** The port at the other end of a link: its node GUID, port number, node type and description (or mapped name). */
    public record JsonRemote(Guid nodeGuid, int portNum, int nodeType, String nodeDescription, int lid) {
    }

    /** The subnet's nodes that {@code select} keeps, names as {@code name} gives them, with {@code problems}. */
    public static JsonSubnet of(Subnet subnet, Predicate<Node> select, Function<Node, String> name, List<String> problems) {
        return new JsonSubnet(subnet.nodes().stream().filter(select).map(n -> node(n, name)).toList(), problems);
    }

    /** One node as its JSON shape. */
    public static JsonNode node(Node node, Function<Node, String> name) {
        return node(node, name, _ -> true);
    }

    /** One node as its JSON shape, with the ports {@code ports} keeps. */
    public static JsonNode node(Node node, Function<Node, String> name, Predicate<Port> ports) {
        return new JsonNode(node.nodeTypeValue(), node.guid(), node.info().systemImageGuid(), name.apply(node), node.numPorts(), node.lid(),
                node.ports().stream().filter(ports).map(p -> port(p, name)).toList());
    }

    /** One port as its JSON shape. */
    public static JsonPort port(Port port, Function<Node, String> name) {
        SmpPortInfo info = port.info();
        Port remote = port.remote();
        return new JsonPort(port.number(), port.guid(), port.lid(), info.lmc(), info.portState(), info.portPhysicalState(),
                info.linkWidthActive(), info.linkSpeedActive(), remote == null ? null
                        : new JsonRemote(remote.node().guid(), remote.number(), remote.node().nodeTypeValue(), name.apply(remote.node()),
                                remote.lid()));
    }
}

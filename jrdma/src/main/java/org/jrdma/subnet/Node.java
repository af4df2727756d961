package org.jrdma.subnet;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jrdma.iba.Guid;
import org.jrdma.iba.NodeType;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.smp.SmpSwitchInfo;
import org.jrdma.mad.SmpTarget;

/**
 * A discovered node (IBA 14.2.5.3): a switch, channel adapter or router, with its NodeInfo,
 * NodeDescription, the SMP target that reached it (a directed route, or a LID when discovery was
 * LID-routed or from the SA), its ports, and for switches SwitchInfo and the forwarding tables,
 * which are read on demand ({@link #linearForwardingTable()}, {@link #multicastForwardingTable()})
 * from the subnet's {@link Subnet#attributeSource() attribute source} and kept.
 */
public final class Node {
    private final SmpNodeInfo info;
    private final int nodeType;
    private final Guid guid;
    private final String description;
    private final SmpTarget target;
    private final SmpSwitchInfo switchInfo;
    private final Port[] ports;
    private Subnet subnet;
    private LinearForwardingTable linearForwardingTable;
    private MulticastForwardingTable multicastForwardingTable;

    Node(SmpNodeInfo info, String description, SmpTarget target, SmpSwitchInfo switchInfo) {
        this.info = info;
        this.nodeType = info.nodeType();
        this.guid = info.nodeGuid();
        this.description = description;
        this.target = target;
        this.switchInfo = switchInfo;
        this.ports = new Port[info.numPorts() + 1];
    }

    /** The node GUID. */
    public Guid guid() {
        return guid;
    }

    /** The node type, or null for a value the IBA does not define. */
    public NodeType type() {
        return NodeType.fromValueOrNull(nodeType);
    }

    /** Whether this is a switch. */
    public boolean isSwitch() {
        return nodeType == 2;
    }

    /** The NodeType value of NodeInfo (1 CA, 2 switch, 3 router). */
    public int nodeTypeValue() {
        return nodeType;
    }

    /** NodeInfo as read during discovery (a copy). */
    public SmpNodeInfo info() {
        return SmpNodeInfo.decode(info.toBytes(), 0);
    }

    /** The NodeDescription text. */
    public String description() {
        return description;
    }

    /** The directed route from the discovering port to this node, or null when discovery did not use directed routes. */
    public SmpTarget.DirectedRoute route() {
        return target instanceof SmpTarget.DirectedRoute route ? route : null;
    }

    /** How discovery reached this node: its directed route, or the LID it was read at; null for a node read from a {@link SubnetCache}. */
    public SmpTarget target() {
        return target;
    }

    /** SwitchInfo, or null if this is not a switch. */
    public SmpSwitchInfo switchInfo() {
        return switchInfo == null ? null : SmpSwitchInfo.decode(switchInfo.toBytes(), 0);
    }

    /** The number of physical ports. */
    public int numPorts() {
        return info.numPorts();
    }

    /** Port {@code number}, or null if discovery did not read it. */
    public Port port(int number) {
        return number >= 0 && number < ports.length ? ports[number] : null;
    }

    /** The ports discovery read, in port order. */
    public List<Port> ports() {
        List<Port> list = new ArrayList<>();
        for (Port p : ports) {
            if (p != null) {
                list.add(p);
            }
        }
        return Collections.unmodifiableList(list);
    }

    /** A switch's port 0, where its LID lives; null for other nodes. */
    public Port managementPort() {
        return isSwitch() ? ports[0] : null;
    }

    /** libibnetdisc's {@code smalid}: the LID of a switch's port 0; 0 if port 0 was not read, and for other nodes. */
    int managementLid() {
        Port port0 = managementPort();
        return port0 == null ? 0 : port0.rawInfo().lid();
    }

    /** libibnetdisc's {@code smalmc}: the LMC of a switch's port 0; 0 if port 0 was not read, and for other nodes. */
    int managementLmc() {
        Port port0 = managementPort();
        return port0 == null ? 0 : port0.rawInfo().lmc();
    }

    /** The node's LID: port 0's for a switch, the first discovered port's otherwise (0 if none). */
    public int lid() {
        if (isSwitch()) {
            return managementLid();
        }
        for (Port p : ports) {
            if (p != null) {
                return p.rawInfo().lid();
            }
        }
        return 0;
    }

    /**
     * The switch's linear forwarding table, read on first use (SwitchInfo for LinearFDBTop, then
     * every 64-LID block up to it, in parallel) from the subnet's attribute source, and kept; call
     * {@link #forgetForwardingTables()} to read it again.
     *
     * @throws IllegalStateException if this node is not a switch
     * @throws org.jrdma.RdmaException naming the block when a read fails (nothing is kept then)
     */
    public synchronized LinearForwardingTable linearForwardingTable() {
        if (linearForwardingTable == null) {
            linearForwardingTable = ForwardingTables.linear(tableSource(), this);
        }
        return linearForwardingTable;
    }

    /**
     * The switch's multicast forwarding table, read on first use (SwitchInfo for MulticastFDBTop,
     * then every block of 32 MLIDs up to it at every port-mask position, in parallel) from the
     * subnet's attribute source, and kept.
     *
     * @throws IllegalStateException if this node is not a switch
     * @throws org.jrdma.RdmaException naming the block and position when a read fails (nothing is kept then)
     */
    public synchronized MulticastForwardingTable multicastForwardingTable() {
        if (multicastForwardingTable == null) {
            multicastForwardingTable = ForwardingTables.multicast(tableSource(), this);
        }
        return multicastForwardingTable;
    }

    /** Drops the forwarding tables kept, so that the next call reads them again (after the SM reprogrammed the switch). */
    public synchronized void forgetForwardingTables() {
        linearForwardingTable = null;
        multicastForwardingTable = null;
    }

    private AttributeSource tableSource() {
        if (!isSwitch()) {
            throw new IllegalStateException(this + " is not a switch: only switches have forwarding tables");
        }
        return subnet.attributeSource();
    }

    void joined(Subnet subnet) {
        this.subnet = subnet;
    }

    void addPort(Port port) {
        ports[port.number()] = port;
    }

    @Override
    public String toString() {
        return (isSwitch() ? "switch " : "node ") + guid() + " \"" + description + "\"";
    }
}

package org.jrdma.subnet;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jrdma.RdmaException;
import org.jrdma.iba.Guid;
import org.jrdma.iba.NodeType;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.mad.MadSchedule;
import org.jrdma.mad.SmpClient;
import org.jrdma.mad.SmpTarget;

/**
 * python-rdma's LID discovery ({@code --discovery LID}, its {@code _SubnetTopo} with
 * {@code lid_routed}): a breadth-first walk that reaches each new node one directed-route hop
 * (IBA 14.2.2) beyond a known one, reads there its NodeInfo and the PortInfo that carries its LID
 * (a switch's port 0, a channel adapter's port the link arrives at), and from then on reads the
 * node by LID-routed SMPs: its description, SwitchInfo and the PortInfo of its ports. A node whose
 * PortInfo holds no unicast LID (no SM has assigned one) stays directed-route, as in python-rdma.
 * Where python-rdma sends the hop as a LID-routed part to the known node followed by one
 * directed-route hop, this walk sends the whole hop as a directed route from the local port (jrdma's
 * {@link SmpTarget} has no mixed form), which reaches the same port; every attribute after the hop
 * goes by LID. The directed routes are kept by node GUID (the shortest, then the least, for a node
 * several probes reach), since the nodes' targets are their LIDs.
 */
final class LidDiscoveryExplorer implements Exploration.Explorer {
    private static final Comparator<SmpTarget.DirectedRoute> SHORTEST_FIRST = Comparator
            .<SmpTarget.DirectedRoute>comparingInt(SmpTarget.DirectedRoute::hops)
            .thenComparing(SmpTarget.DirectedRoute::ports, Arrays::compare);

    /** IBA 4.1.1: LIDs from 0xC000 up are multicast. */
    private static final int FIRST_MULTICAST_LID = 0xC000;

    private final SmpClient smp;
    private final Map<Guid, SmpTarget.DirectedRoute> routes = new ConcurrentHashMap<>();

    LidDiscoveryExplorer(SmpClient smp) {
        this.smp = smp;
    }

    @Override
    public Node start(MadSchedule sched) {
        SmpTarget.DirectedRoute here = SmpTarget.local();
        SmpNodeInfo info = smp.get(new SmpNodeInfo(), here, 0);
        SmpTarget target = target(info, here, info.localPortNum());
        return Exploration.read(sched, attributes(), target, info, null, List.of(info.localPortNum()));
    }

    @Override
    public Exploration.Probe probe(Port from) {
        SmpTarget.DirectedRoute here = routes.get(from.node().guid());
        DirectedRouteExplorer.Step step = DirectedRouteExplorer.step(from, here);
        try {
            SmpNodeInfo info = smp.get(new SmpNodeInfo(), step.route(), 0);
            int arrival = step.arrivalPort() < 0 ? info.localPortNum() : step.arrivalPort();
            return new Exploration.Probe(from, target(info, step.route(), arrival), info, null, arrival);
        } catch (RdmaException e) {
            throw new RdmaException("no answer by DR path " + step.route() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Where the node of {@code info}, reached at {@code route}, is read from now on: its LID, from
     * the PortInfo at {@code route} of port 0 (a switch) or of {@code arrival}; the route when that
     * LID is not a unicast one.
     */
    private SmpTarget target(SmpNodeInfo info, SmpTarget.DirectedRoute route, int arrival) {
        routes.merge(info.nodeGuid(), route, (known, other) -> SHORTEST_FIRST.compare(known, other) <= 0 ? known : other);
        int lid = smp.get(new SmpPortInfo(), route, NodeType.fromValueOrNull(info.nodeType()) == NodeType.SWITCH ? 0 : arrival).lid();
        return lid > 0 && lid < FIRST_MULTICAST_LID ? new SmpTarget.Lid(lid) : route;
    }

    @Override
    public Exploration.NodeAttributes attributes() {
        return new SmpAttributes(smp);
    }
}

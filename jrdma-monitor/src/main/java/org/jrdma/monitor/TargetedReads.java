package org.jrdma.monitor;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jrdma.iba.smp.SmpNodeDescription;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.mad.SmpClient;
import org.jrdma.mad.SmpTarget.DirectedRoute;
import org.jrdma.monitor.FabricView.LinkView;
import org.jrdma.monitor.FabricView.NodeView;
import org.jrdma.monitor.FabricView.PortView;
import org.jrdma.subnet.Node;
import org.jrdma.subnet.Port;
import org.jrdma.subnet.Subnet;

/**
 * Targeted reads of the subnet, cheaper than a full discovery: what a trap names, re-read by directed route instead of a full discovery: the switch of a trap 128
 * (link state change, IBA 14.2.5.1), the switch of a trap 144 (a port's capability mask, node
 * description or link speed changed; by its LID: the switch itself, or the one a channel adapter
 * with that LID is cabled to), or the switch a channel adapter is cabled to for a trap 64 or 65
 * (GID in or out of service). The switch's NodeInfo and the PortInfo of each
 * of its ports are read by directed route (the last discovery's, then routes over the links of the
 * view); a port gone Down loses its link (nodes no longer reachable from the monitor's own leave the
 * view; the far end's PortInfo is re-read by a route avoiding the link), a port come up gains one to the node NodeInfo finds beyond it: a known node, or a new
 * channel adapter (its NodeDescription and PortInfo read too). Anything else — a name the view does
 * not know (but a trap 65 of a port already gone from the view changes nothing), a new switch (there may be a subtree behind it), a route that no longer leads to the
 * node — gives no view, and the monitor discovers the whole subnet instead. {@link #refresh} re-reads
 * every switch so, between full discoveries.
 */
final class TargetedReads {
    /** PortInfo PortState Down (IBA 14.2.5.6): a port with any other state has a link. */
    private static final int DOWN = 1;
    private final SmpClient smp;
    private final Map<String, DirectedRoute> routes = new HashMap<>();
    private final Map<String, String> portOwners = new HashMap<>();
    private String self;

    TargetedReads(SmpClient smp) {
        this.smp = smp;
    }

    /** Takes the routes and port GUIDs of a full discovery, forgetting those of the one before. */
    void discovered(Subnet subnet) {
        routes.clear();
        portOwners.clear();
        self = subnet.from().guid().toHexString();
        for (Node node : subnet.nodes()) {
            String guid = node.guid().toHexString();
            routes.put(guid, node.route());
            for (Port port : node.ports()) {
                portOwners.put(port.guid().toHexString(), guid);
            }
        }
    }

    /**
     * {@code view} with what {@code trap} names re-read, or empty if only a full discovery can tell.
     *
     * @throws org.jrdma.RdmaException if a read fails (the route no longer reaches the node)
     */
    Optional<FabricView> reread(FabricView view, TrapListener.Trap trap) {
        String owner = trap.portGuid() == null ? null : portOwners.get(trap.portGuid());
        if (trap.number() == 65 && (owner == null || !view.nodes().containsKey(owner))) {
            return Optional.of(view);   // out of service, and already out of the view (a trap 128 before it was re-read)
        }
        String guid = switch (trap.number()) {
            case 128 -> switchByLid(view, trap.lid());
            case 144 -> switchOf(view, nodeByLid(view, trap.lid()));
            case 64, 65 -> switchOf(view, owner);
            default -> null;
        };
        if (guid == null || !routes.containsKey(guid)) {
            return Optional.empty();
        }
        return rereadSwitch(view, guid);
    }

    private static String switchByLid(FabricView view, int lid) {
        return view.nodes().values().stream().filter(n -> n.isSwitch() && n.lid() == lid).map(NodeView::guid).findFirst().orElse(null);
    }

    /** The node whose port (a channel adapter's) or port 0 (a switch's) has {@code lid}, or null. */
    private static String nodeByLid(FabricView view, int lid) {
        return view.nodes().values().stream().filter(n -> n.lid() == lid).map(NodeView::guid).findFirst().orElse(null);
    }

    /** The node itself if a switch, else the switch at the other end of its (first) link in {@code view}. */
    private static String switchOf(FabricView view, String node) {
        NodeView n = node == null ? null : view.nodes().get(node);
        if (n == null || n.isSwitch()) {
            return n == null ? null : n.guid();
        }
        for (LinkView link : view.links()) {
            String other = link.a().equals(node) ? link.b() : link.b().equals(node) ? link.a() : null;
            if (other != null && view.nodes().get(other).isSwitch()) {
                return other;
            }
        }
        return null;
    }

    private Optional<FabricView> rereadSwitch(FabricView view, String guid) {
        DirectedRoute route = routes.get(guid);
        SmpNodeInfo info = smp.get(new SmpNodeInfo(), route, 0);
        if (!info.nodeGuid().toHexString().equals(guid)) {
            return Optional.empty();
        }
        NodeView node = view.nodes().get(guid);
        Map<String, NodeView> nodes = new LinkedHashMap<>(view.nodes());
        List<LinkView> links = new ArrayList<>(view.links());
        List<PortView> ports = new ArrayList<>();
        List<LinkView> lost = new ArrayList<>();
        for (int p = 1; p <= info.numPorts(); p++) {
            SmpPortInfo portInfo = smp.get(new SmpPortInfo(), route, p);
            ports.add(FabricView.portView(p, node.lid(), portInfo));
            LinkView existing = linkAt(links, guid, p);
            boolean up = portInfo.portState() != DOWN;
            if (existing != null && !up) {
                links.remove(existing);
                lost.add(existing);
            } else if (existing == null && up) {
                LinkView found = beyond(nodes, guid, p, route.then(p));
                if (found == null) {
                    return Optional.empty();
                }
                links.add(found);
            }
        }
        nodes.put(guid, new NodeView(guid, node.type(), node.description(), node.lid(), List.copyOf(ports)));
        Set<String> reachable = reachable(links);
        nodes.keySet().retainAll(reachable);
        links.removeIf(l -> !reachable.contains(l.a()) || !reachable.contains(l.b()));
        routeOver(nodes, links);
        for (LinkView link : lost) {
            String far = link.a().equals(guid) ? link.b() : link.a();
            int farPort = link.a().equals(guid) ? link.bPort() : link.aPort();
            if (nodes.containsKey(far)) {
                NodeView farNode = nodes.get(far);
                SmpPortInfo farInfo = smp.get(new SmpPortInfo(), routes.get(far), farPort);
                nodes.put(far, withPort(farNode, FabricView.portView(farPort, farNode.isSwitch() ? farNode.lid() : farInfo.lid(), farInfo)));
            }
        }
        return Optional.of(new FabricView(Collections.unmodifiableMap(nodes), List.copyOf(links)));
    }

    /**
     * {@code view} with every switch in it re-read as for a trap, or empty if one of them finds what
     * a re-read cannot tell: the monitor's cheap refresh between full discoveries.
     *
     * @throws org.jrdma.RdmaException if a read fails
     */
    Optional<FabricView> refresh(FabricView view) {
        FabricView now = view;
        for (NodeView node : view.nodes().values()) {
            if (!node.isSwitch() || !now.nodes().containsKey(node.guid())) {
                continue;
            }
            if (!routes.containsKey(node.guid())) {
                return Optional.empty();
            }
            Optional<FabricView> next = rereadSwitch(now, node.guid());
            if (next.isEmpty()) {
                return next;
            }
            now = next.get();
        }
        return Optional.of(now);
    }

    /**
     * The link from port {@code port} of switch {@code guid} to the node at {@code there}, that node
     * added to {@code nodes} (or its arrival port updated); null if it is a node this cannot add.
     */
    private LinkView beyond(Map<String, NodeView> nodes, String guid, int port, DirectedRoute there) {
        SmpNodeInfo remote = smp.get(new SmpNodeInfo(), there, 0);
        String remoteGuid = remote.nodeGuid().toHexString();
        int arrival = remote.localPortNum();
        NodeView known = nodes.get(remoteGuid);
        if (known != null) {
            SmpPortInfo arrivalInfo = smp.get(new SmpPortInfo(), there, arrival);
            nodes.put(remoteGuid, withPort(known, FabricView.portView(arrival, known.isSwitch() ? known.lid() : arrivalInfo.lid(), arrivalInfo)));
        } else if (remote.nodeType() == 1) {
            String description = smp.get(new SmpNodeDescription(), there, 0).nodeString();
            List<PortView> ports = new ArrayList<>();
            int lid = 0;
            for (int p = 1; p <= remote.numPorts(); p++) {
                SmpPortInfo portInfo = smp.get(new SmpPortInfo(), there, p);
                ports.add(FabricView.portView(p, portInfo.lid(), portInfo));
                lid = p == arrival ? portInfo.lid() : lid;
            }
            nodes.put(remoteGuid, new NodeView(remoteGuid, "hca", description, lid, List.copyOf(ports)));
            routes.put(remoteGuid, there);
            portOwners.put(remote.portGuid().toHexString(), remoteGuid);
        } else {
            return null;
        }
        return new LinkView(guid, port, remoteGuid, arrival);
    }

    private static LinkView linkAt(List<LinkView> links, String guid, int port) {
        for (LinkView link : links) {
            if ((link.a().equals(guid) && link.aPort() == port) || (link.b().equals(guid) && link.bPort() == port)) {
                return link;
            }
        }
        return null;
    }

    private static NodeView withPort(NodeView node, PortView port) {
        List<PortView> ports = new ArrayList<>(node.ports());
        ports.replaceAll(p -> p.port() == port.port() ? port : p);
        return new NodeView(node.guid(), node.type(), node.description(), node.lid(), List.copyOf(ports));
    }

    /**
     * Replaces the routes by directed routes over {@code links} from the monitor's own node (through
     * switches only), so that no route crosses a link that went away.
     */
    private void routeOver(Map<String, NodeView> nodes, List<LinkView> links) {
        Map<String, DirectedRoute> fresh = new HashMap<>(Map.of(self, new DirectedRoute(new int[0])));
        Deque<String> queue = new ArrayDeque<>(List.of(self));
        while (!queue.isEmpty()) {
            String here = queue.poll();
            if (!here.equals(self) && !nodes.get(here).isSwitch()) {
                continue;
            }
            for (LinkView link : links) {
                boolean fromA = link.a().equals(here);
                if (!fromA && !link.b().equals(here)) {
                    continue;
                }
                String next = fromA ? link.b() : link.a();
                if (!fresh.containsKey(next)) {
                    fresh.put(next, fresh.get(here).then(fromA ? link.aPort() : link.bPort()));
                    queue.add(next);
                }
            }
        }
        routes.clear();
        routes.putAll(fresh);
    }

    /** The nodes reachable over {@code links} from the monitor's own node. */
    private Set<String> reachable(List<LinkView> links) {
        Map<String, List<String>> adjacent = new HashMap<>();
        for (LinkView link : links) {
            adjacent.computeIfAbsent(link.a(), k -> new ArrayList<>()).add(link.b());
            adjacent.computeIfAbsent(link.b(), k -> new ArrayList<>()).add(link.a());
        }
        Set<String> seen = new HashSet<>(List.of(self));
        Deque<String> queue = new ArrayDeque<>(seen);
        while (!queue.isEmpty()) {
            for (String next : adjacent.getOrDefault(queue.poll(), List.of())) {
                if (seen.add(next)) {
                    queue.add(next);
                }
            }
        }
        return seen;
    }
}

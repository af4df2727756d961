package org.jrdma.tools.portadmin;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import org.jrdma.mad.SmpTarget;
import org.jrdma.subnet.Node;
import org.jrdma.subnet.Port;
import org.jrdma.subnet.Subnet;

/**
 * The shortest directed routes (IBA 14.2.2, a hop list of exit ports) from the local node to every
 * node of a discovered subnet over the links that remain when some ports are taken out, as
 * python-rdma's {@code Subnet.get_dr_cache} computes them after {@code set_port_state} removed the
 * links it is about to change: a route never crosses a link that the command disables, so each
 * SubnSet reaches its port from this side.
 */
public final class DirectedRoutes {
    private final Map<Node, SmpTarget.DirectedRoute> routes = new HashMap<>();

    /**
     * Walks {@code subnet} breadth first from {@link Subnet#from()}, leaving a channel adapter
     * only through {@code localPort} (the port SMPs are sent from), and never through a link with
     * an end in {@code excluded}.
     */
    public DirectedRoutes(Subnet subnet, int localPort, Set<Port> excluded) {
        Node from = subnet.from();
        routes.put(from, new SmpTarget.DirectedRoute(new int[0]));
        Queue<Node> queue = new ArrayDeque<>();
        queue.add(from);
        while (!queue.isEmpty()) {
            Node node = queue.remove();
            SmpTarget.DirectedRoute route = routes.get(node);
            for (Port port : node.ports()) {
                Port remote = port.remote();
                if (port.number() == 0 || remote == null || excluded.contains(port) || excluded.contains(remote)
                        || node == from && !node.isSwitch() && port.number() != localPort
                        || routes.containsKey(remote.node())) {
                    continue;
                }
                routes.put(remote.node(), route.then(port.number()));
                queue.add(remote.node());
            }
        }
    }

    /** The route to {@code node}, or null when the remaining links do not reach it. */
    public SmpTarget.DirectedRoute to(Node node) {
        return routes.get(node);
    }

    /** A directed route's hops as the JSON documents give them: 0 (the local port) first, then the exit ports. */
    static List<Integer> hops(SmpTarget.DirectedRoute route) {
        List<Integer> hops = new ArrayList<>();
        hops.add(0);
        for (int port : route.ports()) {
            hops.add(port);
        }
        return hops;
    }

    /** python-rdma's text of a directed route: {@code DR Path (0, 1, 7)}, a one-element tuple {@code (0,)}. */
    static String text(SmpTarget.DirectedRoute route) {
        StringBuilder out = new StringBuilder("DR Path (0");
        for (int port : route.ports()) {
            out.append(", ").append(port);
        }
        return out.append(route.ports().length == 0 ? ",)" : ")").toString();
    }
}

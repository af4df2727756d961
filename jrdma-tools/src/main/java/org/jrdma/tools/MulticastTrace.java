package org.jrdma.tools;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jrdma.RdmaException;
import org.jrdma.iba.NodeType;
import org.jrdma.iba.PhysPortState;
import org.jrdma.iba.smp.SmpMulticastForwardingTable;
import org.jrdma.iba.smp.SmpNodeDescription;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.iba.smp.SmpSwitchInfo;
import org.jrdma.mad.SmpClient;
import org.jrdma.mad.SmpTarget;

/**
 * {@code ibtracert -m MLID}: the multicast route from a source port to a destination port, found
 * as infiniband-diags' ibtracert ({@code find_mcpath}) finds it: a breadth-first search from the
 * source by directed route that leaves each switch only through the ports its multicast
 * forwarding table (IBA 14.2.5.12) gives for the MLID, until it reaches the destination port; then
 * the route from the source to it is printed hop by hop.
 */
final class MulticastTrace {
    /** ibtracert's MAXHOPS. */
    private static final int MAX_HOPS = 63;
    /** The lowest multicast LID (IBA 4.1.3). */
    static final int FIRST_MLID = 0xC000;
    /** Ports in one MulticastForwardingTable block (a PortMask of 16 bits). */
    private static final int PORTS_PER_MASK = 16;
    /** MLIDs in one MulticastForwardingTable block. */
    private static final int MLIDS_PER_BLOCK = 32;
    /** libibmad's directed routes hold at most 63 hops. */
    private static final int MAX_ROUTE = 62;

    /**
     * A node the search reached: its NodeInfo, name and PortInfo (modifier 0), the directed route
     * to it, the node it was reached from and through which of that node's ports, the port it was
     * entered by, and its distance from the source (-1 for the destination).
     */
    private record Reached(SmpNodeInfo info, String name, SmpPortInfo port, int[] route, Reached up, int exitPort, int upPort,
            int dist) {
        boolean isSwitch() {
            return info.nodeType() == NodeType.SWITCH.value();
        }

        /** This node entered by {@code arrivalPort} (ibtracert's fix-up of the leaf switch above a CA source). */
        Reached entered(int arrivalPort) {
            return new Reached(info, name, port, route, up, exitPort, arrivalPort, dist);
        }
    }

    /**
     * Why no multicast route was found, and the C function that warns of it ({@code get_route},
     * {@code find_mcpath}), or null where the C tool gives up without saying why.
     */
    static final class NoMulticastRoute extends RdmaException {
        private static final long serialVersionUID = 1L;
        private final String function;

        NoMulticastRoute(String function, String why) {
            super(why);
            this.function = function;
        }

        /** ibtracert's report: its warnings, then {@code Failed to get route information}. */
        DiagError report() {
            DiagError error = DiagError.exit("Failed to get route information", this);
            if (function != null) {
                error.warn(function, getMessage());
            }
            return error.warn("get_route", "can't find a multicast route from src to dest");
        }
    }

    private final SmpClient smp;
    private final NodeNameMap names;
    private final Set<Long> known = new HashSet<>();

    MulticastTrace(SmpClient smp, NodeNameMap names) {
        this.smp = smp;
        this.names = names;
    }

    /**
     * The route of {@code mlid} from the port at directed route {@code fromRoute} to the port
     * {@code targetPortGuid}.
     *
     * @throws NoMulticastRoute if the MLID does not lead from one to the other
     */
    Route trace(int[] fromRoute, long targetPortGuid, int mlid) {
        if (mlid < FIRST_MLID) {
            throw new NoMulticastRoute("get_route", "invalid MLID; must be 0xc000 or larger");
        }
        Reached root = reach(fromRoute, null, 0, 0, 0);
        if (root.info().portGuid().value() == targetPortGuid) {
            throw root.isSwitch() ? new NoMulticastRoute(null, "ibtracert from a switch to itself is unsupported")
                    : new NoMulticastRoute("find_mcpath", "ibtracert from CA to CA is unsupported");
        }
        return new Route(search(root, targetPortGuid, mlid));
    }

    /** A multicast route found: the source, the nodes it passes, the destination port. */
    static final class Route {
        private final Reached found;

        private Route(Reached found) {
            this.found = found;
        }

        /** The route in ibtracert's format ({@code simple} for {@code -n}). */
        String text(boolean simple) {
            StringBuilder out = new StringBuilder();
            print(found, simple, out);
            return out.toString();
        }

        /** The route as ibtracert's JSON document has it: the ports in the text's order (From, each hop, To). */
        IbtracertCommand.Json json(int mlid) {
            List<Reached> path = new ArrayList<>();
            for (Reached r = found; r != null; r = r.up()) {
                path.addFirst(r);
            }
            List<IbtracertCommand.JsonHop> hops = path.subList(1, path.size()).stream().map(r -> hop(r.exitPort(), r, r.upPort())).toList();
            return new IbtracertCommand.Json(hop(null, path.getFirst(), path.getFirst().info().localPortNum()), hops,
                    hop(null, found, found.info().localPortNum()), mlid);
        }

        private static IbtracertCommand.JsonHop hop(Integer outPort, Reached node, int portNum) {
            int lid = node.port().lid();
            return new IbtracertCommand.JsonHop(outPort, IbtracertCommand.typeName(node.info().nodeType()), node.info().nodeGuid(),
                    node.info().portGuid(), portNum, lid, lid + (1 << node.port().lmc()) - 1, node.name());
        }
    }

    private Reached search(Reached root, long target, int mlid) {
        known.add(root.info().nodeGuid().value());
        List<Deque<Reached>> byDistance = new ArrayList<>();
        byDistance.add(new ArrayDeque<>(List.of(root)));
        int leafPort = 0;
        for (int dist = 0; dist < MAX_HOPS && dist < byDistance.size(); dist++) {
            for (Reached node : byDistance.get(dist)) {
                boolean[] ports;
                if (!node.isSwitch()) {
                    if (dist > 0) {
                        continue;
                    }
                    leafPort = node.route().length > 0 ? node.route()[node.route().length - 1] : 0;
                    ports = new boolean[node.info().localPortNum() + 1];
                    ports[node.info().localPortNum()] = true;
                } else {
                    if (dist == 1 && leafPort != 0) {
                        node = node.entered(leafPort);
                    }
                    ports = forwardedPorts(node, mlid);
                    if (ports == null) {
                        continue;
                    }
                }
                for (int i = 1; i < ports.length && i <= node.info().numPorts(); i++) {
                    if (!ports[i] || i == node.upPort()) {
                        continue;
                    }
                    int[] route;
                    int exitPort = i;
                    if (dist == 0 && leafPort != 0) {
                        route = Arrays.copyOf(node.route(), node.route().length - 1);
                        exitPort = node.info().localPortNum();
                    } else {
                        SmpPortInfo out = smp.get(new SmpPortInfo(), target(node.route()), i);
                        if (out.portPhysicalState() != PhysPortState.LINK_UP.value()) {
                            continue;
                        }
                        if (node.route().length >= MAX_ROUTE) {
                            throw new NoMulticastRoute(null, "Direct path too long!");
                        }
                        route = Arrays.copyOf(node.route(), node.route().length + 1);
                        route[route.length - 1] = i;
                    }
                    Reached remote;
                    try {
                        remote = reach(route, node, exitPort, -1, dist + 1);
                    } catch (RdmaException e) {
                        continue;
                    }
                    if (remote.info().portGuid().value() == target) {
                        return new Reached(remote.info(), remote.name(), remote.port(), route, node, exitPort, remote.upPort(), -1);
                    }
                    if (known.add(remote.info().nodeGuid().value())) {
                        while (byDistance.size() <= dist + 1) {
                            byDistance.add(new ArrayDeque<>());
                        }
                        byDistance.get(dist + 1).addFirst(remote);
                    }
                }
            }
        }
        throw new NoMulticastRoute(null, "no port of the MLID's tree leads to the destination");
    }

    /** ibtracert's {@code get_node}: NodeInfo, NodeDescription and PortInfo of the port at {@code route}. */
    private Reached reach(int[] route, Reached up, int exitPort, int upPort, int dist) {
        SmpTarget at = target(route);
        SmpNodeInfo info = smp.get(new SmpNodeInfo(), at, 0);
        String name = names.name(info.nodeGuid(), smp.get(new SmpNodeDescription(), at, 0).nodeString());
        SmpPortInfo port = smp.get(new SmpPortInfo(), at, 0);
        return new Reached(info, name, port, route, up, exitPort, upPort < 0 ? info.localPortNum() : upPort, dist);
    }

    /** ibtracert's {@code switch_mclookup}: the ports the switch forwards {@code mlid} to, or null if it cannot say. */
    private boolean[] forwardedPorts(Reached sw, int mlid) {
        try {
            int entry = mlid - FIRST_MLID;
            if (entry >= smp.get(new SmpSwitchInfo(), target(sw.route()), 0).multicastFdbCap()) {
                return null;
            }
            int sets = (sw.info().numPorts() + PORTS_PER_MASK - 1) / PORTS_PER_MASK;
            boolean[] ports = new boolean[sets * PORTS_PER_MASK];
            for (int set = 0; set < sets; set++) {
                int mask = smp.get(new SmpMulticastForwardingTable(), target(sw.route()),
                        entry / MLIDS_PER_BLOCK | (long) set << 28).portMaskBlock(entry % MLIDS_PER_BLOCK);
                for (int bit = 0; bit < PORTS_PER_MASK; bit++) {
                    ports[set * PORTS_PER_MASK + bit] = (mask & 1 << bit) != 0;
                }
            }
            return ports;
        } catch (RdmaException e) {
            return null;
        }
    }

    private static SmpTarget target(int[] route) {
        return new SmpTarget.DirectedRoute(route);
    }

    /** ibtracert's {@code dump_mcpath}: the route from the source down to {@code node}. */
    private static void print(Reached node, boolean simple, StringBuilder out) {
        if (node.up() != null) {
            print(node.up(), simple, out);
        }
        String type = IbtracertCommand.typeName(node.info().nodeType());
        long guid = node.info().nodeGuid().value();
        if (node.dist() == 0) {
            out.append(endpoint("From", type, node));
            return;
        }
        out.append(simple ? String.format("[%d] -> %s {0x%016x}[%d]%n", node.exitPort(), type, guid, node.upPort())
                : String.format("[%d] -> %s 0x%x[%d] lid %d \"%s\"%n", node.exitPort(), type, guid, node.upPort(), node.port().lid(),
                        node.name()));
        if (node.dist() < 0) {
            out.append(endpoint("To", type, node));
        }
    }

    private static String endpoint(String prompt, String type, Reached node) {
        int lid = node.port().lid();
        return String.format("%s %s 0x%x port %d lid %d-%d \"%s\"%n", prompt, type, node.info().nodeGuid().value(),
                node.info().localPortNum(), lid, lid + (1 << node.port().lmc()) - 1, node.name());
    }
}

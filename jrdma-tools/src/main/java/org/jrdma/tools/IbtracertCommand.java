package org.jrdma.tools;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jrdma.RdmaException;
import org.jrdma.iba.Guid;
import org.jrdma.iba.NodeType;
import org.jrdma.iba.PortState;
import org.jrdma.iba.smp.SmpLinearForwardingTable;
import org.jrdma.iba.smp.SmpNodeDescription;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.iba.smp.SmpSwitchInfo;
import org.jrdma.mad.SmpClient;
import org.jrdma.mad.SmpTarget;
import org.jrdma.subnet.Node;
import org.jrdma.subnet.Subnet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtool ibtracert}: the unicast route from one port to another, found as
 * infiniband-diags' ibtracert finds it: a directed route to the source is grown hop by hop
 * through the switches' linear forwarding tables, and from there the same walk goes on towards
 * the destination LID, printing each hop.
 *
 * <p>Differences from the C tool: {@code -D} takes the source and destination as directed routes
 * from the local port (the C tool has no {@code -D}); {@code -m MLID} traces a multicast route
 * ({@link MulticastTrace}); the ports file is not implemented. A failure is reported as the C tool
 * reports it: its warnings on standard error, {@code Failed to get route information} on standard
 * output, status 255.
 */
@Command(name = "ibtracert", mixinStandardHelpOptions = true,
        description = "Trace the unicast route between two ports through the switches' forwarding tables "
                + "(with -m, the multicast route of an MLID through their multicast forwarding tables).")
final class IbtracertCommand extends FabricCommand implements DiscoversSubnet {
    /** ibtracert's MAXHOPS. */
    private static final int MAX_HOPS = 63;
    /** libibmad's directed-route array: 64 bytes, entry 0 the local port; extend_dpath keeps one spare. */
    private static final int PATH_BYTES = 64;
    private static final String[] TYPE_NAMES = {"???", "ca", "switch", "router", "iwarp rnic"};

    @Mixin
    NodeNameMapOption names;

    @Mixin
    AddressOptions address;

    @Option(names = {"-n", "--no_info"}, description = "simple format")
    boolean simple;

    @Option(names = {"-m", "--mlid"}, paramLabel = "MLID",
            description = "trace the multicast route of MLID (0xc000 and up) through the switches' multicast forwarding tables")
    String mlid;

    @Option(names = {"-f", "--force"}, description = "force: match ports by LID as well, go on when an end does not answer")
    boolean force;

    @Parameters(index = "0", paramLabel = "SRC", description = "the source port: a LID, with -G a port GUID, with -D a directed route")
    String source;

    @Parameters(index = "1", paramLabel = "DEST", description = "the destination port, written as SRC is")
    String destination;

    /** A port as ibtracert's get_node reads it: NodeInfo, NodeDescription and PortInfo (modifier 0). */
    private record Hop(SmpNodeInfo node, String description, SmpPortInfo port, int portNumber) {
        Hop withPortNumber(int number) {
            return new Hop(node, description, port, number);
        }

        boolean isSwitch() {
            return node.nodeType() == NodeType.SWITCH.value();
        }

        long portGuid() {
            return node.portGuid().value();
        }

        String typeName() {
            return IbtracertCommand.typeName(node.nodeType());
        }

        String lidRange() {
            return port.lid() + "-" + (port.lid() + (1 << port.lmc()) - 1);
        }
    }

    /** A directed route libibmad-style: entry 0 the local port, entries 1..count the hops. */
    private static final class Route {
        private final int[] ports = new int[PATH_BYTES];
        private int count;

        Route(int[] hops) {
            System.arraycopy(hops, 0, ports, 1, hops.length);
            count = hops.length;
        }

        boolean extend(int port) {
            if (count + 2 >= PATH_BYTES) {
                return false;
            }
            ports[++count] = port;
            return true;
        }

        SmpTarget.DirectedRoute target() {
            return new SmpTarget.DirectedRoute(Arrays.copyOfRange(ports, 1, count + 1));
        }
    }

    /** The switch whose table was read last, as ibtracert's {@code Switch} keeps it. */
    private record SwitchState(int linearFdbTop, boolean enhancedPort0) {
    }

    /**
     * Why the route could not be followed: the warnings the C tool prints on the way out
     * ({@code find_route: ...}, then {@code get_route: ...}), the failed query as the cause.
     */
    private static final class NoRoute extends RdmaException {
        private static final long serialVersionUID = 1L;
        private final transient List<String[]> warnings = new ArrayList<>();

        NoRoute(String message) {
            this(message, null);
        }

        NoRoute(String message, Throwable cause) {
            super(cause == null ? message : message + " (" + cause.getMessage() + ")", cause);
            warnings.add(new String[] {"find_route", message});
        }

        /** Adds the warning of the function that gave up next, {@code get_route}. */
        NoRoute then(String text) {
            warnings.add(new String[] {"get_route", text});
            return this;
        }

        /** IBEXIT("Failed to get route information") after these warnings. */
        DiagError report() {
            DiagError error = DiagError.exit("Failed to get route information", this);
            warnings.forEach(w -> error.warn(w[0], w[1]));
            return error;
        }
    }

    private SmpClient smp;
    private NodeNameMap map;
    /**
     * The subnet python-rdma's discovery options give (a cache file or a discovery), whose nodes
     * and ports the trace reads instead of each hop's NodeInfo, NodeDescription and PortInfo SMPs,
     * as python-rdma's ibtracert does (the forwarding tables are still read); null without them.
     */
    private Subnet subnet;
    private SwitchState sw = new SwitchState(0, false);

    @Override
    int run() {
        RouteOrGuidOptions.Address src = parse(source, "source");
        RouteOrGuidOptions.Address dst = parse(destination, "destination");
        Integer multicastLid = mlid == null ? null : mlid(mlid);
        map = names.map();
        smp = smp();
        subnet = discoveryOptions().given() ? discover().subnet() : null;
        Destination from = src.resolve(smp, fabric);
        Destination to = dst.resolve(smp, fabric);
        boolean directed = address.kind() == RouteOrGuidOptions.Kind.DIRECTED_ROUTE;
        int toLid = directed ? lidAt(to) : ((SmpTarget.Lid) to.target()).lid();
        try {
            Route start = directed ? new Route(((SmpTarget.DirectedRoute) from.target()).ports())
                    : routeTo(((SmpTarget.Lid) from.target()).lid());
            if (multicastLid == null) {
                try {
                    findRoute(start, toLid, simple ? 1 : 2);
                } catch (NoRoute e) {
                    throw e.then("can't find a route from src to dest");
                }
            } else {
                long target = smp.get(new SmpNodeInfo(), new SmpTarget.Lid(toLid), 0).portGuid().value();
                MulticastTrace.Route route = new MulticastTrace(smp, map).trace(start.target().ports(), target, multicastLid);
                if (json()) {
                    return json(route.json(multicastLid), ExitCodes.OK);
                }
                out().print(route.text(simple));
            }
        } catch (NoRoute e) {
            throw e.report();
        } catch (MulticastTrace.NoMulticastRoute e) {
            throw e.report();
        }
        if (json()) {
            return json(new Json(jsonPath.getFirst(), jsonPath.subList(1, jsonPath.size() - 1), jsonPath.getLast(), null), ExitCodes.OK);
        }
        return ExitCodes.OK;
    }

    /** With {@code --json}: the ports of the route, in the order the text prints them (From, the hops, To). */
    private final List<JsonHop> jsonPath = new ArrayList<>();

    /**
     * {@code --json}: the route's first port ({@code from}), each hop ({@code outPort} the port the
     * previous node forwards on, then the port reached) and the destination port ({@code to}); with
     * {@code -m} the MLID whose multicast forwarding tables the route follows.
     */
    record Json(JsonHop from, List<JsonHop> hops, JsonHop to, Integer mlid) {
    }

    /**
     * A port on the route: its node's type ({@code CA}, {@code Switch}, {@code Router}), node and port
     * GUIDs, port number (0 for a switch endpoint), LID range and node description (or mapped name).
     */
    record JsonHop(Integer outPort, String nodeType, Guid nodeGuid, Guid portGuid, int portNum, int lid, int lidEnd,
            String nodeDescription) {
        static JsonHop of(Integer outPort, Hop hop, int portNum) {
            int lid = hop.port().lid();
            return new JsonHop(outPort, hop.typeName(), hop.node().nodeGuid(), hop.node().portGuid(), portNum, lid,
                    lid + (1 << hop.port().lmc()) - 1, hop.description());
        }
    }

    /** An address argument; one the C tool cannot resolve fails as its {@code get_route} does. */
    private RouteOrGuidOptions.Address parse(String text, String which) {
        try {
            return address.parse(text);
        } catch (DiagError e) {
            throw DiagError.exit("Failed to get route information", e.getCause()).warn("get_route", "can't resolve " + which + " port " + text);
        }
    }

    /** {@code -m}'s MLID, as C's {@code strtoul} with base 0 reads it (decimal, 0x-hex, or octal after a 0). */
    private static int mlid(String text) {
        try {
            int value = Integer.decode(text);
            if (value < 0 || value > 0xFFFF) {
                throw new NumberFormatException();
            }
            return value;
        } catch (NumberFormatException e) {
            throw new UsageException("bad MLID \"" + text + "\": a LID 0xc000 to 0xfffe, decimal or 0x-hex");
        }
    }

    /** ibtracert's name of a node type ({@code ca}, {@code switch}, ...). */
    static String typeName(int nodeType) {
        return nodeType < TYPE_NAMES.length ? TYPE_NAMES[nodeType] : "???";
    }

    /** The LID of the port a directed route leads to (the C tool's {@code resolve_lid}). */
    private int lidAt(Destination d) {
        int lid = smp.get(new SmpPortInfo(), d.target(), 0).lid();
        if (lid == 0) {
            throw new UsageException("bad src/dest lid: the port at " + destination + " has LID 0");
        }
        return lid;
    }

    /** The directed route from the local port to the port with {@code lid}, found by following the forwarding tables. */
    private Route routeTo(int lid) {
        Route route = new Route(new int[0]);
        try {
            findRoute(route, lid, 0);
        } catch (NoRoute e) {
            throw e.then("can't find a route to the src port");
        }
        return route;
    }

    /** ibtracert's {@code find_route}: walks from the node at {@code from} towards {@code toLid}, extending {@code from}. */
    private void findRoute(Route from, int toLid, int dump) {
        Hop fromHop;
        Hop toHop;
        try {
            fromHop = hop(from.target());
        } catch (RdmaException e) {
            throw new NoRoute("can't reach to/from ports", e);
        }
        try {
            toHop = hop(new SmpTarget.Lid(toLid));
        } catch (RdmaException e) {
            if (!force) {
                throw new NoRoute("can't reach to/from ports", e);
            }
            // --force: look for the LID alone, as the C tool does.
            toHop = new Hop(new SmpNodeInfo(), "", new SmpPortInfo().lid(toLid), 0);
        }
        Hop node = fromHop;
        int portNumber = node.portNumber();
        int outport = 255;
        int nextOutport = 255;
        endpoint(dump, "From", node);
        if (node.isSwitch()) {
            nextOutport = switchLookup(from, toLid);
            if (nextOutport < 0 || nextOutport > node.node().numPorts()) {
                throw badTable(node, toLid, nextOutport);
            }
        }
        int maxHops = MAX_HOPS;
        while (maxHops-- != 0) {
            if (inactive(node)) {
                throw new NoRoute(String.format("Bad port state found: node \"%s\" port %d state %d", node.description(), portNumber,
                        node.port().portState()));
            }
            if (samePort(node, toHop)) {
                break;
            }
            Hop next;
            if (node.isSwitch()) {
                outport = nextOutport;
                if (!from.extend(outport)) {
                    throw new NoRoute("Direct path too long!");
                }
                next = hopOrFail(from);
                if (outport == 0) {
                    if (!samePort(next, toHop)) {
                        throw badTable(node, toLid, outport);
                    }
                    break;
                }
            } else {
                outport = portNumber;
                if (!samePort(node, fromHop)) {
                    throw new NoRoute(String.format("can't continue: reached CA or router port %x, lid %d", node.portGuid(),
                            node.port().lid()));
                }
                boolean caSource = from.count == 0;
                if (caSource) {
                    if (portNumber != 0 && !from.extend(portNumber)) {
                        throw new NoRoute("Direct path too long!");
                    }
                } else {
                    from.count--;
                }
                next = hopOrFail(from);
                if (!caSource) {
                    next = next.withPortNumber(from.ports[from.count + 1]);
                }
            }
            if (next.isSwitch()) {
                nextOutport = switchLookup(from, toLid);
                if (nextOutport < 0 || nextOutport > next.node().numPorts()) {
                    throw badTable(node, toLid, nextOutport);
                }
            }
            if (inactive(next)) {
                throw new NoRoute(String.format("Bad out port state found: node \"%s\" outport %d state %d", node.description(),
                        outport, next.port().portState()));
            }
            node = next;
            portNumber = node.portNumber();
            hopLine(dump, node, outport);
        }
        if (maxHops <= 0) {
            throw new NoRoute("no route found after " + MAX_HOPS + " hops");
        }
        endpoint(dump, "To", node);
    }

    private Hop hop(SmpTarget at) {
        if (subnet != null) {
            return hopInSubnet(at);
        }
        SmpNodeInfo node = smp.get(new SmpNodeInfo(), at, 0);
        String description = map.name(node.nodeGuid(), printable(smp.get(new SmpNodeDescription(), at, 0).nodeString()));
        SmpPortInfo port = smp.get(new SmpPortInfo(), at, 0);
        return new Hop(node, description, port, node.localPortNum());
    }

    /**
     * A hop as the subnet has it: the port a directed route arrives at, followed over the
     * subnet's links from {@link Subnet#from()}, or the end port with the LID (a switch's port 0);
     * its node's NodeInfo with the LocalPortNum and PortGUID an SMP arriving there would read, and
     * the PortInfo an SMP with modifier 0 reads (a switch's port 0).
     *
     * @throws RdmaException if the subnet has no such port, as an SMP there would go unanswered
     */
    private Hop hopInSubnet(SmpTarget at) {
        org.jrdma.subnet.Port arrived = switch (at) {
            case SmpTarget.Lid(int lid) -> new PathTarget(null, null, lid, null).find(subnet).orElse(null);
            case SmpTarget.DirectedRoute(int[] ports) -> {
                Node node = subnet.from();
                org.jrdma.subnet.Port port = node.port(node.isSwitch() ? 0 : node.info().localPortNum());
                for (int hop : ports) {
                    org.jrdma.subnet.Port out = node.port(hop);
                    port = out == null ? null : out.remote();
                    if (port == null) {
                        break;
                    }
                    node = port.node();
                }
                yield port;
            }
        };
        if (arrived == null) {
            throw new RdmaException("the subnet has no port at " + at);
        }
        Node node = arrived.node();
        org.jrdma.subnet.Port read = node.isSwitch() ? node.managementPort() : arrived;
        int localPort = node.isSwitch() && arrived.number() == 0 ? node.info().localPortNum() : arrived.number();
        SmpNodeInfo info = SmpNodeInfo.decode(node.info().toBytes(), 0).localPortNum(localPort).portGuid(read.guid());
        return new Hop(info, map.name(node.guid(), printable(node.description())), read.info(), localPort);
    }

    private Hop hopOrFail(Route at) {
        try {
            return hop(at.target());
        } catch (RdmaException e) {
            throw new NoRoute("can't reach port at DR path " + at.target(), e);
        }
    }

    /** ibtracert's {@code switch_lookup}: the output port for {@code lid}, or -1 if the table has none. */
    private int switchLookup(Route at, int lid) {
        try {
            SmpSwitchInfo info = smp.get(new SmpSwitchInfo(), at.target(), 0);
            sw = new SwitchState(info.linearFdbTop(), info.enhancedPort0() != 0);
            if (lid >= info.linearFdbCap() && lid > info.linearFdbTop()) {
                return -1;
            }
            return smp.get(new SmpLinearForwardingTable(), at.target(), lid / 64).portBlock(lid % 64);
        } catch (RdmaException e) {
            return -1;
        }
    }

    /** A port not Active is a dead end, except a base switch port 0, which is always taken as active. */
    private boolean inactive(Hop hop) {
        return hop.port().portState() != PortState.ACTIVE.value() && (!hop.isSwitch() || sw.enhancedPort0());
    }

    private boolean samePort(Hop a, Hop b) {
        return a.portGuid() == b.portGuid() || force && a.port().lid() == b.port().lid();
    }

    private NoRoute badTable(Hop node, int lid, int outport) {
        return new NoRoute(String.format("Bad forwarding table entry found at: node \"%s\" lid entry %d is %d (top %d)",
                node.description(), lid, outport, sw.linearFdbTop()));
    }

    private void endpoint(int dump, String prompt, Hop hop) {
        int port = hop.isSwitch() ? 0 : hop.portNumber();
        if (json() && dump != 0) {
            jsonPath.add(JsonHop.of(null, hop, port));
        } else if (dump == 1) {
            out().printf("%s {0x%016x}[%d]%n", prompt, hop.node().nodeGuid().value(), port);
        } else if (dump == 2) {
            out().printf("%s %s {0x%016x} portnum %d lid %s \"%s\"%n", prompt, hop.typeName(), hop.node().nodeGuid().value(), port,
                    hop.lidRange(), hop.description());
        }
    }

    private void hopLine(int dump, Hop hop, int outport) {
        if (json() && dump != 0) {
            jsonPath.add(JsonHop.of(outport, hop, hop.portNumber()));
        } else if (dump == 1) {
            out().printf("[%d] -> {0x%016x}[%d]%n", outport, hop.portGuid(), hop.portNumber());
        } else if (dump == 2) {
            out().printf("[%d] -> %s port {0x%016x}[%d] lid %s \"%s\"%n", outport, hop.typeName(), hop.portGuid(), hop.portNumber(),
                    hop.lidRange(), hop.description());
        }
    }

    /** ibtracert replaces the unprintable characters of a NodeDescription with blanks. */
    private static String printable(String text) {
        StringBuilder s = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            s.append(c >= 0x20 && c < 0x7f ? c : ' ');
        }
        return s.toString();
    }
}

package org.jrdma.tools;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.RdmaException;
import org.jrdma.iba.Guid;
import org.jrdma.iba.LinkSpeed;
import org.jrdma.iba.LinkSpeedExt;
import org.jrdma.iba.LinkWidth;
import org.jrdma.iba.NodeType;
import org.jrdma.iba.PhysPortState;
import org.jrdma.iba.PortState;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.mad.SmpClient;
import org.jrdma.mad.SmpTarget;
import org.jrdma.subnet.Neighborhood;
import org.jrdma.subnet.Node;
import org.jrdma.subnet.Port;
import org.jrdma.subnet.Subnet;
import org.jrdma.subnet.SubnetDiscovery;
import org.jrdma.tools.json.JsonSubnet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ibtool iblinkinfo}: every port of every node with the state, width and speed of its link
 * and what is at the other end, printed as infiniband-diags' iblinkinfo prints it, nodes in
 * libibnetdisc's order (the reverse of discovery order).
 *
 * <p>Partial scans, as the C tool makes them: with {@code -D} (a directed route) or
 * {@code -G}/{@code -S} (a port GUID) it discovers only the part of the fabric around that node
 * ({@link SubnetDiscovery#run(SmpClient, Neighborhood)}), {@code -n} hops from it (1 when
 * {@code -n} is absent or 0), and prints that node alone, or with {@code -a} every node the scan
 * found. {@code -n} without {@code -D}/{@code -G} scans that far around the local node and prints
 * everything found ({@code -n 0} there is the whole fabric); {@code -a} without them changes
 * nothing. A negative {@code -n} is a usage error (the C tool's {@code strtoul} reads {@code -1} as
 * 4294967295, the whole fabric); a huge one is the whole fabric, as for the C tool.
 *
 * <p>Where the C tool differs: libibnetdisc checks the hop count before it counts the new hop
 * ({@code extend_dpath}), so its scan also follows the first directed route one hop too far: under
 * ibsim, which answers in order, it reads one node beyond {@code -n} hops (the first one met from
 * the last level, e.g. leaf2 for {@code -D 0,1 -n 1} on the test kit's fat tree, attached at spine1)
 * with the one link it was found by. With {@code -a} the C tool prints that node and that link,
 * where this command prints neither (that port reads {@code "Port not available"}); without
 * {@code -a}, and whenever the scan reaches the whole fabric, the two agree. The C tool's scan from
 * a GUID starts by LID: on a switch it hangs under ibsim; this command finds the node by a
 * directed-route walk from the local port and scans around it as for {@code -D}. A channel adapter
 * does not forward directed-route SMPs, so the C tool cannot see past an adapter chosen by GUID
 * (it prints {@code "Port not available"}), and from one reached by {@code -D} it goes back along
 * the route but links the adapter to the switch port the route entered that switch by (and reports
 * a duplicate port); this command goes back along the route and links the adapter's port to the
 * switch port the route left by. Not implemented: the cache options. A port GUID not in the fabric
 * exits 1 (the C tool says so and exits 0). Speeds: the FDR10 of Mellanox's vendor attribute is
 * not read (the C tool reads it only on Mellanox devices), and extended speeds are those of
 * PortInfo in IBA 1.3 (no XDR).
 */
@Command(name = "iblinkinfo", mixinStandardHelpOptions = true,
        description = "Print the links of every switch and channel adapter port of the fabric.")
final class IblinkinfoCommand extends FabricCommand implements DiscoversSubnet {
    /** PortInfo CapabilityMask bit 14: extended link speeds supported. */
    private static final long CAP_HAS_EXT_SPEEDS = 1L << 14;

    @Mixin
    NodeNameMapOption names;

    @Option(names = {"-S", "--switch", "-G", "--port-guid"}, paramLabel = "PORT_GUID",
            description = "start partial scan at the port with this GUID, and print only its node")
    String portGuid;

    @Option(names = {"-D", "--Direct"}, paramLabel = "DR_PATH",
            description = "start partial scan at the node at this directed route 0,port,..., and print only it")
    String directRoute;

    @Option(names = {"-a", "--all"}, description = "print all nodes found in a partial fabric scan")
    boolean all;

    @Option(names = {"-n", "--hops"}, paramLabel = "HOPS",
            description = "Number of hops to include away from specified node (default 1 with -D/-G; 0 means the default)")
    long hops;

    @Option(names = {"-d", "--down"}, description = "print only down links")
    boolean downOnly;

    @Option(names = {"-l", "--line"}, description = "(line mode) print all information for each link on a single line")
    boolean lineMode;

    @Option(names = {"-p", "--additional"}, description = "print additional port settings (HoqLife, VLStallCount)")
    boolean additional;

    @Option(names = "--switches-only", description = "Output only switches")
    boolean switchesOnly;

    @Option(names = "--cas-only", description = "Output only CAs")
    boolean casOnly;

    private NodeNameMap map = NodeNameMap.EMPTY;

    /** Its MADs go to the whole fabric: a user at a terminal sees their progress. */
    @Override
    boolean fabricWide() {
        return true;
    }

    @Override
    int run() {
        if (switchesOnly && casOnly) {
            throw new UsageException("--switches-only and --cas-only exclude each other");
        }
        if (hops < 0) {
            throw new UsageException("-n/--hops must be 0 or more, not " + hops);
        }
        Guid wanted = portGuid == null ? null : parseGuid(portGuid);
        SmpTarget.DirectedRoute route = directRoute == null ? null : (SmpTarget.DirectedRoute) Destination.parse(directRoute, true).target();
        PrintWriter out = out();
        map = names.map();
        DiscoveryOptions.Result discovery = scan(smp(), route, wanted);
        progressDone();
        Subnet subnet = discovery.subnet();
        List<Node> printed = new ArrayList<>();
        if ((route != null || wanted != null) && !all) {
            if (!shown(subnet.from())) {
                // The C tool says so on standard error and exits 0.
                throw DiagError.stderr("Failed to find port: " + (route != null ? directRoute : portGuid), ExitCodes.OK, null);
            }
            printed.add(subnet.from());
        } else {
            subnet.nodes().reversed().stream().filter(this::shown).forEach(printed::add);
        }
        if (json()) {
            return json(new JsonSubnet(printed.stream().map(node -> JsonSubnet.node(node, this::name,
                    port -> port.number() > 0 && (!downOnly || port.info().portState() == PortState.DOWN.value()))).toList(),
                    discovery.problems()), reportProblems(discovery.problems()));
        }
        StringBuilder text = new StringBuilder(printed.size() * 512);
        printed.forEach(node -> printNode(text, node));
        out.print(text);
        out.flush();
        return reportProblems(discovery.problems());
    }

    /**
     * The C tool's scan: around the node at {@code route}, else around the node with port
     * {@code wanted}, {@code -n} hops (1 by default); else {@code -n} hops around the local node,
     * or the whole fabric (as the discovery options say: {@link #discover}).
     */
    private DiscoveryOptions.Result scan(SmpClient smp, SmpTarget.DirectedRoute route, Guid wanted) {
        int limit = (int) Math.min(hops, Integer.MAX_VALUE);
        if (route != null) {
            try {
                smp.get(new SmpNodeInfo(), route, 0);
            } catch (RdmaException e) {
                throw DiagError.stderr("Failed to get local Node Info", 1, e);
            }
            return DiscoveryOptions.Result.of(SubnetDiscovery.run(smp, new Neighborhood.AtRoute(route, Math.max(limit, 1))));
        }
        if (wanted != null) {
            try {
                return DiscoveryOptions.Result.of(SubnetDiscovery.run(smp, new Neighborhood.AtPort(wanted, Math.max(limit, 1))));
            } catch (IllegalArgumentException e) {
                // The C tool asks the SA for the GUID first, warns that it failed, scans the whole
                // fabric, then says it found no such port and exits 0.
                throw DiagError.stderr(DiagError.ibwarn("ib_path_query_via", "sa call path_query failed"), ExitCodes.OK, e)
                        .warn("main", "Failed to resolve " + portGuid + "; attempting full scan\n")
                        .stderrLine("Failed to find port: " + portGuid);
            }
        }
        return limit == 0 ? discover(() -> SubnetDiscovery.run(smp), false)
                : DiscoveryOptions.Result.of(SubnetDiscovery.run(smp, new Neighborhood.AtRoute(SmpTarget.local(), limit)));
    }

    private boolean shown(Node node) {
        return switchesOnly ? node.isSwitch() : !casOnly || node.nodeTypeValue() == NodeType.CA.value();
    }

    /** iblinkinfo's {@code print_node}: the node's header, then its ports 1..N that discovery read. */
    private void printNode(StringBuilder out, Node node) {
        boolean header = false;
        for (int i = 1; i <= node.numPorts(); i++) {
            Port port = node.port(i);
            if (port == null || downOnly && port.info().portState() != PortState.DOWN.value()) {
                continue;
            }
            if (!header && !lineMode) {
                if (node.isSwitch()) {
                    hex16(out.append("Switch: "), switchPortGuid(node)).append(' ').append(name(node)).append(':').append('\n');
                } else {
                    out.append(typeName(node)).append(": ").append(name(node)).append(':').append('\n');
                }
            }
            header = true;
            printPort(out, node, port);
        }
    }

    /** The node's name: the node name map's, else its NodeDescription. */
    private String name(Node node) {
        return map.name(node.guid(), node.description());
    }

    private static long switchPortGuid(Node sw) {
        Port port0 = sw.managementPort();
        return port0 != null ? port0.guid().value() : sw.info().portGuid().value();
    }

    private static String typeName(Node node) {
        return switch (node.nodeTypeValue()) {
            case 2 -> "Switch";
            case 1 -> "CA";
            case 3 -> "Router";
            default -> "??";
        };
    }

    /** iblinkinfo's {@code print_port}: its {@code printf} formats, appended to {@code out} one field at a time. */
    private void printPort(StringBuilder out, Node node, Port port) {
        Port remote = port.remote();
        SmpPortInfo info = port.info();
        int state = info.portState();
        if (lineMode) {
            padLeft(hex16(out, port.guid().value()).append(" \""), name(node), 30).append("\" ");
        } else {
            out.append("      ");
        }
        if (!node.isSwitch()) {
            if (!lineMode) {
                hex16(out, port.guid().value()).append(' ');
            }
            portColumns(out, port.lid(), port.number());
        } else {
            portColumns(out, node.lid(), port.number());
        }
        link(out.append(" =="), port);
        if (additional && state != PortState.DOWN.value()) {
            out.append(" (HOQ:").append(info.hoqLife()).append(" VL_Stall:").append(info.vlStallCount()).append(')');
        }
        out.append("==>  ");
        if (remote != null) {
            if (lineMode) {
                hex16(out, remote.guid().value()).append(' ');
            }
            portColumns(out, remote.lid() != 0 ? remote.lid() : remote.node().lid(), remote.number());
            out.append(" \"").append(name(remote.node())).append("\" (").append(widthAdvice(port, remote)).append(' ')
                    .append(speedAdvice(port, remote)).append(')');
        } else if (state == PortState.DOWN.value()) {
            out.append("           [  ] \"\" ( )");
        } else {
            out.append("    \"Port not available\"");
        }
        out.append('\n');
    }

    /** {@code %6d %4d[%2s]} with an empty string: a LID and a port number. */
    private static void portColumns(StringBuilder out, int lid, int number) {
        padLeft(out, Integer.toString(lid), 6).append(' ');
        padLeft(out, Integer.toString(number), 4).append("[  ]");
    }

    /**
     * The state of a port's link as iblinkinfo and ibqueryerrors print it: {@code ( 4X 2.5 Gbps
     * Active/  LinkUp)}, or only the states when the port is Down (IBA C14-24.2.1: the other
     * PortInfo components of a Down port may be invalid).
     */
    static String link(Port port) {
        return link(new StringBuilder(48), port).toString();
    }

    /** {@link #link(Port)} appended to {@code out}: {@code (%3s %18s %6s/%8s)}, or {@code (%14s%6s/%8s)} when Down. */
    private static StringBuilder link(StringBuilder out, Port port) {
        SmpPortInfo info = port.info();
        int state = info.portState();
        out.append('(');
        if (state == PortState.DOWN.value()) {
            out.append("              ");
        } else {
            SmpPortInfo capabilities = capabilityInfo(port);
            int width = capabilities == null ? 0 : info.linkWidthActive();
            int speed = capabilities == null ? 0 : info.linkSpeedActive();
            int extSpeed = capabilities != null && (capabilities.capabilityMask() & CAP_HAS_EXT_SPEEDS) != 0 ? info.linkSpeedExtActive() : 0;
            padLeft(out, LinkWidth.describe(width), 3).append(' ');
            padLeft(out, extSpeed == 0 ? LinkSpeed.describe(speed) : LinkSpeedExt.describe(extSpeed), 18).append(' ');
        }
        padLeft(out, PortState.describe(state), 6).append('/');
        return padLeft(out, PhysPortState.describe(info.portPhysicalState()), 8).append(')');
    }

    /** {@code %Ns}: {@code text} right-aligned in {@code width} columns. */
    private static StringBuilder padLeft(StringBuilder out, String text, int width) {
        for (int pad = width - text.length(); pad > 0; pad--) {
            out.append(' ');
        }
        return out.append(text);
    }

    /** {@code 0x%016x}. */
    private static StringBuilder hex16(StringBuilder out, long value) {
        out.append("0x");
        for (int shift = 60; shift >= 0; shift -= 4) {
            out.append(Character.forDigit((int) (value >>> shift) & 0xF, 16));
        }
        return out;
    }

    /** The PortInfo whose CapabilityMask speaks for a port: port 0's on a switch (null if unread), the port's own otherwise. */
    private static SmpPortInfo capabilityInfo(Port port) {
        if (port.node().isSwitch()) {
            Port port0 = port.node().managementPort();
            return port0 == null ? null : port0.info();
        }
        return port.info();
    }

    private static long capabilityMask(Port port) {
        SmpPortInfo info = capabilityInfo(port);
        return info == null ? 0 : info.capabilityMask();
    }

    /** {@code get_max_msg}'s width part: "Could be 12X" when both ends support a wider link than the active one. */
    static String widthAdvice(Port port, Port remote) {
        int max = maxWidth(port.info().linkWidthSupported() & remote.info().linkWidthSupported());
        return (max & port.info().linkWidthActive()) == 0 ? "Could be " + LinkWidth.describe(max) : "";
    }

    /** {@code get_max_msg}'s speed part, extended speeds first when both ends have them. */
    static String speedAdvice(Port port, Port remote) {
        SmpPortInfo here = port.info();
        SmpPortInfo there = remote.info();
        if ((capabilityMask(port) & CAP_HAS_EXT_SPEEDS) != 0 && (capabilityMask(remote) & CAP_HAS_EXT_SPEEDS) != 0
                && here.linkSpeedExtSupported() != 0 && there.linkSpeedExtSupported() != 0) {
            int max = highestBit(here.linkSpeedExtSupported() & there.linkSpeedExtSupported());
            return (max & here.linkSpeedExtActive()) == 0 ? "Could be " + LinkSpeedExt.describe(max) : "";
        }
        int max = highestBit(here.linkSpeedSupported() & there.linkSpeedSupported());
        return (max & here.linkSpeedActive()) == 0 ? "Could be " + LinkSpeed.describe(max) : "";
    }

    /** ibdiag_common's {@code get_max_width}: the widest width in a LinkWidthSupported mask (2x ranks below 4x). */
    private static int maxWidth(int mask) {
        for (int width : List.of(8, 4, 2, 16)) {
            if ((mask & width) != 0) {
                return width;
            }
        }
        return 1;
    }

    /** ibdiag_common's {@code get_max}: the highest bit set, or 1 for none. */
    private static int highestBit(int mask) {
        return mask == 0 ? 1 : Integer.highestOneBit(mask);
    }
}

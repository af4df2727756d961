package org.jrdma.tools.fts;

import java.io.PrintWriter;
import java.io.Writer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jrdma.RdmaException;
import org.jrdma.iba.Guid;
import org.jrdma.iba.NodeType;
import org.jrdma.iba.diag.PortId;
import org.jrdma.iba.smp.SmpLinearForwardingTable;
import org.jrdma.iba.smp.SmpMulticastForwardingTable;
import org.jrdma.mad.MadException;
import org.jrdma.mad.MadTimeoutException;
import org.jrdma.mad.SmpClient;
import org.jrdma.mad.SmpTarget;
import org.jrdma.subnet.Node;
import org.jrdma.subnet.Port;
import org.jrdma.subnet.Subnet;
import org.jrdma.subnet.SubnetDiscovery;
import org.jrdma.tools.CNumbers;
import org.jrdma.tools.DiagError;
import org.jrdma.tools.DiscoveryOptions;
import org.jrdma.tools.DiscoversSubnet;
import org.jrdma.tools.ExitCodes;
import org.jrdma.tools.MulticastTableHeader;
import org.jrdma.tools.NodeNameMap;
import org.jrdma.tools.NodeNameMapOption;
import org.jrdma.tools.PackageFabricCommand;
import org.jrdma.tools.ParallelReads;
import org.jrdma.tools.portadmin.DirectedRoutes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtool dump_fts}: the unicast (LinearForwardingTable) or, with {@code -M}, multicast
 * (MulticastForwardingTable) forwarding tables of every switch of the subnet, printed as
 * infiniband-diags' dump_fts prints them: the subnet is discovered by directed route first, the
 * switches are dumped in libibnetdisc's order (the reverse of discovery order), each addressed by
 * the directed route discovery reached it by, and each unicast destination is named from the
 * discovered subnet (no further MADs), as ibroute names it.
 *
 * <p>The C tool reads the table blocks one at a time, switch after switch; here every block of
 * every switch is read at once ({@link ParallelReads}), then printed in the C tool's order. As in
 * the C tool, a block that cannot be read is reported on standard error ({@code SubnGet(LFT) failed
 * on switch ...}) and the entries printed for it are those of the last block read (of that switch
 * for unicast; of any switch, per port-mask position, for multicast), and the command goes on.
 * The operands are the first and last LID ({@code strtoul}: text that is not a number is 0),
 * further operands are ignored. Where the C tool's scan silently misses part of the subnet, this
 * command warns about each part and exits 3.
 *
 * <p>With {@code --json} the same tables are one {@link Document}: the switches in the C tool's
 * order, each with its GUID, name, directed route, LID, range and the entries the text would show.
 */
@Command(name = "dump_fts", mixinStandardHelpOptions = true,
        description = "Dump the unicast (or, with -M, multicast) forwarding tables of every switch of the subnet.")
public final class DumpFtsCommand extends PackageFabricCommand implements DiscoversSubnet {
    private static final int LIDS_PER_BLOCK = 64;
    private static final int MLIDS_PER_BLOCK = 32;
    private static final int PORTS_PER_MASK = 16;
    private static final int MIN_MLID = 0xC000;
    private static final int MAX_MLID = 0xFFFE;
    private static final int MAX_UNICAST_LID = 0xBFFF;
    /** The port-mask positions of a MulticastForwardingTable block: 16 ports each, 256 ports in all. */
    private static final int MASK_POSITIONS = 16;

    @Mixin
    NodeNameMapOption names;

    @Option(names = {"-a", "--all"}, description = "show all lids, even invalid entries")
    boolean all;

    @Option(names = {"-n", "--no_dests"}, description = "do not try to resolve destinations")
    boolean brief;

    @Option(names = {"-M", "--Multicast"}, description = "show multicast forwarding tables")
    boolean multicast;

    @Parameters(arity = "0..*", paramLabel = "LID",
            description = "the first and last LID to show (decimal, 0-octal or 0x-hex; default: the whole table); more are ignored")
    List<String> lids = List.of();

    private NodeNameMap map;

    /** The directed routes to the switches over the discovered links, for those discovery reached another way. */
    private DirectedRoutes routes;

    /**
     * The multicast port masks last read at each port-mask position: the C tool keeps one buffer
     * for every switch, so a block it cannot read prints what the buffer still holds.
     */
    private final int[][] lastMasks = new int[MASK_POSITIONS][MLIDS_PER_BLOCK];

    /** The switches' tables as the JSON document has them, in the order printed. */
    private final List<SwitchTable> switchTables = new ArrayList<>();

    /**
     * dump_fts' JSON document.
     *
     * @param table    {@code "unicast"} (LinearForwardingTable) or {@code "multicast"} (MulticastForwardingTable)
     * @param switches every switch's table, in the C tool's order
     */
    public record Document(String table, List<SwitchTable> switches) {
    }

    /**
     * One switch's forwarding table.
     *
     * @param guid        the switch's node GUID
     * @param description its name (node description, or the node-name-map's name)
     * @param route       the directed route it was addressed by, 0 first
     * @param lid         its LID (port 0's)
     * @param start       the first LID (or MLID) of the range shown
     * @param end         the last
     * @param unicast     the unicast entries shown (LID and output port), for a LinearForwardingTable
     * @param multicast   the multicast entries shown, for a MulticastForwardingTable
     * @param dumped      how many entries the text says it dumped
     */
    public record SwitchTable(Guid guid, String description, List<Integer> route, int lid, long start, long end,
            List<UnicastEntry> unicast, List<MulticastEntry> multicast, int dumped) {
    }

    /**
     * A LinearForwardingTable entry.
     *
     * @param lid         the destination LID
     * @param port        the output port
     * @param valid       whether the port is one of the switch's (0..NumPorts); an invalid one shows only with {@code -a}
     * @param destination what the LID leads to; absent with {@code -n}
     */
    public record UnicastEntry(int lid, int port, boolean valid, Destination destination) {
    }

    /**
     * What a unicast LID leads to, as dump_fts names it: the end port's node type, GUID and name;
     * for the further LIDs of a port's LMC range, which path of how many; or why it cannot say.
     *
     * @param nodeType   the node's type ({@code Channel Adapter}, {@code Switch}, {@code Router})
     * @param portGuid   the destination port's GUID
     * @param name       the node's name
     * @param pathNumber for a LID of an LMC range, its position (1 for the base LID)
     * @param pathCount  the range's LIDs
     * @param problem    {@code illegal port} or {@code node info not available fabric scan}
     */
    public record Destination(String nodeType, Guid portGuid, String name, Integer pathNumber, Integer pathCount, String problem) {
        /** The text dump_fts prints after the entry. */
        String text() {
            if (pathNumber != null) {
                if (problem != null) {
                    return String.format(": (path #%d - %s)", pathNumber - 1, problem);
                }
                return portGuid == null ? String.format(": (path #%d out of %d)", pathNumber, pathCount)
                        : String.format(": (path #%d out of %d: portguid 0x%016x)", pathNumber, pathCount, portGuid.value());
            }
            if (problem != null) {
                return ": (" + problem + ")";
            }
            return String.format(": (%s portguid 0x%016x: '%s')", nodeType, portGuid.value(), name);
        }
    }

    /**
     * A MulticastForwardingTable entry.
     *
     * @param mlid  the multicast LID
     * @param ports the ports (0..NumPorts) its port mask sets
     */
    public record MulticastEntry(int mlid, List<Integer> ports) {
    }

    /** Where the text goes: standard output, or nowhere when the document is written instead. */
    private PrintWriter text() {
        return jsonRequested() ? new PrintWriter(Writer.nullWriter()) : out();
    }

    @Override
    protected int execute() {
        int start = lids.isEmpty() ? 0 : (int) CNumbers.strtoul(lids.get(0));
        int end = lids.size() < 2 ? 0 : (int) CNumbers.strtoul(lids.get(1));
        map = names.map();
        SmpClient smp = smp();
        DiscoveryOptions.Result discovery;
        try {
            discovery = discover(() -> SubnetDiscovery.run(smp), false);
        } catch (RdmaException e) {
            throw DiagError.stderr("Failed to discover fabric", ExitCodes.FAILED, e);
        }
        Subnet subnet = discovery.subnet();
        routes = new DirectedRoutes(subnet, subnet.from().isSwitch() ? 0 : subnet.from().info().localPortNum(), Set.of());
        List<Node> switches = subnet.switches().reversed();
        if (multicast) {
            multicastTables(smp, switches, start, end);
        } else {
            unicastTables(smp, switches, subnet, start, end);
        }
        int status = reportProblems(discovery.problems());
        return jsonRequested() ? jsonDocument(new Document(multicast ? "multicast" : "unicast", switchTables), status) : status;
    }

    /**
     * The directed route to a switch: discovery's, or where discovery used none ({@code --discovery
     * LID|SA}, {@code --cache}) the shortest over the subnet's links, the one a directed-route walk finds.
     */
    private SmpTarget.DirectedRoute route(Node sw) {
        return sw.route() != null ? sw.route() : routes.to(sw);
    }

    /** What dump_fts prints a switch as: its directed route from discovery ({@code DR path slid 0; dlid 0; 0,1,6}). */
    private String pathOf(Node sw) {
        return new PortId(0, 0, 0, PortId.directRoute(route(sw).ports()).path()).toString();
    }

    private String header(String kind, Node sw, long start, long end) {
        return String.format("%s [0x%x-0x%x] of switch %s guid 0x%016x (%s):%n", kind, start, end, pathOf(sw), sw.guid().value(),
                map.name(sw.guid(), sw.description()));
    }

    /**
     * The C tool's lines for a block it could not read, on standard error: libibmad's warning when
     * no answer came, then its own.
     */
    private void blockFailure(String table, Node sw, RdmaException e, long modifier) {
        int status = e instanceof MadException m ? m.status().orElse(0) : 0;
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof MadTimeoutException) {
                err().print(DiagError.ibwarn("mad_rpc", "_do_madrpc failed; dport (" + pathOf(sw) + ")") + "\n");
                break;
            }
        }
        err().printf("SubnGet(%s) failed on switch '%s' %s Node GUID 0x%x SMA LID %d; MAD status 0x%x AM 0x%x%n", table,
                map.name(sw.guid(), sw.description()), pathOf(sw), sw.guid().value(), sw.lid(), status, modifier);
        err().flush();
    }

    /** A block to read: a switch and an attribute modifier. */
    private record Block(Node sw, long modifier) {
    }

    private static int align(int value, int to) {
        return (value + to - 1) / to * to;
    }

    private void unicastTables(SmpClient smp, List<Node> switches, Subnet subnet, int start, int end) {
        Map<Node, int[]> ranges = new HashMap<>();
        List<Block> blocks = new ArrayList<>();
        for (Node sw : switches) {
            int top = sw.switchInfo().linearFdbTop();
            int last = end == 0 || end > top ? top : end;
            if (last > MAX_UNICAST_LID) {
                ranges.put(sw, new int[] {start, MAX_UNICAST_LID, last});
                last = MAX_UNICAST_LID;
            } else {
                ranges.put(sw, new int[] {start, last, -1});
            }
            for (int block = start / LIDS_PER_BLOCK; block < align(last, LIDS_PER_BLOCK) / LIDS_PER_BLOCK; block++) {
                blocks.add(new Block(sw, block));
            }
        }
        List<ParallelReads.Outcome<SmpLinearForwardingTable>> tables = ParallelReads.of(blocks, smp.engine().maxOutstanding(),
                b -> smp.get(new SmpLinearForwardingTable(), route(b.sw()), b.modifier()));
        Map<Integer, Port> byLid = portsByLid(subnet);
        PrintWriter out = text();
        int at = 0;
        for (Node sw : switches) {
            int[] range = ranges.get(sw);
            if (range[2] >= 0) {
                err().print(DiagError.ibwarn("dump_unicast_tables", String.format("illegal lft top %d, truncate to %d", range[2],
                        MAX_UNICAST_LID)) + "\n");
                err().flush();
            }
            int last = range[1];
            out.print(header("Unicast lids", sw, start, last));
            out.print("  Lid  Out   Destination\n");
            out.print("       Port     Info \n");
            Destinations destinations = new Destinations(byLid);
            int[] lft = new int[LIDS_PER_BLOCK];
            List<UnicastEntry> entries = new ArrayList<>();
            int dumped = 0;
            for (int block = start / LIDS_PER_BLOCK; block < align(last, LIDS_PER_BLOCK) / LIDS_PER_BLOCK; block++, at++) {
                ParallelReads.Outcome<SmpLinearForwardingTable> table = tables.get(at);
                if (table.ok()) {
                    for (int i = 0; i < LIDS_PER_BLOCK; i++) {
                        lft[i] = table.value().portBlock(i);
                    }
                } else {
                    out.flush();
                    blockFailure("LFT", sw, table.failure(), block);
                }
                for (int lid = Math.max(block * LIDS_PER_BLOCK, start); lid < Math.min(block * LIDS_PER_BLOCK + LIDS_PER_BLOCK, last + 1);
                        lid++) {
                    int port = lft[lid % LIDS_PER_BLOCK];
                    boolean valid = port <= sw.numPorts();
                    if (valid || all) {
                        Destination destination = brief ? null : destinations.describe(lid, valid);
                        out.printf("0x%04x %03d %s%n", lid, port, destination == null ? "" : destination.text());
                        entries.add(new UnicastEntry(lid, port, valid, destination));
                        dumped++;
                    }
                }
            }
            out.printf("%d %slids dumped %n", dumped, all ? "" : "valid ");
            switchTables.add(table(sw, start, last, entries, null, dumped));
        }
        out.flush();
    }

    /**
     * The ports of the subnet by LID, as libibnetdisc finds them: each port under every LID of its
     * LMC range (a switch port under its port 0's), the first port discovered keeping a LID.
     */
    private static Map<Integer, Port> portsByLid(Subnet subnet) {
        Map<Integer, Port> byLid = new HashMap<>();
        for (Node node : subnet.nodes()) {
            for (Port port : node.ports()) {
                int base = port.lid();
                if (base > 0 && base <= MAX_UNICAST_LID) {
                    for (int lid = base; lid < base + (1 << port.lmc()); lid++) {
                        byLid.putIfAbsent(lid, port);
                    }
                }
            }
        }
        return byLid;
    }

    /**
     * What dump_fts prints after each unicast entry of one switch ({@code dump_lid}): the
     * destination's node type, port GUID and name; the other LIDs of the LMC range of the last
     * port named print as {@code path #N out of M}.
     */
    private final class Destinations {
        private final Map<Integer, Port> byLid;
        private int base;
        private int last;
        private Guid lastPortGuid;

        Destinations(Map<Integer, Port> byLid) {
            this.byLid = byLid;
        }

        Destination describe(int lid, boolean valid) {
            if (lid <= last) {
                return new Destination(null, valid ? lastPortGuid : null, null, lid - base + 1, valid ? last - base + 1 : null,
                        valid ? null : "illegal port");
            }
            if (!valid) {
                return new Destination(null, null, null, null, null, "illegal port");
            }
            lastPortGuid = null;
            Port port = byLid.get(lid);
            if (port == null) {
                return new Destination(null, null, null, null, null, "node info not available fabric scan");
            }
            lastPortGuid = port.guid().value() == 0 ? null : port.guid();
            if (port.lmc() > 0) {
                base = port.lid();
                last = base + (1 << port.lmc()) - 1;
            }
            Node node = port.node();
            return new Destination(NodeType.describe(node.nodeTypeValue()), port.guid(), map.name(node.guid(), node.description()),
                    null, null, null);
        }
    }

    private SwitchTable table(Node sw, long start, long end, List<UnicastEntry> unicast, List<MulticastEntry> multicastEntries, int dumped) {
        return new SwitchTable(sw.guid(), map.name(sw.guid(), sw.description()), routeOf(sw),
                sw.lid(), start, end, unicast, multicastEntries, dumped);
    }

    private List<Integer> routeOf(Node sw) {
        return PortId.directRoute(route(sw).ports()).path();
    }

    private void multicastTables(SmpClient smp, List<Node> switches, int startLid, int endLid) {
        PrintWriter out = text();
        List<int[]> ranges = new ArrayList<>();
        List<List<String>> warnings = new ArrayList<>();
        List<Block> blocks = new ArrayList<>();
        for (Node sw : switches) {
            long start = Integer.toUnsignedLong(startLid);
            long end = Integer.toUnsignedLong(endLid);
            int cap = sw.switchInfo().multicastFdbCap();
            int top = sw.switchInfo().multicastFdbTop();
            List<String> warned = new ArrayList<>();
            if (end == 0 || end > MIN_MLID + cap - 1) {
                end = MIN_MLID + cap - 1;
            }
            if (!all && top != 0 && top < end) {
                if (top < MIN_MLID - 1) {
                    warned.add(String.format("illegal top mlid %x", top));
                } else {
                    end = top;
                }
            }
            if (start == 0) {
                start = MIN_MLID;
            } else if (start < MIN_MLID) {
                warned.add(String.format("illegal start mlid %x, set to %x", start, MIN_MLID));
                start = MIN_MLID;
            }
            if (end > MAX_MLID) {
                warned.add(String.format("illegal end mlid %x, truncate to %x", end, MAX_MLID));
                end = MAX_MLID;
            }
            ranges.add(new int[] {(int) start, (int) end});
            warnings.add(warned);
            int chunks = align(sw.numPorts() + 1, PORTS_PER_MASK) / PORTS_PER_MASK;
            for (long block = start / MLIDS_PER_BLOCK; block <= end / MLIDS_PER_BLOCK; block++) {
                for (int chunk = 0; chunk < chunks; chunk++) {
                    blocks.add(new Block(sw, (block - MIN_MLID / MLIDS_PER_BLOCK) & 0xFFFF_FFFFL | (long) chunk << 28));
                }
            }
        }
        List<ParallelReads.Outcome<SmpMulticastForwardingTable>> masks = ParallelReads.of(blocks, smp.engine().maxOutstanding(),
                b -> smp.get(new SmpMulticastForwardingTable(), route(b.sw()), b.modifier()));
        int at = 0;
        for (int s = 0; s < switches.size(); s++) {
            Node sw = switches.get(s);
            int start = ranges.get(s)[0];
            int end = ranges.get(s)[1];
            for (String warning : warnings.get(s)) {
                err().print(DiagError.ibwarn("dump_multicast_tables", warning) + "\n");
            }
            err().flush();
            int nports = sw.numPorts();
            out.print(header("Multicast mlids", sw, start, end));
            MulticastTableHeader.print(out, nports, brief);
            int chunks = align(nports + 1, PORTS_PER_MASK) / PORTS_PER_MASK;
            List<MulticastEntry> entries = new ArrayList<>();
            int dumped = 0;
            for (int block = start / MLIDS_PER_BLOCK; block <= end / MLIDS_PER_BLOCK; block++) {
                for (int chunk = 0; chunk < chunks; chunk++, at++) {
                    ParallelReads.Outcome<SmpMulticastForwardingTable> mask = masks.get(at);
                    if (mask.ok()) {
                        for (int i = 0; i < MLIDS_PER_BLOCK; i++) {
                            lastMasks[chunk][i] = mask.value().portMaskBlock(i);
                        }
                    } else {
                        out.flush();
                        blockFailure("MFT", sw, mask.failure(), blocks.get(at).modifier());
                    }
                }
                for (int mlid = Math.max(block * MLIDS_PER_BLOCK, start); mlid < Math.min(block * MLIDS_PER_BLOCK + MLIDS_PER_BLOCK, end + 1);
                        mlid++) {
                    String line = mlidLine(mlid % MLIDS_PER_BLOCK, nports, chunks);
                    if (line != null) {
                        out.printf("0x%04x      %s%n", mlid, line);
                        entries.add(new MulticastEntry(mlid, ports(mlid % MLIDS_PER_BLOCK, nports)));
                        dumped++;
                    }
                }
            }
            out.printf("%d %smlids dumped %n", dumped, all ? "" : "valid ");
            switchTables.add(table(sw, start, end, null, entries, dumped));
        }
        out.flush();
    }

    /** The ports 0..nports whose bit the port masks last read set for one MLID entry of the block. */
    private List<Integer> ports(int entry, int nports) {
        List<Integer> ports = new ArrayList<>();
        for (int port = 0; port <= nports; port++) {
            if ((lastMasks[port / PORTS_PER_MASK][entry] & 1 << port % PORTS_PER_MASK) != 0) {
                ports.add(port);
            }
        }
        return ports;
    }

    /** dump_fts's {@code dump_mlid}: the ports of one MLID as x marks, or with -n as hex masks; null when empty (unless -a). */
    private String mlidLine(int entry, int nports, int chunks) {
        StringBuilder line = new StringBuilder();
        boolean nonzero = false;
        if (brief) {
            for (int chunk = 0; chunk < chunks; chunk++) {
                int mask = lastMasks[chunk][entry];
                nonzero |= mask != 0;
                line.append(String.format("%04x", mask));
            }
        } else {
            for (int port = 0; port <= nports; port++) {
                int mask = lastMasks[port / PORTS_PER_MASK][entry];
                nonzero |= mask != 0;
                line.append((mask & 1 << port % PORTS_PER_MASK) != 0 ? 'x' : ' ').append(' ');
            }
        }
        return nonzero || all ? line.toString() : null;
    }
}

package org.jrdma.tools;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.jrdma.RdmaException;
import org.jrdma.iba.Guid;
import org.jrdma.iba.NodeType;
import org.jrdma.iba.smp.SmpLinearForwardingTable;
import org.jrdma.iba.smp.SmpMulticastForwardingTable;
import org.jrdma.iba.smp.SmpNodeDescription;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.iba.smp.SmpSwitchInfo;
import org.jrdma.mad.MadException;
import org.jrdma.mad.SmpClient;
import org.jrdma.mad.SmpTarget;
import org.jrdma.subnet.Node;
import org.jrdma.subnet.Subnet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtool ibroute}: a switch's unicast (LinearForwardingTable) or, with {@code -M},
 * multicast (MulticastForwardingTable) forwarding table, printed as infiniband-diags' ibroute
 * prints it, each unicast destination named by its NodeInfo and NodeDescription.
 *
 * <p>The tables' blocks and the destinations are read in parallel; the text is the C tool's, down
 * to its quirks (a range ending on a multiple of 64 stops one block short, as
 * {@code ALIGN(endlid, 64) / 64} does). Where the C tool prints {@code SubnGet() failed} and
 * still exits 0, this command exits 1.
 */
@Command(name = "ibroute", mixinStandardHelpOptions = true,
        description = "Dump a switch's unicast (or, with -M, multicast) forwarding table.")
final class IbrouteCommand extends FabricCommand implements DiscoversSubnet {
    private static final int LIDS_PER_BLOCK = 64;
    private static final int MLIDS_PER_BLOCK = 32;
    private static final int PORTS_PER_MASK = 16;
    private static final int MIN_MLID = 0xC000;
    private static final int MAX_MLID = 0xFFFE;
    private static final int MAX_UNICAST_LID = 0xBFFF;
    /** libibmad's xdump of 64 zero bytes. */
    private static final String ZERO_DUMP = String.join("\n", java.util.Collections.nCopies(4, "0000 0000 0000 0000 0000 0000 0000 0000"));

    @Mixin
    NodeNameMapOption names;

    @Mixin
    SaOption viaSa;

    @Mixin
    AddressOptions address;

    @Option(names = {"-a", "--all"}, description = "show all lids, even invalid entries")
    boolean all;

    @Option(names = {"-n", "--no_dests"}, description = "do not try to resolve destinations")
    boolean brief;

    @Option(names = {"-M", "--Multicast"}, description = "show multicast forwarding tables")
    boolean multicast;

    @Parameters(index = "0", paramLabel = "SWITCH", description = "the switch: a LID, with -D a directed route, with -G a port GUID")
    String switchAddress;

    @Parameters(index = "1", arity = "0..1", paramLabel = "STARTLID", description = "the first LID to show (decimal or 0x-hex)")
    String startLid;

    @Parameters(index = "2", arity = "0..1", paramLabel = "ENDLID", description = "the last LID to show (default: the table's top)")
    String endLid;

    /** The switch whose tables are dumped. */
    private record Switch(Destination at, SmpNodeInfo info, String description, SmpSwitchInfo switchInfo) {
        String header(String kind, int start, int end) {
            return String.format("%s [0x%x-0x%x] of switch %s guid 0x%016x (%s):%n", kind, start, end, at.portId(),
                    info.nodeGuid().value(), description);
        }
    }

    @Override
    int run() {
        int start = startLid == null ? 0 : parseLid(startLid);
        int end = endLid == null ? 0 : parseLid(endLid);
        RouteOrGuidOptions.Address at = address.parse(switchAddress);
        NodeNameMap map = names.map();
        SmpClient smp = viaSa.smp(fabric, engine());
        Switch sw = checkSwitch(smp, at.resolve(smp, fabric), map);
        if (multicast) {
            multicastTables(smp, sw, start, end, out());
        } else {
            unicastTables(smp, sw, start, end, map, out());
        }
        if (json()) {
            return json(new Json(sw.at().portId().toString(), sw.info().nodeGuid(), sw.description(), jsonUnicast, jsonMulticast), ExitCodes.OK);
        }
        return ExitCodes.OK;
    }

    /** With {@code --json}: the table entries shown, in order. */
    private final List<JsonRoute> jsonUnicast = new ArrayList<>();
    private final List<JsonMulticastRoute> jsonMulticast = new ArrayList<>();

    /**
     * {@code --json}: the switch, and its LinearForwardingTable entries ({@code unicast}, without
     * {@code -M}) or its MulticastForwardingTable entries ({@code multicast}, with {@code -M}) that
     * the text shows.
     */
    record Json(String destination, Guid nodeGuid, String nodeDescription, List<JsonRoute> unicast,
            List<JsonMulticastRoute> multicast) {
    }

    /** A LID, its output port and (unless {@code -n}) ibroute's description of what the port leads to. */
    record JsonRoute(int lid, int port, String destination) {
    }

    /** An MLID and the ports its PortMask sets. */
    record JsonMulticastRoute(int mlid, List<Integer> ports) {
    }

    private static Switch checkSwitch(SmpClient smp, Destination d, NodeNameMap map) {
        SmpNodeInfo info;
        try {
            info = smp.get(new SmpNodeInfo(), d.target(), 0);
        } catch (RdmaException e) {
            // The C tool then dumps its NodeInfo buffer, which no reply filled: 64 zero bytes.
            throw DiagError.exit("dump tables: node info failed: valid addr?", e).stderrLine("nodeinfo").stderrLine(ZERO_DUMP);
        }
        String description = explained("dump tables: node desc failed", () -> smp.get(new SmpNodeDescription(), d.target(), 0))
                .nodeString();
        if (info.nodeType() != NodeType.SWITCH.value()) {
            throw DiagError.exit("dump tables: not a switch");
        }
        SmpSwitchInfo switchInfo = explained("dump tables: switch info failed: is a switch node?",
                () -> smp.get(new SmpSwitchInfo(), d.target(), 0));
        return new Switch(d, info, map.name(info.nodeGuid(), description), switchInfo);
    }

    private void unicastTables(SmpClient smp, Switch sw, int start, int end, NodeNameMap map, PrintWriter out) {
        int top = sw.switchInfo().linearFdbTop();
        if (end == 0 || end > top) {
            end = top;
        }
        if (end > MAX_UNICAST_LID) {
            warn("illegal lft top %d, truncate to %d", end, MAX_UNICAST_LID);
            end = MAX_UNICAST_LID;
        }
        if (!json()) {
            out.print(sw.header("Unicast lids", start, end));
            out.print("  Lid  Out   Destination\n");
            out.print("       Port     Info \n");
        }
        int nports = sw.info().numPorts();
        List<Integer> blocks = IntStream.range(start / LIDS_PER_BLOCK, align(end, LIDS_PER_BLOCK) / LIDS_PER_BLOCK).boxed().toList();
        List<ParallelReads.Outcome<SmpLinearForwardingTable>> tables = ParallelReads.of(blocks, window(smp),
                block -> smp.get(new SmpLinearForwardingTable(), sw.at().target(), block));
        List<Integer> shown = new ArrayList<>();
        int stop = blocks.size();
        for (int b = 0; b < blocks.size(); b++) {
            if (!tables.get(b).ok()) {
                stop = b;
                break;
            }
            for (int lid : lidsOf(blocks.get(b), LIDS_PER_BLOCK, start, end)) {
                if (all || tables.get(b).value().portBlock(lid % LIDS_PER_BLOCK) <= nports) {
                    shown.add(lid);
                }
            }
        }
        Destinations destinations = brief ? null : discoveryOptions().given() ? Destinations.of(discover().subnet(), map, shown)
                : Destinations.read(smp, map, shown, tables, start / LIDS_PER_BLOCK, nports);
        for (int lid : shown) {
            int port = tables.get(lid / LIDS_PER_BLOCK - start / LIDS_PER_BLOCK).value().portBlock(lid % LIDS_PER_BLOCK);
            if (json()) {
                jsonUnicast.add(new JsonRoute(lid, port, brief ? null : destinations.describe(lid, port <= nports)));
            } else {
                out.printf("0x%04x %03d %s%n", lid, port, brief ? "" : destinations.describe(lid, port <= nports));
            }
        }
        if (stop < blocks.size()) {
            throw blockFailure(tables.get(stop).failure(), blocks.get(stop));
        }
        if (!json()) {
            out.printf("%d %slids dumped %n", shown.size(), all ? "" : "valid ");
        }
    }

    /** The LIDs of block {@code block} that lie in {@code start..end}. */
    private static int[] lidsOf(int block, int perBlock, int start, int end) {
        int from = Math.max(block * perBlock, start);
        int to = Math.min(block * perBlock + perBlock, end + 1);
        return IntStream.range(from, Math.max(from, to)).toArray();
    }

    private static int align(int value, int to) {
        return (value + to - 1) / to * to;
    }

    private static int window(SmpClient smp) {
        return smp.engine().maxOutstanding();
    }

    private static RdmaException blockFailure(RdmaException e, long modifier) {
        int status = e instanceof MadException m ? m.status().orElse(0) : 0;
        return new RdmaException(String.format("SubnGet() failed; MAD status 0x%x AM 0x%x (%s)", status, modifier, e.getMessage()), e);
    }

    private void warn(String format, Object... args) {
        warn(String.format(format, args));
    }

    /**
     * What ibroute prints after each unicast entry: the destination LID's node type, port GUID and
     * description, read with NodeDescription, PortInfo and NodeInfo SMPs to the LID. The C tool
     * reads them one LID at a time and remembers the LMC range of the last port it read, so the
     * other LIDs of that range print as {@code path #N out of M}; here every LID is read at once
     * and the same rule is applied afterwards. With python-rdma's discovery options
     * ({@link DiscoveryOptions#given}) they come from the subnet those give (a cache file or a
     * discovery) instead, as python-rdma's {@code ibroute} takes them.
     */
    private static final class Destinations {
        /** A destination end port: its node's description (or node-name-map name), LID, LMC, NodeType and PortGUID. */
        private record Port(String description, int lid, int lmc, int nodeType, long portGuid) {
        }

        private final Map<Integer, ParallelReads.Outcome<Port>> ports = new HashMap<>();
        private int base;
        private int last;
        private long lastPortGuid;

        static Destinations read(SmpClient smp, NodeNameMap map, List<Integer> shown, List<ParallelReads.Outcome<SmpLinearForwardingTable>> tables,
                int firstBlock, int nports) {
            List<Integer> valid = shown.stream()
                    .filter(lid -> lid > 0 && tables.get(lid / LIDS_PER_BLOCK - firstBlock).value().portBlock(lid % LIDS_PER_BLOCK) <= nports)
                    .toList();
            Destinations d = new Destinations();
            List<ParallelReads.Outcome<Port>> read = ParallelReads.of(valid, window(smp), lid -> {
                SmpTarget to = new SmpTarget.Lid(lid);
                String description = smp.get(new SmpNodeDescription(), to, 0).nodeString();
                SmpPortInfo portInfo = smp.get(new SmpPortInfo(), to, 0);
                SmpNodeInfo nodeInfo = smp.get(new SmpNodeInfo(), to, 0);
                return new Port(map.name(nodeInfo.nodeGuid(), description), portInfo.lid(), portInfo.lmc(), nodeInfo.nodeType(),
                        nodeInfo.portGuid().value());
            });
            for (int i = 0; i < valid.size(); i++) {
                d.ports.put(valid.get(i), read.get(i));
            }
            return d;
        }

        /**
         * The destinations of the {@code shown} LIDs as {@code subnet} has them: the end port whose
         * LID range holds the LID (a switch's port 0); a LID no port of the subnet has is an
         * unknown node, as a LID no port answers is to the C tool.
         */
        static Destinations of(Subnet subnet, NodeNameMap map, List<Integer> shown) {
            Map<Integer, org.jrdma.subnet.Port> byLid = new HashMap<>();
            for (Node node : subnet.nodes()) {
                for (org.jrdma.subnet.Port port : node.ports()) {
                    if (port.lid() == 0 || node.isSwitch() && port.number() != 0) {
                        continue;
                    }
                    for (int lid = port.lid(); lid < port.lid() + (1 << port.lmc()); lid++) {
                        byLid.put(lid, port);
                    }
                }
            }
            Destinations d = new Destinations();
            for (int lid : shown) {
                org.jrdma.subnet.Port port = byLid.get(lid);
                d.ports.put(lid, port == null ? new ParallelReads.Outcome<>(null, new RdmaException("LID " + lid + " is not in the subnet"))
                        : new ParallelReads.Outcome<>(new Port(map.name(port.node().guid(), port.node().description()), port.lid(), port.lmc(),
                                port.node().nodeTypeValue(), port.guid().value()), null));
            }
            return d;
        }

        /** ibroute's {@code dump_lid}, called for the shown LIDs in ascending order. */
        String describe(int lid, boolean valid) {
            if (lid <= last) {
                if (!valid) {
                    return String.format(": (path #%d - illegal port)", lid - base);
                }
                if (lastPortGuid == 0) {
                    return String.format(": (path #%d out of %d)", lid - base + 1, last - base + 1);
                }
                return String.format(": (path #%d out of %d: portguid 0x%016x)", lid - base + 1, last - base + 1, lastPortGuid);
            }
            if (!valid) {
                return ": (illegal port)";
            }
            lastPortGuid = 0;
            ParallelReads.Outcome<Port> outcome = ports.get(lid);
            if (!outcome.ok()) {
                return ": (unknown node and type)";
            }
            Port port = outcome.value();
            lastPortGuid = port.portGuid();
            if (port.lmc() > 0) {
                base = port.lid();
                last = base + (1 << port.lmc()) - 1;
            }
            return String.format(": (%s portguid 0x%016x: '%s')", NodeType.describe(port.nodeType()), lastPortGuid,
                    port.description());
        }
    }

    private void multicastTables(SmpClient smp, Switch sw, int start, int end, PrintWriter out) {
        int cap = sw.switchInfo().multicastFdbCap();
        int top = sw.switchInfo().multicastFdbTop();
        if (end == 0 || end > MIN_MLID + cap - 1) {
            end = MIN_MLID + cap - 1;
        }
        if (!all && top != 0 && top < end) {
            if (top < MIN_MLID - 1) {
                warn("illegal top mlid %x", top);
            } else {
                end = top;
            }
        }
        if (start == 0) {
            start = MIN_MLID;
        } else if (start < MIN_MLID) {
            warn("illegal start mlid %x, set to %x", start, MIN_MLID);
            start = MIN_MLID;
        }
        if (end > MAX_MLID) {
            warn("illegal end mlid %x, truncate to %x", end, MAX_MLID);
            end = MAX_MLID;
        }
        int nports = sw.info().numPorts();
        if (!json()) {
            out.print(sw.header("Multicast mlids", start, end));
            MulticastTableHeader.print(out, nports, brief);
        }
        int chunks = align(nports + 1, PORTS_PER_MASK) / PORTS_PER_MASK;
        List<Long> modifiers = new ArrayList<>();
        for (int block = start / MLIDS_PER_BLOCK; block <= end / MLIDS_PER_BLOCK; block++) {
            for (int chunk = 0; chunk < chunks; chunk++) {
                modifiers.add((long) (block - MIN_MLID / MLIDS_PER_BLOCK) | (long) chunk << 28);
            }
        }
        List<ParallelReads.Outcome<SmpMulticastForwardingTable>> masks = ParallelReads.of(modifiers, window(smp),
                mod -> smp.get(new SmpMulticastForwardingTable(), sw.at().target(), mod));
        int dumped = 0;
        int at = 0;
        for (int block = start / MLIDS_PER_BLOCK; block <= end / MLIDS_PER_BLOCK; block++, at += chunks) {
            for (int chunk = 0; chunk < chunks; chunk++) {
                if (!masks.get(at + chunk).ok()) {
                    throw blockFailure(masks.get(at + chunk).failure(), modifiers.get(at + chunk));
                }
            }
            for (int mlid : lidsOf(block, MLIDS_PER_BLOCK, start, end)) {
                String line = mlidLine(masks.subList(at, at + chunks), mlid % MLIDS_PER_BLOCK, nports);
                if (line != null && json()) {
                    List<Integer> ports = new ArrayList<>();
                    for (int port = 0; port <= nports; port++) {
                        if ((masks.get(at + port / PORTS_PER_MASK).value().portMaskBlock(mlid % MLIDS_PER_BLOCK) & 1 << port % PORTS_PER_MASK) != 0) {
                            ports.add(port);
                        }
                    }
                    jsonMulticast.add(new JsonMulticastRoute(mlid, ports));
                } else if (line != null) {
                    out.printf("0x%04x      %s%n", mlid, line);
                    dumped++;
                }
            }
        }
        if (!json()) {
            out.printf("%d %smlids dumped %n", dumped, all ? "" : "valid ");
        }
    }

    /** ibroute's {@code dump_mlid}: the ports of one MLID as x marks, or with -n as hex masks; null when empty. */
    private String mlidLine(List<ParallelReads.Outcome<SmpMulticastForwardingTable>> chunks, int entry, int nports) {
        StringBuilder line = new StringBuilder();
        boolean nonzero = false;
        if (brief) {
            for (ParallelReads.Outcome<SmpMulticastForwardingTable> chunk : chunks) {
                int mask = chunk.value().portMaskBlock(entry);
                nonzero |= mask != 0;
                line.append(String.format("%04x", mask));
            }
        } else {
            for (int port = 0; port <= nports; port++) {
                int mask = chunks.get(port / PORTS_PER_MASK).value().portMaskBlock(entry);
                nonzero |= mask != 0;
                line.append((mask & 1 << port % PORTS_PER_MASK) != 0 ? 'x' : ' ').append(' ');
            }
        }
        return nonzero || all ? line.toString() : null;
    }
}

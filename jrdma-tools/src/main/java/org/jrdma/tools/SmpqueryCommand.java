package org.jrdma.tools;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.iba.wire.MadAttribute;
import org.jrdma.iba.diag.SmpQuery;
import org.jrdma.iba.smp.SmpGuidInfo;
import org.jrdma.iba.smp.SmpNodeDescription;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.smp.SmpPKeyTable;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.iba.smp.SmpSlToVlMappingTable;
import org.jrdma.iba.smp.SmpSwitchInfo;
import org.jrdma.iba.smp.SmpVlArbitrationTable;
import org.jrdma.mad.SmpClient;
import org.jrdma.mad.SmpTarget;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtool smpquery}: reads one subnet management attribute of a node and prints it as
 * infiniband-diags' smpquery does (nodeinfo, nodedesc, portinfo, switchinfo, pkeys, sl2vl, vlarb,
 * guids).
 */
@Command(name = "smpquery", mixinStandardHelpOptions = true,
        description = "Query a subnet management attribute of a node: nodeinfo (NI), nodedesc (ND), portinfo (PI), "
                + "switchinfo (SI), pkeys (PKeys), sl2vl (SL2VL), vlarb (VLArb), guids (GI).")
final class SmpqueryCommand extends FabricCommand {
    /** Every operation and its alias, in lower case. */
    private static final List<String> OPERATIONS = List.of("nodeinfo", "ni", "nodedesc", "nd", "portinfo", "pi", "switchinfo", "si",
            "pkeys", "pkey", "guids", "gi", "sl2vl", "vlarb");
    private static final String NODE_INFO_FAILED = "node info query failed";
    private static final String PORT_INFO_FAILED = "port info query failed";
    private static final String SLVL_FAILED = "slvl query failed";
    /** The operations {@code --sa} answers, from NodeRecord, PortInfoRecord and SwitchInfoRecord. */
    private static final List<String> SA_OPERATIONS = List.of("nodeinfo", "ni", "nodedesc", "nd", "portinfo", "pi", "switchinfo", "si");

    @Mixin
    NodeNameMapOption names;

    @Mixin
    SaOption viaSa;

    @Option(names = {"-D", "--Direct"}, description = "the destination is a directed route 0,port,... from the local port")
    boolean directed;

    @Mixin
    ShowKeysOption keys;

    @Parameters(index = "0", paramLabel = "OP", description = "the attribute to query")
    String op;

    @Parameters(index = "1", paramLabel = "DEST", description = "a LID, or with -D a directed route")
    String dest;

    @Parameters(index = "2", arity = "0..1", paramLabel = "PORT", description = "the port (portinfo, pkeys, sl2vl, vlarb)")
    Integer port;

    @Override
    int run() {
        RouteOrGuidOptions.Address address = directed ? null : RouteOrGuidOptions.lidOrPath(dest, true);
        Destination d = directed ? Destination.parse(dest, true) : address.guid() == null ? address.destination() : address.resolve(smp(), fabric);
        NodeNameMap map = names.map();
        int p = port == null ? 0 : port;
        checkRange(p, 0, 254, "port");
        String operation = op.toLowerCase(Locale.ROOT);
        if (viaSa.on(fabric) && !SA_OPERATIONS.contains(operation)) {
            throw new UsageException("--sa answers " + String.join(", ", SA_OPERATIONS) + ": the SA gives P_KeyTableRecords only "
                    + "to trusted requesters (IBA 15.4.1) and keeps SL-to-VL and VL arbitration records only for the tables its SM set");
        }
        if (!OPERATIONS.contains(operation)) {
            throw DiagError.exit("operation '" + op + "' not supported");
        }
        Query smp = new Query(viaSa.smp(fabric, engine()), op);
        Answer answer = switch (operation) {
            case "nodeinfo", "ni" -> {
                SmpNodeInfo info = smp.get(new SmpNodeInfo(), d.target(), 0, NODE_INFO_FAILED);
                yield new Answer(SmpQuery.nodeInfo(d.portId(), info), "nodeInfo", info, List.of(info));
            }
            case "nodedesc", "nd" -> {
                SmpNodeDescription description = nodeDescription(smp, d.target(), map);
                yield new Answer(SmpQuery.nodeDescription(description), "nodeDescription", description.nodeString(), List.of(description));
            }
            case "portinfo", "pi" -> {
                SmpPortInfo info = smp.get(new SmpPortInfo(), d.target(), p, PORT_INFO_FAILED);
                yield new Answer(SmpQuery.portInfo(d.portId(), p, info, keys.diagOptions()), "portInfo", info, List.of(info));
            }
            case "switchinfo", "si" -> {
                SmpSwitchInfo info = smp.get(new SmpSwitchInfo(), d.target(), 0, "switch info query failed");
                yield new Answer(SmpQuery.switchInfo(d.portId(), info), "switchInfo", info, List.of(info));
            }
            case "pkeys", "pkey" -> pKeys(smp, d.target(), p);
            case "guids", "gi" -> guids(smp, d.target());
            case "sl2vl" -> slToVl(smp, d, p);
            case "vlarb" -> vlArbitration(smp, d, p);
            default -> throw new IllegalStateException(op);
        };
        if (json()) {
            Map<String, Object> document = new LinkedHashMap<>();
            document.put("operation", OPERATIONS.get(OPERATIONS.indexOf(operation) & ~1));
            document.put("destination", d.portId().toString());
            document.put("portNum", p);
            document.put(answer.key(), answer.value());
            return json(document, ExitCodes.OK);
        }
        out().print(python().intNames() ? IntNames.text(answer.structs()) : answer.text());
        return ExitCodes.OK;
    }

    /**
     * An operation's answer: smpquery's text, for {@code --json} the member that carries it
     * (named after the IBA attribute) and its value, and for {@code --int-names} the attributes read.
     */
    private record Answer(String text, String key, Object value, List<? extends IbaStruct> structs) {
    }

    /** The NodeDescription, its text replaced by the node name map's name for the node, if it has one. */
    private static SmpNodeDescription nodeDescription(Query smp, SmpTarget target, NodeNameMap map) {
        SmpNodeInfo node = smp.get(new SmpNodeInfo(), target, 0, NODE_INFO_FAILED);
        SmpNodeDescription description = smp.get(new SmpNodeDescription(), target, 0, "node desc query failed");
        return map.isEmpty() ? description : description.nodeString(map.name(node.nodeGuid(), description.nodeString()));
    }

    private static Answer pKeys(Query smp, SmpTarget target, int port) {
        SmpNodeInfo node = smp.get(new SmpNodeInfo(), target, 0, NODE_INFO_FAILED);
        smp.checkPort(port, node);
        // smpquery's rule: a switch's external ports hold PartitionEnforcementCap P_Keys.
        int capacity = node.nodeType() == 2 && port != 0
                ? smp.get(new SmpSwitchInfo(), target, 0, "switch info failed").partitionEnforcementCap() : node.partitionCap();
        List<SmpPKeyTable> blocks = new ArrayList<>();
        for (int i = 0; i < SmpQuery.pKeyBlocks(capacity); i++) {
            blocks.add(smp.get(new SmpPKeyTable(), target, i | (long) port << 16, "pkey table query failed"));
        }
        List<Integer> pKeys = new ArrayList<>();
        for (SmpPKeyTable block : blocks) {
            for (int i = 0; i < 32 && pKeys.size() < capacity; i++) {
                pKeys.add(block.pKeyBlock(i));
            }
        }
        return new Answer(SmpQuery.pKeys(blocks, capacity), "pKeys", pKeys, blocks);
    }

    private static Answer guids(Query smp, SmpTarget target) {
        int capacity = smp.get(new SmpPortInfo(), target, 0, "port info failed").guidCap();
        List<SmpGuidInfo> blocks = new ArrayList<>();
        for (int i = 0; i < SmpQuery.guidBlocks(capacity); i++) {
            blocks.add(smp.get(new SmpGuidInfo(), target, i, "guid info query failed"));
        }
        List<Object> guids = new ArrayList<>();
        for (SmpGuidInfo block : blocks) {
            block.fields().stream().limit(capacity - guids.size()).forEach(f -> guids.add(f.value(block, 0)));
        }
        return new Answer(SmpQuery.guids(blocks, capacity), "guids", guids, blocks);
    }

    private static Answer slToVl(Query smp, Destination d, int out) {
        SmpNodeInfo node = smp.get(new SmpNodeInfo(), d.target(), 0, NODE_INFO_FAILED);
        smp.checkPort(out, node);
        List<SmpQuery.SlToVlRow> rows = new ArrayList<>();
        if (node.nodeType() == 2) {
            for (int in = 0; in <= node.numPorts(); in++) {
                rows.add(new SmpQuery.SlToVlRow(in, out, smp.get(new SmpSlToVlMappingTable(), d.target(), in << 8 | out, SLVL_FAILED)));
            }
        } else {
            rows.add(new SmpQuery.SlToVlRow(0, 0, smp.get(new SmpSlToVlMappingTable(), d.target(), 0, SLVL_FAILED)));
        }
        return new Answer(SmpQuery.slToVl(d.portId(), rows), "slToVlMappingTables", rows,
                rows.stream().map(SmpQuery.SlToVlRow::table).toList());
    }

    private static Answer vlArbitration(Query smp, Destination d, int port) {
        SmpNodeInfo node = port != 0 ? null : smp.get(new SmpNodeInfo(), d.target(), 0, NODE_INFO_FAILED);
        if (node != null && node.nodeType() == 2
                && smp.get(new SmpSwitchInfo(), d.target(), 0, "switch info query failed").enhancedPort0() == 0) {
            return new Answer(SmpQuery.noVlArbitration(d.portId()), "vlArbitration", null, List.of());
        }
        SmpPortInfo info = smp.get(new SmpPortInfo(), d.target(), port, PORT_INFO_FAILED);
        int low = info.vlArbitrationLowCap();
        int high = info.vlArbitrationHighCap();
        List<SmpVlArbitrationTable> lowBlocks = vlArbitrationBlocks(smp, d.target(), port, 1, low);
        List<SmpVlArbitrationTable> highBlocks = vlArbitrationBlocks(smp, d.target(), port, 3, high);
        List<SmpVlArbitrationTable> blocks = new ArrayList<>(lowBlocks);
        blocks.addAll(highBlocks);
        return new Answer(SmpQuery.vlArbitration(d.portId(), port, low, high, lowBlocks, highBlocks), "vlArbitration",
                new VlArbitration(low, high, lowBlocks, highBlocks), blocks);
    }

    /** {@code --json} of vlarb: the capacities (PortInfo VLArbitrationLowCap, HighCap) and the blocks of each table. */
    record VlArbitration(int lowCap, int highCap, List<SmpVlArbitrationTable> low, List<SmpVlArbitrationTable> high) {
    }

    private static List<SmpVlArbitrationTable> vlArbitrationBlocks(Query smp, SmpTarget target, int port, int firstPart, int cap) {
        List<SmpVlArbitrationTable> blocks = new ArrayList<>();
        for (int i = 0; i < SmpQuery.vlArbitrationBlocks(cap); i++) {
            blocks.add(smp.get(new SmpVlArbitrationTable(), target, (long) (firstPart + i) << 16 | port, "vl arb query failed"));
        }
        return blocks;
    }

    /**
     * The SMP client and the operation as typed: a failed query is reported as smpquery reports
     * it, {@code operation <op>: <what failed>}.
     */
    private record Query(SmpClient smp, String op) {
        <T extends IbaStruct & MadAttribute> T get(T attribute, SmpTarget target, long modifier, String failure) {
            return explained("operation " + op + ": " + failure, () -> smp.get(attribute, target, modifier));
        }

        /** smpquery's check of a port number against the node's NumPorts (pkeys, sl2vl). */
        void checkPort(int port, SmpNodeInfo node) {
            if (port > node.numPorts()) {
                throw DiagError.exit("operation " + op + ": invalid port number");
            }
        }
    }
}

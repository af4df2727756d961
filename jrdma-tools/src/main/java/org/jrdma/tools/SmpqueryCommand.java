package org.jrdma.tools;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
        Destination d = Destination.parse(dest, directed);
        NodeNameMap map = names.map();
        int p = port == null ? 0 : port;
        checkRange(p, 0, 254, "port");
        String operation = op.toLowerCase(Locale.ROOT);
        if (viaSa.sa && !SA_OPERATIONS.contains(operation)) {
            throw new UsageException("--sa answers " + String.join(", ", SA_OPERATIONS) + ": the SA gives P_KeyTableRecords only "
                    + "to trusted requesters (IBA 15.4.1) and keeps SL-to-VL and VL arbitration records only for the tables its SM set");
        }
        SmpClient smp = viaSa.smp(fabric, engine());
        String text = switch (operation) {
            case "nodeinfo", "ni" -> SmpQuery.nodeInfo(d.portId(), smp.get(new SmpNodeInfo(), d.target(), 0));
            case "nodedesc", "nd" -> SmpQuery.nodeDescription(nodeDescription(smp, d.target(), map));
            case "portinfo", "pi" -> SmpQuery.portInfo(d.portId(), p, smp.get(new SmpPortInfo(), d.target(), p),
                    keys.diagOptions());
            case "switchinfo", "si" -> SmpQuery.switchInfo(d.portId(), smp.get(new SmpSwitchInfo(), d.target(), 0));
            case "pkeys", "pkey" -> pKeys(smp, d.target(), p);
            case "guids", "gi" -> guids(smp, d.target());
            case "sl2vl" -> slToVl(smp, d, p);
            case "vlarb" -> vlArbitration(smp, d, p);
            default -> throw new UsageException("unknown operation \"" + op + "\"");
        };
        out().print(text);
        return ExitCodes.OK;
    }

    /** The NodeDescription, its text replaced by the node name map's name for the node, if it has one. */
    private static SmpNodeDescription nodeDescription(SmpClient smp, SmpTarget target, NodeNameMap map) {
        SmpNodeDescription description = smp.get(new SmpNodeDescription(), target, 0);
        if (map.isEmpty()) {
            return description;
        }
        return description.nodeString(map.name(smp.get(new SmpNodeInfo(), target, 0).nodeGuid(), description.nodeString()));
    }

    private static String pKeys(SmpClient smp, SmpTarget target, int port) {
        SmpNodeInfo node = smp.get(new SmpNodeInfo(), target, 0);
        // smpquery's rule: a switch's external ports hold PartitionEnforcementCap P_Keys.
        int capacity = node.nodeType() == 2 && port != 0
                ? smp.get(new SmpSwitchInfo(), target, 0).partitionEnforcementCap() : node.partitionCap();
        List<SmpPKeyTable> blocks = new ArrayList<>();
        for (int i = 0; i < SmpQuery.pKeyBlocks(capacity); i++) {
            blocks.add(smp.get(new SmpPKeyTable(), target, i | (long) port << 16));
        }
        return SmpQuery.pKeys(blocks, capacity);
    }

    private static String guids(SmpClient smp, SmpTarget target) {
        int capacity = smp.get(new SmpPortInfo(), target, 0).guidCap();
        List<SmpGuidInfo> blocks = new ArrayList<>();
        for (int i = 0; i < SmpQuery.guidBlocks(capacity); i++) {
            blocks.add(smp.get(new SmpGuidInfo(), target, i));
        }
        return SmpQuery.guids(blocks, capacity);
    }

    private static String slToVl(SmpClient smp, Destination d, int out) {
        SmpNodeInfo node = smp.get(new SmpNodeInfo(), d.target(), 0);
        List<SmpQuery.SlToVlRow> rows = new ArrayList<>();
        if (node.nodeType() == 2) {
            for (int in = 0; in <= node.numPorts(); in++) {
                rows.add(new SmpQuery.SlToVlRow(in, out, smp.get(new SmpSlToVlMappingTable(), d.target(), in << 8 | out)));
            }
        } else {
            rows.add(new SmpQuery.SlToVlRow(0, 0, smp.get(new SmpSlToVlMappingTable(), d.target(), 0)));
        }
        return SmpQuery.slToVl(d.portId(), rows);
    }

    private static String vlArbitration(SmpClient smp, Destination d, int port) {
        SmpNodeInfo node = smp.get(new SmpNodeInfo(), d.target(), 0);
        if (node.nodeType() == 2 && port == 0 && smp.get(new SmpSwitchInfo(), d.target(), 0).enhancedPort0() == 0) {
            return SmpQuery.noVlArbitration(d.portId());
        }
        SmpPortInfo info = smp.get(new SmpPortInfo(), d.target(), port);
        int low = info.vlArbitrationLowCap();
        int high = info.vlArbitrationHighCap();
        return SmpQuery.vlArbitration(d.portId(), port, low, high, vlArbitrationBlocks(smp, d.target(), port, 1, low),
                vlArbitrationBlocks(smp, d.target(), port, 3, high));
    }

    private static List<SmpVlArbitrationTable> vlArbitrationBlocks(SmpClient smp, SmpTarget target, int port, int firstPart, int cap) {
        List<SmpVlArbitrationTable> blocks = new ArrayList<>();
        for (int i = 0; i < SmpQuery.vlArbitrationBlocks(cap); i++) {
            blocks.add(smp.get(new SmpVlArbitrationTable(), target, (long) (firstPart + i) << 16 | port));
        }
        return blocks;
    }
}

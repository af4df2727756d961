package org.jrdma.tools;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.jrdma.iba.diag.DiagOptions;
import org.jrdma.iba.diag.SaQuery;
import org.jrdma.iba.sa.SaLinkRecord;
import org.jrdma.iba.sa.SaNodeRecord;
import org.jrdma.iba.sa.SaPathRecord;
import org.jrdma.iba.sa.SaPortInfoRecord;
import org.jrdma.iba.sa.SaSmInfoRecord;
import org.jrdma.iba.smp.SmpNodeDescription;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.iba.wire.MadAttribute;
import org.jrdma.mad.GmpClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtool saquery}: SubnAdmGetTable queries to the subnet administrator, printed as
 * infiniband-diags' saquery prints them: NodeRecord ({@code NR [lid]}), PortInfoRecord
 * ({@code PIR [lid[/port]]}), LinkRecord ({@code LR [from_lid]}), PathRecord
 * ({@code PR [--slid L] [--dlid L]}) and SMInfoRecord ({@code SMIR}).
 */
@Command(name = "saquery", mixinStandardHelpOptions = true,
        description = "Query the subnet administrator: NR [lid], PIR [lid[/port]], LR [lid], PR [--slid L --dlid L], SMIR.")
final class SaqueryCommand extends FabricCommand {
    @Mixin
    NodeNameMapOption names;

    @Mixin
    ShowKeysOption keys;

    @Option(names = "--slid", paramLabel = "LID", description = "PathRecord source LID")
    String slid;

    @Option(names = "--dlid", paramLabel = "LID", description = "PathRecord destination LID")
    String dlid;

    @Parameters(index = "0", arity = "0..1", paramLabel = "QUERY", defaultValue = "NR",
            description = "NodeRecord (NR), PortInfoRecord (PIR), LinkRecord (LR), PathRecord (PR), SMInfoRecord (SMIR)")
    String query;

    @Parameters(index = "1", arity = "0..1", paramLabel = "ARG", description = "the record's LID (and /port for PIR)")
    String arg;

    @Override
    int run() {
        NodeNameMap map = names.map();
        int sa = LocalPort.read(smp()).smLid();
        GmpClient gmp = gmp();
        DiagOptions options = keys.diagOptions();
        String text = switch (query.toUpperCase(Locale.ROOT)) {
            case "NR", "NODERECORD" -> {
                SaNodeRecord q = new SaNodeRecord();
                long mask = arg == null ? 0 : set(() -> q.lid(parseLid(arg)), SaNodeRecord.LID_COMPONENT_MASK);
                yield print(gmp.subnAdmGetTable(q, mask, sa, SaNodeRecord::new), r -> SaQuery.nodeRecord(named(r, map)));
            }
            case "PIR", "PORTINFORECORD" -> {
                SaPortInfoRecord q = new SaPortInfoRecord();
                long mask = 0;
                if (arg != null) {
                    String[] parts = arg.split("/", -1);
                    mask |= set(() -> q.endportLid(parseLid(parts[0])), SaPortInfoRecord.ENDPORT_LID_COMPONENT_MASK);
                    if (parts.length > 1) {
                        mask |= set(() -> q.portNum(number(parts[1], "port", 255)), SaPortInfoRecord.PORT_NUM_COMPONENT_MASK);
                    }
                }
                yield print(gmp.subnAdmGetTable(q, mask, sa, SaPortInfoRecord::new), r -> SaQuery.portInfoRecord(r, options));
            }
            case "LR", "LINKRECORD" -> {
                SaLinkRecord q = new SaLinkRecord();
                long mask = arg == null ? 0 : set(() -> q.fromLid(parseLid(arg)), SaLinkRecord.FROM_LID_COMPONENT_MASK);
                yield print(gmp.subnAdmGetTable(q, mask, sa, SaLinkRecord::new), SaQuery::linkRecord);
            }
            case "PR", "PATHRECORD" -> {
                SaPathRecord q = new SaPathRecord();
                long mask = 0;
                if (slid != null) {
                    mask |= set(() -> q.slid(parseLid(slid)), SaPathRecord.SLID_COMPONENT_MASK);
                }
                if (dlid != null) {
                    mask |= set(() -> q.dlid(parseLid(dlid)), SaPathRecord.DLID_COMPONENT_MASK);
                }
                yield print(gmp.subnAdmGetTable(q, mask, sa, SaPathRecord::new), SaQuery::pathRecord);
            }
            case "SMIR", "SMINFORECORD" -> print(gmp.subnAdmGetTable(new SaSmInfoRecord(), 0, sa, SaSmInfoRecord::new),
                    SaQuery::smInfoRecord);
            default -> throw new UsageException("unknown query \"" + query + "\"");
        };
        out().print(text);
        return ExitCodes.OK;
    }

    private static long set(Runnable setter, long mask) {
        setter.run();
        return mask;
    }

    private static <T extends IbaStruct & MadAttribute> String print(List<T> records, Function<T, String> printer) {
        StringBuilder out = new StringBuilder();
        records.forEach(r -> out.append(printer.apply(r)));
        return out.toString();
    }

    private static int number(String text, String what, int max) {
        int n;
        try {
            n = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new UsageException("bad " + what + " \"" + text + "\"");
        }
        checkRange(n, 0, max, what);
        return n;
    }

    /** The record with its NodeDescription replaced by the node name map's name for its node, if it has one. */
    private static SaNodeRecord named(SaNodeRecord record, NodeNameMap map) {
        SmpNodeDescription description = record.nodeDescription();
        description.nodeString(map.name(record.nodeInfo().nodeGuid(), description.nodeString()));
        return record;
    }
}

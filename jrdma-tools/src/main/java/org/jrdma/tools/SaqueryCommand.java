package org.jrdma.tools;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Function;
import org.jrdma.iba.Lid;
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
import org.jrdma.mad.MadEngine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code ibtool saquery}: SubnAdmGetTable queries to the subnet administrator, printed as
 * infiniband-diags' saquery prints them: NodeRecord ({@code NR [lid]}), PortInfoRecord
 * ({@code PIR [lid[/port]]}), LinkRecord ({@code LR [from_lid]}), PathRecord
 * ({@code PR [--slid L] [--dlid L]}) and SMInfoRecord ({@code SMIR}).
 */
@Command(name = "saquery", mixinStandardHelpOptions = true,
        description = "Query the subnet administrator: NR [lid], PIR [lid[/port]], LR [lid], PR [--slid L --dlid L], SMIR.")
final class SaqueryCommand implements Callable<Integer> {
    @Mixin
    FabricOptions fabric;

    @Mixin
    NodeNameMapOption names;

    @Option(names = {"-K", "--show_keys"}, description = "show the M_Key instead of <not displayed>")
    boolean showKeys;

    @Option(names = "--slid", paramLabel = "LID", description = "PathRecord source LID")
    String slid;

    @Option(names = "--dlid", paramLabel = "LID", description = "PathRecord destination LID")
    String dlid;

    @Parameters(index = "0", arity = "0..1", paramLabel = "QUERY", defaultValue = "NR",
            description = "NodeRecord (NR), PortInfoRecord (PIR), LinkRecord (LR), PathRecord (PR), SMInfoRecord (SMIR)")
    String query;

    @Parameters(index = "1", arity = "0..1", paramLabel = "ARG", description = "the record's LID (and /port for PIR)")
    String arg;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        NodeNameMap map = names.map();
        try (MadEngine engine = fabric.openEngine()) {
            int sa = LocalPort.read(fabric.smp(engine)).smLid();
            GmpClient gmp = new GmpClient(engine, Duration.ofMillis(fabric.timeoutMillis), fabric.retries);
            DiagOptions options = DiagOptions.defaults().withShowKeys(showKeys);
            String text = switch (query.toUpperCase(Locale.ROOT)) {
                case "NR", "NODERECORD" -> {
                    SaNodeRecord q = new SaNodeRecord();
                    long mask = arg == null ? 0 : set(() -> q.lid(lid(arg)), SaNodeRecord.LID_COMPONENT_MASK);
                    yield print(gmp.subnAdmGetTable(q, mask, sa, SaNodeRecord::new), r -> SaQuery.nodeRecord(named(r, map)));
                }
                case "PIR", "PORTINFORECORD" -> {
                    SaPortInfoRecord q = new SaPortInfoRecord();
                    long mask = 0;
                    if (arg != null) {
                        String[] parts = arg.split("/", -1);
                        mask |= set(() -> q.endportLid(lid(parts[0])), SaPortInfoRecord.ENDPORT_LID_COMPONENT_MASK);
                        if (parts.length > 1) {
                            mask |= set(() -> q.portNum(number(parts[1], "port", 255)), SaPortInfoRecord.PORT_NUM_COMPONENT_MASK);
                        }
                    }
                    yield print(gmp.subnAdmGetTable(q, mask, sa, SaPortInfoRecord::new), r -> SaQuery.portInfoRecord(r, options));
                }
                case "LR", "LINKRECORD" -> {
                    SaLinkRecord q = new SaLinkRecord();
                    long mask = arg == null ? 0 : set(() -> q.fromLid(lid(arg)), SaLinkRecord.FROM_LID_COMPONENT_MASK);
                    yield print(gmp.subnAdmGetTable(q, mask, sa, SaLinkRecord::new), SaQuery::linkRecord);
                }
                case "PR", "PATHRECORD" -> {
                    SaPathRecord q = new SaPathRecord();
                    long mask = 0;
                    if (slid != null) {
                        mask |= set(() -> q.slid(lid(slid)), SaPathRecord.SLID_COMPONENT_MASK);
                    }
                    if (dlid != null) {
                        mask |= set(() -> q.dlid(lid(dlid)), SaPathRecord.DLID_COMPONENT_MASK);
                    }
                    yield print(gmp.subnAdmGetTable(q, mask, sa, SaPathRecord::new), SaQuery::pathRecord);
                }
                case "SMIR", "SMINFORECORD" -> print(gmp.subnAdmGetTable(new SaSmInfoRecord(), 0, sa, SaSmInfoRecord::new),
                        SaQuery::smInfoRecord);
                default -> throw new UsageException("unknown query \"" + query + "\"");
            };
            PrintWriter out = spec.commandLine().getOut();
            out.print(text);
            out.flush();
            return ExitCodes.OK;
        }
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

    private static int lid(String text) {
        try {
            return Lid.parse(text);
        } catch (IllegalArgumentException e) {
            throw new UsageException("bad LID \"" + text + "\": " + e.getMessage());
        }
    }

    private static int number(String text, String what, int max) {
        try {
            int n = Integer.parseInt(text);
            if (n < 0 || n > max) {
                throw new UsageException(what + " " + n + " outside 0.." + max);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new UsageException("bad " + what + " \"" + text + "\"");
        }
    }

    /** The record with its NodeDescription replaced by the node name map's name for its node, if it has one. */
    private static SaNodeRecord named(SaNodeRecord record, NodeNameMap map) {
        SmpNodeDescription description = record.nodeDescription();
        description.nodeString(map.name(record.nodeInfo().nodeGuid(), description.nodeString()));
        return record;
    }
}

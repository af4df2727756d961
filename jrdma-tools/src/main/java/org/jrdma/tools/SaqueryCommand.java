package org.jrdma.tools;

import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jrdma.iba.Guid;
import org.jrdma.iba.diag.DiagOptions;
import org.jrdma.iba.diag.SaQuery;
import org.jrdma.iba.mad.MadClassPortInfo;
import org.jrdma.iba.sa.SaMcMemberRecord;
import org.jrdma.iba.sa.SaNodeRecord;
import org.jrdma.iba.sa.SaPortInfoRecord;
import org.jrdma.iba.smp.SmpNodeDescription;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.iba.wire.MadAttribute;
import org.jrdma.tools.SaQueryTable.Template;
import org.jrdma.tools.json.JsonOutput;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtool saquery}: infiniband-diags' saquery. The subnet administrator's records by query
 * name ({@link SaQueryTable}: NR, PIR, SL2VL, PKTR, VLAR, IIR, LR, SR, PR, MCMR, LFTR, MFTR, GIR,
 * SWIR, SMIR, CPI) with their {@code lid/port/...} arguments and the PathRecord and MCMemberRecord
 * selectors ({@link SaqueryParams}), and its other commands: node names, LIDs and GUIDs from the
 * NodeRecords ({@code -N -D -L -l -G -O -U}), the SM ports ({@code -s}), multicast groups and
 * members ({@code -g -m}), the SA's ClassPortInfo ({@code -c}). As with getopt, of the options
 * choosing what to do the last one given wins. Output, messages and statuses are saquery's.
 */
@Command(name = "saquery", mixinStandardHelpOptions = true,
        description = "Query the subnet administrator's records, as infiniband-diags' saquery.")
final class SaqueryCommand extends FabricCommand implements HelpFooter {
    /** PortInfoRecord's ComponentMask bit for PortInfo:CapabilityMask (IBA 15.2.5.3: the eighth component). */
    private static final long PIR_CAPABILITY_MASK_COMPONENT = 1L << 7;
    /** PortInfo:CapabilityMask IsSM and IsSMDisabled. */
    private static final long IS_SM = 1 << 1;
    private static final long IS_SM_DISABLED = 1 << 10;
    /** PortInfoRecord attribute modifier bit 31: any of the template's CapabilityMask bits. */
    private static final long ANY_CAPABILITY = 1L << 31;

    private enum Mode { QUERY, NODE_RECORD, CLASS_PORT_INFO, ISSM, MCGROUPS, MCMEMBERS }

    private enum NodePrint { ALL, LID_ONLY, UNIQUE_LID_ONLY, GUID_ONLY, ALL_DESC, NAME_OF_LID, NAME_OF_GUID }

    @Mixin
    NodeNameMapOption names;

    @Mixin
    ShowKeysOption keys;

    @Mixin
    SaqueryParams params;

    @Parameters(paramLabel = "ARG", description = "[query-name] [<name> | <lid> | <guid>] and the query's arguments")
    List<String> words = new ArrayList<>();

    private Mode mode = Mode.QUERY;
    private NodePrint nodePrint = NodePrint.ALL;
    private SaQueryTable queryType;
    private String srcName;
    private String dstName;
    private String smKeyText;

    @Option(names = {"-p", "--p"}, description = "get PathRecord info")
    void pathRecords(boolean on) {
        queryType = SaQueryTable.PATH_RECORD;
    }

    @Option(names = {"-N", "--N"}, description = "get NodeRecord info")
    void nodeRecords(boolean on) {
        mode = Mode.NODE_RECORD;
    }

    @Option(names = {"-L", "--L"}, description = "return the Lids of the name specified")
    void lids(boolean on) {
        nodes(NodePrint.LID_ONLY);
    }

    @Option(names = {"-l", "--l"}, description = "return the unique Lid of the name specified")
    void uniqueLid(boolean on) {
        nodes(NodePrint.UNIQUE_LID_ONLY);
    }

    @Option(names = {"-G", "--G"}, description = "return the Guids of the name specified")
    void guids(boolean on) {
        nodes(NodePrint.GUID_ONLY);
    }

    @Option(names = {"-O", "--O"}, description = "return name for the Lid specified")
    void nameOfLid(boolean on) {
        nodes(NodePrint.NAME_OF_LID);
    }

    @Option(names = {"-U", "--U"}, description = "return name for the Guid specified")
    void nameOfGuid(boolean on) {
        nodes(NodePrint.NAME_OF_GUID);
    }

    @Option(names = {"-D", "--list"}, description = "the node desc of the CA's")
    void list(boolean on) {
        nodes(NodePrint.ALL_DESC);
    }

    @Option(names = {"-s", "--s"}, description = "return the PortInfoRecords with isSM or isSMdisabled capability mask bit on")
    void smPorts(boolean on) {
        mode = Mode.ISSM;
    }

    @Option(names = {"-g", "--g"}, description = "get multicast group info")
    void groups(boolean on) {
        mode = Mode.MCGROUPS;
    }

    @Option(names = {"-m", "--m"}, description = "get multicast member info")
    void members(boolean on) {
        mode = Mode.MCMEMBERS;
    }

    @Option(names = {"-x", "--x"}, description = "get LinkRecord info")
    void links(boolean on) {
        queryType = SaQueryTable.LINK_RECORD;
    }

    @Option(names = {"-c", "--c"}, description = "get the SA's class port info")
    void classPortInfo(boolean on) {
        mode = Mode.CLASS_PORT_INFO;
    }

    @Option(names = {"-S", "--S"}, description = "get ServiceRecord info")
    void services(boolean on) {
        queryType = SaQueryTable.SERVICE_RECORD;
    }

    @Option(names = {"-I", "--I"}, description = "get InformInfoRecord (subscription) info")
    void subscriptions(boolean on) {
        queryType = SaQueryTable.INFORM_INFO_RECORD;
    }

    @Option(names = "--src-to-dst", paramLabel = "<src:dst>", description = "get a PathRecord for <src:dst> (node names or LIDs)")
    void srcToDst(String text) {
        int colon = text.indexOf(':');
        if (colon < 0) {
            throw new UsageException(null, "--src-to-dst needs <src:dst>");
        }
        srcName = text.substring(0, colon);
        dstName = text.substring(colon + 1);
        params.numbPath = 0x7f;
        queryType = SaQueryTable.PATH_RECORD;
    }

    @Option(names = "--sgid-to-dgid", paramLabel = "<sgid-dgid>", description = "get a PathRecord for <sgid-dgid> (IPv6 format)")
    void sgidToDgid(String text) {
        int dash = text.indexOf('-');
        if (dash < 0) {
            throw new UsageException(null, "--sgid-to-dgid needs <sgid-dgid>");
        }
        params.sgid = SaqueryParams.gidBytes(text.substring(0, dash));
        params.dgid = SaqueryParams.gidBytes(text.substring(dash + 1));
        params.numbPath = 0x7f;
        queryType = SaQueryTable.PATH_RECORD;
    }

    @Option(names = "--smkey", paramLabel = "<val>", description = "SA SM_Key value for the query (default: the configuration's sa_key, else 0, untrusted)")
    void smKey(String text) {
        smKeyText = text;
    }

    private void nodes(NodePrint print) {
        nodePrint = print;
        mode = Mode.NODE_RECORD;
    }

    /** With {@code --json}: the records, in the order the text would print them. */
    private final List<Object> jsonRecords = new ArrayList<>();

    @Override
    int run() {
        List<String> args = new ArrayList<>(words);
        SaQueryTable query = queryType;
        if (query == null && mode == Mode.QUERY) {
            query = args.isEmpty() ? null : SaQueryTable.find(args.getFirst()).orElse(null);
            if (query == null) {
                query = SaQueryTable.NODE_RECORD;
            } else {
                args.removeFirst();
            }
        }
        String requestedName = null;
        Integer requestedLid = null;
        Long requestedGuid = null;
        if (!args.isEmpty()) {
            switch (nodePrint) {
                case NAME_OF_LID -> requestedLid = (int) CNumbers.strtoul(args.getFirst()) & 0xffff;
                case NAME_OF_GUID -> requestedGuid = CNumbers.strtoul(args.getFirst());
                default -> requestedName = args.getFirst();
            }
        }
        checkArguments(requestedName, requestedLid, requestedGuid);
        long smKey = smKeyText == null ? fabric.configuredSaKey() : CNumbers.strtoul(SaqueryParams.secret(smKeyText, "SM_Key", this::prompt));
        params.readKeys(this::prompt);
        SaHandle sa = new SaHandle(engine(), fabric.timeout(), fabric.retries(), fabric.saPath(engine(), () -> LocalPort.read(smp()).smLid(), smKey));
        NodeNameMap map = names.map();
        SaqueryLids lids = new SaqueryLids(() -> sa.all(new SaNodeRecord()));
        if (srcName != null && !srcName.isEmpty()) {
            params.slid = lids.lid(srcName);
        }
        if (dstName != null && !dstName.isEmpty()) {
            params.dlid = lids.lid(dstName);
        }
        String text = switch (mode) {
            case NODE_RECORD -> nodeRecords(sa, map, requestedName, requestedLid, requestedGuid);
            case CLASS_PORT_INFO -> each(List.of(sa.classPortInfo()), r -> SaRecordPrinter.classPortInfo(r.toBytes()));
            case ISSM -> "IsSM ports\n" + smPorts(sa, IS_SM) + "\nIsSMdisabled ports\n" + smPorts(sa, IS_SM_DISABLED);
            case MCGROUPS -> each(sa.all(new SaMcMemberRecord()), r -> SaRecordPrinter.mcGroup(r.toBytes()));
            case MCMEMBERS -> mcMembers(sa, map, requestedName);
            case QUERY -> query.run(new QueryRun(sa, lids, map), args);
        };
        if (json()) {
            return json(new Json(jsonRecords), ExitCodes.OK);
        }
        out().print(text);
        return ExitCodes.OK;
    }

    /**
     * saquery's {@code getpass("<what>: ")}: the key typed on the terminal without echo, else
     * (no terminal) the prompt on standard error and a line of standard input, empty at its end.
     */
    private String prompt(String what) {
        Console console = System.console();
        if (console != null) {
            char[] typed = console.readPassword("%s: ", what);
            return typed == null ? "" : new String(typed);
        }
        err().print(what + ": ");
        err().flush();
        String line;
        try {
            line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        err().print("\n");
        return line == null ? "" : line;
    }

    /** saquery's checks of the node options' argument, each its own line before the usage. */
    private void checkArguments(String name, Integer lid, Long guid) {
        if ((nodePrint == NodePrint.LID_ONLY || nodePrint == NodePrint.UNIQUE_LID_ONLY || nodePrint == NodePrint.GUID_ONLY)
                && name == null) {
            throw new UsageException("ERROR: name not specified", "-L, -l and -G need a node name");
        }
        if (nodePrint == NodePrint.NAME_OF_LID && lid == null) {
            throw new UsageException("ERROR: lid not specified", "-O needs a LID");
        }
        if (nodePrint == NodePrint.NAME_OF_GUID && guid == null) {
            throw new UsageException("ERROR: guid not specified", "-U needs a port GUID");
        }
        if (nodePrint == NodePrint.NAME_OF_LID && lid == 0) {
            throw new UsageException("ERROR: lid invalid", "LID 0 is no port's LID (IBA 4.1.3)");
        }
    }

    /**
     * {@code --json}: the records the SA returned for the query, each by field as IBA names them
     * ({@code lid}, {@code nodeInfo.nodeGUID}, {@code portInfo.linkWidthActive}); node records carry
     * the node name map's name in {@code nodeDescription}, MCMemberRecords of {@code -m} add the member's
     * {@code nodeName}. The node options (-L, -l, -G, -O, -U) select the NodeRecords; their record is
     * given whole.
     */
    record Json(List<Object> records) {
    }

    /** {@code print_node_records}: the NodeRecords the node options and the name select, printed as they say. */
    private String nodeRecords(SaHandle sa, NodeNameMap map, String name, Integer lid, Long guid) {
        StringBuilder out = new StringBuilder();
        if (nodePrint == NodePrint.ALL_DESC) {
            out.append("   LID \"name\"\n================\n");
        }
        for (SaNodeRecord record : sa.all(new SaNodeRecord())) {
            String description = record.nodeDescription().nodeString();
            String mapped = map.name(record.nodeInfo().nodeGuid(), description);
            switch (nodePrint) {
                case ALL_DESC -> {
                    if (record.nodeInfo().nodeType() == 1) {
                        out.append(String.format("%6d  \"%s\"\n", record.lid(), mapped));
                    }
                }
                case NAME_OF_LID -> {
                    if (record.lid() == lid) {
                        out.append(nodeLine(record, mapped));
                    }
                }
                case NAME_OF_GUID -> {
                    if (record.nodeInfo().portGuid().equals(new Guid(guid))) {
                        out.append(nodeLine(record, mapped));
                    }
                }
                default -> {
                    if (name == null || SaqueryLids.sameName(name, description) || SaqueryLids.sameName(name, mapped)) {
                        out.append(nodeLine(record, mapped));
                        if (nodePrint == NodePrint.UNIQUE_LID_ONLY) {
                            return out.toString();
                        }
                    }
                }
            }
        }
        return out.toString();
    }

    /** {@code print_node_record}: the LID, the port GUID, the name, or the whole record. */
    private String nodeLine(SaNodeRecord record, String mapped) {
        if (json()) {
            jsonRecords.add(withName(record, mapped));
            return "";
        }
        return switch (nodePrint) {
            case LID_ONLY, UNIQUE_LID_ONLY -> record.lid() + "\n";
            case GUID_ONLY -> String.format("0x%016x\n", record.nodeInfo().portGuid().value());
            case NAME_OF_LID, NAME_OF_GUID -> mapped + "\n";
            default -> python().intNames() ? withName(record, mapped).toDottedString() : SaQuery.nodeRecord(withName(record, mapped));
        };
    }

    /** The PortInfoRecords of the ports having the CapabilityMask bit {@code capability} ({@code get_issm_records}). */
    private String smPorts(SaHandle sa, long capability) {
        byte[] template = new byte[72];
        for (int i = 0; i < 4; i++) {
            template[24 + i] = (byte) (capability >> (24 - 8 * i));
        }
        return each(sa.getTable(new SaPortInfoRecord(template, 0), PIR_CAPABILITY_MASK_COMPONENT, ANY_CAPABILITY),
                r -> SaRecordPrinter.portInfoBrief(r.toBytes()));
    }

    /** {@code print_multicast_member_records}: every membership, named by the node owning its port GUID. */
    private String mcMembers(SaHandle sa, NodeNameMap map, String requestedName) {
        List<SaMcMemberRecord> members = sa.all(new SaMcMemberRecord());
        List<SaNodeRecord> nodes = sa.all(new SaNodeRecord());
        StringBuilder out = new StringBuilder();
        for (SaMcMemberRecord member : members) {
            byte[] r = member.toBytes();
            long interfaceId = SaRecordPrinter.u64(r, 24);
            String nodeName = "<unknown>";
            for (SaNodeRecord node : nodes) {
                if (node.nodeInfo().portGuid().value() == interfaceId) {
                    nodeName = map.name(node.nodeInfo().nodeGuid(), node.nodeDescription().nodeString());
                    break;
                }
            }
            if (json()) {
                if (requestedName == null || CNumbers.strtoul(requestedName) == SaRecordPrinter.u16(r, 36)) {
                    Map<String, Object> named = JsonOutput.fields(member);
                    named.put("nodeName", nodeName);
                    jsonRecords.add(named);
                }
            } else if (requestedName == null) {
                out.append(python().intNames() ? member.toDottedString() : SaRecordPrinter.mcMember(r, nodeName));
            } else if (CNumbers.strtoul(requestedName) == SaRecordPrinter.u16(r, 36)) {
                out.append(SaRecordPrinter.mcMemberGid(r, nodeName));
            }
        }
        return out.toString();
    }

    /** Each record printed, or with {@code --json} kept for the document. */
    private <T> String each(List<T> records, Function<T, String> printer) {
        if (json()) {
            jsonRecords.addAll(records);
            return "";
        }
        StringBuilder out = new StringBuilder();
        records.forEach(r -> out.append(python().intNames() && r instanceof IbaStruct struct ? struct.toDottedString() : printer.apply(r)));
        return out.toString();
    }

    /** The record with its NodeDescription replaced by {@code name}. */
    private static SaNodeRecord withName(SaNodeRecord record, String name) {
        SmpNodeDescription description = record.nodeDescription();
        description.nodeString(name);
        return record;
    }

    /** A query's view of this run. */
    private final class QueryRun implements SaQueryTable.Run {
        private final SaHandle sa;
        private final SaqueryLids lids;
        private final NodeNameMap map;

        QueryRun(SaHandle sa, SaqueryLids lids, NodeNameMap map) {
            this.sa = sa;
            this.lids = lids;
            this.map = map;
        }

        @Override
        public void parse(List<String> args, int index) {
            lids.parse(args, index);
        }

        @Override
        public long lid() {
            return lids.lid();
        }

        @Override
        public long part(int n) {
            return lids.part(n);
        }

        @Override
        public byte[] classPortInfo() {
            MadClassPortInfo cpi = sa.classPortInfo();
            return cpi.toBytes();
        }

        @Override
        public SaqueryParams params() {
            return params;
        }

        @Override
        public DiagOptions options() {
            return keys.diagOptions();
        }

        @Override
        public SaNodeRecord named(SaNodeRecord record) {
            return withName(record, map.name(record.nodeInfo().nodeGuid(), record.nodeDescription().nodeString()));
        }

        @Override
        public <T extends IbaStruct & MadAttribute> String print(Template t, Supplier<T> type, Function<IbaStruct, String> printer) {
            T template = type.get();
            template.unpack(t.bytes, 0);
            return each(sa.getTable(template, t.mask, 0), printer::apply);
        }

        @Override
        public <T extends IbaStruct & MadAttribute> String printBytes(Template t, Supplier<T> type, Function<byte[], String> printer) {
            return print(t, type, r -> printer.apply(r.toBytes()));
        }
    }

    /**
     * The queries saquery knows, with their aliases and arguments, as its usage lists them (python-rdma's
     * {@code saquery_help}).
     */
    @Override
    public String helpFooter() {
        String usage = DiagUsage.cText("saquery");
        int from = usage.indexOf("Supported query names");
        int to = usage.indexOf("\nOptions:", from);
        return "\n" + usage.substring(from, to).stripTrailing() + "\n";
    }
}

package org.jrdma.tools;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.jrdma.RdmaException;
import org.jrdma.iba.Guid;
import org.jrdma.iba.mad.MadClassPortInfo;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.pm.PmPortCounters;
import org.jrdma.iba.pm.PmPortCountersExtended;
import org.jrdma.iba.pm.PmPortRcvErrorDetails;
import org.jrdma.iba.pm.PmPortXmitDiscardDetails;
import org.jrdma.mad.GmpClient;
import org.jrdma.mad.MadTimeoutException;
import org.jrdma.mad.SmpClient;
import org.jrdma.mad.SmpTarget;
import org.jrdma.subnet.Neighborhood;
import org.jrdma.subnet.Node;
import org.jrdma.subnet.Port;
import org.jrdma.subnet.Subnet;
import org.jrdma.subnet.SubnetCache;
import org.jrdma.subnet.SubnetCacheException;
import org.jrdma.subnet.SubnetDiscovery;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ibtool ibqueryerrors}: discovers the fabric, reads the PortCounters of every port from
 * its performance management agent and reports the ports whose error counters are beyond their
 * thresholds ({@link ErrorThresholds}), then a summary, as infiniband-diags' ibqueryerrors prints
 * them; exit status 1 when some port has errors. A switch whose agent can read all its ports at
 * once (ClassPortInfo AllPortSelect) is read as a whole first, port by port only if it has errors.
 * The nodes are read in parallel, each node's reads in the C tool's order, their MADs submitted to
 * the engine with no thread waiting for a reply ({@link ParallelReads#submitted}), and printed in
 * libibnetdisc's order (the reverse of discovery order).
 *
 * <p>{@code -G}/{@code -S} (a port GUID) or {@code -D} (a directed route) report the one node that
 * holds the port, found by a scan one hop around it.
 *
 * <p>Where it differs from the C tool: the PerfMgt reads go on SL 0, where the C tool first asks
 * the SA for a PathRecord to every port for its SL (the same SL under OpenSM's default
 * configuration). The C tool's scan from a switch's GUID starts by LID and hangs under ibsim; this
 * command finds the switch by a directed-route walk. From an adapter's GUID the C tool cannot see
 * past the adapter (it does not forward directed-route SMPs), so {@code -r} prints no remote port
 * there; this command's scan sees the switch and prints it. With {@code -D}, libibnetdisc's scan follows
 * the route one hop too far and prints a timeout on standard error for a route that ends at an
 * adapter or at no node (before its {@code Failed to query local Node Info}); this command does not.
 * {@code --details} prints PortXmitDiscardDetails after PortXmitDiscards and PortRcvErrorDetails after
 * PortRcvErrors, each counter by its own name, where the C tool reads the right attribute but prints
 * its counters under the other attribute's names (and so omits PortVLMappingErrors and
 * PortLoopingErrors). With {@code --load-cache} and {@code -G}, a GUID is looked for in the cache
 * alone (the C tool first asks the SA for it). {@code --skip-sl} is not implemented.
 */
@Command(name = "ibqueryerrors", mixinStandardHelpOptions = true,
        description = "Report the ports of the fabric whose error counters are beyond their thresholds.")
final class IbqueryerrorsCommand extends FabricCommand implements DiscoversSubnet {
    /** PortSelect 0xFF: every port of the node at once. */
    static final int ALL_PORTS = 0xFF;
    /** PerfMgt ClassPortInfo CapabilityMask bits (IBA 16.1.2, table 220 and annex A13). */
    private static final int ALL_PORT_SELECT = 1 << 8;
    private static final int EXT_WIDTH_SUPPORTED = 1 << 9;
    private static final int EXT_WIDTH_NOIETF = 1 << 10;
    private static final int XMIT_WAIT_SUPPORTED = 1 << 12;
    /** CapabilityMask2 bit 1: IsAdditionalPortCountersExtendedSupported, 64-bit error counters. */
    private static final int ADDITIONAL_EXTENDED = 1 << 1;
    /** The C tool's bound on suppressed fields. */
    private static final int SUPPRESS_MAX = 64;

    @Mixin
    NodeNameMapOption names;

    @Option(names = {"-G", "--port-guid", "-S"}, paramLabel = "<port_guid>",
            description = "report the node containing the port specified by <port_guid>")
    String portGuid;

    @Option(names = {"-D", "--Direct"}, paramLabel = "<dr_path>", description = "report the node containing the port specified by <dr_path>")
    String directRoute;

    @Option(names = "--load-cache", paramLabel = "<file>", description = "filename of ibnetdiscover cache to load")
    Path loadCache;

    @Option(names = {"-r", "--report-port"}, description = "report port link information")
    boolean reportPort;

    @Option(names = "--threshold-file", paramLabel = "FILE",
            description = "specify an alternate threshold file, default: /etc/infiniband-diags/error_thresholds")
    Path thresholdFile = ErrorThresholds.DEFAULT_FILE;

    @Option(names = {"-R", "--GNDN"}, description = "(This option is obsolete and does nothing)")
    boolean gndn;

    @Option(names = "--data", description = "include data counters for ports with errors")
    boolean data;

    @Option(names = "--switch", description = "print data for switches only")
    boolean switches;

    @Option(names = "--ca", description = "print data for CA's only")
    boolean cas;

    @Option(names = "--router", description = "print data for routers only")
    boolean routers;

    @Option(names = "--details", description = "include transmit discard details")
    boolean details;

    @Option(names = "--counters", description = "print data counters only")
    boolean countersOnly;

    @Option(names = {"-k", "--clear-errors"}, description = "Clear error counters after read")
    boolean clearErrors;

    @Option(names = {"-K", "--clear-counts"}, description = "Clear data counters after read")
    boolean clearCounts;

    /** The suppressed fields in command-line order, with the C tool's warnings for those beyond its bound. */
    private final List<String> suppressed = new ArrayList<>();
    private final List<String> suppressWarnings = new ArrayList<>();
    private NodeNameMap map = NodeNameMap.EMPTY;

    @Option(names = {"-s", "--suppress"}, paramLabel = "<err1,err2,...>", description = "suppress errors listed")
    void suppress(String list) {
        for (String name : list.split(",")) {
            if (PortCounter.FIELD_NAMES.contains(name)) {
                addSuppressed(name);
            }
        }
    }

    @Option(names = {"-c", "--suppress-common"}, description = "suppress some of the common counters")
    void suppressCommon(boolean on) {
        addSuppressed("PortRcvSwitchRelayErrors");
    }

    private void addSuppressed(String name) {
        if (suppressed.size() >= SUPPRESS_MAX) {
            suppressWarnings.add(DiagError.ibwarn("add_suppressed",
                    "Maximum (" + SUPPRESS_MAX + ") fields have been suppressed; skipping " + name));
        } else {
            suppressed.add(name);
        }
    }

    /** A counter as the report shows it, {@code [Name == value]}, with the value in units unless {@code unit} is NONE. */
    record Reading(String name, long value, Unit unit) {
        /** How the value is followed: not at all, as a count (K, M...), or as data words in bytes (KB, MB...). */
        enum Unit { NONE, COUNT, DATA }

        static Reading of(PortCounter counter, long value) {
            return new Reading(counter.name(), value, counter.data() ? Unit.DATA : Unit.COUNT);
        }

        String text() {
            String text = " [" + name + " == " + Long.toUnsignedString(value);
            return unit == Unit.NONE ? text + "]" : text + " (" + PortCounter.humanReadable(value, unit == Unit.DATA) + ")]";
        }
    }

    /** A line of a node's report on standard output. */
    sealed interface Line {
    }

    /** {@code Errors for ...}: the first port with errors; a switch is named by its port 0 GUID, other nodes not (null). */
    record ErrorsHeader(Guid switchGuid, String name) implements Line {
    }

    /** {@code Data Counters for ...} ({@code --counters}), by node GUID. */
    record CountersHeader(Guid nodeGuid, String name) implements Line {
    }

    /** A port's (or with {@link #ALL_PORTS}, the whole switch's) readings. */
    record PortReadings(Guid guid, int port, List<Reading> readings) implements Line {
    }

    /** {@code -r}: a port's link, and the port at its other end (null if none). */
    record LinkInfo(int lid, int port, String link, Remote remote) implements Line {
    }

    /** The far end of a link: its port GUID, LID, number, node name and what the link could be. */
    record Remote(Guid guid, int lid, int port, String name, String widthAdvice, String speedAdvice) {
    }

    /** What the command found at one node: its lines on standard output and error, and its share of the summary. */
    record NodeReport(List<Line> out, List<String> err, int portsChecked, int badPorts, boolean bad, int pmaFailures) {
    }

    /** The whole run: the nodes' reports in print order, and what the summary says. */
    record Report(List<NodeReport> nodes, ErrorThresholds thresholds, List<String> suppressed) {
        int badPorts() {
            return nodes.stream().mapToInt(NodeReport::badPorts).sum();
        }
    }

    /** Its MADs go to the whole fabric: a user at a terminal sees their progress. */
    @Override
    boolean fabricWide() {
        return true;
    }

    @Override
    int run() {
        suppressWarnings.forEach(line -> err().print(line + "\n"));
        Guid wanted = portGuid == null ? null : parseGuid(portGuid);
        SmpTarget.DirectedRoute route = directRoute == null ? null : (SmpTarget.DirectedRoute) Destination.parse(directRoute, true).target();
        map = names.map();
        if (loadCache != null) {
            if (route != null) {
                throw DiagError.stderr("Cannot specify cache and direct route path", ExitCodes.FAILED, null);
            }
            Subnet cached;
            try {
                cached = SubnetCache.read(loadCache);
            } catch (SubnetCacheException e) {
                throw DiagError.stderr("loading cached fabric failed", ExitCodes.FAILED, e);
            }
            List<Node> reported = cached.nodes().reversed();
            if (wanted != null) {
                reported = cached.nodes().stream().filter(node -> node.ports().stream().anyMatch(port -> port.guid().equals(wanted)))
                        .limit(1).toList();
                if (reported.isEmpty()) {
                    err().print(DiagError.ibwarn("ib_path_query_via", "sa call path_query failed") + "\n");
                    err().print(DiagError.ibwarn("main", "Failed to resolve " + portGuid + "; attempting full scan") + "\n");
                    err().print("Failed to find node: " + portGuid + "\n");
                }
            }
            return report(reported, List.of());
        }
        SmpClient smp = smp();
        DiscoveryOptions.Result discovery;
        List<Node> reported;
        if (wanted != null) {
            try {
                discovery = DiscoveryOptions.Result.of(SubnetDiscovery.run(smp, new Neighborhood.AtPort(wanted, 1)));
                reported = List.of(discovery.subnet().from());
            } catch (IllegalArgumentException e) {
                // The C tool's SA query for the GUID fails; it warns, scans the whole fabric and does not find it.
                err().print(DiagError.ibwarn("ib_path_query_via", "sa call path_query failed") + "\n");
                err().print(DiagError.ibwarn("main", "Failed to resolve " + portGuid + "; attempting full scan") + "\n");
                discovery = DiscoveryOptions.Result.of(SubnetDiscovery.run(smp));
                err().print("Failed to find node: " + portGuid + "\n");
                err().flush();
                reported = List.of();
            }
        } else if (route != null) {
            try {
                smp.get(new SmpNodeInfo(), route, 0);
            } catch (RdmaException e) {
                // The C tool says so and ends without a summary, status 0.
                throw DiagError.stderr("Failed to query local Node Info", ExitCodes.OK, e);
            }
            discovery = DiscoveryOptions.Result.of(SubnetDiscovery.run(smp, new Neighborhood.AtRoute(route, 1)));
            reported = List.of(discovery.subnet().from());
        } else {
            discovery = discover(() -> SubnetDiscovery.run(smp), false);
            reported = discovery.subnet().nodes().reversed();
        }
        return report(reported, discovery.problems());
    }

    /** Reads and prints the counters of {@code reported}, then warns of the parts of the fabric discovery missed. */
    private int report(List<Node> reported, List<String> problems) {
        ErrorThresholds thresholds = ErrorThresholds.read(thresholdFile, thresholdNames());
        List<Node> nodes = reported.stream().filter(this::selected).toList();
        GmpClient gmp = gmp();
        List<ParallelReads.Outcome<NodeReport>> outcomes = ParallelReads.submitted(nodes, engine().maxOutstanding(), gmp,
                (node, perfMgt) -> new NodeCheck(perfMgt, node, map.name(node.guid(), node.description()), thresholds).run());
        progressDone();
        Report report = new Report(outcomes.stream().map(ParallelReads.Outcome::value).toList(), thresholds, suppressed);
        int status = report.badPorts() != 0 ? 1 : ExitCodes.OK;
        if (json()) {
            report.nodes().forEach(node -> node.err().forEach(line -> err().print(line + "\n")));
            problems.forEach(this::warn);
            return json(Json.of(report), status);
        }
        print(report, out(), err());
        problems.forEach(this::warn);
        return status;
    }

    private static List<String> thresholdNames() {
        List<String> list = new ArrayList<>(PortCounter.ERRORS.stream().map(PortCounter::name).toList());
        list.add(PortCounter.XMIT_WAIT.name());
        return list;
    }

    /** {@code --switch}, {@code --ca}, {@code --router}: the node types to report, all when none is given. */
    private boolean selected(Node node) {
        if (!switches && !cas && !routers) {
            return true;
        }
        return switch (node.nodeTypeValue()) {
            case 1 -> cas;
            case 2 -> switches;
            case 3 -> routers;
            default -> false;
        };
    }

    /**
     * {@code --json}: each node's report (its lines, in the order the text prints them, each with its
     * {@code kind}: {@code ErrorsHeader}, {@code CountersHeader}, {@code PortReadings}, {@code LinkInfo}),
     * then the summary's numbers, the thresholds' summary line and the suppressed counters.
     */
    record Json(List<JsonNode> nodes, int nodesChecked, int badNodes, int portsChecked, int badPorts, int pmaFailures,
            String thresholds, List<String> suppressed) {
        static Json of(Report report) {
            List<NodeReport> nodes = report.nodes();
            return new Json(nodes.stream().map(n -> new JsonNode(n.out().stream().map(line -> new JsonLine(line.getClass().getSimpleName(), line))
                    .toList(), n.portsChecked(), n.badPorts(), n.bad(), n.pmaFailures())).toList(), nodes.size(),
                    (int) nodes.stream().filter(NodeReport::bad).count(), nodes.stream().mapToInt(NodeReport::portsChecked).sum(),
                    report.badPorts(), nodes.stream().mapToInt(NodeReport::pmaFailures).sum(), report.thresholds().summary(),
                    report.suppressed());
        }
    }

    /** {@code --json}: one node's report. */
    record JsonNode(List<JsonLine> lines, int portsChecked, int badPorts, boolean bad, int pmaFailures) {
    }

    /** {@code --json}: one line of a node's report and what kind it is. */
    record JsonLine(String kind, Line line) {
    }

    /** Prints the nodes' reports, then the summary. */
    private static void print(Report report, PrintWriter out, PrintWriter err) {
        int nodes = report.nodes().size();
        int badNodes = 0;
        int ports = 0;
        int failures = 0;
        for (NodeReport node : report.nodes()) {
            node.out().forEach(line -> out.print(render(line) + "\n"));
            node.err().forEach(line -> err.print(line + "\n"));
            badNodes += node.bad() ? 1 : 0;
            ports += node.portsChecked();
            failures += node.pmaFailures();
        }
        out.print("\n## Summary: " + nodes + " nodes checked, " + badNodes + " bad nodes found\n");
        out.print("##          " + ports + " ports checked, " + report.badPorts() + " ports have errors beyond threshold\n");
        out.print("## " + report.thresholds().summary() + "\n");
        if (failures != 0) {
            out.print("##          " + failures + " PMA query failures\n");
        }
        out.print("## Suppressed:" + report.suppressed().stream().map(name -> " " + name).reduce("", String::concat) + "\n");
        out.flush();
        err.flush();
    }

    /**
     * One node's reads, in the C tool's order ({@code print_node}), with its output: a function of
     * the node and the answers of its MADs, replayed as {@link ParallelReads#submitted} does.
     */
    private final class NodeCheck {
        private final ParallelReads.PerfMgt perfMgt;
        private final Node node;
        private final String name;
        private final ErrorThresholds thresholds;
        private final List<Line> out = new ArrayList<>();
        private final List<String> err = new ArrayList<>();
        private int portsChecked;
        private int badPorts;
        private boolean headerPrinted;
        private boolean badNode;
        private int failures;
        private int capMask;
        private int capMask2;

        NodeCheck(ParallelReads.PerfMgt perfMgt, Node node, String name, ErrorThresholds thresholds) {
            this.perfMgt = perfMgt;
            this.node = node;
            this.name = name;
            this.thresholds = thresholds;
        }

        NodeReport run() {
            int startPort = node.isSwitch() && enhancedPort0() ? 0 : 1;
            int lid = node.isSwitch() ? node.lid() : 0;
            int first = 0;
            if (!node.isSwitch()) {
                for (int p = 1; p <= node.numPorts(); p++) {
                    if (node.port(p) != null) {
                        lid = node.port(p).lid();
                        first = p;
                        break;
                    }
                }
            }
            boolean allPorts = readCapabilities(lid, first) && (capMask & ALL_PORT_SELECT) != 0;
            boolean portByPort = true;
            if (!countersOnly && allPorts && !errors(lid, ALL_PORTS)) {
                portsChecked += node.numPorts();
                portByPort = false;
            }
            for (int p = startPort; portByPort && p <= node.numPorts(); p++) {
                Port port = node.port(p);
                if (port == null) {
                    continue;
                }
                int portLid = node.isSwitch() ? node.lid() : port.lid();
                if (countersOnly) {
                    dataCounters(portLid, p);
                } else {
                    errors(portLid, p);
                }
                portsChecked++;
                if (!allPorts) {
                    clear(portLid, p);
                }
            }
            if (allPorts) {
                clear(lid, ALL_PORTS);
            }
            return new NodeReport(List.copyOf(out), List.copyOf(err), portsChecked, badPorts, badNode, failures);
        }

        private boolean enhancedPort0() {
            return node.switchInfo() != null && node.switchInfo().enhancedPort0() != 0;
        }

        private boolean extendedWidth() {
            return (capMask & (EXT_WIDTH_SUPPORTED | EXT_WIDTH_NOIETF)) != 0;
        }

        /** {@code query_cap_mask}: the agent's ClassPortInfo capabilities; false (and none) if it did not answer. */
        private boolean readCapabilities(int lid, int port) {
            MadClassPortInfo cpi = query("query_cap_mask", "classportinfo", lid, port, () -> perfMgt.performanceGet(new MadClassPortInfo(), lid, 0));
            if (cpi == null) {
                return false;
            }
            capMask = cpi.capabilityMask();
            capMask2 = cpi.capabilityMask2();
            return true;
        }

        /** {@code print_errors}: reads the counters of {@code port} and reports them if beyond threshold; whether it did. */
        private boolean errors(int lid, int port) {
            PmPortCounters pc = query("print_errors", "IB_GSI_PORT_COUNTERS", lid, port,
                    () -> perfMgt.performanceGet(new PmPortCounters().portSelect(port), lid, 0));
            if (pc == null) {
                return false;
            }
            PmPortCountersExtended pce = null;
            if (extendedWidth()) {
                pce = query("print_errors", "IB_GSI_PORT_COUNTERS_EXT", lid, port,
                        () -> perfMgt.performanceGet(new PmPortCountersExtended().portSelect(port), lid, 0));
                if (pce == null) {
                    return false;
                }
            }
            List<Reading> found = new ArrayList<>();
            for (PortCounter counter : PortCounter.ERRORS) {
                if (!suppressed.contains(counter.name()) && checkThreshold(counter, pc, pce, found) && details) {
                    if (counter.name().equals("PortXmitDiscards")) {
                        found.addAll(xmitDiscardDetails(lid, port));
                    } else if (counter.name().equals("PortRcvErrors")) {
                        found.addAll(rcvErrorDetails(lid, port));
                    }
                }
            }
            if (!suppressed.contains(PortCounter.XMIT_WAIT.name())) {
                checkThreshold(PortCounter.XMIT_WAIT, pc, pce, found);
            }
            if (found.isEmpty()) {
                return false;
            }
            if (data) {
                List<PortCounter> counters = pce == null ? PortCounter.DATA
                        : (capMask & EXT_WIDTH_SUPPORTED) != 0 ? PortCounter.DATA_EXTENDED : PortCounter.DATA;
                for (PortCounter counter : counters) {
                    long value = pce == null ? counter.basic().applyAsLong(pc) : counter.extended().applyAsLong(pce);
                    if (value != 0) {
                        found.add(Reading.of(counter, value));
                    }
                }
            }
            if (!headerPrinted) {
                out.add(new ErrorsHeader(node.isSwitch() ? node.managementPort().guid() : null, name));
                headerPrinted = true;
                badNode = true;
            }
            if (port == ALL_PORTS) {
                if (node.isSwitch()) {
                    out.add(new PortReadings(node.managementPort().guid(), ALL_PORTS, found));
                }
            } else {
                out.add(new PortReadings(node.port(port).guid(), port, found));
                linkInfo(port);
                badPorts++;
            }
            return true;
        }

        /**
         * {@code check_threshold}: appends {@code [Name == value]} if the counter is beyond its
         * threshold, from the 64-bit counters (with a unit) where the agent has them for errors.
         */
        private boolean checkThreshold(PortCounter counter, PmPortCounters pc, PmPortCountersExtended pce, List<Reading> found) {
            if ((capMask2 & ADDITIONAL_EXTENDED) != 0 && pce != null) {
                long value = counter.extended().applyAsLong(pce);
                if (thresholds.exceeded(counter.name(), value)) {
                    found.add(Reading.of(counter, value));
                    return true;
                }
                return false;
            }
            long value = counter.basic().applyAsLong(pc);
            if (counter == PortCounter.XMIT_WAIT && (capMask & XMIT_WAIT_SUPPORTED) == 0) {
                value = 0;
            }
            if (thresholds.exceeded(counter.name(), value)) {
                found.add(new Reading(counter.name(), value, Reading.Unit.NONE));
                return true;
            }
            return false;
        }

        /** {@code --details} of PortXmitDiscards: the non-zero counters of PortXmitDiscardDetails. */
        private List<Reading> xmitDiscardDetails(int lid, int port) {
            PmPortXmitDiscardDetails d = query("query_and_dump", "PortXmitDiscardDetails", lid, port,
                    () -> perfMgt.performanceGet(new PmPortXmitDiscardDetails().portSelect(port), lid, 0));
            return d == null ? List.of() : nonZero(List.of("PortInactiveDiscards", "PortNeighborMTUDiscards", "PortSwLifetimeLimitDiscards",
                    "PortSwHOQLifetimeLimitDiscards"), List.of(d.portInactiveDiscards(), d.portNeighborMtuDiscards(),
                    d.portSwLifetimeLimitDiscards(), d.portSwHoqLifetimeLimitDiscards()));
        }

        /** {@code --details} of PortRcvErrors: the non-zero counters of PortRcvErrorDetails. */
        private List<Reading> rcvErrorDetails(int lid, int port) {
            PmPortRcvErrorDetails d = query("query_and_dump", "PortRcvErrorDetails", lid, port,
                    () -> perfMgt.performanceGet(new PmPortRcvErrorDetails().portSelect(port), lid, 0));
            return d == null ? List.of() : nonZero(List.of("PortLocalPhysicalErrors", "PortMalformedPktErrors", "PortBufferOverrunErrors",
                    "PortDLIDMappingErrors", "PortVLMappingErrors", "PortLoopingErrors"), List.of(d.portLocalPhysicalErrors(),
                    d.portMalformedPacketErrors(), d.portBufferOverrunErrors(), d.portDlidMappingErrors(), d.portVlMappingErrors(),
                    d.portLoopingErrors()));
        }

        private static List<Reading> nonZero(List<String> names, List<Integer> values) {
            List<Reading> readings = new ArrayList<>();
            for (int i = 0; i < names.size(); i++) {
                if (values.get(i) != 0) {
                    readings.add(new Reading(names.get(i), values.get(i), Reading.Unit.NONE));
                }
            }
            return readings;
        }

        /** {@code print_data_cnts}: every data counter of {@code port}, 64-bit where the agent has them. */
        private void dataCounters(int lid, int port) {
            List<PortCounter> counters;
            List<Long> values = new ArrayList<>();
            if (extendedWidth()) {
                PmPortCountersExtended pce = query("print_data_cnts", "IB_GSI_PORT_COUNTERS_EXT", lid, port,
                        () -> perfMgt.performanceGet(new PmPortCountersExtended().portSelect(port), lid, 0));
                if (pce == null) {
                    return;
                }
                counters = (capMask & EXT_WIDTH_SUPPORTED) != 0 ? PortCounter.DATA_EXTENDED : PortCounter.DATA;
                counters.forEach(c -> values.add(c.extended().applyAsLong(pce)));
            } else {
                PmPortCounters pc = query("print_data_cnts", "IB_GSI_PORT_COUNTERS", lid, port,
                        () -> perfMgt.performanceGet(new PmPortCounters().portSelect(port), lid, 0));
                if (pc == null) {
                    return;
                }
                counters = PortCounter.DATA;
                counters.forEach(c -> values.add(c.basic().applyAsLong(pc)));
            }
            if (!headerPrinted) {
                out.add(new CountersHeader(node.guid(), name));
                headerPrinted = true;
            }
            List<Reading> readings = new ArrayList<>();
            for (int i = 0; i < counters.size(); i++) {
                readings.add(Reading.of(counters.get(i), values.get(i)));
            }
            out.add(new PortReadings(node.guid(), port, readings));
            linkInfo(port);
        }

        /** {@code -r}: the port's link, {@code print_port_config}. */
        private void linkInfo(int number) {
            Port port = node.port(number);
            if (!reportPort || port == null) {
                return;
            }
            Port remote = port.remote();
            Remote far = remote == null ? null : new Remote(remote.guid(), remote.lid() != 0 ? remote.lid() : remote.node().lid(),
                    remote.number(), map.name(remote.node().guid(), remote.node().description()),
                    IblinkinfoCommand.widthAdvice(port, remote), IblinkinfoCommand.speedAdvice(port, remote));
            out.add(new LinkInfo(node.isSwitch() ? node.lid() : port.lid(), number, IblinkinfoCommand.link(port), far));
        }

        /** {@code clear_port}: resets the counters {@code -k} and {@code -K} name, after they were read. */
        private void clear(int lid, int port) {
            int mask = 0;
            if (clearErrors) {
                mask |= 0xFFF;
                if ((capMask & XMIT_WAIT_SUPPORTED) != 0) {
                    mask |= 0x10000;
                }
            }
            if (clearCounts) {
                mask |= 0xF000;
            }
            if (mask != 0) {
                int select = mask;
                if (!reset(() -> perfMgt.performanceSet(new PmPortCounters().portSelect(port).counterSelect(select & 0xFFFF)
                        .counterSelect2(select >>> 16), lid, 0))) {
                    err.add("Failed to reset errors " + name + " port " + port);
                }
            }
            if (clearErrors && details) {
                reset(() -> perfMgt.performanceSet(new PmPortXmitDiscardDetails().portSelect(port).counterSelect(0xF), lid, 0));
                reset(() -> perfMgt.performanceSet(new PmPortRcvErrorDetails().portSelect(port).counterSelect(0x3F), lid, 0));
            }
            if (extendedWidth()) {
                long extMask = 0;
                if (clearCounts) {
                    extMask = (capMask & EXT_WIDTH_SUPPORTED) != 0 ? 0xFF : 0x0F;
                }
                if (clearErrors && (capMask2 & ADDITIONAL_EXTENDED) != 0) {
                    extMask |= 0xFFF0000;
                    if ((capMask & XMIT_WAIT_SUPPORTED) != 0) {
                        extMask |= 1 << 28;
                    }
                }
                long select = extMask;
                if (extMask != 0 && !reset(() -> perfMgt.performanceSet(new PmPortCountersExtended().portSelect(port)
                        .counterSelect((int) (select & 0xFFFF)).counterSelect2(select >>> 16), lid, 0))) {
                    err.add("Failed to reset extended data counters " + name + ", Lid " + lid + " port " + port);
                }
            }
        }

        private boolean reset(Supplier<?> set) {
            try {
                set.get();
                return true;
            } catch (RdmaException e) {
                madRpcWarning(e);
                return false;
            }
        }

        /**
         * A PerfMgt read, or null with the C tool's warning ({@code <function>: <what> query failed on
         * <node>, Lid <lid> port <port>}) if it failed.
         */
        private <T> T query(String function, String what, int lid, int port, Supplier<T> read) {
            try {
                return read.get();
            } catch (RdmaException e) {
                madRpcWarning(e);
                err.add(DiagError.ibwarn(function, what + " query failed on " + name + ", Lid " + lid + " port " + port));
                failures++;
                return null;
            }
        }

        /** libibmad's warning for a MAD that got no answer. */
        private void madRpcWarning(RdmaException e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof MadTimeoutException timeout) {
                    err.add(DiagError.ibwarn("mad_rpc", "_do_madrpc failed; dport (Lid "
                            + timeout.path().map(path -> path.dlid()).orElse(0) + ")"));
                    return;
                }
            }
        }
    }

    /** A line as infiniband-diags' ibqueryerrors prints it. */
    private static String render(Line line) {
        return switch (line) {
            case ErrorsHeader h -> h.switchGuid() != null ? String.format("Errors for 0x%x \"%s\"", h.switchGuid().value(), h.name())
                    : "Errors for \"" + h.name() + "\"";
            case CountersHeader h -> String.format("Data Counters for 0x%x \"%s\"", h.nodeGuid().value(), h.name());
            case PortReadings p -> String.format("   GUID 0x%x port %s:", p.guid().value(), p.port() == ALL_PORTS ? "ALL" : Integer.toString(p.port()))
                    + p.readings().stream().map(Reading::text).reduce("", String::concat);
            case LinkInfo l -> String.format("       Link info: %6d%4d[%2s] ==%s==>  %s", l.lid(), l.port(), "", l.link(), l.remote() == null
                    ? "           [  ] \"\" ( )"
                    : String.format("0x%016x %6d %4d[%2s] \"%s\" (%s %s)", l.remote().guid().value(), l.remote().lid(), l.remote().port(), "",
                            l.remote().name(), l.remote().widthAdvice(), l.remote().speedAdvice()));
        };
    }
}

package org.jrdma.subnet;

import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import org.jrdma.devices.EndPort;
import org.jrdma.iba.Guid;
import org.jrdma.mad.MadSchedule;
import org.jrdma.mad.MadTransactor;
import org.jrdma.mad.SaTransactor;
import org.jrdma.mad.SmpClient;
import org.jrdma.mad.SmpTarget;

/**
 * Discovery of a whole subnet, or of the part around one node, into a {@link Subnet}, all walking
 * the subnet breadth first from the local node, or that one node (every live port of a switch,
 * ports in ascending order), so that they record the same nodes in the same order, and all reading
 * in parallel on a {@link org.jrdma.mad.MadSchedule} bounded by the engine's {@code maxOutstanding}:
 *
 * <ul>
 * <li>{@link #run(SmpClient)}: by directed-route SMPs (IBA 14.2.2), reading NodeInfo,
 *     NodeDescription, SwitchInfo and PortInfo of every node reached one hop further. Needs no subnet manager;
 *     what infiniband-diags' ibnetdiscover does.</li>
 * <li>{@link #run(SmpClient, Neighborhood)}: the same, but from a given node and only so many
 *     hops around it ({@link Neighborhood}): a partial discovery, what libibnetdisc makes for
 *     iblinkinfo's {@code -D}/{@code -G} with {@code -n}.</li>
 * <li>{@link #fromSa} and {@link #fromSaTables}: from the subnet administrator's NodeRecords,
 *     SwitchInfoRecords, PortInfoRecords and LinkRecords (IBA 15.2.5), sending no SMP, one record
 *     per query or the whole tables at once. Needs the SM up; reflects the SM's view as of its
 *     last sweep.</li>
 * <li>{@link #byLid}: python-rdma's LID discovery, a directed-route hop to find each node, then
 *     LID-routed SMPs to read it.</li>
 * <li>{@link #refreshByLid}: a known subnet (from either of the above) read again by LID-routed
 *     SMPs to the LIDs the SM assigned: the same links, every attribute fresh from the nodes.
 *     LID-routed SMPs alone cannot find links (they reach a LID, not a port), so the topology is the
 *     known one; a node that no longer answers at its LID, or answers with another GUID, is a problem
 *     and its links are left out.</li>
 * </ul>
 *
 * <p>A port whose neighbor does not answer is recorded as unlinked and listed in
 * {@link #problems()}, and so is a port whose neighbor answers NodeInfo but not the reads after it
 * (a link that went down meanwhile): that neighbor is left out unless a later level finds it again.
 * A node that answers all but the PortInfo of some ports is kept without those ports, each listed
 * in the problems. Only a start node that cannot be read whole fails the discovery.
 * The subnet keeps the source it was read from ({@link Subnet#attributeSource()}) for the switch
 * tables read on demand: the SMPs for {@code run} and {@code refreshByLid}, the SA for {@code fromSa}.
 */
public final class SubnetDiscovery {
    private final Subnet subnet;
    private final List<String> problems;

    SubnetDiscovery(Subnet subnet, List<String> problems) {
        this.subnet = subnet;
        this.problems = List.copyOf(problems);
    }

    /** Discovers the subnet reachable from the local port of {@code smp} by directed-route SMPs. */
    public static SubnetDiscovery run(SmpClient smp) {
        return Exploration.run(new DirectedRouteExplorer(smp), AttributeSource.smp(smp));
    }

    /**
     * Discovers the part of the subnet around a node by directed-route SMPs: the node at a directed
     * route or owning a port GUID, and the nodes and links at most {@link Neighborhood#hops()} hops
     * from it, as {@link Neighborhood} describes. The result's {@link Subnet#from()} is that node,
     * and its nodes are in the order the walk from it found them. A port GUID is looked for first
     * by a walk from the local port that stops at the first level holding a node with that port.
     *
     * @throws IllegalArgumentException if no node of the subnet reachable from the local port has
     *                                  the port GUID
     * @throws org.jrdma.RdmaException  if no node answers at the route
     */
    public static SubnetDiscovery run(SmpClient smp, Neighborhood around) {
        SmpTarget.DirectedRoute start = switch (around) {
            case Neighborhood.AtRoute at -> at.route();
            case Neighborhood.AtPort at -> routeTo(smp, at.portGuid());
        };
        return Exploration.run(new DirectedRouteExplorer(smp, start), AttributeSource.smp(smp), around.hops(), node -> false);
    }

    /** The directed route to the node owning {@code portGuid}, by a walk from the local port that stops when it finds it. */
    private static SmpTarget.DirectedRoute routeTo(SmpClient smp, Guid portGuid) {
        Predicate<Node> owner = node -> node.ports().stream().anyMatch(p -> p.guid().equals(portGuid));
        SubnetDiscovery search = Exploration.run(new DirectedRouteExplorer(smp), AttributeSource.smp(smp), Integer.MAX_VALUE, owner);
        return search.subnet().nodes().stream().filter(owner).findFirst().map(Node::route)
                .orElseThrow(() -> new IllegalArgumentException("no port has GUID " + portGuid.toHexString() + " among the "
                        + search.subnet().nodes().size() + " nodes reachable from the local port"
                        + (search.problems.isEmpty() ? "" : " (" + search.problems.size() + " ports did not answer)")));
    }

    /**
     * Discovers the subnet from the SA records, starting at the end port of {@code sa} (which
     * must be known and have a LID). Each query selects one record (the NodeRecord of a LID, the
     * PortInfoRecord of a LID and port, the LinkRecord from a LID and port), so no answer needs
     * RMPP.
     *
     * <p>What the SA cannot provide, compared with directed-route discovery: {@link Node#route()}
     * (nodes have LID targets); NodeInfo's LocalPortNum and a switch port's PortInfo LocalPortNum
     * as seen from here (the records hold the port OpenSM's SMPs came in by); the PortInfo of a
     * switch port whose link is down beyond its state and physical state (OpenSM keeps the rest
     * zero); attributes as the nodes hold them now rather than as of the SM's last sweep; and
     * anything without a LID (a subnet no SM brought up). None of these changes what
     * {@link TopologyWriter} prints.
     *
     * @throws IllegalArgumentException if the transactor's end port is unknown
     * @throws IllegalStateException    if the end port has no LID
     */
    public static SubnetDiscovery fromSa(MadTransactor sa) {
        return fromSa(sa, sched -> SaRecords.queries(sa));
    }

    /**
     * Like {@link #fromSa}, but reads the SA's four whole tables (every NodeRecord,
     * SwitchInfoRecord, PortInfoRecord and LinkRecord) with one SubnAdmGetTable each, whose
     * answers come by RMPP, and walks the subnet in memory: four transactions instead of several
     * per node. Needs an SA whose multi-packet answers arrive whole (through the kernel's umad,
     * or jrdma's own RMPP); OpenSM behind ibsim cannot send them (its answers are cut to one MAD),
     * so use {@link #fromSa} there.
     */
    public static SubnetDiscovery fromSaTables(MadTransactor sa) {
        return fromSa(sa, sched -> SaRecords.tables(sa, sched));
    }

    private static SubnetDiscovery fromSa(MadTransactor sa, Function<MadSchedule, SaRecords> records) {
        EndPort here = sa.endPort().orElseThrow(() -> new IllegalArgumentException("discovery from the SA needs the transactor's end port"));
        return Exploration.run(new SaExplorer(here, records), AttributeSource.sa(sa instanceof SaTransactor s ? s : new SaTransactor(sa)));
    }

    /**
     * Discovers the subnet reachable from the local port of {@code smp} as python-rdma's
     * {@code --discovery LID} does: each node is found one directed-route hop beyond a known one
     * and, once its PortInfo gives its LID, read by LID-routed SMPs ({@link LidDiscoveryExplorer}).
     * The result's nodes have LID targets (directed routes where no LID was assigned); the links
     * are those {@link #run(SmpClient)} finds.
     */
    public static SubnetDiscovery byLid(SmpClient smp) {
        return Exploration.run(new LidDiscoveryExplorer(smp), AttributeSource.smp(smp));
    }

    /**
     * Reads {@code known} again by LID-routed SMPs (IBA 14.2.2: no directed-route processing in
     * the switches), for a subnet whose SM has assigned LIDs: see the class comment. The result's
     * nodes have LID targets.
     */
    public static SubnetDiscovery refreshByLid(SmpClient smp, Subnet known) {
        return Exploration.run(new LidRoutedExplorer(smp, known), AttributeSource.smp(smp));
    }

    /** The discovered subnet. */
    public Subnet subnet() {
        return subnet;
    }

    /** What went wrong along the way (unanswered ports), empty for a clean discovery. */
    public List<String> problems() {
        return problems;
    }
}

package org.jrdma.tools.topodiff;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jrdma.iba.Guid;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.subnet.Node;
import org.jrdma.subnet.Port;
import org.jrdma.subnet.Subnet;

/**
 * python-rdma's {@code subnet_diff} report of a current subnet against a reference one: their end
 * ports (a switch's port 0, a channel adapter's or router's linked ports) by port GUID, their nodes
 * by node GUID, their links (each end named by its end port's GUID and its port number), the
 * active speed and width of the links both have, and their LID assignments (every LID of an end
 * port's LMC range, to its port GUID). Sets are printed sorted: GUIDs as unsigned numbers, links by
 * their greater end then the other, LIDs by value.
 *
 * <p>python-rdma compares the link rates in a map keyed by the port GUID of each link's greater
 * end, so of a switch's links only one, chosen by hash order, is compared; here every link both
 * subnets have is, as it evidently means to. LID 0 (a port no SM configured) is no LID.
 */
final class SubnetComparison {
    private static final Comparator<LinkEnd> END_ORDER = Comparator.comparing(LinkEnd::portGuid).thenComparingInt(LinkEnd::portNum);
    private static final Comparator<Link> LINK_ORDER = Comparator.comparing(Link::a, END_ORDER).thenComparing(Link::b, END_ORDER);

    private SubnetComparison() {
    }

    /**
     * One end of a link.
     *
     * @param portGuid the GUID of its node's end port (a switch's port 0)
     * @param portNum  its port number
     */
    public record LinkEnd(Guid portGuid, int portNum) {
    }

    /**
     * A link, its greater end first.
     *
     * @param a the end with the greater port GUID (then port number)
     * @param b the other end
     */
    public record Link(LinkEnd a, LinkEnd b) {
        static Link of(LinkEnd x, LinkEnd y) {
            return END_ORDER.compare(x, y) > 0 ? new Link(x, y) : new Link(y, x);
        }

        @Override
        public String toString() {
            return a.portGuid + "[" + a.portNum + "] <=> " + b.portGuid + "[" + b.portNum + "]";
        }
    }

    /**
     * A link's active speed and width, as PortInfo encodes them, at its greater end.
     *
     * @param linkSpeedActive PortInfo LinkSpeedActive
     * @param linkWidthActive PortInfo LinkWidthActive
     */
    public record Rate(int linkSpeedActive, int linkWidthActive) {
        /** python-rdma's {@code "%s %sx"}: the speeds of the bits set ({@code SDR,DDR,QDR}), the lanes of the width. */
        String describe() {
            List<String> speeds = new ArrayList<>();
            if ((linkSpeedActive & 1) != 0) {
                speeds.add("SDR");
            }
            if ((linkSpeedActive & 2) != 0) {
                speeds.add("DDR");
            }
            if ((linkSpeedActive & 4) != 0) {
                speeds.add("QDR");
            }
            int lanes = switch (linkWidthActive) {
                case 1 -> 1;
                case 2 -> 4;
                case 4 -> 8;
                case 8 -> 12;
                default -> 0;
            };
            return String.join(",", speeds) + " " + lanes + "x";
        }
    }

    /**
     * What one subnet has, as compared.
     *
     * @param endPorts the end ports' GUIDs
     * @param nodes    the node GUIDs
     * @param links    the links
     * @param rates    each link's rate
     * @param lids     each LID's end port GUID
     */
    private record Side(SortedSet<Guid> endPorts, SortedSet<Guid> nodes, SortedSet<Link> links, Map<Link, Rate> rates,
            SortedMap<Integer, Guid> lids) {
        static Side of(Subnet subnet) {
            SortedSet<Guid> endPorts = new TreeSet<>();
            SortedSet<Guid> nodes = new TreeSet<>();
            SortedSet<Link> links = new TreeSet<>(LINK_ORDER);
            Map<Link, Rate> rates = new TreeMap<>(LINK_ORDER);
            SortedMap<Integer, Guid> lids = new TreeMap<>();
            for (Node node : subnet.nodes()) {
                for (Port port : node.ports()) {
                    if (port.remote() != null && port.number() > 0 || node.isSwitch() && port.number() == 0) {
                        Guid guid = endPortGuid(port);
                        endPorts.add(guid);
                        nodes.add(node.guid());
                        for (int lid = port.lid(); port.lid() != 0 && lid < port.lid() + (1 << port.lmc()); lid++) {
                            lids.put(lid, guid);
                        }
                    }
                    if (port.remote() != null && port.number() > 0) {
                        Link link = Link.of(new LinkEnd(endPortGuid(port), port.number()),
                                new LinkEnd(endPortGuid(port.remote()), port.remote().number()));
                        links.add(link);
                        if (link.a().equals(new LinkEnd(endPortGuid(port), port.number()))) {
                            SmpPortInfo info = port.info();
                            rates.put(link, new Rate(info.linkSpeedActive(), info.linkWidthActive()));
                        }
                    }
                }
            }
            return new Side(endPorts, nodes, links, rates, lids);
        }
    }

    /** The GUID of the end port a port belongs to: a switch's port 0's, else the port's own. */
    private static Guid endPortGuid(Port port) {
        Node node = port.node();
        return node.isSwitch() && node.managementPort() != null ? node.managementPort().guid() : port.guid();
    }

    /**
     * The elements one side has and the other lacks.
     *
     * @param current   the current subnet's count
     * @param reference the reference subnet's count
     * @param onlyCurrent   in the current subnet only
     * @param onlyReference in the reference subnet only
     */
    public record SetDiff<T>(int current, int reference, List<T> onlyCurrent, List<T> onlyReference) {
        static <T> SetDiff<T> of(SortedSet<T> current, SortedSet<T> reference) {
            return new SetDiff<>(current.size(), reference.size(), current.stream().filter(e -> !reference.contains(e)).toList(),
                    reference.stream().filter(e -> !current.contains(e)).toList());
        }
    }

    /**
     * A link both subnets have, at different rates.
     *
     * @param link      the link
     * @param current   its rate in the current subnet
     * @param reference its rate in the reference subnet
     */
    public record RateChange(Link link, Rate current, Rate reference) {
    }

    /**
     * A LID assigned differently.
     *
     * @param lid       the LID
     * @param current   the current subnet's end port GUID at that LID, absent if none
     * @param reference the reference subnet's, absent if none
     */
    public record LidChange(int lid, Guid current, Guid reference) {
    }

    /**
     * The whole comparison: {@code subnet_diff --json}'s document.
     *
     * @param endPorts    the end ports by port GUID
     * @param nodes       the nodes by node GUID
     * @param links       the links
     * @param rates       the links both have whose rate differs
     * @param currentLids   how many LIDs the current subnet assigns
     * @param referenceLids how many the reference assigns
     * @param lids        the LIDs assigned differently (or only in one subnet)
     */
    public record Report(SetDiff<Guid> endPorts, SetDiff<Guid> nodes, SetDiff<Link> links, List<RateChange> rates,
            int currentLids, int referenceLids, List<LidChange> lids) {
    }

    /** Compares {@code current} with {@code reference}. */
    static Report compare(Subnet current, Subnet reference) {
        Side cur = Side.of(current);
        Side ref = Side.of(reference);
        List<RateChange> rates = new ArrayList<>();
        for (Link link : cur.links()) {
            Rate now = cur.rates().get(link);
            Rate before = ref.rates().get(link);
            if (before != null && now != null && !now.equals(before)) {
                rates.add(new RateChange(link, now, before));
            }
        }
        SortedSet<Integer> allLids = new TreeSet<>(cur.lids().keySet());
        allLids.addAll(ref.lids().keySet());
        List<LidChange> lids = new ArrayList<>();
        for (int lid : allLids) {
            Guid now = cur.lids().get(lid);
            Guid before = ref.lids().get(lid);
            if (now == null || !now.equals(before)) {
                lids.add(new LidChange(lid, now, before));
            }
        }
        return new Report(SetDiff.of(cur.endPorts(), ref.endPorts()), SetDiff.of(cur.nodes(), ref.nodes()),
                SetDiff.of(cur.links(), ref.links()), rates, cur.lids().size(), ref.lids().size(), lids);
    }

    /** The report as python-rdma's {@code subnet_diff} prints it. */
    static String text(Report report) {
        StringBuilder out = new StringBuilder();
        sets(out, report.endPorts(), "end ports");
        sets(out, report.nodes(), "nodes");
        sets(out, report.links(), "links");
        list(out, report.rates().stream().map(r -> r.link() + ": " + r.current().describe() + "  " + r.reference().describe()).toList(),
                " The subnets have %d different link rates",
                " All links in the current subnet have the same rate in the reference subnet.");
        out.append("Current subnet has ").append(report.currentLids()).append(" LIDs, reference subnet has ")
                .append(report.referenceLids()).append(" LIDs\n");
        list(out, report.lids().stream().map(SubnetComparison::lidLine).toList(),
                " The subnets have %d different LID assignments (LID: Current portGUID, Reference portGUID):",
                " All LIDs in the current subnet are the same as the reference subnet.");
        return out.toString();
    }

    private static void sets(StringBuilder out, SetDiff<?> diff, String what) {
        out.append("Current subnet has ").append(diff.current()).append(' ').append(what).append(", reference subnet has ")
                .append(diff.reference()).append(' ').append(what).append('\n');
        list(out, diff.onlyCurrent().stream().map(Object::toString).toList(),
                " Current subnet has %d more " + what + " than the reference subnet:",
                " All " + what + " in the current subnet are in the reference subnet.");
        list(out, diff.onlyReference().stream().map(Object::toString).toList(),
                "Reference subnet has %d more " + what + " than the current subnet:",
                " All " + what + " in the reference subnet are in the current subnet.");
    }

    /** python-rdma's {@code report}: the heading with the count and the items, or the line saying there are none. */
    private static void list(StringBuilder out, List<String> items, String heading, String none) {
        if (items.isEmpty()) {
            out.append(none).append('\n');
            return;
        }
        out.append(heading.formatted(items.size())).append('\n');
        items.forEach(item -> out.append("   ").append(item).append('\n'));
    }

    /** {@code "%5u: %s %s"}, a missing side as {@code !Cur} or {@code !Ref} in 19 columns. */
    private static String lidLine(LidChange change) {
        String cur = change.current() == null ? "%-19s".formatted("      !Cur") : change.current().toString();
        String ref = change.reference() == null ? "%-19s".formatted("      !Ref") : change.reference().toString();
        return "%5d: %s %s".formatted(change.lid(), cur, ref);
    }
}

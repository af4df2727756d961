package org.jrdma.subnet;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * The differences between two states of a subnet, printed as infiniband-diags'
 * {@code ibnetdiscover --diff} prints them: for each kind of node checked (switches, then channel
 * adapters, then routers), every node of the old subnet that the new one lacks, with its links,
 * marked {@code "< "}; for a node in both, the header and the lines that differ (the port's link,
 * the port's LID, the LID or description of the node or of the remote node, as the
 * {@link Check checks} ask), old marked {@code "< "} and new {@code "> "}; then every node only
 * the new subnet has, marked {@code "> "}. Two equal subnets print nothing.
 *
 * <p>Nodes are matched by GUID and ports by number. One case differs from the C tool by design: a
 * port line it would print for a port without a link (where the C tool dereferences the missing
 * remote port and crashes) is left out.
 */
public final class SubnetDiff {
    private static final String OLD = "< ";
    private static final String NEW = "> ";

    /** What to compare: ibnetdiscover's {@code --diffcheck} keys. */
    public enum Check {
        /** {@code sw}: switches. */
        SWITCHES("sw", 2),
        /** {@code ca}: channel adapters. */
        CHANNEL_ADAPTERS("ca", 1),
        /** {@code router}: routers. */
        ROUTERS("router", 3),
        /** {@code port}: the port connections of the node kinds checked (and with {@code lid}/{@code nodedesc}, the remote's LID/description). */
        PORTS("port", 0),
        /** {@code lid}: the LIDs of the node kinds checked. */
        LIDS("lid", 0),
        /** {@code nodedesc}: the node descriptions of the node kinds checked. */
        NODE_DESCRIPTIONS("nodedesc", 0);

        private final String key;
        /** The NodeType (IBA 14.2.5.3) of the nodes this check compares, 0 for a check of what is compared. */
        private final int nodeType;

        Check(String key, int nodeType) {
            this.key = key;
            this.nodeType = nodeType;
        }

        /** The {@code --diffcheck} key. */
        public String key() {
            return key;
        }
    }

    /** What ibnetdiscover compares without {@code --diffcheck}: switches, channel adapters, routers and port connections. */
    public static final Set<Check> DEFAULT = Set.copyOf(EnumSet.of(Check.SWITCHES, Check.CHANNEL_ADAPTERS, Check.ROUTERS, Check.PORTS));

    private static final Set<Check> PER_NODE = EnumSet.of(Check.PORTS, Check.LIDS, Check.NODE_DESCRIPTIONS);

    private final StringBuilder out = new StringBuilder();
    private final TopologyLines lines;

    private SubnetDiff(Function<Node, String> displayName) {
        this.lines = new TopologyLines(out, displayName);
    }

    /**
     * The checks a {@code --diffcheck} argument names: keys separated by commas, in any case.
     *
     * @throws IllegalArgumentException naming the first key that is not one of {@link Check}'s
     */
    public static Set<Check> parseChecks(String keys) {
        Set<Check> checks = EnumSet.noneOf(Check.class);
        for (String key : keys.split(",")) {
            if (key.isEmpty()) {
                continue;
            }
            checks.add(EnumSet.allOf(Check.class).stream().filter(c -> c.key.equals(key.toLowerCase(Locale.ROOT))).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("invalid diff check key: " + key)));
        }
        return Set.copyOf(checks);
    }

    /** The differences from {@code before} to {@code now} under {@code checks}, nodes named by their descriptions. */
    public static String write(Subnet before, Subnet now, Set<Check> checks) {
        return write(before, now, checks, Node::description);
    }

    /**
     * The differences from {@code before} to {@code now} under {@code checks}, with
     * {@code displayName} in place of node descriptions where {@link TopologyWriter} uses it.
     */
    public static String write(Subnet before, Subnet now, Set<Check> checks, Function<Node, String> displayName) {
        SubnetDiff diff = new SubnetDiff(displayName);
        Set<Check> onlyPresence = EnumSet.noneOf(Check.class);
        onlyPresence.addAll(checks);
        onlyPresence.removeAll(PER_NODE);
        for (Check kind : List.of(Check.SWITCHES, Check.CHANNEL_ADAPTERS, Check.ROUTERS)) {
            if (checks.contains(kind)) {
                diff.pass(before, now, kind.nodeType, checks, OLD, NEW);
                diff.pass(now, before, kind.nodeType, onlyPresence, NEW, OLD);
            }
        }
        return diff.out.toString();
    }

    /** Every node of {@code type} in {@code first}, in libibnetdisc's order, against {@code second}. */
    private void pass(Subnet first, Subnet second, int type, Set<Check> checks, String firstMark, String secondMark) {
        for (Node node : first.nodes().reversed()) {
            if (node.nodeTypeValue() != type) {
                continue;
            }
            Node other = second.node(node.guid()).orElse(null);
            if (other == null) {
                lines.header(node, firstMark, firstMark);
                for (int p = 1; p <= node.numPorts(); p++) {
                    portLine(node.port(p), firstMark);
                }
            } else if (checks.stream().anyMatch(PER_NODE::contains)) {
                compare(node, other, checks, firstMark, secondMark);
            }
        }
    }

    private void compare(Node node, Node other, Set<Check> checks, String firstMark, String secondMark) {
        Header header = new Header(node);
        if (checks.contains(Check.LIDS) && node.managementLid() != other.managementLid()
                || checks.contains(Check.NODE_DESCRIPTIONS) && !node.description().equals(other.description())) {
            lines.header(node, "", firstMark);
            lines.detail(other, secondMark);
            out.append('\n');
            header.shown = true;
        }
        if (node.numPorts() != other.numPorts()) {
            header.show();
            out.append(firstMark).append("numports = ").append(node.numPorts()).append('\n');
            out.append(secondMark).append("numports = ").append(other.numPorts()).append('\n');
            return;
        }
        if (checks.contains(Check.PORTS) || checks.contains(Check.LIDS)) {
            for (int p = 1; p <= node.numPorts(); p++) {
                comparePort(node.port(p), other.port(p), checks, header, firstMark, secondMark);
            }
        }
    }

    private void comparePort(Port a, Port b, Set<Check> checks, Header header, String firstMark, String secondMark) {
        boolean ports = checks.contains(Check.PORTS);
        boolean both = a != null && b != null;
        boolean bothLinked = both && a.remote() != null && b.remote() != null;
        boolean first = false;
        boolean second = false;
        if (ports) {
            if (a != null && (b == null || a.remote() != null && b.remote() == null)) {
                first = true;
            } else if (b != null && (a == null || a.remote() == null && b.remote() != null)) {
                second = true;
            } else if (both && (!a.guid().equals(b.guid()) || bothLinked && !a.remote().guid().equals(b.remote().guid()))) {
                first = second = true;
            }
        }
        boolean lidChanged = both && checks.contains(Check.LIDS) && a.lid() != b.lid();
        boolean remoteChanged = bothLinked && ports
                && (checks.contains(Check.NODE_DESCRIPTIONS) && !a.remote().node().description().equals(b.remote().node().description())
                        || checks.contains(Check.LIDS) && a.remote().lid() != b.remote().lid());
        if (lidChanged || remoteChanged) {
            first = second = true;
        }
        if (first) {
            header.show();
            portLine(a, firstMark);
        }
        if (second) {
            header.show();
            portLine(b, secondMark);
        }
    }

    /** The port's line, if it has a link (see the class comment). */
    private void portLine(Port port, String mark) {
        if (port != null && port.remote() != null) {
            lines.port(port, mark);
        }
    }

    /** A node's unmarked header, printed once before the first difference found in it. */
    private final class Header {
        private final Node node;
        private boolean shown;

        Header(Node node) {
            this.node = node;
        }

        void show() {
            if (!shown) {
                lines.header(node, "", "");
                shown = true;
            }
        }
    }
}

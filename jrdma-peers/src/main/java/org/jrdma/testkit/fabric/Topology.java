package org.jrdma.testkit.fabric;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A fabric topology in the ibnetdiscover text format that ibsim reads: one record per node (a
 * header line {@code Switch 8 "name"} or {@code Ca 2 "name"}, optionally preceded by
 * {@code switchguid=}/{@code caguid=} lines, followed by one line per connected port
 * {@code [1](portguid) "remote"[2]}), plus ibsim's {@code include FILE} and {@code do COMMAND}
 * extensions.
 *
 * <p>This model keeps what tests need to check what the tools report: each node's type, name
 * (which ibsim also uses as its NodeDescription), port count, node GUID when the file assigns one,
 * and its links. ibsim itself remains the authority on parsing; this reader rejects what it does
 * not understand so that a mistyped topology fails loudly.
 *
 * @param source the file (or bundled resource name) the topology was read from
 * @param nodes  the nodes in file order; the first one is where OpenSM attaches by default
 * @param text   the whole topology text with includes expanded, as handed to ibsim
 */
public record Topology(String source, List<Node> nodes, String text) {
    /** The resource folder holding the bundled topologies. */
    private static final String BUNDLED = "/org/jrdma/testkit/fabric/";
    private static final int MAX_INCLUDE_DEPTH = 8;
    private static final int MAX_LINES = 1_000_000;
    private static final Pattern HEADER = Pattern.compile(
            "(Switch|Hca|Ca)\\s+(\\d{1,3})\\s+\"([^\"#@]+)\"\\s*(#.*)?");
    private static final Pattern GUID_LINE = Pattern.compile("(switchguid|caguid)\\s*=\\s*(0x)?([0-9A-Fa-f]{1,16})(\\(.*\\))?\\s*");
    private static final Pattern PORT_LINE = Pattern.compile(
            "\\[(\\d{1,3})](\\(([0-9A-Fa-f]{1,16})\\))?\\s*\"([^\"]+)\"\\s*\\[(\\d{1,3})](\\(([0-9A-Fa-f]{1,16})\\))?.*");
    private static final Pattern OTHER_ASSIGNMENT = Pattern.compile("(vendid|devid|sysimgguid)\\s*=.*");

    /** The kind of an IBA node (IBA 14.2.5.3 NodeInfo:NodeType) as a topology file names it. */
    public enum NodeType {
        /** A channel adapter (an HCA or TCA), written {@code Ca} or {@code Hca}. */
        CA,
        /** A switch, written {@code Switch}. */
        SWITCH
    }

    /**
     * One physical link end: this node's port, the node at the other end and its port.
     *
     * @param port       the local port number (1-based; 0 is a switch's management port)
     * @param portGuid   the local port's GUID when the file gives it, else 0
     * @param remoteName the name of the node at the other end
     * @param remotePort the port number at the other end
     */
    public record Link(int port, long portGuid, String remoteName, int remotePort) {
    }

    /**
     * One node of the topology.
     *
     * @param type  switch or channel adapter
     * @param name  the node's name, also its NodeDescription in ibsim
     * @param ports the number of physical ports
     * @param guid  the node GUID the file assigns, or 0 when ibsim chooses it
     * @param links the connected ports in file order
     */
    public record Node(NodeType type, String name, int ports, long guid, List<Link> links) {
        public Node {
            links = List.copyOf(links);
        }
    }

    public Topology {
        nodes = List.copyOf(nodes);
    }

    /** The node of this name. */
    public Node node(String name) {
        return nodes.stream().filter(n -> n.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no node \"" + name + "\" in " + source));
    }

    /** The nodes of one type, in file order. */
    public List<Node> nodes(NodeType type) {
        return nodes.stream().filter(n -> n.type() == type).toList();
    }

    /** The names of the topologies shipped with the test kit. */
    public static List<String> bundledNames() {
        return List.of("single-switch", "two-switch", "fat-tree");
    }

    /**
     * Loads a topology by bundled name ({@link #bundledNames()}) or, if it is not one, as a file path.
     *
     * @throws IllegalArgumentException if it is neither, or the file is malformed
     */
    public static Topology load(String nameOrPath) {
        if (bundledNames().contains(nameOrPath)) {
            return bundled(nameOrPath);
        }
        Path file = Path.of(nameOrPath);
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("topology \"" + nameOrPath
                    + "\" is neither a bundled topology " + bundledNames() + " nor a readable file");
        }
        return fromFile(file);
    }

    /**
     * A two-level fat tree: every leaf switch has {@code hostsPerLeaf} single-port HCAs on ports
     * 1..hostsPerLeaf and one link to each spine on the following ports; every spine has one port
     * per leaf. GUIDs are fixed: spines {@code 0x0002c90300100000+s}, leaves
     * {@code 0x0002c90300200000+l}, HCAs {@code 0x0002c90301000000+16h} (port 1 = node + 1).
     */
    public static Topology fatTree(int spines, int leaves, int hostsPerLeaf) {
        if (spines < 1 || leaves < 1 || hostsPerLeaf < 0 || hostsPerLeaf + spines > 254 || leaves > 254) {
            throw new IllegalArgumentException("fat tree needs 1..254 ports per switch: spines " + spines + ", leaves "
                    + leaves + ", hosts per leaf " + hostsPerLeaf);
        }
        StringBuilder t = new StringBuilder();
        for (int s = 1; s <= spines; s++) {
            t.append(String.format("switchguid=0x%016x%nSwitch\t%d \"spine%d\"%n", 0x0002c90300100000L + s, leaves, s));
            for (int l = 1; l <= leaves; l++) {
                t.append(String.format("[%d]\t\"leaf%d\"[%d]%n", l, l, hostsPerLeaf + s));
            }
            t.append('\n');
        }
        for (int l = 1; l <= leaves; l++) {
            t.append(String.format("switchguid=0x%016x%nSwitch\t%d \"leaf%d\"%n", 0x0002c90300200000L + l, hostsPerLeaf + spines, l));
            for (int h = 1; h <= hostsPerLeaf; h++) {
                t.append(String.format("[%d]\t\"%s\"[1]%n", h, hostName(l, h, hostsPerLeaf)));
            }
            for (int s = 1; s <= spines; s++) {
                t.append(String.format("[%d]\t\"spine%d\"[%d]%n", hostsPerLeaf + s, s, l));
            }
            t.append('\n');
        }
        for (int l = 1; l <= leaves; l++) {
            for (int h = 1; h <= hostsPerLeaf; h++) {
                long guid = 0x0002c90301000000L + 16L * ((long) (l - 1) * hostsPerLeaf + h);
                t.append(String.format("caguid=0x%016x%nCa\t1 \"%s\"%n[1](%016x)\t\"leaf%d\"[%d]%n%n", guid,
                        hostName(l, h, hostsPerLeaf), guid + 1, l, h));
            }
        }
        return parse(String.format("fat-tree %d spines x %d leaves x %d hosts", spines, leaves, hostsPerLeaf), t.toString(), null);
    }

    private static String hostName(int leaf, int host, int hostsPerLeaf) {
        return String.format("node%05d HCA-1", (leaf - 1) * hostsPerLeaf + host);
    }

    /** Loads one of the bundled topologies. */
    public static Topology bundled(String name) {
        if (!bundledNames().contains(name)) {
            throw new IllegalArgumentException("no bundled topology \"" + name + "\"; there are " + bundledNames());
        }
        try (InputStream in = Topology.class.getResourceAsStream(BUNDLED + name + ".topo")) {
            if (in == null) {
                throw new IllegalStateException("bundled topology resource missing: " + name);
            }
            return parse(name, new String(in.readAllBytes(), StandardCharsets.UTF_8), null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads a topology file, following {@code include} lines relative to it. */
    public static Topology fromFile(Path file) {
        return parse(file.toString(), read(file), file.toAbsolutePath().getParent());
    }

    /**
     * Parses topology text.
     *
     * @param source  a name for messages
     * @param text    the text
     * @param baseDir where {@code include} lines are resolved, or null to forbid includes
     */
    public static Topology parse(String source, String text, Path baseDir) {
        StringBuilder expanded = new StringBuilder();
        expand(source, text, baseDir, 0, expanded);
        return new Topology(source, new Parser(source).parse(expanded.toString()), expanded.toString());
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read topology file " + file + ": " + e.getMessage(), e);
        }
    }

    private static void expand(String source, String text, Path baseDir, int depth, StringBuilder out) {
        for (String line : text.split("\n", -1)) {
            String trimmed = line.strip();
            if (trimmed.startsWith("include ")) {
                if (baseDir == null || depth >= MAX_INCLUDE_DEPTH) {
                    throw new IllegalArgumentException(source + ": include not allowed here"
                            + (baseDir == null ? "" : " (nested deeper than " + MAX_INCLUDE_DEPTH + ")") + ": " + trimmed);
                }
                Path included = baseDir.resolve(trimmed.substring("include ".length()).strip());
                expand(included.toString(), read(included), included.getParent(), depth + 1, out);
            } else {
                out.append(line).append('\n');
            }
        }
    }

    /** A one-pass reader of node records. */
    private static final class Parser {
        private final String source;
        private final List<Node> nodes = new ArrayList<>();
        private final Map<String, Node> byName = new LinkedHashMap<>();
        private long pendingGuid;
        private NodeType currentType;
        private String currentName;
        private int currentPorts;
        private long currentGuid;
        private List<Link> currentLinks;

        Parser(String source) {
            this.source = source;
        }

        List<Node> parse(String text) {
            String[] lines = text.split("\n", -1);
            if (lines.length > MAX_LINES) {
                throw new IllegalArgumentException(source + ": more than " + MAX_LINES + " lines");
            }
            for (int i = 0; i < lines.length; i++) {
                parseLine(i + 1, lines[i].strip());
            }
            finishNode();
            if (nodes.isEmpty()) {
                throw new IllegalArgumentException(source + ": no node records");
            }
            checkLinks();
            return nodes;
        }

        private void parseLine(int number, String line) {
            if (line.isEmpty()) {
                finishNode();
                return;
            }
            if (line.startsWith("#") || line.startsWith("do ") || OTHER_ASSIGNMENT.matcher(line).matches()) {
                return;
            }
            Matcher m = GUID_LINE.matcher(line);
            if (m.matches()) {
                pendingGuid = Long.parseUnsignedLong(m.group(3), 16);
                return;
            }
            m = HEADER.matcher(line);
            if (m.matches()) {
                finishNode();
                currentType = m.group(1).equals("Switch") ? NodeType.SWITCH : NodeType.CA;
                currentPorts = Integer.parseInt(m.group(2));
                currentName = m.group(3);
                currentGuid = pendingGuid;
                currentLinks = new ArrayList<>();
                pendingGuid = 0;
                if (currentPorts < 1 || currentPorts > 254) {
                    throw error(number, "port count " + currentPorts + " outside 1..254", line);
                }
                return;
            }
            m = PORT_LINE.matcher(line);
            if (m.matches() && currentLinks != null) {
                int port = Integer.parseInt(m.group(1));
                if (port > currentPorts) {
                    throw error(number, "port " + port + " beyond the node's " + currentPorts + " ports", line);
                }
                long portGuid = m.group(3) == null ? 0 : Long.parseUnsignedLong(m.group(3), 16);
                currentLinks.add(new Link(port, portGuid, m.group(4), Integer.parseInt(m.group(5))));
                return;
            }
            throw error(number, currentLinks == null ? "expected a node header (Switch|Ca|Hca N \"name\")"
                    : "expected a port line ([port] \"remote\"[port])", line);
        }

        private void finishNode() {
            if (currentLinks == null) {
                return;
            }
            Node node = new Node(currentType, currentName, currentPorts, currentGuid, currentLinks);
            if (byName.putIfAbsent(node.name(), node) != null) {
                throw new IllegalArgumentException(source + ": node \"" + node.name() + "\" defined twice");
            }
            nodes.add(node);
            currentLinks = null;
        }

        private void checkLinks() {
            for (Node node : nodes) {
                for (Link link : node.links()) {
                    if (!byName.containsKey(link.remoteName())) {
                        throw new IllegalArgumentException(source + ": node \"" + node.name() + "\" port "
                                + link.port() + " links to unknown node \"" + link.remoteName() + "\"");
                    }
                }
            }
        }

        private IllegalArgumentException error(int line, String what, String text) {
            String shown = text.length() > 120 ? text.substring(0, 120) + "..." : text;
            return new IllegalArgumentException(String.format(Locale.ROOT, "%s line %d: %s: %s", source, line, what, shown));
        }
    }
}

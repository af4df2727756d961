package org.jrdma.tools;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jrdma.subnet.Node;
import org.jrdma.subnet.Port;
import org.jrdma.subnet.Subnet;

/**
 * A discovered subnet drawn as a graph for reports, in Graphviz DOT or in SVG laid out here: one
 * vertex per node (switches as boxes, channel adapters and routers as ellipses, labelled with their
 * NodeDescription or node-name-map name), one edge per pair of nodes cabled together, carrying the
 * port numbers of each of its links (parallel links are one edge with their count). The layout is
 * the monitor's web view's: channel adapters in the bottom row, each switch as many rows above as it
 * is hops from the nearest adapter (leaves, then spines), each row in name order.
 *
 * @param vertices the nodes, in drawing order: by row from the top, then by name
 * @param edges    the node pairs with the links between them
 */
record FabricDrawing(List<Vertex> vertices, List<Edge> edges) {
    private static final int COLUMN = 150;
    private static final int ROW = 120;
    private static final int MARGIN = 30;
    private static final int BOX_WIDTH = 130;
    private static final int BOX_HEIGHT = 36;

    /**
     * A node: its id (the node GUID, {@code 0x} and 16 hex digits), its name, whether it is a switch,
     * its row (0 at the top) and column in that row, and the centre of its shape in the SVG (each row
     * centred on the widest).
     */
    record Vertex(String id, String name, boolean isSwitch, int row, int column, int x, int y) {
    }

    /** A link between port {@code aPort} of one node and port {@code bPort} of the other. */
    record Link(int aPort, int bPort) {
    }

    /** The links between vertex {@code a} and vertex {@code b}, by port of {@code a}. */
    record Edge(Vertex a, Vertex b, List<Link> links) {
    }

    /** {@code subnet} laid out, each node named by {@code name}. */
    static FabricDrawing of(Subnet subnet, Function<Node, String> name) {
        Map<Node, Integer> height = heights(subnet);
        int top = height.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        Map<Integer, List<Node>> rows = new TreeMap<>();
        Comparator<Node> byName = Comparator.comparing(name).thenComparing(n -> n.guid().toHexString());
        subnet.nodes().forEach(n -> rows.computeIfAbsent(top - height.get(n), r -> new ArrayList<>()).add(n));
        int widest = rows.values().stream().mapToInt(List::size).max().orElse(0);
        Map<Node, Vertex> vertices = new LinkedHashMap<>();
        rows.forEach((row, nodes) -> {
            nodes.sort(byName);
            int indent = (widest - nodes.size()) * COLUMN / 2;
            for (int column = 0; column < nodes.size(); column++) {
                Node n = nodes.get(column);
                vertices.put(n, new Vertex(n.guid().toHexString(), name.apply(n), n.isSwitch(), row, column,
                        MARGIN + indent + column * COLUMN + BOX_WIDTH / 2, MARGIN + row * ROW + BOX_HEIGHT / 2));
            }
        });
        Map<String, Edge> edges = new LinkedHashMap<>();
        for (Node node : vertices.keySet()) {
            for (Port port : node.ports()) {
                Port remote = port.remote();
                if (remote == null || !vertices.containsKey(remote.node()) || !isFirstEnd(port, remote, vertices)) {
                    continue;
                }
                Vertex a = vertices.get(node);
                Vertex b = vertices.get(remote.node());
                edges.computeIfAbsent(a.id() + " " + b.id(), k -> new Edge(a, b, new ArrayList<>()))
                        .links().add(new Link(port.number(), remote.number()));
            }
        }
        List<Edge> frozen = edges.values().stream().map(e -> new Edge(e.a(), e.b(), List.copyOf(e.links()))).toList();
        return new FabricDrawing(List.copyOf(vertices.values()), frozen);
    }

    /** Each node's height: 0 for a channel adapter or router, a switch's hops from the nearest one (1 if none is reachable). */
    private static Map<Node, Integer> heights(Subnet subnet) {
        Map<Node, Integer> height = new HashMap<>();
        Deque<Node> queue = new ArrayDeque<>();
        for (Node n : subnet.nodes()) {
            if (!n.isSwitch()) {
                height.put(n, 0);
                queue.add(n);
            }
        }
        while (!queue.isEmpty()) {
            Node n = queue.poll();
            for (Port port : n.ports()) {
                Port remote = port.remote();
                if (remote != null && remote.node().isSwitch() && !height.containsKey(remote.node())) {
                    height.put(remote.node(), height.get(n) + 1);
                    queue.add(remote.node());
                }
            }
        }
        subnet.nodes().forEach(n -> height.putIfAbsent(n, 1));
        return height;
    }

    /** Whether {@code port} is the end of its link drawn from: the node drawn first, or the lower port of a loop. */
    private static boolean isFirstEnd(Port port, Port remote, Map<Node, Vertex> vertices) {
        Vertex here = vertices.get(port.node());
        Vertex there = vertices.get(remote.node());
        int order = Comparator.comparingInt(Vertex::row).thenComparingInt(Vertex::column).compare(here, there);
        return order < 0 || (order == 0 && port.number() < remote.number());
    }

    /**
     * The drawing in Graphviz DOT: an undirected graph, a rank per row, each edge with the ports of
     * its links at each end ({@code taillabel} and {@code headlabel}, comma separated, in the same
     * order) and, for parallel links, their count as its label.
     */
    String dot() {
        StringBuilder out = new StringBuilder("graph fabric {\n");
        out.append("  graph [rankdir=TB, splines=line];\n  node [fontname=\"Helvetica\", fontsize=10];\n");
        Map<Integer, List<Vertex>> rows = vertices.stream().collect(Collectors.groupingBy(Vertex::row, TreeMap::new, Collectors.toList()));
        rows.forEach((row, inRow) -> {
            out.append("  { rank=same;\n");
            for (Vertex v : inRow) {
                out.append(String.format("    %s [label=%s, shape=%s];\n", dotQuoted(v.id()), dotQuoted(v.name()), v.isSwitch() ? "box" : "ellipse"));
            }
            out.append("  }\n");
        });
        for (Edge e : edges) {
            out.append(String.format("  %s -- %s [taillabel=\"%s\", headlabel=\"%s\"%s];\n", dotQuoted(e.a().id()), dotQuoted(e.b().id()),
                    ports(e, Link::aPort), ports(e, Link::bPort), e.links().size() > 1 ? ", label=\"x" + e.links().size() + "\", penwidth=2" : ""));
        }
        return out.append("}\n").toString();
    }

    /**
     * The drawing in SVG (1.1, no script or style sheet): a {@code g} of class {@code node} per node
     * (a rectangle for a switch, an ellipse otherwise, and its name) and a {@code line} of class
     * {@code link} per edge, whose {@code title} names the ports of each link and which carries the
     * count of parallel links as a label.
     */
    String svg() {
        int columns = vertices.stream().mapToInt(Vertex::column).max().orElse(0) + 1;
        int rows = vertices.stream().mapToInt(Vertex::row).max().orElse(0) + 1;
        int width = 2 * MARGIN + (columns - 1) * COLUMN + BOX_WIDTH;
        int height = 2 * MARGIN + (rows - 1) * ROW + BOX_HEIGHT;
        StringBuilder out = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        out.append(String.format("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\""
                + " font-family=\"Helvetica, Arial, sans-serif\" font-size=\"11\">\n", width, height, width, height));
        out.append("  <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        for (Edge e : edges) {
            String title = e.links().stream().map(l -> e.a().name() + "[" + l.aPort() + "] - " + e.b().name() + "[" + l.bPort() + "]")
                    .collect(Collectors.joining(", "));
            out.append(String.format("  <line class=\"link\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#2e7d32\" stroke-width=\"%d\"><title>%s</title></line>\n",
                    e.a().x(), e.a().y(), e.b().x(), e.b().y(), e.links().size() > 1 ? 3 : 1, xml(title)));
            if (e.links().size() > 1) {
                out.append(String.format("  <text class=\"count\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">x%d</text>\n",
                        (e.a().x() + e.b().x()) / 2, (e.a().y() + e.b().y()) / 2 - 3, e.links().size()));
            }
        }
        for (Vertex v : vertices) {
            out.append(String.format("  <g class=\"node\" id=\"%s\"><title>%s %s</title>", v.id(), xml(v.name()), v.id()));
            if (v.isSwitch()) {
                out.append(String.format("<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"4\" fill=\"#dfe9f5\" stroke=\"#1f4e79\"/>",
                        v.x() - BOX_WIDTH / 2, v.y() - BOX_HEIGHT / 2, BOX_WIDTH, BOX_HEIGHT));
            } else {
                out.append(String.format("<ellipse cx=\"%d\" cy=\"%d\" rx=\"%d\" ry=\"%d\" fill=\"#f3f3f3\" stroke=\"#555555\"/>",
                        v.x(), v.y(), BOX_WIDTH / 2, BOX_HEIGHT / 2));
            }
            out.append(String.format("<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text></g>\n", v.x(), v.y() + 4, xml(shortened(v.name()))));
        }
        return out.append("</svg>\n").toString();
    }

    private static String ports(Edge e, Function<Link, Integer> end) {
        return e.links().stream().map(l -> String.valueOf(end.apply(l))).collect(Collectors.joining(","));
    }

    /** A DOT quoted string (its double quotes and backslashes escaped). */
    private static String dotQuoted(String s) {
        return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }

    /** {@code s} as XML character data or attribute value. */
    private static String xml(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                default -> out.append(c < 0x20 ? ' ' : c);
            }
        }
        return out.toString();
    }

    /** A name that fits its box (about 22 characters at 11 px; the whole name is in the node's title). */
    private static String shortened(String name) {
        String trimmed = name.strip();
        return trimmed.length() <= 22 ? trimmed : trimmed.substring(0, 21) + "\u2026";
    }
}

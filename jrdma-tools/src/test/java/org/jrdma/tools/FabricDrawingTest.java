package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.Topology;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * {@code ibtool ibnetdiscover --dot/--svg} on the bundled fat tree: the DOT, parsed back, has every
 * node and every link of the topology once; the SVG parses as XML with one element per node and per
 * link, in rows spines, leaves, hosts.
 */
@SimulatedFabric(topology = "fat-tree")
class FabricDrawingTest {
    private static final Pattern NODE = Pattern.compile("^ {4}\"(0x[0-9a-f]{16})\" \\[label=\"((?:[^\"\\\\]|\\\\.)*)\", shape=(box|ellipse)\\];$");
    private static final Pattern EDGE = Pattern.compile(
            "^ {2}\"(0x[0-9a-f]{16})\" -- \"(0x[0-9a-f]{16})\" \\[taillabel=\"([0-9,]+)\", headlabel=\"([0-9,]+)\"(, label=\"x(\\d+)\", penwidth=2)?\\];$");
    private static final Set<String> FRAME = Set.of("graph fabric {", "  graph [rankdir=TB, splines=line];",
            "  node [fontname=\"Helvetica\", fontsize=10];", "  { rank=same;", "  }", "}");

    @Test
    void dotHasEveryNodeAndEveryLinkOnce(Fabric fabric) {
        IbtoolRun run = IbtoolRun.of("ibnetdiscover", "--sim", fabric.socketName(), "--dot", "-");
        assertEquals(0, run.exitCode(), run.err());
        Topology topology = Topology.bundled("fat-tree");

        Map<String, String> nodes = new HashMap<>();
        Map<String, String> shapes = new HashMap<>();
        List<String> links = new ArrayList<>();
        for (String line : run.out().split("\n")) {
            Matcher node = NODE.matcher(line);
            Matcher edge = EDGE.matcher(line);
            if (node.matches()) {
                assertEquals(null, nodes.put(node.group(1), node.group(2)), "node twice: " + line);
                shapes.put(node.group(1), node.group(3));
            } else if (edge.matches()) {
                String[] tail = edge.group(3).split(",");
                String[] head = edge.group(4).split(",");
                assertEquals(tail.length, head.length, line);
                for (int i = 0; i < tail.length; i++) {
                    links.add(link(edge.group(1), Integer.parseInt(tail[i]), edge.group(2), Integer.parseInt(head[i])));
                }
            } else {
                assertTrue(FRAME.contains(line), "a line that is neither a node, an edge nor the frame: " + line);
            }
        }

        assertEquals(expectedNodes(topology), nodes);
        for (Topology.Node n : topology.nodes()) {
            assertEquals(n.type() == Topology.NodeType.SWITCH ? "box" : "ellipse", shapes.get(guid(n)), n.name());
        }
        assertEquals(links.size(), new HashSet<>(links).size(), "a link drawn twice: " + links);
        assertEquals(expectedLinks(topology), new TreeSet<>(links));
        assertEquals(16, links.size());
    }

    @Test
    void svgIsXmlWithOneElementPerNodeAndLinkInRows(Fabric fabric) throws Exception {
        Files.createDirectories(Path.of("target"));
        Path file = Path.of("target/fat-tree.svg");
        IbtoolRun run = IbtoolRun.of("ibnetdiscover", "--sim", fabric.socketName(), "--svg", file.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().startsWith("#\n# Topology file"), "the topology file is still printed: " + run.out());
        Topology topology = Topology.bundled("fat-tree");

        Document svg = parse(Files.readString(file));
        assertEquals("svg", svg.getDocumentElement().getLocalName());
        Map<String, Integer> rowOf = new HashMap<>();
        Map<String, String> titles = new HashMap<>();
        NodeList groups = svg.getElementsByTagNameNS("*", "g");
        for (int i = 0; i < groups.getLength(); i++) {
            Element g = (Element) groups.item(i);
            assertEquals("node", g.getAttribute("class"));
            Element shape = (Element) g.getElementsByTagNameNS("*", "rect").item(0);
            String y = shape != null ? shape.getAttribute("y") : ((Element) g.getElementsByTagNameNS("*", "ellipse").item(0)).getAttribute("cy");
            rowOf.put(g.getAttribute("id"), Integer.parseInt(y));
            titles.put(g.getAttribute("id"), g.getElementsByTagNameNS("*", "title").item(0).getTextContent());
        }
        assertEquals(expectedNodes(topology).keySet(), rowOf.keySet());
        for (Topology.Node n : topology.nodes()) {
            assertTrue(titles.get(guid(n)).startsWith(n.name() + " "), titles.get(guid(n)));
        }
        int spine = rowOf.get(guid(topology.node("spine1")));
        int leaf = rowOf.get(guid(topology.node("leaf1")));
        int host = rowOf.get(guid(topology.node("node01 HCA-1")));
        assertTrue(spine < leaf && leaf < host, rowOf.toString());
        for (Topology.Node n : topology.nodes()) {
            int expected = n.name().startsWith("spine") ? spine : n.name().startsWith("leaf") ? leaf : host;
            assertEquals(expected, rowOf.get(guid(n)), n.name());
        }
        NodeList lines = svg.getElementsByTagNameNS("*", "line");
        assertEquals(16, lines.getLength());
        Set<String> described = new HashSet<>();
        for (int i = 0; i < lines.getLength(); i++) {
            Element line = (Element) lines.item(i);
            assertEquals("link", line.getAttribute("class"));
            described.add(line.getElementsByTagNameNS("*", "title").item(0).getTextContent());
        }
        assertEquals(16, described.size());
        assertTrue(described.contains("spine1[1] - leaf1[5]"), described.toString());
        assertTrue(described.contains("leaf1[1] - node01 HCA-1[1]"), described.toString());
    }

    @Test
    void dotAndSvgCannotBothGoToStandardOutput() {
        IbtoolRun run = IbtoolRun.of("ibnetdiscover", "--sim", "x", "--dot", "-", "--svg", "-");
        assertEquals(2, run.exitCode());
        assertTrue(run.err().contains("--dot and --svg cannot both write to standard output"), run.err());
    }

    static Document parse(String xml) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        return factory.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }

    static String guid(Topology.Node n) {
        return String.format("0x%016x", n.guid());
    }

    private static Map<String, String> expectedNodes(Topology topology) {
        Map<String, String> nodes = new HashMap<>();
        topology.nodes().forEach(n -> nodes.put(guid(n), n.name()));
        return nodes;
    }

    private static Set<String> expectedLinks(Topology topology) {
        Set<String> links = new TreeSet<>();
        for (Topology.Node n : topology.nodes()) {
            for (Topology.Link l : n.links()) {
                links.add(link(guid(n), l.port(), guid(topology.node(l.remoteName())), l.remotePort()));
            }
        }
        return links;
    }

    /** A link's identity whichever end is named first. */
    static String link(String a, int aPort, String b, int bPort) {
        String x = a + "[" + aPort + "]";
        String y = b + "[" + bPort + "]";
        return x.compareTo(y) < 0 ? x + " - " + y : y + " - " + x;
    }
}

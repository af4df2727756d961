package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** {@code ibtool ibnetdiscover --dot/--svg} on the two-switch fabric: its two parallel inter-switch links are one edge with both. */
@SimulatedFabric(topology = "two-switch")
class FabricDrawingParallelLinksTest {

    @Test
    void parallelLinksAreOneEdgeCarryingEachLinksPorts(Fabric fabric, @TempDir Path dir) throws Exception {
        Path dot = dir.resolve("fabric.dot");
        IbtoolRun run = IbtoolRun.of("ibnetdiscover", "--sim", fabric.socketName(), "--dot", dot.toString(), "--svg", "-");
        assertEquals(0, run.exitCode(), run.err());

        List<String> edges = Files.readAllLines(dot).stream().filter(l -> l.contains(" -- ")).toList();
        assertEquals(5, edges.size(), edges.toString());
        List<String> between = edges.stream().filter(l -> l.contains("\"0x0002c90300000a01\" -- \"0x0002c90300000a02\"")).toList();
        assertEquals(List.of("  \"0x0002c90300000a01\" -- \"0x0002c90300000a02\" [taillabel=\"7,8\", headlabel=\"7,8\", label=\"x2\", penwidth=2];"),
                between);

        Document svg = FabricDrawingTest.parse(run.out());
        assertEquals(6, svg.getElementsByTagNameNS("*", "g").getLength());
        NodeList lines = svg.getElementsByTagNameNS("*", "line");
        assertEquals(5, lines.getLength());
        boolean grouped = false;
        for (int i = 0; i < lines.getLength(); i++) {
            String title = ((Element) lines.item(i)).getElementsByTagNameNS("*", "title").item(0).getTextContent();
            grouped |= title.equals("sw1[7] - sw2[7], sw1[8] - sw2[8]");
        }
        assertTrue(grouped, "no line for the two sw1-sw2 links");
        NodeList texts = svg.getElementsByTagNameNS("*", "text");
        long counts = 0;
        for (int i = 0; i < texts.getLength(); i++) {
            Element text = (Element) texts.item(i);
            if (text.getAttribute("class").equals("count")) {
                assertEquals("x2", text.getTextContent());
                counts++;
            }
        }
        assertEquals(1, counts);
    }
}

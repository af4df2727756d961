package org.jrdma.testkit.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.jrdma.testkit.fabric.Topology.NodeType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading topology files in ibnetdiscover/ibsim format. */
class TopologyTest {

    @Test
    void bundledTopologiesHaveTheirDocumentedShape() {
        assertShape(Topology.bundled("single-switch"), 1, 2);
        assertShape(Topology.bundled("two-switch"), 2, 4);
        assertShape(Topology.bundled("fat-tree"), 6, 8);
    }

    @Test
    void nodesKeepTheirGuidsPortsAndLinks() {
        Topology t = Topology.bundled("two-switch");
        Topology.Node sw1 = t.node("sw1");
        assertEquals(0x0002c90300000a01L, sw1.guid());
        assertEquals(8, sw1.ports());
        assertEquals(new Topology.Link(7, 0, "sw2", 7), sw1.links().get(2));
        Topology.Node ca = t.node("node01 HCA-1");
        assertEquals(new Topology.Link(1, 0x0002c90300001011L, "sw1", 1), ca.links().getFirst());
    }

    @Test
    void readsIbnetdiscoverOutputAsIs() {
        Topology t = Topology.parse("ibnetdiscover", """
                #
                # Topology file: generated on Sun Nov 22 06:41:37 2026
                vendid=0x0
                devid=0x0
                sysimgguid=0x200001
                switchguid=0x200001(200001)
                Switch\t8 "S-0000000000200001"\t\t# "Switch2" base port 0 lid 3 lmc 0
                [1]\t"H-0000000000100003"[1](100004) \t\t# "Hca2" lid 4 4xSDR

                caguid=0x100003
                Ca\t2 "H-0000000000100003"\t\t# "Hca2"
                [1](100004) \t"S-0000000000200001"[1]\t\t# lid 0 lmc 0 "Switch2" lid 0 4xSDR
                """, null);
        assertShape(t, 1, 1);
        assertEquals(0x200001L, t.nodes().getFirst().guid());
        assertEquals(0x100004L, t.node("H-0000000000100003").links().getFirst().portGuid());
    }

    @Test
    void followsIncludesRelativeToTheFile(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("cas.net"), "Ca 1 \"a\"\n[1] \"s\"[1]\n");
        Files.writeString(dir.resolve("main.net"), "Switch 2 \"s\"\n[1] \"a\"[1]\n\ninclude cas.net\n");
        assertShape(Topology.load(dir.resolve("main.net").toString()), 1, 1);
    }

    @Test
    void rejectsMalformedTopologiesWithTheLineAndReason(@TempDir Path dir) throws Exception {
        assertMessage("line 2: expected a port line", "Switch 2 \"s\"\ngarbage\n");
        assertMessage("line 1: expected a node header", "[1] \"a\"[1]\n");
        assertMessage("port 3 beyond the node's 2 ports", "Switch 2 \"s\"\n[3] \"s\"[1]\n");
        assertMessage("port count 300 outside 1..254", "Switch 300 \"s\"\n");
        assertMessage("links to unknown node \"nowhere\"", "Switch 2 \"s\"\n[1] \"nowhere\"[1]\n");
        assertMessage("node \"s\" defined twice", "Switch 2 \"s\"\n\nSwitch 2 \"s\"\n");
        assertMessage("no node records", "# nothing\n");
        assertMessage("include not allowed", "include other.net\n");
        Files.writeString(dir.resolve("loop.net"), "include loop.net\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Topology.fromFile(dir.resolve("loop.net")));
        assertTrue(e.getMessage().contains("nested deeper than 8"), e.getMessage());
    }

    @Test
    void unknownNamesAreNeitherBundledNorFiles() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Topology.load("no-such-topology"));
        assertTrue(e.getMessage().contains("neither a bundled topology"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Topology.bundled("no-such-topology"));
    }

    private static void assertMessage(String expected, String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Topology.parse("t", text, null));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    private static void assertShape(Topology t, int switches, int cas) {
        assertEquals(switches, t.nodes(NodeType.SWITCH).size(), t.source());
        assertEquals(cas, t.nodes(NodeType.CA).size(), t.source());
    }
}

package org.jrdma.testkit.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.Topology.NodeType;
import org.jrdma.testkit.fabric.Topology;
import org.junit.jupiter.api.Test;

/** The C diagnostics of infiniband-diags see exactly the bundled two-switch fabric. */
@SimulatedFabric(topology = "two-switch")
class SimulatedFabricTest {

    @Test
    void smpqueryReadsNodeInfoOfTheAttachedSwitchByDirectedRoute(Fabric fabric) {
        String out = fabric.run("smpquery", "-D", "nodeinfo", "0").orThrow().stdout();

        assertTrue(out.contains("NodeType:........................Switch"), out);
        assertTrue(out.contains("NumPorts:........................8"), out);
        assertEquals("0x0002c90300000a01", field(out, "Guid"));
    }

    @Test
    void smpqueryFollowsADirectedRouteAcrossTheInterSwitchLink(Fabric fabric) {
        String out = fabric.run("smpquery", "-D", "nodedesc", "0,7").orThrow().stdout();

        assertEquals("sw2", field(out, "Node Description"));
    }

    /**
     * One NodeRecord per LID: OpenSM gives each of the 6 nodes one LID (LMC 0, one cabled port per
     * CA). A whole-table query ({@code saquery -N}) is not used because libumad2sim forwards only
     * the first MAD of an RMPP transfer, so it would show the first record only.
     */
    @Test
    void saqueryAnswersANodeRecordForEveryLid(Fabric fabric) {
        Set<String> guids = new TreeSet<>();
        Set<String> descriptions = new TreeSet<>();
        for (int lid = 1; lid <= fabric.topology().nodes().size(); lid++) {
            String out = fabric.run("saquery", "NR", Integer.toString(lid)).orThrow().stdout();
            guids.addAll(values(out, "node_guid"));
            descriptions.addAll(values(out, "NodeDescription"));
        }

        assertEquals(topologyGuids(fabric.topology()), guids);
        assertEquals(new TreeSet<>(fabric.topology().nodes().stream().map(Topology.Node::name).toList()), descriptions);
    }

    @Test
    void ibnetdiscoverFindsEveryNodeAndLink(Fabric fabric) {
        String out = fabric.run("ibnetdiscover").orThrow().stdout();

        assertEquals(2, count(out, "(?m)^Switch\\t8 "));
        assertEquals(4, count(out, "(?m)^Ca\\t2 "));
        Set<String> found = new TreeSet<>();
        Matcher m = Pattern.compile("(?m)^(?:switch|ca)guid=0x([0-9a-f]+)").matcher(out);
        while (m.find()) {
            found.add(String.format("0x%016x", Long.parseUnsignedLong(m.group(1), 16)));
        }
        assertEquals(topologyGuids(fabric.topology()), found, out);
        // Each switch shows both inter-switch links, and OpenSM has given every switch a LID.
        assertEquals(4, count(out, "(?m)^\\[[78]]\\t\"S-0002c90300000a0[12]\"\\[[78]]"), out);
        assertEquals(0, count(out, "# \"sw[12]\" base port 0 lid 0 "), out);
    }

    /**
     * A method's own annotation wins over its class's: this method gets a fabric of its own, with
     * the method's topology and no subnet manager, not the class's two-switch fabric with OpenSM.
     */
    @Test
    @SimulatedFabric(topology = "single-switch", subnetManager = false)
    void aMethodAnnotationGivesTheMethodItsOwnFabric(Fabric fabric) {
        assertEquals(Topology.load("single-switch").nodes().size(), fabric.topology().nodes().size());
        assertFalse(fabric.hasSubnetManager());
        assertEquals("0", field(fabric.run("smpquery", "-D", "portinfo", "0", "0").orThrow().stdout(), "Lid"));
    }

    @Test
    void toolsCanAttachAtAnyNode(Fabric fabric) {
        String out = fabric.runAt("node03 HCA-1", "smpquery", "-D", "nodeinfo", "0").orThrow().stdout();

        assertTrue(out.contains("NodeType:........................Channel Adapter"), out);
        assertEquals("0x0002c90300001030", field(out, "Guid"));
        assertEquals("0x0002c90300001031", field(out, "PortGuid"));
    }

    static Set<String> topologyGuids(Topology topology) {
        return topology.nodes().stream().map(n -> String.format("0x%016x", n.guid()))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    static String field(String smpqueryOutput, String name) {
        Matcher m = Pattern.compile("(?m)^" + name + ":\\.+(\\S+)$").matcher(smpqueryOutput);
        assertTrue(m.find(), name + " not in\n" + smpqueryOutput);
        return m.group(1);
    }

    /** The set of values of a saquery record field, GUIDs normalised to 16 hex digits. */
    static Set<String> values(String saqueryOutput, String name) {
        Set<String> result = new TreeSet<>();
        Matcher m = Pattern.compile("(?m)^\\s*" + name + "\\.+(.+)$").matcher(saqueryOutput);
        while (m.find()) {
            String v = m.group(1).strip();
            result.add(v.startsWith("0x") ? String.format("0x%016x", Long.parseUnsignedLong(v.substring(2), 16)) : v);
        }
        return result;
    }

    static int count(String text, String regex) {
        return (int) Pattern.compile(regex).matcher(text).results().count();
    }

    @Test
    void topologyModelMatchesTheBundledFile(Fabric fabric) {
        Topology t = fabric.topology();
        assertEquals(List.of("sw1", "sw2"), t.nodes(NodeType.SWITCH).stream().map(Topology.Node::name).toList());
        assertEquals(4, t.nodes(NodeType.CA).size());
    }
}

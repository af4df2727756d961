package org.jrdma.subnet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.jrdma.RdmaException;
import org.jrdma.iba.Guid;
import org.jrdma.mad.MadEngine;
import org.jrdma.mad.SmpClient;
import org.jrdma.mad.SmpTarget;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Partial directed-route discovery ({@link SubnetDiscovery#run(SmpClient, Neighborhood)}) on the
 * fat tree, checked against the model the whole discovery reads: from every node, by route and by
 * port GUID, at every distance, it finds exactly the nodes within that many hops and exactly the
 * links with an end nearer than that.
 */
@SimulatedFabric(topology = "fat-tree")
class PartialDiscoveryTest {

    @ParameterizedTest
    @ValueSource(strings = {"spine1", "node05 HCA-1"})
    void fromEveryNodeByRouteFindsExactlyTheNodesAndLinksWithinTheHops(String attachedAt, Fabric fabric) {
        try (MadEngine engine = DiscoverySourcesTest.engine(fabric, attachedAt)) {
            SmpClient smp = DiscoverySourcesTest.smp(engine);
            Subnet whole = SubnetDiscovery.run(smp).subnet();
            assertEquals(14, whole.nodes().size());
            for (Node start : whole.nodes()) {
                Map<Guid, Integer> distance = distances(start);
                int farthest = distance.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
                for (int hops = 0; hops <= farthest + 1; hops++) {
                    SubnetDiscovery part = SubnetDiscovery.run(smp, new Neighborhood.AtRoute(start.route(), hops));
                    assertMatchesModel(part, whole, start, distance, hops);
                }
            }
        }
    }

    @Test
    void fromAPortGuidFindsTheSameAsFromTheNodesRoute(Fabric fabric) {
        try (MadEngine engine = DiscoverySourcesTest.engine(fabric, null)) {
            SmpClient smp = DiscoverySourcesTest.smp(engine);
            Subnet whole = SubnetDiscovery.run(smp).subnet();
            for (long guid : new long[] {0x0002c90300000a13L, 0x0002c90300001031L, 0x0002c90300000a01L}) {
                Node start = whole.nodes().stream().filter(n -> n.ports().getFirst().guid().value() == guid).findFirst().orElseThrow();
                for (int hops : new int[] {1, 2}) {
                    SubnetDiscovery part = SubnetDiscovery.run(smp, new Neighborhood.AtPort(new Guid(guid), hops));
                    assertMatchesModel(part, whole, start, distances(start), hops);
                    assertEquals(start.route(), part.subnet().from().route(), "found by the shortest route from here");
                }
            }
        }
    }

    @Test
    void aChannelAdapterStartGoesBackAlongItsRouteToTheRightSwitchPort(Fabric fabric) {
        try (MadEngine engine = DiscoverySourcesTest.engine(fabric, null)) {
            // spine1 -> leaf1 port 1 -> node01: leaf1 is one hop back, its port 1 (not port 5, where the route entered leaf1).
            Subnet part = SubnetDiscovery.run(DiscoverySourcesTest.smp(engine),
                    new Neighborhood.AtRoute(new SmpTarget.DirectedRoute(new int[] {1, 1}), 1)).subnet();
            assertEquals(List.of("node01 HCA-1", "leaf1"), part.nodes().stream().map(Node::description).toList());
            Port remote = part.from().port(1).remote();
            assertEquals("leaf1 port 1", remote.toString());
            assertEquals(new SmpTarget.DirectedRoute(new int[] {1}), remote.node().route());
        }
    }

    @Test
    void aHugeNumberOfHopsIsTheWholeSubnet(Fabric fabric) {
        try (MadEngine engine = DiscoverySourcesTest.engine(fabric, null)) {
            SmpClient smp = DiscoverySourcesTest.smp(engine);
            Subnet whole = SubnetDiscovery.run(smp).subnet();
            Subnet part = SubnetDiscovery.run(smp, new Neighborhood.AtRoute(SmpTarget.local(), Integer.MAX_VALUE)).subnet();
            assertEquals(links(whole), links(part));
            assertEquals(whole.nodes().stream().map(Node::guid).toList(), part.nodes().stream().map(Node::guid).toList(),
                    "from the local node, in the whole discovery's order");
        }
    }

    @Test
    void badInputFailsClearly(Fabric fabric) {
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
                () -> new Neighborhood.AtRoute(SmpTarget.local(), -1));
        assertTrue(negative.getMessage().contains("not -1"), negative.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new Neighborhood.AtPort(new Guid(1), -5));
        try (MadEngine engine = DiscoverySourcesTest.engine(fabric, null)) {
            SmpClient smp = DiscoverySourcesTest.smp(engine);
            IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                    () -> SubnetDiscovery.run(smp, new Neighborhood.AtPort(new Guid(0x1234), 1)));
            assertTrue(unknown.getMessage().contains("0x0000000000001234") && unknown.getMessage().contains("among the 14 nodes"), unknown.getMessage());
            // spine1's port 5 is down, and a CA (node01 at 0,1,1) does not forward directed-route SMPs.
            for (int[] route : List.of(new int[] {5}, new int[] {1, 1, 1})) {
                SmpTarget.DirectedRoute dead = new SmpTarget.DirectedRoute(route);
                RdmaException e = assertThrows(RdmaException.class, () -> SubnetDiscovery.run(smp, new Neighborhood.AtRoute(dead, 1)));
                assertTrue(e.getMessage().contains("no node answers at DR path " + dead), e.getMessage());
            }
        }
    }

    /** The partial discovery's nodes are those within {@code hops} of {@code start}; its links those of the model with an end nearer. */
    private static void assertMatchesModel(SubnetDiscovery part, Subnet whole, Node start, Map<Guid, Integer> distance, int hops) {
        String what = "from " + start + " (" + start.route() + "), " + hops + " hops";
        assertEquals(List.of(), part.problems(), what);
        assertEquals(start.guid(), part.subnet().from().guid(), what);
        Set<Guid> within = distance.entrySet().stream().filter(e -> e.getValue() <= hops).map(Map.Entry::getKey).collect(Collectors.toSet());
        assertEquals(within, part.subnet().nodes().stream().map(Node::guid).collect(Collectors.toSet()), what);
        assertEquals(links(whole, distance, hops), links(part.subnet()), what);
    }

    /** Hops from {@code start} to every node of its subnet, over the model's links. */
    private static Map<Guid, Integer> distances(Node start) {
        Map<Guid, Integer> distance = new HashMap<>(Map.of(start.guid(), 0));
        Deque<Node> queue = new ArrayDeque<>(List.of(start));
        while (!queue.isEmpty()) {
            Node n = queue.removeFirst();
            for (Port p : n.ports()) {
                if (p.remote() != null && distance.putIfAbsent(p.remote().node().guid(), distance.get(n.guid()) + 1) == null) {
                    queue.addLast(p.remote().node());
                }
            }
        }
        return distance;
    }

    /** The model's links with an end fewer than {@code hops} from the start. */
    private static Set<String> links(Subnet whole, Map<Guid, Integer> distance, int hops) {
        return links(whole, p -> Math.min(distance.get(p.node().guid()), distance.get(p.remote().node().guid())) < hops);
    }

    /** Every link of a subnet, each end as node GUID and port. */
    private static Set<String> links(Subnet subnet) {
        return links(subnet, p -> true);
    }

    private static Set<String> links(Subnet subnet, Predicate<Port> wanted) {
        Set<String> out = new TreeSet<>();
        for (Node n : subnet.nodes()) {
            for (Port p : n.ports()) {
                if (p.number() > 0 && p.remote() != null && wanted.test(p)) {
                    out.add(link(p));
                }
            }
        }
        return out;
    }

    private static String link(Port p) {
        return p.node().guid() + "[" + p.number() + "]-" + p.remote().node().guid() + "[" + p.remote().number() + "]";
    }
}

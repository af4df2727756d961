package org.jrdma.subnet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.List;
import org.jrdma.RdmaException;
import org.jrdma.mad.MadEngine;
import org.jrdma.mad.SaTransactor;
import org.jrdma.mad.SmpClient;
import org.jrdma.mad.sim.IbsimTransport;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.ToolResult;
import org.jrdma.testkit.fabric.Topology;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Directed-route discovery against ibsim, compared with infiniband-diags' ibnetdiscover on the same fabric. */
class SubnetDiscoveryTest {

    @BeforeEach
    void requireFabric() {
        org.jrdma.testkit.junit.Peers.require(Fabric.isAvailable(), Fabric.unavailabilityCause().orElse(""));
    }

    @Test
    void fatTreeTopologyFileIsIdenticalToIbnetdiscovers() {
        try (Fabric fabric = Fabric.start(Topology.bundled("fat-tree"))) {
            assertSameAsIbnetdiscover(fabric, null);
        }
    }

    @Test
    void twoSwitchesWithParallelLinksFromAChannelAdapter() {
        try (Fabric fabric = Fabric.start(Topology.bundled("two-switch"))) {
            assertSameAsIbnetdiscover(fabric, "node03 HCA-1");
            Subnet subnet = discover(fabric, "node03 HCA-1", 4).subnet();
            assertEquals(2, subnet.switches().size());
            assertEquals(4, subnet.channelAdapters().size());
            assertEquals(6, subnet.linkCount(), "4 HCA links and 2 inter-switch links");
            assertEquals("node03 HCA-1", subnet.from().description());
        }
    }

    @Test
    void discoveryWithoutASubnetManagerFindsEverythingWithLidZero() {
        try (Fabric fabric = Fabric.start(Topology.bundled("fat-tree"), Fabric.Options.defaults().withSubnetManager(false))) {
            SubnetDiscovery d = discover(fabric, null, 8);
            assertEquals(List.of(), d.problems());
            assertEquals(14, d.subnet().nodes().size());
            assertTrue(d.subnet().nodes().stream().allMatch(n -> n.lid() == 0));
            assertSameAsIbnetdiscover(fabric, null);
        }
    }

    @Test
    void withoutLidsNeitherTheSaNorLidRoutedSmpsCanDiscover() {
        try (Fabric fabric = Fabric.start(Topology.bundled("single-switch"), Fabric.Options.defaults().withSubnetManager(false));
                MadEngine engine = DiscoverySourcesTest.engine(fabric, null)) {
            IllegalStateException noLid = assertThrows(IllegalStateException.class,
                    () -> SubnetDiscovery.fromSa(DiscoverySourcesTest.transactor(engine)));
            assertTrue(noLid.getMessage().contains("has no LID"), noLid.getMessage());
            SubnetDiscovery dr = SubnetDiscovery.run(DiscoverySourcesTest.smp(engine));
            RdmaException unrouted = assertThrows(RdmaException.class,
                    () -> SubnetDiscovery.refreshByLid(DiscoverySourcesTest.smp(engine), dr.subnet()));
            assertTrue(unrouted.getMessage().contains("has no LID"), unrouted.getMessage());
            Node sw = dr.subnet().switches().getFirst();
            assertEquals(0, sw.linearForwardingTable().top(), "no SM programmed the table: LinearFDBTop 0");
            dr.subnet().attributeSource(AttributeSource.sa(new SaTransactor(DiscoverySourcesTest.transactor(engine))));
            sw.forgetForwardingTables();
            assertThrows(IllegalStateException.class, sw::linearForwardingTable, "the SA knows no node without a LID");
        }
    }

    private static void assertSameAsIbnetdiscover(Fabric fabric, String node) {
        SubnetDiscovery d = discover(fabric, node, 8);
        assertEquals(List.of(), d.problems());
        String ours = TopologyWriter.write(d.subnet(), ZonedDateTime.now());
        ToolResult c = fabric.runAt(node, Duration.ofSeconds(60), List.of("ibnetdiscover")).orThrow();
        assertEquals(withoutDate(c.stdout()), withoutDate(ours));
    }

    static SubnetDiscovery discover(Fabric fabric, String node, int maxOutstanding) {
        try (MadEngine engine = new MadEngine(IbsimTransport.attach(fabric.socketName(), node), maxOutstanding)) {
            return SubnetDiscovery.run(new SmpClient(engine, Duration.ofMillis(500), 3, 0));
        }
    }

    private static String withoutDate(String topology) {
        return topology.replaceAll("(?m)^# Topology file: generated on .*$", "# Topology file: generated on <date>");
    }
}

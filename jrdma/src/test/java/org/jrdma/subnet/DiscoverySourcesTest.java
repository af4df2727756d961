package org.jrdma.subnet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.List;
import org.jrdma.iba.NodeType;
import org.jrdma.iba.PhysPortState;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.mad.MadEngine;
import org.jrdma.mad.MadTransactor;
import org.jrdma.mad.SmpClient;
import org.jrdma.mad.SmpTarget;
import org.jrdma.mad.sim.IbsimTransport;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.ToolResult;
import org.jrdma.testkit.fabric.Topology;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;

/**
 * Discovery from the SA and LID-routed rediscovery against ibsim with OpenSM up, each compared
 * with infiniband-diags' ibnetdiscover and with directed-route discovery on the same fabric.
 */
@SimulatedFabric(topology = "fat-tree")
class DiscoverySourcesTest {
    private static final ZonedDateTime WHEN = ZonedDateTime.parse("2024-05-01T10:00:00Z");

    @Test
    void saDiscoveryWritesWhatIbnetdiscoverWrites(Fabric fabric) {
        try (MadEngine engine = engine(fabric, null)) {
            SubnetDiscovery sa = SubnetDiscovery.fromSa(transactor(engine));
            assertEquals(List.of(), sa.problems());
            assertEquals(14, sa.subnet().nodes().size());
            assertEquals(ibnetdiscover(fabric, null), withoutDate(TopologyWriter.write(sa.subnet(), WHEN)));
            SubnetDiscovery dr = SubnetDiscovery.run(smp(engine));
            assertEquals(TopologyWriter.write(dr.subnet(), WHEN), TopologyWriter.write(sa.subnet(), WHEN));
            Node leaf = sa.subnet().switches().getFirst();
            assertNull(leaf.route(), "nodes found in the SA have LID targets");
            assertEquals(new SmpTarget.Lid(leaf.lid()), leaf.target());
        }
    }

    /**
     * What the SA's records hold differs from what the nodes answer only where SubnetDiscovery.fromSa
     * says: LocalPortNum (the port OpenSM's SMPs came in by, not ours), and the PortInfo of switch
     * ports whose link is down, of which OpenSM keeps little but the state.
     */
    @Test
    void theSaDiffersFromTheNodesOnlyWhereDocumented(Fabric fabric) {
        try (MadEngine engine = engine(fabric, null)) {
            Subnet bySmp = SubnetDiscovery.run(smp(engine)).subnet();
            Subnet bySa = SubnetDiscovery.fromSa(transactor(engine)).subnet();
            int downPorts = 0;
            for (Node n : bySmp.nodes()) {
                Node m = bySa.node(n.guid()).orElseThrow();
                assertEquals(n.info().localPortNum(0), m.info().localPortNum(0), n.toString());
                assertEquals(n.switchInfo(), m.switchInfo(), n.toString());
                for (Port p : n.ports()) {
                    SmpPortInfo fromNode = p.info().localPortNum(0);
                    SmpPortInfo fromSa = m.port(p.number()).info().localPortNum(0);
                    if (p.number() > 0 && fromNode.portPhysicalState() != PhysPortState.LINK_UP.value()) {
                        downPorts++;
                        assertEquals(fromNode.portState(), fromSa.portState(), p.toString());
                        assertEquals(fromNode.portPhysicalState(), fromSa.portPhysicalState(), p.toString());
                    } else {
                        assertEquals(fromNode, fromSa, p.toString());
                    }
                }
            }
            assertEquals(24, downPorts, "4 unused ports on each of the 6 switches");
        }
    }

    /**
     * The whole tables at once, by RMPP: served by a jrdma agent holding OpenSM's records (read
     * one at a time), since OpenSM behind ibsim cannot send multi-packet answers.
     */
    @Test
    void wholeSaTablesByRmppGiveTheSameSubnet(Fabric fabric) {
        try (MadEngine engine = engine(fabric, "node01 HCA-1")) {
            MadTransactor sa = transactor(engine);
            Subnet fromOpenSm = SubnetDiscovery.fromSa(sa).subnet();
            try (SaTablesServer server = new SaTablesServer(fabric, "node07 HCA-1", fromOpenSm)) {
                MadTransactor viaServer = sa.withSaPath(sa.saPath().copy(b -> b.dlid(server.lid())));
                SubnetDiscovery tables = SubnetDiscovery.fromSaTables(viaServer);
                assertEquals(List.of(), tables.problems());
                assertEquals(ibnetdiscover(fabric, "node01 HCA-1"), withoutDate(TopologyWriter.write(tables.subnet(), WHEN)));
                assertEquals(4, server.tablesServed(), "four GetTables, nothing else");
                assertEquals(14, server.nodeRecords(), "14 NodeRecords of 112 bytes: eight RMPP segments");
            }
        }
    }

    @Test
    void lidRoutedRefreshOfADirectedRouteDiscoveryIsTheSame(Fabric fabric) {
        try (MadEngine engine = engine(fabric, "node05 HCA-1")) {
            SmpClient smp = smp(engine);
            SubnetDiscovery dr = SubnetDiscovery.run(smp);
            SubnetDiscovery lid = SubnetDiscovery.refreshByLid(smp, dr.subnet());
            assertEquals(List.of(), lid.problems());
            String written = TopologyWriter.write(lid.subnet(), WHEN);
            assertEquals(TopologyWriter.write(dr.subnet(), WHEN), written);
            assertEquals(ibnetdiscover(fabric, "node05 HCA-1"), withoutDate(written));
            assertTrue(lid.subnet().nodes().stream().allMatch(n -> n.target() instanceof SmpTarget.Lid));
        }
    }

    /**
     * python-rdma's LID discovery on the fat tree with OpenSM's LIDs: the same subnet as the
     * directed-route walk and C ibnetdiscover, every node read by LID after its directed-route hop,
     * and a start adapter on a switch's path too.
     */
    @Test
    void lidDiscoveryFindsWhatTheDirectedRouteWalkFinds(Fabric fabric) {
        try (MadEngine engine = engine(fabric, "node03 HCA-1")) {
            SmpClient smp = smp(engine);
            SubnetDiscovery dr = SubnetDiscovery.run(smp);
            SubnetDiscovery lid = SubnetDiscovery.byLid(smp);
            assertEquals(List.of(), lid.problems());
            String written = TopologyWriter.write(lid.subnet(), WHEN);
            assertEquals(TopologyWriter.write(dr.subnet(), WHEN), written);
            assertEquals(ibnetdiscover(fabric, "node03 HCA-1"), withoutDate(written));
            assertEquals(dr.subnet().nodes().size(), lid.subnet().nodes().size());
            for (Node node : lid.subnet().nodes()) {
                assertEquals(new SmpTarget.Lid(node.lid()), node.target(), node + " is read at its LID");
            }
        }
    }

    @Test
    void lidRoutedRefreshOfAnSaDiscovery(Fabric fabric) {
        try (MadEngine engine = engine(fabric, "node08 HCA-1")) {
            SubnetDiscovery sa = SubnetDiscovery.fromSa(transactor(engine));
            SubnetDiscovery lid = SubnetDiscovery.refreshByLid(smp(engine), sa.subnet());
            assertEquals(List.of(), lid.problems());
            assertEquals(ibnetdiscover(fabric, "node08 HCA-1"), withoutDate(TopologyWriter.write(lid.subnet(), WHEN)));
            assertEquals(8, lid.subnet().nodes().stream().filter(n -> n.type() == NodeType.CA).count());
        }
    }

    @Test
    void saDiscoveryOfParallelLinksFromADualPortAdapter() {
        try (Fabric fabric = Fabric.start(Topology.bundled("two-switch"));
                MadEngine engine = engine(fabric, "node03 HCA-1")) {
            SubnetDiscovery sa = SubnetDiscovery.fromSa(transactor(engine));
            assertEquals(List.of(), sa.problems());
            assertEquals(6, sa.subnet().linkCount(), "4 HCA links and 2 inter-switch links");
            assertEquals(ibnetdiscover(fabric, "node03 HCA-1"), withoutDate(TopologyWriter.write(sa.subnet(), WHEN)));
        }
    }

    static MadEngine engine(Fabric fabric, String node) {
        return new MadEngine(IbsimTransport.attach(fabric.socketName(), node), 8);
    }

    static SmpClient smp(MadEngine engine) {
        return new SmpClient(engine, Duration.ofMillis(500), 3, 0);
    }

    static MadTransactor transactor(MadEngine engine) {
        return new MadTransactor(engine, ((IbsimTransport) engine.transport()).client().endPort()).withTimeouts(Duration.ofSeconds(1), 3);
    }

    private static String ibnetdiscover(Fabric fabric, String node) {
        ToolResult c = fabric.runAt(node, Duration.ofSeconds(60), List.of("ibnetdiscover")).orThrow();
        return withoutDate(c.stdout());
    }

    private static String withoutDate(String topology) {
        return topology.replaceAll("(?m)^# Topology file: generated on .*$", "# Topology file: generated on <date>");
    }
}

package org.jrdma.subnet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jrdma.iba.Lid;
import org.jrdma.iba.smp.SmpMulticastForwardingTable;
import org.jrdma.mad.MadEngine;
import org.jrdma.mad.SaTransactor;
import org.jrdma.mad.SmpClient;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;

/**
 * Switch forwarding tables read on demand, by SMPs and from the SA, against what infiniband-diags'
 * ibroute reads from the same switches of the fat tree OpenSM programmed.
 */
@SimulatedFabric(topology = "fat-tree")
class ForwardingTablesTest {
    private static final Pattern UNICAST = Pattern.compile("(?m)^0x([0-9a-f]{4}) (\\d{3}) $");
    private static final Pattern MULTICAST = Pattern.compile("(?m)^0x([0-9a-f]{4}) {6}([0-9a-f]+)$");

    @Test
    void linearTablesAreWhatIbrouteReads(Fabric fabric) {
        try (MadEngine engine = DiscoverySourcesTest.engine(fabric, null)) {
            Subnet subnet = SubnetDiscovery.run(DiscoverySourcesTest.smp(engine)).subnet();
            assertEquals(6, subnet.switches().size());
            for (Node sw : subnet.switches()) {
                LinearForwardingTable lft = sw.linearForwardingTable();
                Map<Integer, Integer> c = unicast(fabric, sw.lid());
                assertEquals(c.size(), lft.top() + 1, "ibroute -a prints LIDs 0 to LinearFDBTop");
                c.forEach((lid, port) -> assertEquals(port, lft.port(lid), sw + " LID " + lid));
                assertEquals(0, lft.port(sw.lid()), "a switch's own LID goes to port 0");
                assertEquals(LinearForwardingTable.NO_ROUTE, lft.port(lft.top() + 1));
                assertSame(lft, sw.linearForwardingTable(), "read once and kept");
            }
        }
    }

    @Test
    void theSaHoldsTheSameTablesAsTheSwitches(Fabric fabric) {
        try (MadEngine engine = DiscoverySourcesTest.engine(fabric, "node03 HCA-1")) {
            Subnet bySmp = SubnetDiscovery.run(DiscoverySourcesTest.smp(engine)).subnet();
            Subnet bySa = SubnetDiscovery.fromSa(DiscoverySourcesTest.transactor(engine)).subnet();
            for (Node sw : bySmp.switches()) {
                Node same = bySa.node(sw.guid()).orElseThrow();
                assertEquals(sw.linearForwardingTable(), same.linearForwardingTable(), sw.toString());
                assertEquals(sw.multicastForwardingTable(), same.multicastForwardingTable(), sw.toString());
            }
            Node spine = bySmp.switches().getFirst();
            LinearForwardingTable bySmps = spine.linearForwardingTable();
            spine.forgetForwardingTables();
            bySmp.attributeSource(AttributeSource.sa(new SaTransactor(DiscoverySourcesTest.transactor(engine))));
            LinearForwardingTable again = spine.linearForwardingTable();
            assertNotSame(bySmps, again);
            assertEquals(bySmps, again);
        }
    }

    @Test
    void multicastTablesAreWhatIbrouteReads(Fabric fabric) {
        try (MadEngine engine = DiscoverySourcesTest.engine(fabric, null)) {
            SmpClient smp = DiscoverySourcesTest.smp(engine);
            Subnet subnet = SubnetDiscovery.run(smp).subnet();
            Node leaf = subnet.switches().stream().filter(n -> n.description().equals("leaf2")).findFirst().orElseThrow();
            // MLID 0xC001: ports 1 and 5; MLID 0xC022 (block 1): port 6, besides whatever OpenSM programmed.
            // The blocks are put back afterwards: the SA, which other tests compare with, keeps OpenSM's view.
            SmpMulticastForwardingTable block0 = smp.get(new SmpMulticastForwardingTable(), leaf.target(), 0);
            SmpMulticastForwardingTable block1 = smp.get(new SmpMulticastForwardingTable(), leaf.target(), 1);
            try {
                smp.set(SmpMulticastForwardingTable.decode(block0.toBytes(), 0).portMaskBlock(1, 0x0022), leaf.target(), 0);
                smp.set(SmpMulticastForwardingTable.decode(block1.toBytes(), 0).portMaskBlock(2, 0x0040), leaf.target(), 1);
                MulticastForwardingTable mft = leaf.multicastForwardingTable();
                assertEquals(bits(1, 5), mft.ports(0xC001));
                assertEquals(bits(6), mft.ports(0xC022));
                Map<Integer, String> c = multicast(fabric, leaf.lid());
                assertEquals(c.keySet(), mft.entries().keySet());
                c.forEach((mlid, mask) -> assertEquals(mask, String.format("%04x", mft.portMask(mlid, 0)), String.format("MLID 0x%x", mlid)));
                assertTrue(mft.top() >= 0xC022, "the table reaches MulticastFDBTop (or the capacity)");
                assertEquals(new BitSet(), mft.ports(Lid.MULTICAST_LAST));
            } finally {
                smp.set(block0, leaf.target(), 0);
                smp.set(block1, leaf.target(), 1);
            }
        }
    }

    @Test
    void onlySwitchesHaveTablesAndBadLidsAreRefused(Fabric fabric) {
        try (MadEngine engine = DiscoverySourcesTest.engine(fabric, null)) {
            Subnet subnet = SubnetDiscovery.run(DiscoverySourcesTest.smp(engine)).subnet();
            Node ca = subnet.channelAdapters().getFirst();
            IllegalStateException e = assertThrows(IllegalStateException.class, ca::linearForwardingTable);
            assertTrue(e.getMessage().contains("is not a switch"), e.getMessage());
            assertThrows(IllegalStateException.class, ca::multicastForwardingTable);
            Node sw = subnet.switches().getFirst();
            assertThrows(IllegalArgumentException.class, () -> sw.linearForwardingTable().port(0xC000));
            assertThrows(IllegalArgumentException.class, () -> sw.multicastForwardingTable().ports(5));
        }
    }

    private static Map<Integer, Integer> unicast(Fabric fabric, int lid) {
        String out = fabric.runAt(null, Duration.ofSeconds(30), List.of("ibroute", "-a", "-n", Integer.toString(lid))).orThrow().stdout();
        Map<Integer, Integer> table = new TreeMap<>();
        Matcher m = UNICAST.matcher(out);
        while (m.find()) {
            table.put(Integer.parseInt(m.group(1), 16), Integer.parseInt(m.group(2)));
        }
        assertTrue(out.endsWith(table.size() + " lids dumped \n"), out);
        return table;
    }

    private static Map<Integer, String> multicast(Fabric fabric, int lid) {
        String out = fabric.runAt(null, Duration.ofSeconds(30), List.of("ibroute", "-M", "-n", Integer.toString(lid))).orThrow().stdout();
        Map<Integer, String> table = new TreeMap<>();
        Matcher m = MULTICAST.matcher(out);
        while (m.find()) {
            table.put(Integer.parseInt(m.group(1), 16), m.group(2));
        }
        assertTrue(out.endsWith(table.size() + " valid mlids dumped \n"), out);
        return table;
    }

    private static BitSet bits(int... ports) {
        BitSet set = new BitSet();
        for (int p : ports) {
            set.set(p);
        }
        return set;
    }
}

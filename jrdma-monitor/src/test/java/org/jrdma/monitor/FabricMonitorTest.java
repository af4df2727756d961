package org.jrdma.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;

/**
 * The monitor against the bundled fat tree under ibsim and OpenSM: what it discovers, the counters
 * it reads as Prometheus metrics (parsed as the text format), their rates, and a link going down
 * and coming back, each seen within one cycle.
 */
class FabricMonitorTest {
    private static final String LEAF1 = "0x0002c90300000a11";
    private static final String LEAF2 = "0x0002c90300000a12";
    private static final String SPINE1 = "0x0002c90300000a01";
    private static final String NODE01 = "0x0002c90300001010";

    @Test
    @SimulatedFabric(topology = "fat-tree")
    void countersSetInTheFabricAppearInMetricsWithLabelsAndRates(Fabric fabric) throws Exception {
        try (MonitorFixture m = new MonitorFixture(fabric)) {
            PrometheusText.Exposition first = m.metrics();
            assertEquals(6, first.one("infiniband_monitor_nodes", Map.of("type", "switch")).value());
            assertEquals(8, first.one("infiniband_monitor_nodes", Map.of("type", "hca")).value());
            assertEquals(16, first.one("infiniband_monitor_links", Map.of()).value());
            assertEquals("counter", first.types().get("infiniband_switch_port_transmit_data_bytes_total"));
            assertEquals(1, first.one("infiniband_switch_info", Map.of("guid", LEAF1, "switch", "leaf1")).value());
            assertEquals(1, first.one("infiniband_switch_uplink_info", Map.of("guid", LEAF1, "port", "5", "uplink", "spine1",
                    "uplink_guid", SPINE1, "uplink_port", "1", "uplink_type", "SW")).value());
            assertEquals(4, first.one("infiniband_switch_port_state", Map.of("guid", LEAF1, "port", "5")).value());
            assertEquals(24, first.find("infiniband_switch_port_transmit_data_bytes_total", Map.of()).size(), "every linked switch port");

            fabric.performanceSet("leaf1", 5, "PortCountersExtended", "PortXmitData", 1_000_000);
            fabric.performanceSet("leaf1", 5, "PortCounters", "SymbolErrorCounter", 7);
            fabric.performanceSet("node01 HCA-1", 1, "PortCountersExtended", "PortRcvPkts", 5_000);
            long before = System.nanoTime();
            m.cycle();
            long between = System.nanoTime();
            fabric.performanceSet("leaf1", 5, "PortCountersExtended", "PortXmitData", 3_000_000);
            m.cycle();
            long after = System.nanoTime();

            String text = m.get("/metrics");
            Promtool.assertAccepts(text);
            PrometheusText.Exposition metrics = PrometheusText.parse(text);
            Map<String, String> leaf1Port5 = Map.of("guid", LEAF1, "port", "5", "switch", "leaf1",
                    "uplink", "spine1", "uplink_guid", SPINE1, "uplink_port", "1");
            double bytes = metrics.one("infiniband_switch_port_transmit_data_bytes_total", leaf1Port5).value();
            assertTrue(bytes >= 12_000_000 && bytes < 12_000_000 + 100_000, "PortXmitData 3,000,000 words in bytes (plus the sweeps' own MADs): " + bytes);
            double rate = metrics.one("infiniband_switch_port_transmit_data_bytes_per_second", leaf1Port5).value();
            double slowest = 8_000_000 / ((after - before) / 1e9);
            double fastest = 8_100_000 / ((after - between) / 1e9);
            assertTrue(rate >= slowest && rate <= fastest, "rate " + rate + " within [" + slowest + ", " + fastest + "]");
            assertEquals(7, metrics.one("infiniband_switch_port_symbol_error_total", leaf1Port5).value());
            assertEquals(1, metrics.one("infiniband_switch_port_error_threshold_exceeded",
                    Map.of("guid", LEAF1, "port", "5", "counter", "SymbolErrorCounter")).value());
            assertTrue(metrics.one("infiniband_hca_port_receive_packets_total",
                    Map.of("guid", NODE01, "port", "1", "hca", "node01 HCA-1", "uplink", "leaf1", "uplink_guid", LEAF1)).value() >= 5_000);
            assertEquals(1, metrics.one("infiniband_monitor_ports_with_errors", Map.of()).value());
            assertTrue(metrics.one("infiniband_monitor_mads_sent_total", Map.of()).value() > 0);
            assertTrue(metrics.one("infiniband_monitor_sweeps_total", Map.of()).value() >= 3);

            // A counter cleared (PortCounters Set through ibsim) is a reset, not a wrap: the rate counts from zero.
            fabric.performanceSet("leaf1", 5, "PortCountersExtended", "PortXmitData", 10);
            m.cycle();
            PrometheusText.Exposition reset = m.metrics();
            assertTrue(reset.one("infiniband_monitor_port_resets_total", Map.of()).value() >= 1);
            assertTrue(reset.one("infiniband_switch_port_transmit_data_bytes_per_second", leaf1Port5).value() < 1_000_000);

            JsonNode node = new ObjectMapper().readTree(m.get("/api/node?guid=" + LEAF1));
            JsonNode port5 = null;
            for (JsonNode p : node.get("ports")) {
                if (p.get("port").get("port").asInt() == 5) {
                    port5 = p;
                }
            }
            assertEquals(7, port5.get("counters").get("SymbolErrorCounter").asInt());
            assertEquals(List.of("SymbolErrorCounter"), List.of(port5.get("beyondThreshold").get(0).asText()));
            assertTrue(m.log().contains(" sweep 4: 14 nodes, 16 links, 32 ports read"), m.log());
            assertEquals(404, m.getResponse("/api/node?guid=0x0000000000000bad").statusCode());
            assertEquals(404, m.getResponse("/nothing-here").statusCode());
        }
    }

    @Test
    @SimulatedFabric(topology = "fat-tree")
    void aLinkTakenDownAndBroughtBackIsSeenWithinOneCycle(Fabric fabric) throws Exception {
        try (MonitorFixture m = new MonitorFixture(fabric)) {
            Map<String, String> leaf2Port5 = Map.of("guid", LEAF2, "port", "5");
            assertEquals(1, m.metrics().find("infiniband_switch_uplink_info", leaf2Port5).size());

            fabric.unlink("leaf2", 5);
            m.cycle();
            PrometheusText.Exposition down = m.metrics();
            assertEquals(1, down.one("infiniband_monitor_topology_changes_total", Map.of("kind", "link_gone")).value());
            assertEquals(0, down.one("infiniband_monitor_topology_changes_total", Map.of("kind", "node_gone")).value());
            assertEquals(15, down.one("infiniband_monitor_links", Map.of()).value());
            assertEquals(1, down.one("infiniband_monitor_links_gone", Map.of()).value());
            assertEquals(1, down.one("infiniband_switch_port_state", leaf2Port5).value(), "PortState Down");
            assertEquals(0, down.find("infiniband_switch_uplink_info", leaf2Port5).size());
            String linkId = LEAF2 + ":5-" + SPINE1 + ":2";
            linkId = (SPINE1 + ":2").compareTo(LEAF2 + ":5") < 0 ? SPINE1 + ":2-" + LEAF2 + ":5" : linkId;
            JsonNode fabricJson = new ObjectMapper().readTree(m.get("/api/fabric"));
            String health = null;
            for (JsonNode link : fabricJson.get("links")) {
                if (link.get("id").asText().equals(linkId)) {
                    health = link.get("health").asText();
                }
            }
            assertEquals("down", health);
            JsonNode events = new ObjectMapper().readTree(m.get("/api/events"));
            assertEquals(1, events.size());
            assertEquals("LINK_GONE", events.get(0).get("kind").asText());
            assertEquals(linkId, events.get(0).get("subject").asText());
            assertTrue(m.log().contains("event link_gone: link went away: "), m.log());

            fabric.relink("leaf2", 5);
            m.cycle();
            PrometheusText.Exposition up = m.metrics();
            assertEquals(1, up.one("infiniband_monitor_topology_changes_total", Map.of("kind", "link_appeared")).value());
            assertEquals(16, up.one("infiniband_monitor_links", Map.of()).value());
            assertEquals(0, up.one("infiniband_monitor_links_gone", Map.of()).value());
            assertTrue(up.one("infiniband_switch_port_state", leaf2Port5).value() >= 2, "PortState Init or beyond");
            assertEquals(1, up.find("infiniband_switch_uplink_info", leaf2Port5).size());
        }
    }

    @Test
    @SimulatedFabric(topology = "fat-tree")
    void theSmTrapOfALinkGoingDownBringsTheChangeBeforeTheNextCycle(Fabric fabric) throws Exception {
        try (MonitorFixture m = new MonitorFixture(fabric)) {
            assertTrue(m.log().contains("subscribed to traps [64, 65, 128, 144]"), m.log());
            fabric.unlink("node05 HCA-1", 1);
            PrometheusText.Exposition down = m.awaitMetrics(e -> e.one("infiniband_monitor_topology_changes_total", Map.of("kind", "node_gone")).value() == 1);
            assertTrue(down.one("infiniband_monitor_traps_total", Map.of("trap", "128")).value() >= 1, m.log());
            assertEquals(1, down.one("infiniband_monitor_topology_changes_total", Map.of("kind", "link_gone")).value());
            assertEquals(7, down.one("infiniband_monitor_nodes", Map.of("type", "hca")).value());
            assertTrue(m.log().contains("trap 128 (switch LID "), m.log());
            assertReadOnlyWhatTheTrapNamed(m);

            fabric.relink("node05 HCA-1", 1);
            PrometheusText.Exposition up = m.awaitMetrics(e -> e.one("infiniband_monitor_topology_changes_total", Map.of("kind", "node_appeared")).value() == 1);
            assertEquals(8, up.one("infiniband_monitor_nodes", Map.of("type", "hca")).value());
            assertEquals(16, up.one("infiniband_monitor_links", Map.of()).value());
            assertTrue(up.one("infiniband_monitor_traps_total", Map.of("trap", "128")).value() >= 2, m.log());
            assertEquals(1, up.find("infiniband_hca_info", Map.of("guid", "0x0002c90300001050", "hca", "node05 HCA-1")).size());
            assertReadOnlyWhatTheTrapNamed(m);
        }
    }

    @Test
    @SimulatedFabric(topology = "fat-tree")
    void theTrapsOfAnInterSwitchLinkAreHandledByReReadingBothSwitches(Fabric fabric) throws Exception {
        try (MonitorFixture m = new MonitorFixture(fabric)) {
            Map<String, String> leaf2Port5 = Map.of("guid", LEAF2, "port", "5");
            fabric.unlink("leaf2", 5);
            PrometheusText.Exposition down = m.awaitMetrics(e -> e.one("infiniband_monitor_topology_changes_total", Map.of("kind", "link_gone")).value() == 1
                    && e.one("infiniband_switch_port_state", leaf2Port5).value() == 1
                    && e.one("infiniband_switch_port_state", Map.of("guid", SPINE1, "port", "2")).value() == 1);
            assertEquals(15, down.one("infiniband_monitor_links", Map.of()).value());
            assertEquals(0, down.one("infiniband_monitor_topology_changes_total", Map.of("kind", "node_gone")).value());
            assertReadOnlyWhatTheTrapNamed(m);

            fabric.relink("leaf2", 5);
            PrometheusText.Exposition up = m.awaitMetrics(e -> e.one("infiniband_monitor_topology_changes_total", Map.of("kind", "link_appeared")).value() == 1);
            assertEquals(16, up.one("infiniband_monitor_links", Map.of()).value());
            assertEquals(1, up.find("infiniband_switch_uplink_info", leaf2Port5).size());
            assertReadOnlyWhatTheTrapNamed(m);
        }
    }

    @Test
    @SimulatedFabric(topology = "fat-tree")
    void cyclesBetweenDiscoveriesRefreshCheaplyAndDiscoverWhenTheRefreshFindsAChange(Fabric fabric) throws Exception {
        MonitorConfig noTrapsRarelyDiscovering = new MonitorConfig(new java.net.InetSocketAddress(0), java.time.Duration.ofHours(1), 1000,
                java.time.Duration.ofMillis(200), 2, 64, ErrorThresholds.NONE, java.time.Duration.ofHours(24), false);
        try (MonitorFixture m = new MonitorFixture(fabric, noTrapsRarelyDiscovering)) {
            long full = m.monitor.discoveryMads();
            m.cycle();
            long refresh = m.monitor.refreshMads();
            System.out.println("FabricMonitorTest: a refresh took " + refresh + " MADs; the full discovery " + full);
            assertTrue(refresh > 0 && refresh < full, "refresh " + refresh + " MADs, full discovery " + full);
            assertTrue(!m.log().contains("the refresh found a change"), m.log());

            fabric.unlink("leaf2", 5);
            m.cycle();
            assertTrue(m.log().contains("the refresh found a change: discovering the subnet"), m.log());
            PrometheusText.Exposition down = m.metrics();
            assertEquals(1, down.one("infiniband_monitor_topology_changes_total", Map.of("kind", "link_gone")).value());
            assertEquals(15, down.one("infiniband_monitor_links", Map.of()).value());
            assertEquals(1, down.one("infiniband_switch_port_state", Map.of("guid", LEAF2, "port", "5")).value());

            fabric.relink("leaf2", 5);
            m.cycle();
            PrometheusText.Exposition up = m.metrics();
            assertEquals(1, up.one("infiniband_monitor_topology_changes_total", Map.of("kind", "link_appeared")).value());
            assertEquals(16, up.one("infiniband_monitor_links", Map.of()).value());
            assertEquals(0, up.one("infiniband_monitor_traps_total", Map.of("trap", "128")).value(), "no traps: the refreshes alone");
        }
    }

    /** The traps were handled by re-reading what they named, with far fewer MADs than the full discovery. */
    private static void assertReadOnlyWhatTheTrapNamed(MonitorFixture m) {
        assertTrue(m.log().contains(" re-read with "), m.log());
        assertTrue(!m.log().contains("discovering the subnet"), m.log());
        long reread = m.monitor.rereadMads();
        long full = m.monitor.discoveryMads();
        System.out.println("FabricMonitorTest: traps re-read with " + reread + " MADs; the full discovery took " + full);
        assertTrue(reread > 0 && reread * 4 < full, "re-read " + reread + " MADs, full discovery " + full);
    }
}

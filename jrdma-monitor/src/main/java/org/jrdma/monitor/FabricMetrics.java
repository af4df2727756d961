package org.jrdma.monitor;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot.InfoDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jrdma.monitor.CounterSweep.PortKey;
import org.jrdma.monitor.FabricView.LinkView;
import org.jrdma.monitor.FabricView.NodeView;
import org.jrdma.monitor.FabricView.PortView;

/**
 * The monitor's Prometheus metrics, made from the {@link FabricState} at each scrape (so a port that
 * went away leaves the metrics with it). Names and labels follow the infiniband_exporter's
 * ({@code infiniband_switch_port_transmit_data_bytes_total{guid,port}} ...,
 * {@code infiniband_switch_info{guid,switch,lid}}, {@code infiniband_switch_uplink_info}, and the
 * same under {@code infiniband_hca_}), with the node description and link peer added as labels to
 * every port series ({@code switch}/{@code hca}, {@code uplink}, {@code uplink_guid},
 * {@code uplink_port}), so its dashboards and recording rules carry over. Added: rates per second
 * between the last two sweeps ({@code ..._per_second}), link state, speed and width, error counters
 * beyond ibqueryerrors' thresholds, and the monitor's own {@code infiniband_monitor_*} metrics.
 */
final class FabricMetrics implements MultiCollector {
    private final FabricState state;

    FabricMetrics(FabricState state) {
        this.state = state;
    }

    /** Series of one metric family being built: label sets and values. */
    private static final class Family {
        final List<Labels> labels = new ArrayList<>();
        final List<Double> values = new ArrayList<>();

        void add(Labels l, double v) {
            labels.add(l);
            values.add(v);
        }
    }

    @Override
    public MetricSnapshots collect() {
        FabricView view = state.view();
        Map<String, Family> counters = new LinkedHashMap<>();
        Map<String, Family> gauges = new LinkedHashMap<>();
        Map<String, String> help = new LinkedHashMap<>();
        Map<String, Family> infos = new LinkedHashMap<>();
        Map<String, Peer> peers = peers(view);
        for (NodeView node : view.nodes().values()) {
            String kind = node.isSwitch() ? "switch" : "hca";
            String prefix = "infiniband_" + kind + "_port_";
            family(infos, "infiniband_" + kind).add(Labels.of("guid", node.guid(), kind, node.description(), "lid", Integer.toString(node.lid())), 1);
            help.put("infiniband_" + kind, "Constant 1 carrying the " + kind + "'s identification: node GUID, NodeDescription, LID");
            for (PortView port : node.ports()) {
                Peer peer = peers.get(node.guid() + ":" + port.port());
                Labels labels = Labels.of("guid", node.guid(), "port", Integer.toString(port.port()), kind, node.description(),
                        "uplink", peer == null ? "" : peer.node().description(), "uplink_guid", peer == null ? "" : peer.node().guid(),
                        "uplink_port", peer == null ? "" : Integer.toString(peer.port()));
                gauge(gauges, help, prefix + "state", "PortState of the port (1 Down, 2 Init, 3 Armed, 4 Active)").add(labels, port.state());
                gauge(gauges, help, prefix + "physical_state", "PortPhysicalState of the port (2 Polling, 3 Disabled, 5 LinkUp, ...)").add(labels, port.physicalState());
                gauge(gauges, help, prefix + "link_width_lanes", "Active link width in lanes (1x, 4x, 8x, 12x)").add(labels, port.widthLanes());
                gauge(gauges, help, prefix + "link_speed_gbps", "Active signalling rate of one lane in Gb/s").add(labels, port.speedGbps());
                gauge(gauges, help, prefix + "rate_bytes_per_second", "Data rate of the active link in bytes per second").add(labels, port.rateBytesPerSecond());
                if (peer != null) {
                    family(infos, prefix.replace("_port_", "_uplink")).add(Labels.of("guid", node.guid(), "port", Integer.toString(port.port()),
                            kind, node.description(), "uplink", peer.node().description(), "uplink_guid", peer.node().guid(),
                            "uplink_type", peer.node().isSwitch() ? "SW" : "CA", "uplink_port", Integer.toString(peer.port()),
                            "uplink_lid", Integer.toString(peer.node().lid())), 1);
                    help.put(prefix.replace("_port_", "_uplink"), "Constant 1 describing the port at the other end of this port's link");
                }
                FabricState.PortCounters values = state.counters(new PortKey(node.guid(), port.port()));
                if (values == null) {
                    continue;
                }
                values.values().forEach((counter, value) -> {
                    String name = prefix + counter.metricName();
                    family(counters, name).add(labels, value);
                    help.put(name, "Infiniband " + kind + " port " + counter.ibmadName() + (counter.scale() == 4 ? " in bytes" : ""));
                });
                values.rates().forEach((counter, rate) -> gauge(gauges, help, prefix + counter.metricName() + "_per_second",
                        "Infiniband " + kind + " port " + counter.ibmadName() + " per second between the last two sweeps").add(labels, rate));
                for (PortCounter counter : values.beyondThreshold()) {
                    gauge(gauges, help, prefix + "error_threshold_exceeded",
                            "1 for each error counter of the port beyond its ibqueryerrors threshold").add(
                            Labels.of("guid", node.guid(), "port", Integer.toString(port.port()), kind, node.description(), "counter", counter.ibmadName()), 1);
                }
            }
        }
        List<MetricSnapshot> snapshots = new ArrayList<>();
        counters.forEach((name, f) -> snapshots.add(counter(name, help.get(name), f)));
        gauges.forEach((name, f) -> snapshots.add(gauge(name, help.get(name), f)));
        infos.forEach((name, f) -> {
            InfoSnapshot.Builder b = InfoSnapshot.builder().name(name).help(help.get(name));
            f.labels.forEach(l -> b.dataPoint(InfoDataPointSnapshot.builder().labels(l).build()));
            snapshots.add(b.build());
        });
        snapshots.addAll(monitorMetrics(view));
        return new MetricSnapshots(snapshots);
    }

    private List<MetricSnapshot> monitorMetrics(FabricView view) {
        FabricState.Stats stats = state.stats();
        List<MetricSnapshot> out = new ArrayList<>();
        out.add(counter("infiniband_monitor_sweeps", "Counter sweeps done", one(stats.sweeps())));
        out.add(counter("infiniband_monitor_mads_sent", "MADs the monitor sent (every attempt)", one(stats.madsSent())));
        out.add(counter("infiniband_monitor_mads_lost", "MAD requests unanswered after all their attempts", one(stats.madsLost())));
        out.add(counter("infiniband_monitor_port_resets", "Port counters found lower than at the sweep before (cleared), counted per counter", one(stats.counterResets())));
        out.add(gauge("infiniband_monitor_sweep_duration_seconds", "Duration of the last counter sweep", one(stats.lastSweepSeconds())));
        out.add(gauge("infiniband_monitor_discovery_duration_seconds", "Duration of the last topology discovery", one(stats.lastDiscoverySeconds())));
        out.add(gauge("infiniband_monitor_ports_read", "Ports whose counters the last sweep read", one(stats.lastPortsRead())));
        out.add(gauge("infiniband_monitor_ports_failed", "Ports whose agent answered neither PortCounters nor PortCountersExtended in the last sweep", one(stats.lastFailedPorts())));
        out.add(gauge("infiniband_monitor_ports_with_errors", "Ports with an error counter beyond its ibqueryerrors threshold", one(state.portsWithErrors())));
        out.add(gauge("infiniband_monitor_links", "Links found by the last discovery", one(view.links().size())));
        out.add(gauge("infiniband_monitor_links_gone", "Links seen before that the last discovery did not find", one(state.goneLinks().size())));
        Family nodes = new Family();
        Map<String, Long> byType = new LinkedHashMap<>();
        view.nodes().values().forEach(n -> byType.merge(n.type(), 1L, Long::sum));
        byType.forEach((type, n) -> nodes.add(Labels.of("type", type), n));
        out.add(gauge("infiniband_monitor_nodes", "Nodes found by the last discovery, by type", nodes));
        Family changes = new Family();
        state.changes().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> changes.add(Labels.of("kind", e.getKey().label()), e.getValue()));
        out.add(counter("infiniband_monitor_topology_changes", "Topology changes found between discoveries, by kind", changes));
        Family traps = new Family();
        TrapListener.TRAPS.forEach(t -> traps.add(Labels.of("trap", Integer.toString(t)), state.traps().getOrDefault(t, 0L)));
        out.add(counter("infiniband_monitor_traps", "SM trap Reports received (InformInfo subscriptions to traps 64, 65, 128, 144)", traps));
        return out;
    }

    /** The port at the other end of each linked port, by "guid:port". */
    private record Peer(NodeView node, int port) {
    }

    private static Map<String, Peer> peers(FabricView view) {
        Map<String, Peer> peers = new LinkedHashMap<>();
        for (LinkView link : view.links()) {
            peers.put(link.a() + ":" + link.aPort(), new Peer(view.nodes().get(link.b()), link.bPort()));
            peers.put(link.b() + ":" + link.bPort(), new Peer(view.nodes().get(link.a()), link.aPort()));
        }
        return peers;
    }

    private static Family one(double value) {
        Family f = new Family();
        f.add(Labels.EMPTY, value);
        return f;
    }

    private static Family family(Map<String, Family> families, String name) {
        return families.computeIfAbsent(name, (Function<String, Family>) k -> new Family());
    }

    private static Family gauge(Map<String, Family> gauges, Map<String, String> help, String name, String text) {
        help.putIfAbsent(name, text);
        return family(gauges, name);
    }

    private static CounterSnapshot counter(String name, String help, Family f) {
        CounterSnapshot.Builder b = CounterSnapshot.builder().name(name).help(help);
        for (int i = 0; i < f.labels.size(); i++) {
            b.dataPoint(CounterDataPointSnapshot.builder().labels(f.labels.get(i)).value(f.values.get(i)).build());
        }
        return b.build();
    }

    private static GaugeSnapshot gauge(String name, String help, Family f) {
        GaugeSnapshot.Builder b = GaugeSnapshot.builder().name(name).help(help);
        for (int i = 0; i < f.labels.size(); i++) {
            b.dataPoint(GaugeDataPointSnapshot.builder().labels(f.labels.get(i)).value(f.values.get(i)).build());
        }
        return b.build();
    }
}

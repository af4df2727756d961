package org.jrdma.monitor;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jrdma.monitor.CounterSweep.PortKey;
import org.jrdma.monitor.FabricView.LinkView;
import org.jrdma.monitor.FabricView.NodeView;

/**
 * The monitor's live model of the subnet: the last discovery's {@link FabricView}, the nodes and
 * links that went away since (kept so the web view can show them, forgotten after a while), each
 * port's counters and rates, the recent topology events, and the sweep statistics. Written by the
 * monitor's one sweeping thread, read by the HTTP threads; every method is synchronized.
 * Its memory is bounded by the fabric: per port, one sample; events, the last {@link #MAX_EVENTS}.
 */
final class FabricState {
    /** How many topology events are kept. */
    static final int MAX_EVENTS = 1000;

    /** Something seen before that the last discovery did not find, and since when (ms since the epoch). */
    record Gone<T>(T what, long since) {
    }

    /** Statistics of the last sweep and totals since start. */
    record Stats(long sweeps, double lastSweepSeconds, double lastDiscoverySeconds, int lastPortsRead, int lastFailedPorts,
                 long madsSent, long madsLost, long counterResets, long lastSweepEndMillis) {
    }

    private final ErrorThresholds thresholds;
    private final long forgetAfterMillis;
    private FabricView view = new FabricView(Map.of(), List.of());
    private final Map<String, Gone<NodeView>> goneNodes = new LinkedHashMap<>();
    private final Map<String, Gone<LinkView>> goneLinks = new LinkedHashMap<>();
    private final Map<PortKey, PortRates> ports = new HashMap<>();
    /** The highest data rate each link (by id) has run at: one running slower is degraded. */
    private final Map<String, Double> bestRates = new HashMap<>();
    private final ArrayDeque<TopologyEvent> events = new ArrayDeque<>();
    private final Map<TopologyEvent.Kind, Long> changes = new EnumMap<>(TopologyEvent.Kind.class);
    private final Map<Integer, Long> traps = new java.util.TreeMap<>();
    private Stats stats = new Stats(0, 0, 0, 0, 0, 0, 0, 0, 0);

    FabricState(ErrorThresholds thresholds, long forgetAfterMillis) {
        this.thresholds = thresholds;
        this.forgetAfterMillis = forgetAfterMillis;
        for (TopologyEvent.Kind kind : TopologyEvent.Kind.values()) {
            changes.put(kind, 0L);
        }
    }

    /** Takes a new discovery; returns the events it makes (none for the first). */
    synchronized List<TopologyEvent> discovered(FabricView now, double seconds, long nowMillis) {
        List<TopologyEvent> found = view.nodes().isEmpty() ? List.of() : TopologyEvent.between(view, now, nowMillis);
        for (NodeView node : view.nodes().values()) {
            if (!now.nodes().containsKey(node.guid())) {
                goneNodes.put(node.guid(), new Gone<>(node, nowMillis));
            }
        }
        Map<String, LinkView> nowLinks = new HashMap<>();
        now.links().forEach(l -> nowLinks.put(l.id(), l));
        for (LinkView link : view.links()) {
            if (!nowLinks.containsKey(link.id())) {
                goneLinks.put(link.id(), new Gone<>(link, nowMillis));
            }
        }
        goneNodes.keySet().removeIf(guid -> now.nodes().containsKey(guid));
        goneLinks.keySet().removeIf(nowLinks::containsKey);
        goneNodes.values().removeIf(g -> nowMillis - g.since() > forgetAfterMillis);
        goneLinks.values().removeIf(g -> nowMillis - g.since() > forgetAfterMillis);
        ports.keySet().removeIf(key -> !now.nodes().containsKey(key.guid()));
        for (LinkView link : now.links()) {
            bestRates.merge(link.id(), rate(now, link), Math::max);
        }
        bestRates.keySet().removeIf(id -> !nowLinks.containsKey(id) && !goneLinks.containsKey(id));
        for (TopologyEvent event : found) {
            changes.merge(event.kind(), 1L, Long::sum);
            events.addLast(event);
            if (events.size() > MAX_EVENTS) {
                events.removeFirst();
            }
        }
        view = now;
        stats = new Stats(stats.sweeps(), stats.lastSweepSeconds(), seconds, stats.lastPortsRead(), stats.lastFailedPorts(),
                stats.madsSent(), stats.madsLost(), stats.counterResets(), stats.lastSweepEndMillis());
        return found;
    }

    /** Takes a counter sweep. */
    synchronized void swept(CounterSweep.Result result, long nanos, long nowMillis, long madsSent, long madsLost) {
        long resets = 0;
        for (Map.Entry<PortKey, CounterSweep.Readings> e : result.readings().entrySet()) {
            resets += ports.computeIfAbsent(e.getKey(), k -> new PortRates()).update(e.getValue().values(), nanos);
        }
        stats = new Stats(stats.sweeps() + 1, result.seconds(), stats.lastDiscoverySeconds(), result.readings().size(), result.failedPorts(),
                madsSent, madsLost, stats.counterResets() + resets, nowMillis);
    }

    /** Whether a link of the current view runs slower (narrower or at a lower speed) than it has before. */
    synchronized boolean degraded(LinkView link) {
        return rate(view, link) < bestRates.getOrDefault(link.id(), 0.0);
    }

    /** The data rate of a link: that of its slower end. */
    private static double rate(FabricView view, LinkView link) {
        FabricView.PortView a = view.nodes().get(link.a()).port(link.aPort());
        FabricView.PortView b = view.nodes().get(link.b()).port(link.bPort());
        return Math.min(a == null ? 0 : a.rateBytesPerSecond(), b == null ? 0 : b.rateBytesPerSecond());
    }

    /** Counts a Report of a trap the SA forwarded. */
    synchronized void trap(int number) {
        traps.merge(number, 1L, Long::sum);
    }

    /** How many Reports of each trap number came in. */
    synchronized Map<Integer, Long> traps() {
        return Map.copyOf(traps);
    }

    synchronized FabricView view() {
        return view;
    }

    synchronized List<Gone<NodeView>> goneNodes() {
        return List.copyOf(goneNodes.values());
    }

    synchronized List<Gone<LinkView>> goneLinks() {
        return List.copyOf(goneLinks.values());
    }

    synchronized List<TopologyEvent> events() {
        return List.copyOf(events);
    }

    synchronized Map<TopologyEvent.Kind, Long> changes() {
        return Map.copyOf(changes);
    }

    synchronized Stats stats() {
        return stats;
    }

    /** A port's last values and rates. */
    record PortCounters(Map<PortCounter, Double> values, Map<PortCounter, Double> rates, List<PortCounter> beyondThreshold) {
    }

    /** The counters of a port, or null if it was not read. */
    synchronized PortCounters counters(PortKey key) {
        PortRates rates = ports.get(key);
        if (rates == null) {
            return null;
        }
        Map<PortCounter, Double> values = new EnumMap<>(PortCounter.class);
        List<PortCounter> beyond = new ArrayList<>();
        rates.last().forEach((counter, reading) -> {
            values.put(counter, PortRates.unsigned(reading.value()) * counter.scale());
            if (thresholds.exceeded(counter, reading.value())) {
                beyond.add(counter);
            }
        });
        return new PortCounters(values, Map.copyOf(new EnumMap<>(rates.rates())), List.copyOf(beyond));
    }

    /** How many ports have an error counter beyond its threshold. */
    synchronized int portsWithErrors() {
        int n = 0;
        for (PortRates rates : ports.values()) {
            if (rates.last().entrySet().stream().anyMatch(e -> thresholds.exceeded(e.getKey(), e.getValue().value()))) {
                n++;
            }
        }
        return n;
    }
}

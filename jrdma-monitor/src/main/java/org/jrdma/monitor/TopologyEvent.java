package org.jrdma.monitor;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jrdma.monitor.FabricView.LinkView;
import org.jrdma.monitor.FabricView.NodeView;
import org.jrdma.monitor.FabricView.PortView;

/**
 * A change of the subnet found between two discoveries.
 *
 * @param time    when the discovery that found it ended, in milliseconds since the epoch
 * @param kind    what changed
 * @param subject the node GUID, or the link's {@link LinkView#id()}
 * @param text    one line for people, naming nodes by their NodeDescription
 */
record TopologyEvent(long time, Kind kind, String subject, String text) {
    /** What can change. */
    enum Kind {
        NODE_APPEARED, NODE_GONE, LINK_APPEARED, LINK_GONE, LID_CHANGED, LINK_DEGRADED;

        /** The label value of the topology change counter. */
        String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** The changes from {@code before} to {@code now}, nodes first, then links, then ports. */
    static List<TopologyEvent> between(FabricView before, FabricView now, long time) {
        List<TopologyEvent> events = new ArrayList<>();
        for (NodeView node : now.nodes().values()) {
            if (!before.nodes().containsKey(node.guid())) {
                events.add(new TopologyEvent(time, Kind.NODE_APPEARED, node.guid(), "node appeared: " + name(node)));
            }
        }
        for (NodeView node : before.nodes().values()) {
            if (!now.nodes().containsKey(node.guid())) {
                events.add(new TopologyEvent(time, Kind.NODE_GONE, node.guid(), "node went away: " + name(node)));
            }
        }
        Map<String, LinkView> beforeLinks = byId(before.links());
        Map<String, LinkView> nowLinks = byId(now.links());
        nowLinks.forEach((id, link) -> {
            if (!beforeLinks.containsKey(id)) {
                events.add(new TopologyEvent(time, Kind.LINK_APPEARED, id, "link appeared: " + describe(link, now)));
            }
        });
        beforeLinks.forEach((id, link) -> {
            if (!nowLinks.containsKey(id)) {
                events.add(new TopologyEvent(time, Kind.LINK_GONE, id, "link went away: " + describe(link, before)));
            }
        });
        for (NodeView node : now.nodes().values()) {
            NodeView old = before.nodes().get(node.guid());
            if (old == null) {
                continue;
            }
            if (old.lid() != node.lid()) {
                events.add(new TopologyEvent(time, Kind.LID_CHANGED, node.guid(),
                        "LID changed: " + name(node) + " " + old.lid() + " -> " + node.lid()));
            }
            for (PortView port : node.ports()) {
                PortView was = old.port(port.port());
                if (was == null || port.state() < 2 || was.state() < 2) {
                    continue;
                }
                if (!node.isSwitch() && was.lid() != port.lid() && old.lid() == node.lid()) {
                    events.add(new TopologyEvent(time, Kind.LID_CHANGED, node.guid(),
                            "LID changed: " + name(node) + " port " + port.port() + " " + was.lid() + " -> " + port.lid()));
                }
                if (port.widthLanes() < was.widthLanes() || port.speedGbps() < was.speedGbps()) {
                    events.add(new TopologyEvent(time, Kind.LINK_DEGRADED, node.guid() + ":" + port.port(),
                            "link degraded: " + name(node) + " port " + port.port() + " " + was.widthLanes() + "x " + was.speedGbps()
                                    + " Gb/s -> " + port.widthLanes() + "x " + port.speedGbps() + " Gb/s"));
                }
            }
        }
        return events;
    }

    private static Map<String, LinkView> byId(List<LinkView> links) {
        Map<String, LinkView> map = new java.util.LinkedHashMap<>();
        links.forEach(l -> map.put(l.id(), l));
        return map;
    }

    private static String describe(LinkView link, FabricView view) {
        return name(view.nodes().get(link.a())) + " port " + link.aPort() + " <-> " + name(view.nodes().get(link.b())) + " port " + link.bPort();
    }

    private static String name(NodeView node) {
        return Objects.requireNonNull(node).description() + " (" + node.guid() + ")";
    }
}

package org.jrdma.monitor;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.subnet.Node;
import org.jrdma.subnet.Port;
import org.jrdma.subnet.Subnet;

/**
 * One discovery's view of the subnet, as plain values (the monitor's JSON API serialises it as is):
 * every node with its ports' PortInfo essentials, and every link once.
 *
 * @param nodes the nodes by node GUID, in discovery order
 * @param links the links, each once, from the end discovered first
 */
record FabricView(Map<String, NodeView> nodes, List<LinkView> links) {
    /** A node: NodeInfo's GUID and type, NodeDescription, its LID (port 0's for a switch), its ports. */
    record NodeView(String guid, String type, String description, int lid, List<PortView> ports) {
        PortView port(int number) {
            return ports.stream().filter(p -> p.port() == number).findFirst().orElse(null);
        }

        boolean isSwitch() {
            return type.equals("switch");
        }
    }

    /**
     * A port's PortInfo essentials (IBA 14.2.5.6): LID, PortState (1 Down, 2 Init, 3 Armed, 4 Active),
     * PortPhysicalState (2 Polling, 3 Disabled, 5 LinkUp...), the active width in lanes and the active
     * speed of a lane in Gb/s, and the widest width and fastest speed it supports.
     */
    record PortView(int port, int lid, int state, int physicalState, int widthLanes, double speedGbps,
                    int supportedWidthLanes, double supportedSpeedGbps) {
        /** The data rate of the link in bytes per second (lanes times lane speed; 8b/10b below FDR). */
        double rateBytesPerSecond() {
            double efficiency = speedGbps < 14 ? 0.8 : 64.0 / 66.0;
            return widthLanes * speedGbps * 1e9 * efficiency / 8;
        }
    }

    /** A link between port {@code aPort} of node {@code a} and port {@code bPort} of node {@code b}. */
    record LinkView(String a, int aPort, String b, int bPort) {
        /** An identity that does not depend on which end was found first. */
        String id() {
            String x = a + ":" + aPort;
            String y = b + ":" + bPort;
            return x.compareTo(y) < 0 ? x + "-" + y : y + "-" + x;
        }
    }

    static FabricView of(Subnet subnet) {
        Map<Node, Integer> order = new HashMap<>();
        subnet.nodes().forEach(n -> order.put(n, order.size()));
        Map<String, NodeView> nodes = new LinkedHashMap<>();
        List<LinkView> links = new ArrayList<>();
        for (Node node : subnet.nodes()) {
            List<PortView> ports = new ArrayList<>();
            for (Port port : node.ports()) {
                if (port.number() == 0 && node.isSwitch()) {
                    continue;
                }
                ports.add(portView(port));
                Port remote = port.remote();
                if (remote != null && isFirstEnd(port, remote, order)) {
                    links.add(new LinkView(node.guid().toHexString(), port.number(), remote.node().guid().toHexString(), remote.number()));
                }
            }
            String type = switch (node.nodeTypeValue()) {
                case 1 -> "hca";
                case 2 -> "switch";
                case 3 -> "router";
                default -> "unknown";
            };
            nodes.put(node.guid().toHexString(), new NodeView(node.guid().toHexString(), type, node.description(), node.lid(), List.copyOf(ports)));
        }
        return new FabricView(Collections.unmodifiableMap(nodes), List.copyOf(links));
    }

    /** Whether {@code port} is the end of its link found first (the lower in discovery order). */
    private static boolean isFirstEnd(Port port, Port remote, Map<Node, Integer> order) {
        int here = order.get(port.node());
        int there = order.getOrDefault(remote.node(), Integer.MAX_VALUE);
        return here < there || (here == there && port.number() < remote.number());
    }

    private static PortView portView(Port port) {
        return portView(port.number(), port.lid(), port.info());
    }

    /** Port {@code number}'s essentials from its PortInfo; {@code lid} is the port's base LID (port 0's for a switch). */
    static PortView portView(int number, int lid, SmpPortInfo info) {
        return new PortView(number, lid, info.portState(), info.portPhysicalState(),
                lanes(info.linkWidthActive()), laneSpeed(info.linkSpeedActive(), info.linkSpeedExtActive()),
                widestLanes(info.linkWidthSupported()), fastest(info.linkSpeedSupported(), info.linkSpeedExtSupported()));
    }

    /** LinkWidthActive (one bit) in lanes: 1 1x, 2 4x, 4 8x, 8 12x, 16 2x. */
    static int lanes(int width) {
        return switch (width) {
            case 1 -> 1;
            case 2 -> 4;
            case 4 -> 8;
            case 8 -> 12;
            case 16 -> 2;
            default -> 0;
        };
    }

    private static int widestLanes(int supported) {
        int best = 0;
        for (int bit = 1; bit <= 16; bit <<= 1) {
            if ((supported & bit) != 0) {
                best = Math.max(best, lanes(bit));
            }
        }
        return best;
    }

    /** A lane's signalling rate in Gb/s from LinkSpeedActive (1 SDR, 2 DDR, 4 QDR) or LinkSpeedExtActive (1 FDR, 2 EDR, 4 HDR, 8 NDR). */
    static double laneSpeed(int speed, int extended) {
        return switch (extended) {
            case 1 -> 14.0625;
            case 2 -> 25.78125;
            case 4 -> 53.125;
            case 8 -> 106.25;
            default -> switch (speed) {
                case 1 -> 2.5;
                case 2 -> 5.0;
                case 4 -> 10.0;
                default -> 0;
            };
        };
    }

    private static double fastest(int supported, int extendedSupported) {
        double best = 0;
        for (int bit = 1; bit <= 8; bit <<= 1) {
            if ((extendedSupported & bit) != 0) {
                best = Math.max(best, laneSpeed(0, bit));
            }
            if ((supported & bit) != 0) {
                best = Math.max(best, laneSpeed(bit, 0));
            }
        }
        return best;
    }
}

package org.jrdma.mad;

import java.util.Arrays;

/**
 * Where a subnet management packet goes (IBA 14.2.2): to a LID over the subnet's forwarding
 * tables, or along a directed route of output port numbers, which needs no SM and no LIDs.
 */
public sealed interface SmpTarget {
    /** The most hops a directed route may have (IBA 14.2.2: the path arrays hold 64 bytes, entry 0 unused). */
    int MAX_HOPS = 63;

    /** LID-routed: the SMP travels to {@code lid} through the switches' forwarding tables. */
    record Lid(int lid) implements SmpTarget {
        public Lid {
            if (lid <= 0 || lid >= 0xC000) {
                throw new IllegalArgumentException("LID-routed SMPs go to a unicast LID (1..0xBFFF), not " + lid);
            }
        }
    }

    /**
     * Directed route: the SMP leaves through {@code ports[0]} of the local node, then
     * {@code ports[1]} of the next one, and so on; an empty route is the local node itself.
     */
    record DirectedRoute(int[] ports) implements SmpTarget {
        public DirectedRoute {
            if (ports.length > MAX_HOPS) {
                throw new IllegalArgumentException("a directed route has at most " + MAX_HOPS + " hops, not " + ports.length);
            }
            for (int p : ports) {
                if (p < 0 || p > 254) {
                    throw new IllegalArgumentException("port " + p + " outside 0..254 in directed route " + Arrays.toString(ports));
                }
            }
            ports = ports.clone();
        }

        /** This route extended by one more output port. */
        public DirectedRoute then(int port) {
            int[] longer = Arrays.copyOf(ports, ports.length + 1);
            longer[ports.length] = port;
            return new DirectedRoute(longer);
        }

        @Override
        public int[] ports() {
            return ports.clone();
        }

        /** The number of hops. */
        public int hops() {
            return ports.length;
        }

        /** The route in the {@code 0,1,7} text form of the C tools (0 first, the local node). */
        @Override
        public String toString() {
            StringBuilder s = new StringBuilder("0");
            for (int p : ports) {
                s.append(',').append(p);
            }
            return s.toString();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof DirectedRoute d && Arrays.equals(ports, d.ports);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(ports);
        }
    }

    /** The local node by directed route. */
    static DirectedRoute local() {
        return new DirectedRoute(new int[0]);
    }
}

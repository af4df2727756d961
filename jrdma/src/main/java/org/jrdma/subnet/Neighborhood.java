package org.jrdma.subnet;

import java.util.Objects;
import org.jrdma.iba.Guid;
import org.jrdma.mad.SmpTarget;

/**
 * The part of a subnet a partial discovery ({@link SubnetDiscovery#run(org.jrdma.mad.SmpClient, Neighborhood)})
 * reads: a start node and every node at most {@link #hops()} links away from it, what libibnetdisc's
 * {@code ibnd_discover_fabric} scans given a {@code from} port and {@code cfg->max_hops}.
 *
 * <p>The walk is the directed-route walk of a whole discovery, begun at the start node and cut off
 * after {@code hops} levels: it follows directed routes of at most {@code hops} hops beyond the start
 * node's own route, so it records every node whose distance from the start (in links) is at most
 * {@code hops}, and every link with an end nearer than that; a link between two nodes both exactly
 * {@code hops} away would take one more hop to cross and is left out (those ports read as unlinked).
 * Zero hops is the start node alone, with its ports unlinked. A channel adapter does not forward
 * directed-route SMPs (IBA 14.2.2), so from a start adapter that is not the local node the walk
 * goes back along the route it came by, through the port it was reached at.
 */
public sealed interface Neighborhood {
    /** The most links away from the start node a node may be and still be read. */
    int hops();

    /**
     * The neighborhood of the node at a directed route from the local port ({@link SmpTarget#local()}
     * for the local node).
     *
     * @throws IllegalArgumentException if {@code hops} is negative
     */
    record AtRoute(SmpTarget.DirectedRoute route, int hops) implements Neighborhood {
        public AtRoute {
            Objects.requireNonNull(route, "route");
            checkHops(hops);
        }
    }

    /**
     * The neighborhood of the node owning a port GUID (a switch's port GUID, or a channel adapter
     * port's), found first by walking the subnet from the local port until a node with that port
     * GUID turns up.
     *
     * @throws IllegalArgumentException if {@code hops} is negative
     */
    record AtPort(Guid portGuid, int hops) implements Neighborhood {
        public AtPort {
            Objects.requireNonNull(portGuid, "portGuid");
            checkHops(hops);
        }
    }

    private static void checkHops(int hops) {
        if (hops < 0) {
            throw new IllegalArgumentException("a neighborhood is 0 or more hops around its node, not " + hops);
        }
    }
}

package org.jrdma.iba.diag;

import java.util.List;

/**
 * The destination a tool queried, written as libibmad's {@code portid2str} writes it in the header
 * lines ({@code # Node info: Lid 3}, {@code # Port info: DR path slid 65535; dlid 65535; 0,1 port 1}).
 *
 * @param lid    the destination LID, or 0 for a directed route without one
 * @param drSlid the directed route's DrSLID (65535 when the route starts at the local port)
 * @param drDlid the directed route's DrDLID (65535 when the route ends at its last hop)
 * @param path   the directed route's port numbers, starting with 0 for the local port; empty
 *               for a destination given by LID only
 */
public record PortId(int lid, int drSlid, int drDlid, List<Integer> path) {
    /** The DrSLID/DrDLID infiniband-diags uses when the route is not given LIDs: the permissive LID. */
    public static final int PERMISSIVE_LID = 0xffff;

    public PortId {
        path = List.copyOf(path);
        if (lid <= 0 && path.isEmpty()) {
            throw new IllegalArgumentException("a port is given by a LID, a directed route, or both");
        }
    }

    /** A destination given by LID ({@code smpquery nodeinfo 3}). */
    public static PortId lid(int lid) {
        return new PortId(lid, PERMISSIVE_LID, PERMISSIVE_LID, List.of());
    }

    /**
     * A directed route from the local port ({@code smpquery -D nodeinfo 0,1,7}): the hops after the
     * initial 0.
     */
    public static PortId directRoute(int... hops) {
        Integer[] path = new Integer[hops.length + 1];
        path[0] = 0;
        for (int i = 0; i < hops.length; i++) {
            path[i + 1] = hops[i];
        }
        return new PortId(0, PERMISSIVE_LID, PERMISSIVE_LID, List.of(path));
    }

    /**
     * A directed route written as the tools take it: {@code "0"}, {@code "0,1,7"} (libibmad's
     * {@code str2drpath}).
     */
    public static PortId directRoute(String route) {
        String[] parts = route.split(",", -1);
        if (!parts[0].strip().equals("0")) {
            throw new IllegalArgumentException("a directed route starts at port 0: " + route);
        }
        int[] hops = new int[parts.length - 1];
        for (int i = 1; i < parts.length; i++) {
            hops[i - 1] = Integer.parseInt(parts[i].strip());
        }
        return directRoute(hops);
    }

    /** {@code portid2str}. */
    @Override
    public String toString() {
        StringBuilder out = new StringBuilder();
        if (lid > 0) {
            out.append("Lid ").append(lid);
            if (path.isEmpty()) {
                return out.toString();
            }
            out.append(' ');
        }
        out.append("DR path slid ").append(drSlid).append("; dlid ").append(drDlid).append("; ").append(path.getFirst());
        for (int i = 1; i < path.size(); i++) {
            out.append(',').append(path.get(i) & 0xff);
        }
        return out.toString();
    }
}

package org.jrdma.subnet;

import java.util.Arrays;
import org.jrdma.iba.Lid;

/**
 * A switch's linear forwarding table (IBA 14.2.5.10): the output port of every unicast LID from 0
 * up to the switch's LinearFDBTop, as read in blocks of 64 LIDs. Port 0 is the switch itself;
 * 255 marks a LID the switch has no route for, and so does every LID above the top.
 */
public final class LinearForwardingTable {
    /** LIDs per LinearForwardingTable block. */
    public static final int LIDS_PER_BLOCK = 64;
    /** The output port of a LID without a route (IBA 14.2.5.10: any invalid port, 255 by convention). */
    public static final int NO_ROUTE = 255;

    private final byte[] ports;

    /** @param ports the output port of LIDs 0..top, one byte each (copied) */
    LinearForwardingTable(byte[] ports) {
        this.ports = ports.clone();
    }

    /** LinearFDBTop: the highest LID the table holds. */
    public int top() {
        return ports.length - 1;
    }

    /**
     * The output port for {@code lid}: 0 for the switch itself, {@link #NO_ROUTE} when it has none
     * or {@code lid} is above {@link #top()}.
     *
     * @throws IllegalArgumentException if {@code lid} is not a unicast LID or 0
     */
    public int port(int lid) {
        if (lid < 0 || lid > Lid.UNICAST_LAST) {
            throw new IllegalArgumentException("LID " + lid + " is not in the unicast range 0..0xBFFF");
        }
        return lid < ports.length ? ports[lid] & 0xFF : NO_ROUTE;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LinearForwardingTable t && Arrays.equals(ports, t.ports);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(ports);
    }

    @Override
    public String toString() {
        return "LinearForwardingTable(top " + top() + ")";
    }
}

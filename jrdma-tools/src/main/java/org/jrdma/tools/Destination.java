package org.jrdma.tools;

import org.jrdma.iba.Lid;
import org.jrdma.iba.diag.PortId;
import org.jrdma.mad.SmpTarget;

/**
 * The node a command queries, as the infiniband-diags tools take it: a LID (decimal or 0x-hex), or
 * with {@code -D} a directed route {@code 0,1,7} from the local port.
 *
 * @param target where SMPs go
 * @param portId how the tools' header lines name it
 */
record Destination(SmpTarget target, PortId portId) {
    /**
     * Parses a destination argument.
     *
     * @throws DiagError what the C tools say of an address they cannot use, {@code can't resolve
     *                   destination port <text>} (status 255), with the reason as its cause
     */
    static Destination parse(String text, boolean directed) {
        try {
            return directed ? directedRoute(text) : lid(text);
        } catch (IllegalArgumentException e) {
            throw unresolved(text, e);
        }
    }

    /** The C tools' failure for an address they cannot resolve, {@code why} as jrdma's explanation. */
    static DiagError unresolved(String text, Throwable why) {
        return DiagError.exit("can't resolve destination port " + text, why);
    }

    private static Destination directedRoute(String text) {
        PortId id;
        try {
            id = PortId.directRoute(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad directed route \"" + text + "\": expected 0,port,port,...", e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("bad directed route \"" + text + "\": " + e.getMessage(), e);
        }
        int[] hops = id.path().stream().skip(1).mapToInt(Integer::intValue).toArray();
        return new Destination(new SmpTarget.DirectedRoute(hops), id);
    }

    private static Destination lid(String text) {
        int lid;
        try {
            lid = Lid.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("bad LID \"" + text + "\": " + e.getMessage(), e);
        }
        return new Destination(new SmpTarget.Lid(lid), PortId.lid(lid));
    }
}

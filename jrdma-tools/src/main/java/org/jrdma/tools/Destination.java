package org.jrdma.tools;

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
    /** Parses a destination argument. */
    static Destination parse(String text, boolean directed) {
        if (directed) {
            try {
                PortId id = PortId.directRoute(text);
                int[] hops = id.path().stream().skip(1).mapToInt(Integer::intValue).toArray();
                return new Destination(new SmpTarget.DirectedRoute(hops), id);
            } catch (NumberFormatException e) {
                throw new UsageException("bad directed route \"" + text + "\": expected 0,port,port,...");
            } catch (IllegalArgumentException e) {
                throw new UsageException("bad directed route \"" + text + "\": " + e.getMessage());
            }
        }
        int lid = IbtoolCommand.parseLid(text);
        try {
            return new Destination(new SmpTarget.Lid(lid), PortId.lid(lid));
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }
}

package org.jrdma.subnet;

import java.util.Arrays;
import java.util.List;
import org.jrdma.RdmaException;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.mad.MadSchedule;
import org.jrdma.mad.SmpClient;
import org.jrdma.mad.SmpTarget;

/**
 * Directed-route discovery (IBA 14.2.2) from the node at route {@code start}: a port's neighbor is
 * whatever answers NodeInfo one hop further along the route. A channel adapter does not forward
 * directed-route SMPs, so the neighbor of a start adapter other than the local node is the node one
 * hop back along {@code start}, reached at the port {@code start} left it by.
 */
record DirectedRouteExplorer(SmpClient smp, SmpTarget.DirectedRoute start) implements Exploration.Explorer {
    /** Discovery from the local node. */
    DirectedRouteExplorer(SmpClient smp) {
        this(smp, SmpTarget.local());
    }

    @Override
    public Node start(MadSchedule sched) {
        SmpNodeInfo info;
        try {
            info = smp.get(new SmpNodeInfo(), start, 0);
        } catch (RdmaException e) {
            throw new RdmaException("no node answers at DR path " + start + ": " + e.getMessage(), e);
        }
        return Exploration.read(sched, attributes(), start, info, null, List.of(info.localPortNum()));
    }

    @Override
    public Exploration.Probe probe(Port from) {
        SmpTarget.DirectedRoute here = from.node().route();
        if (!from.node().isSwitch() && here.hops() > 0) {
            int[] ports = here.ports();
            return read(from, new SmpTarget.DirectedRoute(Arrays.copyOf(ports, ports.length - 1)), ports[ports.length - 1]);
        }
        if (here.hops() == SmpTarget.MAX_HOPS) {
            throw new RdmaException("DR path " + here + " already has the " + SmpTarget.MAX_HOPS + " hops a directed route can have");
        }
        return read(from, here.then(from.number()), -1);
    }

    /** NodeInfo at {@code route}; the link arrives at {@code arrivalPort}, or where NodeInfo says for -1. */
    private Exploration.Probe read(Port from, SmpTarget.DirectedRoute route, int arrivalPort) {
        try {
            SmpNodeInfo info = smp.get(new SmpNodeInfo(), route, 0);
            return new Exploration.Probe(from, route, info, null, arrivalPort < 0 ? info.localPortNum() : arrivalPort);
        } catch (RdmaException e) {
            throw new RdmaException("no answer by DR path " + route + ": " + e.getMessage(), e);
        }
    }

    @Override
    public Exploration.NodeAttributes attributes() {
        return new SmpAttributes(smp);
    }
}

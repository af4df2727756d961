package org.jrdma.subnet;

import java.util.List;
import org.jrdma.RdmaException;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.mad.MadSchedule;
import org.jrdma.mad.SmpClient;
import org.jrdma.mad.SmpTarget;

/** Directed-route discovery (IBA 14.2.2): a port's neighbor is whatever answers NodeInfo one hop further along the route. */
record DirectedRouteExplorer(SmpClient smp) implements Exploration.Explorer {
    @Override
    public Node start(MadSchedule sched) {
        SmpTarget.DirectedRoute here = SmpTarget.local();
        SmpNodeInfo info = smp.get(new SmpNodeInfo(), here, 0);
        return Exploration.read(sched, attributes(), here, info, null, List.of(info.localPortNum()));
    }

    @Override
    public Exploration.Probe probe(Port from) {
        SmpTarget.DirectedRoute route = from.node().route().then(from.number());
        try {
            SmpNodeInfo info = smp.get(new SmpNodeInfo(), route, 0);
            return new Exploration.Probe(from, route, info, null, info.localPortNum());
        } catch (RdmaException e) {
            throw new RdmaException("no answer by DR path " + route + ": " + e.getMessage(), e);
        }
    }

    @Override
    public Exploration.NodeAttributes attributes() {
        return new SmpAttributes(smp);
    }
}

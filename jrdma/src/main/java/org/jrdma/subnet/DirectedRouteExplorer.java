package org.jrdma.subnet;

import java.util.Arrays;
import java.util.List;
import java.util.function.BiConsumer;
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
        Step step = step(from);
        return read(from, step.route(), step.arrivalPort());
    }

    /**
     * {@link #probe} without waiting, when the client {@link SmpClient#submits submits} its SMPs:
     * {@code done} gets the probe, or the failure {@code probe} would have thrown, on the engine's
     * receiver thread.
     */
    void probe(Port from, BiConsumer<Exploration.Probe, RuntimeException> done) {
        Step step;
        try {
            step = step(from);
        } catch (RdmaException e) {
            done.accept(null, e);
            return;
        }
        smp.getAsync(new SmpNodeInfo(), step.route(), 0, (info, failure) -> {
            if (failure instanceof RdmaException e) {
                done.accept(null, new RdmaException("no answer by DR path " + step.route() + ": " + e.getMessage(), e));
            } else if (failure != null) {
                done.accept(null, failure);
            } else {
                done.accept(new Exploration.Probe(from, step.route(), info, null,
                        step.arrivalPort() < 0 ? info.localPortNum() : step.arrivalPort()), null);
            }
        });
    }

    /** Where a probe out of a port goes: the route, and the port the link arrives at (-1: where NodeInfo says). */
    record Step(SmpTarget.DirectedRoute route, int arrivalPort) {
    }

    private static Step step(Port from) {
        return step(from, from.node().route());
    }

    /**
     * The probe out of {@code from}, whose node is at route {@code here}: a channel adapter's port
     * leads back the way it was reached; a switch's, one hop further.
     */
    static Step step(Port from, SmpTarget.DirectedRoute here) {
        if (!from.node().isSwitch() && here.hops() > 0) {
            int[] ports = here.ports();
            return new Step(new SmpTarget.DirectedRoute(Arrays.copyOf(ports, ports.length - 1)), ports[ports.length - 1]);
        }
        if (here.hops() == SmpTarget.MAX_HOPS) {
            throw new RdmaException("DR path " + here + " already has the " + SmpTarget.MAX_HOPS + " hops a directed route can have");
        }
        return new Step(here.then(from.number()), -1);
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

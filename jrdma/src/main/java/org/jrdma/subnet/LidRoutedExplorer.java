package org.jrdma.subnet;

import java.util.List;
import org.jrdma.RdmaException;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.mad.MadSchedule;
import org.jrdma.mad.SmpClient;
import org.jrdma.mad.SmpTarget;

/**
 * LID-routed rediscovery of a known subnet: the links come from {@code known}, every node is
 * read again by LID-routed SMPs to the LID the known model gives the far end of each link, and
 * must still have the GUID the known model has there.
 */
record LidRoutedExplorer(SmpClient smp, Subnet known) implements Exploration.Explorer {
    @Override
    public Node start(MadSchedule sched) {
        Node from = known.from();
        SmpTarget.Lid target = lidOf(from.lid(), from.toString());
        SmpNodeInfo info = check(smp.get(new SmpNodeInfo(), target, 0), from, target);
        return Exploration.read(sched, attributes(), target, info, null, from.ports().stream().map(Port::number).toList());
    }

    @Override
    public Exploration.Probe probe(Port from) {
        Port knownFrom = known.node(from.node().guid()).map(n -> n.port(from.number())).orElse(null);
        Port remote = knownFrom == null ? null : knownFrom.remote();
        if (remote == null) {
            return null;
        }
        SmpTarget.Lid target = lidOf(remote.lid(), remote.toString());
        try {
            return new Exploration.Probe(from, target, check(smp.get(new SmpNodeInfo(), target, 0), remote.node(), target), null,
                    remote.number());
        } catch (RdmaException e) {
            throw new RdmaException("no answer from LID " + target.lid() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public Exploration.NodeAttributes attributes() {
        return new SmpAttributes(smp);
    }

    private static SmpTarget.Lid lidOf(int lid, String what) {
        if (lid == 0) {
            throw new RdmaException(what + " has no LID: the known subnet was discovered before an SM assigned LIDs");
        }
        return new SmpTarget.Lid(lid);
    }

    private static SmpNodeInfo check(SmpNodeInfo info, Node expected, SmpTarget.Lid target) {
        if (!info.nodeGuid().equals(expected.guid())) {
            throw new RdmaException("LID " + target.lid() + " answers as node " + info.nodeGuid() + ", not " + expected);
        }
        return info;
    }
}

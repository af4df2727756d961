package org.jrdma.subnet;

import org.jrdma.iba.smp.SmpNodeDescription;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.iba.smp.SmpSwitchInfo;
import org.jrdma.mad.SmpClient;
import org.jrdma.mad.SmpTarget;

/** A node's NodeDescription, SwitchInfo and PortInfo read by SubnGet SMPs, directed-route or LID-routed as the target is. */
record SmpAttributes(SmpClient smp) implements Exploration.NodeAttributes {
    @Override
    public String description(SmpTarget target) {
        return smp.get(new SmpNodeDescription(), target, 0).nodeString();
    }

    @Override
    public SmpSwitchInfo switchInfo(SmpTarget target) {
        return smp.get(new SmpSwitchInfo(), target, 0);
    }

    @Override
    public SmpPortInfo portInfo(SmpTarget target, int port) {
        return smp.get(new SmpPortInfo(), target, port);
    }
}

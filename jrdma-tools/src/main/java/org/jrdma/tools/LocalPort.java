package org.jrdma.tools;

import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.mad.SmpClient;
import org.jrdma.mad.SmpTarget;

/**
 * The port the tools send from, read by directed route: its node, its number (0 on a switch,
 * whose LID lives on port 0), its LID and its subnet manager's LID.
 *
 * @param node   the local node's NodeInfo
 * @param number the local port number
 * @param info   the local port's PortInfo
 */
record LocalPort(SmpNodeInfo node, int number, SmpPortInfo info) {
    static LocalPort read(SmpClient smp) {
        SmpNodeInfo node = smp.get(new SmpNodeInfo(), SmpTarget.local(), 0);
        int number = node.nodeType() == 2 ? 0 : node.localPortNum();
        return new LocalPort(node, number, smp.get(new SmpPortInfo(), SmpTarget.local(), number));
    }

    /** The local port's LID. */
    int lid() {
        return info.lid();
    }

    /** The LID of the subnet manager, where the SA answers. */
    int smLid() {
        if (info.masterSmLid() == 0) {
            throw new org.jrdma.RdmaException("the local port knows no subnet manager (MasterSMLID 0): is one running?");
        }
        return info.masterSmLid();
    }
}

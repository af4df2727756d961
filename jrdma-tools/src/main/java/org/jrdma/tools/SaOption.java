package org.jrdma.tools;

import org.jrdma.mad.MadEngine;
import org.jrdma.mad.SmpClient;
import picocli.CommandLine.Option;

/**
 * {@code --sa}: read subnet management attributes from the subnet administrator's records
 * (NodeRecord, PortInfoRecord, SwitchInfoRecord, the table records; IBA 15.2.5) instead of asking
 * the nodes by SMP, through {@link org.jrdma.mad.SaTransactor}; implied by {@code --sa-path}, as in
 * python-rdma. A discovering command hands {@link #on} to {@link FabricCommand#discover}.
 */
final class SaOption {
    @Option(names = "--sa", description = "go through the SA: read each attribute from the subnet administrator's record "
            + "of it instead of asking the node (implied by --sa-path)")
    boolean sa;

    /** Whether the command goes through the SA: {@code --sa}, or {@code --sa-path} which implies it. */
    boolean on(FabricOptions fabric) {
        return sa || fabric.python.saPathGiven();
    }

    /** The SMP client the option asks for: answered by the SA with {@code --sa}, else by the nodes. */
    SmpClient smp(FabricOptions fabric, MadEngine engine) {
        return on(fabric) ? fabric.saSmp(engine) : fabric.smp(engine);
    }
}

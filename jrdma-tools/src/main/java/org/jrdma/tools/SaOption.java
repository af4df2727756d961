package org.jrdma.tools;

import org.jrdma.mad.MadEngine;
import org.jrdma.mad.SmpClient;
import org.jrdma.subnet.SubnetDiscovery;
import picocli.CommandLine.Option;

/**
 * {@code --sa}: read subnet management attributes from the subnet administrator's records
 * (NodeRecord, PortInfoRecord, SwitchInfoRecord, the table records; IBA 15.2.5) instead of asking
 * the nodes by SMP, through {@link org.jrdma.mad.SaTransactor}.
 */
final class SaOption {
    @Option(names = "--sa", description = "go through the SA: read each attribute from the subnet administrator's record "
            + "of it instead of asking the node")
    boolean sa;

    /**
     * The subnet, discovered from the SA's records with {@code --sa} ({@link SubnetDiscovery#fromSa}),
     * else by directed-route SMPs.
     */
    SubnetDiscovery discover(FabricOptions fabric, MadEngine engine) {
        return sa ? SubnetDiscovery.fromSa(fabric.saTransactor(engine)) : SubnetDiscovery.run(fabric.smp(engine));
    }

    /** The SMP client the option asks for: answered by the SA with {@code --sa}, else by the nodes. */
    SmpClient smp(FabricOptions fabric, MadEngine engine) {
        return sa ? fabric.saSmp(engine) : fabric.smp(engine);
    }
}

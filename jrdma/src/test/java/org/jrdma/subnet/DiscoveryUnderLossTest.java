package org.jrdma.subnet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.jrdma.mad.MadEngine;
import org.jrdma.mad.SmpClient;
import org.jrdma.mad.sim.IbsimTransport;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;

/** Directed-route discovery when a node answers its NodeInfo but loses the reads after it. */
class DiscoveryUnderLossTest {

    /**
     * From node08 (below leaf4), leaf3 is found on one level through both spines. With every
     * PortInfo to leaf3 dropped, leaf3 answers NodeInfo and then cannot be read: it is left out,
     * and both spine ports that found it lose their link, so both are named in the problems, not
     * only the first.
     */
    @Test
    @SimulatedFabric(topology = "fat-tree", subnetManager = false)
    void aNodeThatCannotBeReadIsNamedAtEveryPortThatFoundIt(Fabric fabric) {
        for (int port : new int[] {0, 5, 6}) {
            fabric.error("leaf3", port, 100, 0x15);
        }
        try (MadEngine engine = new MadEngine(IbsimTransport.attach(fabric.socketName(), "node08 HCA-1"), 8)) {
            SubnetDiscovery d = SubnetDiscovery.run(new SmpClient(engine, Duration.ofMillis(200), 1, 0));

            assertEquals(fabric.topology().nodes().size() - 3, d.subnet().nodes().size(), "leaf3 and its two hosts left out");
            List<String> problems = d.problems();
            assertEquals(2, problems.size(), problems.toString());
            assertTrue(problems.get(0).startsWith("spine1 port 3: node 0x0002c90300000a13 answered NodeInfo at "), problems.get(0));
            assertTrue(problems.get(1).startsWith("spine2 port 3: node 0x0002c90300000a13 answered NodeInfo at "), problems.get(1));
            assertTrue(problems.get(1).contains("but not the reads after it: SubnGet(PortInfo"), problems.get(1));
        }
    }
}

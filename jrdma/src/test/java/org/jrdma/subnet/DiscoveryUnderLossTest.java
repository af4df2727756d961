package org.jrdma.subnet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.jrdma.iba.Guid;
import org.jrdma.mad.MadEngine;
import org.jrdma.mad.SmpClient;
import org.jrdma.mad.sim.IbsimTransport;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;

/** Directed-route discovery when a node answers its NodeInfo but loses the reads after it. */
class DiscoveryUnderLossTest {
    private static final long LEAF3 = 0x0002c90300000a13L;

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

    /**
     * With half of leaf3's PortInfo reads lost, leaf3 is recorded without the ports it could not
     * read, each named in the problems (unless it is port 0, which holds the switch's LID: then
     * leaf3 is left out), rather than left out with the hosts behind it; a spine
     * whose link arrives at an unread port is named too. Every port of leaf3 is either recorded,
     * linked as in the fabric, or named.
     */
    @Test
    @SimulatedFabric(topology = "fat-tree", subnetManager = false)
    void aNodeIsKeptWithoutThePortsWhosePortInfoWasLost(Fabric fabric) {
        for (int port : new int[] {0, 5, 6}) {
            fabric.error("leaf3", port, 50, 0x15);
        }
        int partial = 0;
        try (MadEngine engine = new MadEngine(IbsimTransport.attach(fabric.socketName(), "node08 HCA-1"), 8)) {
            SmpClient smp = new SmpClient(engine, Duration.ofMillis(200), 1, 0);
            for (int run = 0; run < 20 && partial < 3; run++) {
                SubnetDiscovery d = SubnetDiscovery.run(smp);
                Node leaf3 = d.subnet().node(new Guid(LEAF3)).orElse(null);
                if (leaf3 == null) {
                    continue; // no PortInfo of it answered: left out, as the first test shows
                }
                List<String> problems = d.problems();
                assertNotNull(leaf3.port(0), "a switch is recorded with its port 0, which holds its LID, or not at all");
                for (int port = 0; port <= 8; port++) {
                    String name = "leaf3 port " + port + ": PortInfo not read at ";
                    boolean named = problems.stream().anyMatch(p -> p.startsWith(name));
                    assertTrue(named != (leaf3.port(port) != null), "port " + port + " recorded or named: " + problems);
                }
                for (int spine = 1; spine <= 2; spine++) {
                    Port up = leaf3.port(4 + spine);
                    String name = "spine" + spine + " port 3: the link arrives at " + leaf3 + " port " + (4 + spine) + ", whose PortInfo was not read";
                    if (up == null) {
                        assertTrue(problems.contains(name), name + " in " + problems);
                    } else {
                        assertEquals("spine" + spine + " port 3", up.remote().toString());
                    }
                }
                partial += leaf3.ports().size() < 9 ? 1 : 0;
            }
        }
        assertTrue(partial > 0, "leaf3 was recorded without some of its ports");
    }
}

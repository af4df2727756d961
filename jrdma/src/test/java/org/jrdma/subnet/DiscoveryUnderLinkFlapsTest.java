package org.jrdma.subnet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jrdma.iba.Guid;
import org.jrdma.mad.MadEngine;
import org.jrdma.mad.SmpClient;
import org.jrdma.mad.sim.IbsimTransport;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.Topology;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;

/**
 * Directed-route discovery of the fat tree while links go down and up under it: every run ends in
 * bounded time with a consistent model, what could not be read named in the problems, and once
 * the links are back the whole fabric is found again.
 */
class DiscoveryUnderLinkFlapsTest {
    private static final int RUNS = 12;

    @Test
    @SimulatedFabric(topology = "fat-tree", subnetManager = false)
    void discoveryWhileLinksFlapEndsWithAConsistentModel(Fabric fabric) throws Exception {
        Topology topology = fabric.topology();
        Set<Guid> known = new HashSet<>();
        topology.nodes().forEach(n -> known.add(new Guid(n.guid())));
        AtomicBoolean flapping = new AtomicBoolean(true);
        AtomicInteger flaps = new AtomicInteger();
        CompletableFuture<Void> flapper = CompletableFuture.runAsync(() -> {
            while (flapping.get()) {
                fabric.unlink("leaf2", 5);          // one uplink of leaf2: still reachable by spine2
                fabric.unlink("leaf3");             // leaf3 and its hosts cut off
                fabric.unlink("node01 HCA-1", 1);   // a host link
                fabric.relink("leaf2", 5);
                fabric.relink("leaf3");
                fabric.relink("node01 HCA-1", 1);
                flaps.incrementAndGet();
            }
        });
        int withProblems = 0;
        try (MadEngine engine = new MadEngine(IbsimTransport.attach(fabric.socketName(), null), 8)) {
            SmpClient smp = new SmpClient(engine, Duration.ofMillis(200), 2, 0);
            for (int run = 0; run < RUNS; run++) {
                long start = System.nanoTime();
                SubnetDiscovery d = SubnetDiscovery.run(smp);
                assertTrue(System.nanoTime() - start < Duration.ofSeconds(30).toNanos(), "run " + run + " took too long");
                assertConsistent(d.subnet(), known);
                d.problems().forEach(p -> assertTrue(p.matches("(?s).+ port \\d+: .+"), "names the port: " + p));
                withProblems += d.problems().isEmpty() ? 0 : 1;
            }
        } finally {
            flapping.set(false);
            flapper.get(30, TimeUnit.SECONDS);
        }
        assertTrue(flaps.get() > 0, "the links flapped");

        try (MadEngine engine = new MadEngine(IbsimTransport.attach(fabric.socketName(), null), 8)) {
            SubnetDiscovery d = SubnetDiscovery.run(new SmpClient(engine, Duration.ofMillis(500), 3, 0));
            assertEquals(List.of(), d.problems());
            assertEquals(topology.nodes().size(), d.subnet().nodes().size());
            assertConsistent(d.subnet(), known);
        }
        System.out.printf("%d discoveries during %d flaps, %d with problems%n", RUNS, flaps.get(), withProblems);
    }

    /** Every node is one of the fabric's, once; every link joins two ports of recorded nodes and reads the same from both ends. */
    private static void assertConsistent(Subnet subnet, Set<Guid> known) {
        Set<Guid> seen = new HashSet<>();
        for (Node node : subnet.nodes()) {
            assertTrue(known.contains(node.guid()), "unknown node " + node);
            assertTrue(seen.add(node.guid()), "node found twice: " + node);
            for (Port port : node.ports()) {
                Port remote = port.remote();
                if (remote != null) {
                    assertSame(port, remote.remote(), port + " and " + remote + " disagree");
                    assertSame(remote.node(), subnet.get(remote.node().guid()), "link to a node not in the model: " + port);
                }
            }
        }
    }
}

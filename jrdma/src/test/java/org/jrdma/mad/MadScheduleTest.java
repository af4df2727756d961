package org.jrdma.mad;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.jrdma.iba.Guid;
import org.jrdma.iba.PhysPortState;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.mad.sim.IbsimTransport;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.Topology;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;

/** The seed's scheduler patterns, run against ibsim. */
@SimulatedFabric(topology = "fat-tree", subnetManager = false)
class MadScheduleTest {

    /** The seed's first example: NodeInfo for a list of paths, all in parallel. */
    @Test
    void nodeInfoForEveryPortOfASwitchInParallelWithinTheOutstandingBound(Fabric fabric) {
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        try (MadEngine engine = new MadEngine(IbsimTransport.attach(fabric.socketName(), null), 3)) {
            engine.tracer(new MadTracer() {
                @Override
                public void sent(byte[] mad, MadAddress to) {
                    peak.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                }

                @Override
                public void received(ReceivedMad mad) {
                    inFlight.decrementAndGet();
                }
            });
            SmpClient smp = new SmpClient(engine, Duration.ofSeconds(1), 2, 0);
            Map<Integer, Guid> neighbors = new ConcurrentHashMap<>();
            try (MadSchedule sched = new MadSchedule(8)) {
                sched.mqueue(IntStream.rangeClosed(1, 4).<java.util.concurrent.Callable<?>>mapToObj(port -> () ->
                        neighbors.put(port, smp.get(new SmpNodeInfo(), new SmpTarget.DirectedRoute(new int[] {port}), 0).nodeGuid()))
                        .iterator());
                sched.run();
            }
            assertEquals(4, neighbors.size());
            assertEquals(0x0002c90300000a13L, neighbors.get(3).value(), "spine1 port 3 leads to leaf3");
            assertTrue(peak.get() <= 3, "at most maxOutstanding MADs in flight, saw " + peak.get());
        }
    }

    /** The seed's second example: directed-route discovery as recursive scheduled work. */
    @Test
    void recursiveDiscoveryFindsEveryNode(Fabric fabric) {
        try (MadEngine engine = new MadEngine(IbsimTransport.attach(fabric.socketName(), null), 16)) {
            SmpClient smp = new SmpClient(engine, Duration.ofSeconds(1), 2, 0);
            Map<Guid, SmpNodeInfo> guids = new ConcurrentHashMap<>();
            try (MadSchedule sched = new MadSchedule(16)) {
                sched.queue(() -> nodeInfo(sched, smp, guids, SmpTarget.local()));
                sched.run();
            }
            Topology t = fabric.topology();
            assertEquals(t.nodes().size(), guids.size());
            assertTrue(t.nodes().stream().allMatch(n -> guids.containsKey(new Guid(n.guid()))));
        }
    }

    private static void nodeInfo(MadSchedule sched, SmpClient smp, Map<Guid, SmpNodeInfo> guids, SmpTarget.DirectedRoute path) {
        SmpNodeInfo ninf = smp.get(new SmpNodeInfo(), path, 0);
        if (guids.putIfAbsent(ninf.nodeGuid(), ninf) != null || ninf.nodeType() != 2) {
            return;
        }
        for (int port = 1; port <= ninf.numPorts(); port++) {
            int p = port;
            sched.queue(() -> {
                SmpPortInfo pinf = smp.get(new SmpPortInfo(), path, p);
                if (pinf.portPhysicalState() == PhysPortState.LINK_UP.value()) {
                    nodeInfo(sched, smp, guids, path.then(p));
                }
            });
        }
    }

    @Test
    void failuresOfScheduledWorkReachRunWithTheOthersSuppressed(Fabric fabric) {
        try (MadEngine engine = new MadEngine(IbsimTransport.attach(fabric.socketName(), null), 4);
                MadSchedule sched = new MadSchedule(4)) {
            SmpClient smp = new SmpClient(engine, Duration.ofMillis(200), 0, 0);
            for (int bad : List.of(9, 10)) {
                sched.queue(() -> smp.get(new SmpPortInfo(), SmpTarget.local(), bad));
            }
            MadException e = assertThrows(MadException.class, sched::run);
            assertTrue(e.getMessage().contains("SubnGet(PortInfo, modifier 0x"), e.getMessage());
            assertEquals(1, e.getSuppressed().length);
        }
    }

    @Test
    void aTaskReturnsItsResultToItsCaller(Fabric fabric) {
        try (MadEngine engine = new MadEngine(IbsimTransport.attach(fabric.socketName(), null), 4);
                MadSchedule sched = new MadSchedule(4)) {
            SmpClient smp = new SmpClient(engine, Duration.ofSeconds(1), 2, 0);
            MadSchedule.Task<Integer> ports = sched.queue(() -> smp.get(new SmpNodeInfo(), SmpTarget.local(), 0).numPorts());
            assertEquals(8, ports.join());
        }
    }
}

package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;

/** {@code ibtool ibnetdiscover} against infiniband-diags' ibnetdiscover on the same simulated fabric. */
@SimulatedFabric(topology = "fat-tree")
class IbnetdiscoverCommandTest {

    @Test
    void printsExactlyWhatTheCToolPrints(Fabric fabric) {
        IbtoolRun run = IbtoolRun.of("ibnetdiscover", "--sim", fabric.socketName());
        String c = fabric.runAt(null, Duration.ofSeconds(60), List.of("ibnetdiscover")).orThrow().stdout();

        assertEquals(0, run.exitCode(), run.err());
        assertEquals(IbtoolRun.withoutDate(c), IbtoolRun.withoutDate(run.out()));
    }

    @Test
    void attachesAtTheNodeNamedBySimNode(Fabric fabric) {
        IbtoolRun run = IbtoolRun.of("ibnetdiscover", "--sim", fabric.socketName(), "--sim-node", "node05 HCA-1");
        String c = fabric.runAt("node05 HCA-1", Duration.ofSeconds(60), List.of("ibnetdiscover")).orThrow().stdout();

        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("# Initiated from node 0002c90300001050"), run.out());
        assertEquals(IbtoolRun.withoutDate(c), IbtoolRun.withoutDate(run.out()));
    }

    @Test
    void badInputExitsWithStatusTwoAndSaysWhy() {
        IbtoolRun run = IbtoolRun.of("ibnetdiscover", "--sim", "x", "--max-outstanding", "0");
        assertEquals(2, run.exitCode());
        assertTrue(run.err().contains("--max-outstanding must be at least 1"), run.err());
        assertEquals(2, IbtoolRun.of("ibnetdiscover", "--timeout", "soon").exitCode());
    }

    @Test
    void aMissingSimulatorFailsAsTheCToolsDiscoveryDoes() {
        IbtoolRun run = IbtoolRun.of("ibnetdiscover", "--sim", "jrdma-no-such-fabric");
        assertEquals(ExitCodes.FAILED, run.exitCode());
        assertTrue(run.err().contains("cannot reach ibsim at @jrdma-no-such-fabric:ctl"), run.err());
    }
}

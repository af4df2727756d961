package org.jrdma.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.Topology;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/bench-faults} in small and bounded: the bundled fat tree (14 nodes) with every port
 * dropping 10 % of the MADs reaching it, three rounds of every discovery. Each jrdma discovery
 * returns within its time bound either the fault-free topology or a part of it with every
 * missing link named in its problems and no link that is not in the fabric, or fails as a whole
 * with a {@code MadTimeoutException} naming the start node's read; with 15 resends, directed
 * route finds the whole fabric.
 */
class FaultsComparisonTest {
    private static final Duration BOUND = Duration.ofSeconds(30);

    @Test
    void discoveryUnderTenPercentLossIsExactOrNamesWhatItMissed() {
        try (Fabric fabric = Fabric.start(Topology.bundled("fat-tree"), Fabric.Options.defaults().withSweepSeconds(0))) {
            FaultsComparison.Baseline baseline = FaultsComparison.Baseline.of(fabric);
            FaultsComparison.dropEverywhere(fabric, 10);
            System.out.println(FaultsComparison.HEADER);
            int patientComplete = 0;
            for (int round = 0; round < 3; round++) {
                List<FaultsComparison.Outcome> outcomes = FaultsComparison.all(fabric, baseline, 10);
                assertEquals(5, outcomes.size());
                for (FaultsComparison.Outcome o : outcomes) {
                    System.out.println(o.row());
                    assertTrue(o.millis() < BOUND.toMillis(), o.row());
                    assertEquals(0, o.wrong(), "no link or node that is not in the fabric: " + o.row());
                    if (o.method().equals("C ibnetdiscover")) {
                        continue;
                    }
                    assertTrue(o.failure() == null ? o.exactOrNamed() : o.failure().startsWith("MadTimeoutException: "), o.row());
                    if (o.method().startsWith("directed route, ") && o.complete()) {
                        patientComplete++;
                    }
                }
            }
            assertTrue(patientComplete > 0, "directed route with " + FaultsComparison.PATIENT_RETRIES + " resends found the whole fabric");
        }
    }
}

package org.jrdma.mad;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.jrdma.iba.sa.SaNodeRecord;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;

/** SA queries while OpenSM restarts or stays away: resent until it answers, or a clear timeout. */
class SaUnderSmFaultsTest {

    /**
     * A query sent while OpenSM restarts is answered, or ends in a {@link MadTimeoutException}
     * once its tries are spent, never in anything else; once OpenSM is back every query is
     * answered. ibsim reports a MAD to a port with no SM attached as undeliverable at once, and the
     * engine counts that as a failed try (as it does the kernel's ETIMEDOUT), so on ibsim a query
     * that meets the restart's gap spends its tries within it.
     */
    @Test
    @SimulatedFabric(topology = "two-switch")
    void queriesWhileOpenSmRestartsAreAnsweredOrTimeOutCleanly(Fabric fabric) {
        try (SimAgent a = new SimAgent(fabric, "node02 HCA-1")) {
            int lid = a.lid();
            MadTransactor patient = a.mt.withTimeouts(Duration.ofMillis(500), 5);
            CompletableFuture<Void> restart = CompletableFuture.runAsync(fabric::restartSubnetManager);
            int answered = 0;
            int timedOut = 0;
            do {
                try {
                    assertEquals(lid, patient.subnAdmGet(new SaNodeRecord().lid(lid), SaNodeRecord.LID_COMPONENT_MASK).lid());
                    answered++;
                } catch (MadTimeoutException e) {
                    assertTrue(e.getMessage().startsWith("SubnAdmGet(NodeRecord, mask 0x1)") && e.getMessage().contains("after 6 attempts"),
                            e.getMessage());
                    timedOut++;
                }
            } while (!restart.isDone());
            restart.join();

            assertEquals(lid, patient.subnAdmGet(new SaNodeRecord().lid(lid), SaNodeRecord.LID_COMPONENT_MASK).lid());
            System.out.printf("during the restart: %d queries answered, %d timed out%n", answered, timedOut);
        }
    }

    @Test
    @SimulatedFabric(topology = "two-switch")
    void aStoppedSaEndsInAMadTimeoutExceptionAfterItsTries(Fabric fabric) {
        try (SimAgent a = new SimAgent(fabric, "node02 HCA-1")) {
            int lid = a.lid();
            fabric.stopSubnetManager();
            MadTransactor quick = a.mt.withTimeouts(Duration.ofMillis(200), 2);
            long start = System.nanoTime();

            MadTimeoutException e = assertThrows(MadTimeoutException.class,
                    () -> quick.subnAdmGet(new SaNodeRecord().lid(lid), SaNodeRecord.LID_COMPONENT_MASK));

            long elapsedMs = (System.nanoTime() - start) / 1_000_000;
            assertTrue(elapsedMs < 3 * 200 + 5_000, "3 tries of at most 200 ms, took " + elapsedMs + " ms");
            assertTrue(e.getMessage().startsWith("SubnAdmGet(NodeRecord, mask 0x1) to IBPath(") && e.getMessage().contains("after 3 attempts"),
                    e.getMessage());
            assertEquals(a.mt.saPath(), e.path().orElseThrow());

            fabric.startSubnetManager();

            assertEquals(lid, quick.withTimeouts(Duration.ofSeconds(1), 3)
                    .subnAdmGet(new SaNodeRecord().lid(lid), SaNodeRecord.LID_COMPONENT_MASK).lid());
        }
    }

    /**
     * Failover to a standby OpenSM: the SA moves to the standby's LID. A transactor whose SA path
     * still names the stopped master's LID ends in a {@link MadTimeoutException}; one made on the
     * port's fresh PortInfo (MasterSMLID set by the new master) is answered.
     */
    @Test
    @SimulatedFabric(topology = "two-switch")
    void afterFailoverTheSaAnswersAtTheNewMastersLid(Fabric fabric) throws InterruptedException {
        fabric.startStandbySubnetManager("node03 HCA-1");
        int oldSm;
        int lid;
        try (SimAgent before = new SimAgent(fabric, "node02 HCA-1")) {
            oldSm = before.mt.saPath().dlid();
            lid = before.lid();
            fabric.stopSubnetManager();
            assertThrows(MadTimeoutException.class, () -> before.mt.withTimeouts(Duration.ofMillis(200), 1)
                    .subnAdmGet(new SaNodeRecord().lid(lid), SaNodeRecord.LID_COMPONENT_MASK));
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            try (SimAgent after = new SimAgent(fabric, "node02 HCA-1")) {
                if (after.mt.saPath().dlid() != oldSm) {
                    assertEquals(lid, after.mt.withTimeouts(Duration.ofSeconds(1), 3)
                            .subnAdmGet(new SaNodeRecord().lid(lid), SaNodeRecord.LID_COMPONENT_MASK).lid());
                    return;
                }
            }
            assertTrue(System.nanoTime() < deadline, "the standby did not take over within 60 s");
            Thread.sleep(500);
        }
    }
}

package org.jrdma.mad;

import static org.jrdma.mad.AsyncCallbacks.completing;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.jrdma.iba.mad.MadClassPortInfo;
import org.jrdma.iba.pm.PmPortCounters;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;

/**
 * PerformanceGets and PerformanceSets submitted to the engine ({@link GmpClient#performanceGetAsync},
 * {@link MadEngine#submit}) against ibsim's PMAs, with OpenSM's LIDs: more at once than the engine
 * keeps in flight, each completes on the engine's receiver thread with what the blocking call
 * returns; one to a LID nobody has fails with the blocking call's exception; the engine then holds no state.
 */
@SimulatedFabric(topology = "two-switch")
class SubmittedGmpTest {
    @Test
    void submittedPerformanceGetsCompleteOnTheReceiverWithTheBlockingAnswers(Fabric fabric) {
        try (SimAgent a = new SimAgent(fabric, "node01 HCA-1")) {
            GmpClient gmp = new GmpClient(a.engine, Duration.ofSeconds(1), 2);
            int[] lids = {a.lid(), a.endPort.smLid()};
            List<String> threads = new ArrayList<>();
            List<CompletableFuture<MadClassPortInfo>> answers = new ArrayList<>();
            List<CompletableFuture<PmPortCounters>> counters = new ArrayList<>();
            int many = a.engine.maxOutstanding() * 3;
            for (int i = 0; i < many; i++) {
                CompletableFuture<MadClassPortInfo> cpi = new CompletableFuture<>();
                gmp.performanceGetAsync(new MadClassPortInfo(), lids[i % 2], 0, completing(cpi, threads));
                answers.add(cpi);
                CompletableFuture<PmPortCounters> pc = new CompletableFuture<>();
                gmp.performanceGetAsync(new PmPortCounters().portSelect(1), lids[0], 0, completing(pc, threads));
                counters.add(pc);
            }
            for (int i = 0; i < many; i++) {
                assertEquals(gmp.performanceGet(new MadClassPortInfo(), lids[i % 2], 0), answers.get(i).join(), "LID " + lids[i % 2]);
                PmPortCounters pc = counters.get(i).join();
                assertEquals(1, pc.portSelect());
                assertEquals(gmp.performanceGet(new PmPortCounters().portSelect(1), lids[0], 0).symbolErrorCounter(), pc.symbolErrorCounter());
            }
            CompletableFuture<PmPortCounters> reset = new CompletableFuture<>();
            gmp.performanceSetAsync(new PmPortCounters().portSelect(1).counterSelect(0x1), lids[0], 0, completing(reset, threads));
            assertEquals(0, reset.join().symbolErrorCounter(), "the answer of the Set is written back");
            assertTrue(threads.stream().allMatch(t -> t.startsWith("jrdma-mad-receiver")), threads.toString());
            assertEquals(0, a.engine.openTransactions());
        }
    }

    @Test
    void anUndeliverableSubmittedPerformanceGetFailsAsTheBlockingOne(Fabric fabric) {
        try (SimAgent a = new SimAgent(fabric, "node01 HCA-1")) {
            GmpClient gmp = new GmpClient(a.engine, Duration.ofMillis(100), 1);
            CompletableFuture<RuntimeException> failed = new CompletableFuture<>();
            gmp.performanceGetAsync(new PmPortCounters(), 0x3000, 0, (pc, failure) -> {
                assertNull(pc);
                failed.complete(failure);
            });
            RuntimeException async = failed.join();
            MadTimeoutException blocking = assertThrows(MadTimeoutException.class, () -> gmp.performanceGet(new PmPortCounters(), 0x3000, 0));
            assertEquals(MadTimeoutException.class, async.getClass());
            assertEquals(withoutTid(blocking.getMessage()), withoutTid(async.getMessage()));
            assertTrue(async.getMessage().contains("the fabric could not deliver it"), async.getMessage());
            assertEquals(0x3000, ((MadTimeoutException) async).path().orElseThrow().dlid());
            assertEquals(0, a.engine.openTransactions());
        }
    }

    private static String withoutTid(String message) {
        return message.replaceAll("TID 0x[0-9a-f]{16}", "TID");
    }
}

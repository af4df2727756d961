package org.jrdma.mad;

import static org.jrdma.mad.AsyncCallbacks.completing;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;

/**
 * SubnGets submitted to the engine ({@link SmpClient#getAsync}, {@link MadEngine#submit}) against
 * ibsim's SMAs: more at once than the engine keeps in flight, each completes on the engine's
 * receiver thread with what the blocking {@link SmpClient#get} returns; one that nothing answers
 * (ibsim returns it undelivered) fails with the {@link MadTimeoutException} of its attempts; the engine then holds no state.
 */
@SimulatedFabric(topology = "two-switch")
class SubmittedSmpTest {
    @Test
    void submittedSubnGetsCompleteOnTheReceiverWithTheBlockingAnswers(Fabric fabric) {
        try (SimAgent a = new SimAgent(fabric, "node01 HCA-1")) {
            SmpClient smp = new SmpClient(a.engine, Duration.ofSeconds(1), 2, 0);
            SmpTarget sw1 = new SmpTarget.DirectedRoute(new int[] {1});
            List<CompletableFuture<SmpPortInfo>> answers = new ArrayList<>();
            List<String> threads = new ArrayList<>();
            int many = a.engine.maxOutstanding() * 3;
            for (int i = 0; i < many; i++) {
                CompletableFuture<SmpPortInfo> f = new CompletableFuture<>();
                smp.getAsync(new SmpPortInfo(), sw1, 1 + i % 8, completing(f, threads));
                answers.add(f);
            }
            for (int i = 0; i < many; i++) {
                assertEquals(smp.get(new SmpPortInfo(), sw1, 1 + i % 8), answers.get(i).join(), "port " + (1 + i % 8));
            }
            assertTrue(threads.stream().allMatch(t -> t.startsWith("jrdma-mad-receiver")), threads.toString());
            assertEquals(0, a.engine.openTransactions());
        }
    }

    @Test
    void anUnansweredSubmittedSubnGetFailsWithItsAttempts(Fabric fabric) {
        try (SimAgent a = new SimAgent(fabric, "node01 HCA-1")) {
            SmpClient smp = new SmpClient(a.engine, Duration.ofMillis(100), 1, 0);
            CompletableFuture<RuntimeException> failed = new CompletableFuture<>();
            smp.getAsync(new SmpNodeInfo(), new SmpTarget.Lid(0x2000), 0, (info, failure) -> {
                assertNull(info);
                failed.complete(failure);
            });
            RuntimeException e = failed.join();
            assertInstanceOf(MadTimeoutException.class, e);
            assertTrue(e.getMessage().endsWith("after 2 attempts of 100 ms"), e.getMessage());
            assertEquals(0, a.engine.openTransactions());
        }
    }
}

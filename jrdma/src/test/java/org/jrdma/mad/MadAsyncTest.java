package org.jrdma.mad;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.jrdma.iba.sa.SaNodeRecord;
import org.jrdma.iba.smp.SmpNodeDescription;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.path.IBPath;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;

/**
 * The asynchronous mode of {@link MadTransactor} against ibsim's SMAs and OpenSM's SA: futures
 * made together complete with what the blocking RPCs return, without a {@link MadSchedule}, and
 * a failed RPC fails its future with the RPC's exception.
 */
@SimulatedFabric(topology = "two-switch")
class MadAsyncTest {
    private static final long NODE01 = 0x0002c90300001010L;
    private static final long SW1 = 0x0002c90300000a01L;
    private static final long SW2 = 0x0002c90300000a02L;

    @Test
    void futuresMadeTogetherCompleteWithTheBlockingRpcsAnswers(Fabric fabric) {
        try (SimAgent a = new SimAgent(fabric, "node01 HCA-1")) {
            List<CompletableFuture<SmpNodeInfo>> infos = List.of(
                    a.mt.async(m -> m.subnGet(SmpNodeInfo.class, a.dr(), 0)),
                    a.mt.async(m -> m.subnGet(SmpNodeInfo.class, a.dr(1), 0)),
                    a.mt.async(m -> m.subnGet(SmpNodeInfo.class, a.dr(1, 7), 0)));
            CompletableFuture<List<SaNodeRecord>> records = a.mt.async(
                    m -> m.subnAdmGetTable(new SaNodeRecord(), 0));
            CompletableFuture<Boolean> virtual = a.mt.async(m -> Thread.currentThread().isVirtual());

            assertEquals(List.of(NODE01, SW1, SW2), infos.stream().map(f -> f.join().nodeGuid().value()).toList());
            assertEquals(a.mt.subnGet(SmpNodeInfo.class, a.dr(1, 7), 0), infos.get(2).join());
            assertEquals(a.mt.subnAdmGetTable(new SaNodeRecord(), 0).size(), records.join().size());
            assertTrue(virtual.join(), "the RPC runs on a virtual thread");
        }
    }

    @Test
    void aSequenceOfRpcsIsOneFuture(Fabric fabric) {
        try (SimAgent a = new SimAgent(fabric, "node01 HCA-1")) {
            CompletableFuture<String> description = a.mt.async(m -> {
                int lid = m.subnGet(new SmpPortInfo(), a.dr(1, 7), 0).lid();
                IBPath byLid = a.gmpPath(lid, 2);
                return m.subnGet(SmpNodeDescription.class, byLid, 0).nodeString();
            });
            assertEquals("sw2", description.join());
        }
    }

    @Test
    void aFailedRpcFailsItsFutureWithTheRpcsException(Fabric fabric) {
        try (SimAgent a = new SimAgent(fabric, "node01 HCA-1")) {
            CompletableFuture<SmpNodeInfo> nowhere = a.mt.async(m -> m.subnGet(SmpNodeInfo.class, a.gmpPath(0x2000, 0), 0));
            CompletionException e = assertThrows(CompletionException.class, nowhere::join);
            assertInstanceOf(MadTimeoutException.class, e.getCause());
            assertTrue(nowhere.isCompletedExceptionally());
        }
    }
}

package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jrdma.RdmaException;
import org.jrdma.iba.mad.MadClassPortInfo;
import org.jrdma.iba.pm.PmPortCounters;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.iba.wire.Bits;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.iba.wire.MadAttribute;
import org.jrdma.mad.GmpClient;
import org.jrdma.mad.MadEngine;
import org.jrdma.mad.MadAddress;
import org.jrdma.mad.MadTimeoutException;
import org.jrdma.mad.MadTracer;
import org.jrdma.mad.SmpClient;
import org.jrdma.mad.SmpTarget;
import org.jrdma.mad.sim.IbsimTransport;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;

/**
 * {@link ParallelReads#submitted} against ibsim's PMAs: reads of several MADs each, written as
 * blocking code, give in key order what the same code gives through the blocking calls
 * ({@link ParallelReads#of}), failures included, with every MAD sent once and no thread but the
 * caller's and the engine's receiver running them.
 */
@SimulatedFabric(topology = "two-switch")
class ParallelReadsTest {
    /** A LID no port has: ibsim returns its MADs undelivered. */
    private static final int NOBODY = 0x3000;

    @Test
    void submittedReadsGiveWhatTheBlockingReadsGiveInKeyOrder(Fabric fabric) {
        try (MadEngine engine = new MadEngine(IbsimTransport.attach(fabric.socketName(), "node01 HCA-1"), 4)) {
            GmpClient gmp = new GmpClient(engine, Duration.ofMillis(200), 1);
            SmpPortInfo own = new SmpClient(engine, Duration.ofMillis(500), 2, 0).get(new SmpPortInfo(), SmpTarget.local(), 0);
            List<Integer> lids = new ArrayList<>();
            for (int i = 0; i < 3 * engine.maxOutstanding(); i++) {
                lids.add(i % 5 == 3 ? NOBODY : i % 2 == 0 ? own.lid() : own.masterSmLid());
            }
            Set<Long> transactions = ConcurrentHashMap.newKeySet();
            engine.tracer(new MadTracer() {
                @Override
                public void sent(byte[] mad, MadAddress to) {
                    transactions.add(Bits.u64(mad, 8));
                }
            });
            Set<String> threads = ConcurrentHashMap.newKeySet();
            List<ParallelReads.Outcome<String>> submitted = ParallelReads.submitted(lids, engine.maxOutstanding(), gmp, (lid, pm) -> {
                threads.add(Thread.currentThread().getName());
                return read(lid, pm);
            });
            engine.tracer(MadTracer.NONE);
            List<ParallelReads.Outcome<String>> blocking = ParallelReads.of(lids, engine.maxOutstanding(), lid -> read(lid, blocking(gmp)));
            assertEquals(lids.size(), submitted.size());
            for (int i = 0; i < lids.size(); i++) {
                ParallelReads.Outcome<String> s = submitted.get(i);
                ParallelReads.Outcome<String> b = blocking.get(i);
                assertEquals(b.ok(), s.ok(), "key " + i);
                if (s.ok()) {
                    assertEquals(b.value(), s.value(), "key " + i);
                } else {
                    assertNull(s.value());
                    assertInstanceOf(MadTimeoutException.class, s.failure());
                    assertEquals(b.failure().getMessage().replaceAll("TID 0x\\p{XDigit}+", ""),
                            s.failure().getMessage().replaceAll("TID 0x\\p{XDigit}+", ""));
                }
            }
            long answered = lids.stream().filter(lid -> lid != NOBODY).count();
            assertEquals(answered * 3 + lids.size() - answered, transactions.size(), "each MAD made once (a TID each): three to a PMA, one to nobody");
            assertTrue(threads.stream().allMatch(t -> t.equals(Thread.currentThread().getName()) || t.startsWith("jrdma-mad-receiver")),
                    threads.toString());
            assertEquals(0, engine.openTransactions());
        }
    }

    @Test
    void aReadThatFailsOtherwiseThanByAMadFailsTheWhole(Fabric fabric) {
        try (MadEngine engine = new MadEngine(IbsimTransport.attach(fabric.socketName(), "node01 HCA-1"), 4)) {
            GmpClient gmp = new GmpClient(engine, Duration.ofMillis(200), 1);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> ParallelReads.submitted(List.of(1, 2), 2, gmp,
                    (key, pm) -> {
                        throw new IllegalStateException("a defect in read " + key);
                    }));
            assertTrue(e.getMessage().startsWith("a defect in read"), e.getMessage());
        }
    }

    /**
     * A read of three dependent MADs, as ibqueryerrors' are: the PMA's ClassPortInfo, PortCounters
     * of port 1, then a reset of the counters whose value was read, returning what it saw.
     */
    private static String read(int lid, ParallelReads.PerfMgt pm) {
        MadClassPortInfo cpi = pm.performanceGet(new MadClassPortInfo(), lid, 0);
        PmPortCounters pc = pm.performanceGet(new PmPortCounters().portSelect(1), lid, 0);
        String seen = lid + ": capabilities 0x" + Integer.toHexString(cpi.capabilityMask()) + ", symbol errors " + pc.symbolErrorCounter();
        try {
            pm.performanceSet(new PmPortCounters().portSelect(1).counterSelect(0x1), lid, 0);
            return seen + ", reset";
        } catch (RdmaException e) {
            return seen + ", not reset";
        }
    }

    private static ParallelReads.PerfMgt blocking(GmpClient gmp) {
        return new ParallelReads.PerfMgt() {
            @Override
            public <T extends IbaStruct & MadAttribute> T performanceGet(T attribute, int lid, long modifier) {
                return gmp.performanceGet(attribute, lid, modifier);
            }

            @Override
            public <T extends IbaStruct & MadAttribute> T performanceSet(T attribute, int lid, long modifier) {
                return gmp.performanceSet(attribute, lid, modifier);
            }
        };
    }
}

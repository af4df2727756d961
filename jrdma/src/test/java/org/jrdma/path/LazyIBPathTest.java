package org.jrdma.path;

import static org.jrdma.path.Fixtures.PORT_1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.jrdma.devices.EndPort;
import org.junit.jupiter.api.Test;

/** {@link LazyIBPath}: unpacked once, on first use, then just the path it unpacked to. */
class LazyIBPathTest {
    private static final IBPath RECEIVED = IBPath.builder(PORT_1).slid(7).dlid(0x10).dqpn(1).sqpn(1).pkeyIndex(1).build();

    @Test
    void unpacksOnFirstUseOnly() {
        AtomicInteger calls = new AtomicInteger();
        LazyIBPath lazy = new LazyIBPath(() -> {
            calls.incrementAndGet();
            return RECEIVED;
        });
        assertFalse(lazy.isUnpacked());
        assertEquals(0, calls.get());
        assertEquals(7, lazy.slid());
        assertTrue(lazy.isUnpacked());
        assertEquals(0x10, lazy.dlid());
        assertEquals(RECEIVED.toString(), lazy.toString());
        assertEquals(1, calls.get());
    }

    @Test
    void behavesAsThePathItUnpacksTo() {
        LazyIBPath lazy = new LazyIBPath(() -> RECEIVED);
        assertEquals(RECEIVED, lazy);
        assertEquals(lazy, RECEIVED);
        assertEquals(RECEIVED.hashCode(), lazy.hashCode());
        assertEquals("IBPath(end_port='mlx4_0/1', DLID=16, SLID=7, pkey=0x8001, dqpn=1, sqpn=1)", lazy.toString());
        assertEquals(1, lazy.pkeyIndex());
        assertEquals(RECEIVED.madTimeout(), lazy.madTimeout());
        assertTrue(lazy.complete());
    }

    @Test
    void derivedPathsArePlainIbPaths() {
        LazyIBPath lazy = new LazyIBPath(() -> RECEIVED);
        IBPath reply = lazy.reverse();
        assertSame(IBPath.class, reply.getClass());
        assertEquals(7, reply.dlid());
        assertSame(IBPath.class, lazy.copy(b -> b.sl(1)).getClass());
        assertEquals(1, lazy.copy(b -> b.sl(1)).pkeyIndex(), "the unpacked P_Key index survives");
        assertEquals(RECEIVED, lazy.toBuilder().build());
        assertEquals(RECEIVED.reverse(false), lazy.returnPath());
    }

    @Test
    void aFailingUnpackFailsTheAccessAndIsTriedAgain() {
        AtomicInteger calls = new AtomicInteger();
        LazyIBPath lazy = new LazyIBPath(() -> {
            if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("truncated address");
            }
            return RECEIVED;
        });
        assertEquals("truncated address", assertThrows(IllegalStateException.class, lazy::dlid).getMessage());
        assertEquals(0x10, lazy.dlid());
        assertEquals(2, calls.get());
    }

    @Test
    void unpacksToAPlainPathOnly() {
        assertThrows(NullPointerException.class, () -> new LazyIBPath(null));
        assertThrows(NullPointerException.class, () -> new LazyIBPath(() -> null).dlid());
        IllegalStateException dr = assertThrows(IllegalStateException.class,
                () -> new LazyIBPath(() -> IBDRPath.builder(null).build()).dlid());
        assertEquals("A LazyIBPath unpacks to an IBPath, not to IBDRPath(end_port=None)", dr.getMessage());
        LazyIBPath nested = new LazyIBPath(() -> new LazyIBPath(() -> RECEIVED));
        assertEquals(RECEIVED, nested);
        assertEquals(1, nested.pkeyIndex());
    }

    @Test
    void unpacksOnceUnderConcurrentFirstUse() throws InterruptedException {
        AtomicInteger calls = new AtomicInteger();
        LazyIBPath lazy = new LazyIBPath(() -> {
            calls.incrementAndGet();
            return RECEIVED;
        });
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        List<Integer> seen = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < 16; i++) {
            threads.add(Thread.ofVirtual().start(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                seen.add(lazy.slid());
            }));
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        assertEquals(1, calls.get());
        assertEquals(16, seen.size());
        assertTrue(seen.stream().allMatch(slid -> slid == 7));
    }

    @Test
    void anEndPortChangedCopyForgetsTheIndex() {
        EndPort other = EndPort.builder("mlx4_0", 1).pkeys(0x8001, 0xFFFF).build();
        LazyIBPath lazy = new LazyIBPath(() -> RECEIVED);
        assertEquals(0, lazy.copy(b -> b.endPort(other)).pkeyIndex());
    }
}

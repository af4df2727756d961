package org.jrdma.mad;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jrdma.iba.Mad;
import org.jrdma.iba.mad.RmppHeader;
import org.jrdma.iba.mad.VendorOuiFormat;
import org.jrdma.iba.wire.Bits;
import org.jrdma.iba.wire.MadDecoder;
import org.jrdma.path.IBPath;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;

/**
 * Requests longer than one MAD (IBA 13.6): a client's vendor Set of a 1,500-byte attribute goes
 * by RMPP, a jrdma server receives it segment by segment, acknowledging each window, and hands it
 * over reassembled; the reply comes back by RMPP too. Between two jrdma agents over ibsim, which
 * relays single MADs; the protocol's error paths are driven by a raw ibsim client playing the
 * other end.
 */
@SimulatedFabric(topology = "two-switch")
class RmppRequestTest {
    private static final int VENDOR_CLASS = Mad.CLASS_VENDOR_RANGE2_START;
    private static final long SET = 1L << Mad.METHOD_SET;
    /** Segments of a Journal: 1,500 bytes in the 216 bytes a vendor segment holds after its OUI header. */
    private static final int JOURNAL_SEGMENTS = 7;

    /** Class 0x30, attribute 0x0013, 1,500 bytes, Get and Set: a vendor attribute larger than one MAD both ways. */
    public static final class Journal extends TestVendorAttributes.Blob {
        @Override
        public int size() {
            return 1500;
        }

        @Override
        public int mgmtClass() {
            return VENDOR_CLASS;
        }

        @Override
        public int attributeId() {
            return 0x0013;
        }
    }

    @Test
    void aSetLongerThanOneMadGoesByRmppBothWays(Fabric fabric) throws Exception {
        BlockingQueue<Journal> received = new LinkedBlockingQueue<>();
        AtomicInteger clientSegments = new AtomicInteger();
        AtomicInteger serverAcks = new AtomicInteger();
        try (SimAgent server = journalServer(fabric, "node03 HCA-1", received, true);
                SimAgent client = new SimAgent(fabric, "node01 HCA-1")) {
            client.engine.tracer(new MadTracer() {
                @Override
                public void sent(byte[] mad, MadAddress to) {
                    if (Rmpp.isData(new ReceivedMad(mad, mad.length, to, false)) && !Mad.isResponse(mad[3] & 0xFF)) {
                        clientSegments.incrementAndGet();
                    }
                }
            });
            server.engine.tracer(new MadTracer() {
                @Override
                public void sent(byte[] mad, MadAddress to) {
                    if (Rmpp.isControl(new ReceivedMad(mad, mad.length, to, false)) && Rmpp.header(mad).rmppType() == Rmpp.TYPE_ACK
                            && Mad.isResponse(mad[3] & 0xFF)) {
                        serverAcks.incrementAndGet();
                    }
                }
            });
            IBPath toServer = client.patientPath(server.lid());
            Journal sent = (Journal) new Journal().fill(5);
            Journal answer = client.mt.vendSet(sent, TestVendorAttributes.OUI, toServer, 9);
            assertEquals(sent, received.poll(10, TimeUnit.SECONDS), "the server got the whole attribute");
            assertEquals(sent, answer, "and answered with it, by RMPP");
            assertEquals(JOURNAL_SEGMENTS, clientSegments.get());
            assertEquals(2, serverAcks.get(), "ACKs of segment 1 (the first window) and of segment 7 (the last)");

            List<CompletableFuture<Journal>> parallel = new ArrayList<>();
            for (int seed = 1; seed <= 5; seed++) {
                Journal j = (Journal) new Journal().fill(seed * 11);
                parallel.add(CompletableFuture.supplyAsync(() -> client.mt.vendSet(j, TestVendorAttributes.OUI, toServer, 0)));
            }
            for (int seed = 1; seed <= 5; seed++) {
                assertEquals(new Journal().fill(seed * 11), parallel.get(seed - 1).get(30, TimeUnit.SECONDS), "five transfers at once");
            }
            assertEquals(0, server.engine.failedRequestTransfers());
        }
    }

    @Test
    void theServerAbortsARequestThatStallsAndDeliversNothing(Fabric fabric) throws Exception {
        try (RawToServer ends = new RawToServer(fabric)) {
            ends.server().engine.requestSegmentTimeouts(Duration.ofMillis(200), 1);
            List<byte[]> segments = setSegments(0x5001);
            ends.raw().send(segments.getFirst(), ends.server().lid());
            ends.raw().expectStallAborted();
            assertNull(ends.received().poll(300, TimeUnit.MILLISECONDS));
            assertEquals(1, ends.server().engine.failedRequestTransfers());
        }
    }

    @Test
    void theServerAbortsASegmentPastTheWindowForgetsATransferItsSenderAbortsAndAcknowledgesAResentLastSegment(Fabric fabric) throws Exception {
        try (RawToServer ends = new RawToServer(fabric)) {
            List<byte[]> first = setSegments(0x5002);
            ends.raw().send(first.get(0), ends.server().lid());
            assertEquals(1, Rmpp.header(ends.raw().nextControl()).data1());
            byte[] far = first.get(1).clone();
            Rmpp.header(far).data1(RmppReceiver.WINDOW + 5);
            ends.raw().send(far, ends.server().lid());
            RmppHeader abort = Rmpp.header(ends.raw().nextControl());
            assertEquals(Rmpp.TYPE_ABORT, abort.rmppType());
            assertEquals(Rmpp.STATUS_S2B, abort.rmppStatus());

            List<byte[]> second = setSegments(0x5003);
            ends.raw().send(second.get(0), ends.server().lid());
            assertEquals(1, Rmpp.header(ends.raw().nextControl()).data1());
            ends.raw().send(second.get(1), ends.server().lid());
            ends.raw().send(Rmpp.control(second.get(0), false, Rmpp.TYPE_ABORT, Rmpp.STATUS_TMR, 0, 0), ends.server().lid());
            ends.raw().send(second.get(2), ends.server().lid());
            assertNull(ends.received().poll(500, TimeUnit.MILLISECONDS), "neither transfer was delivered");
            assertEquals(2, ends.server().engine.failedRequestTransfers());

            List<byte[]> third = setSegments(0x5004);
            ends.raw().send(third.get(0), ends.server().lid());
            assertEquals(1, Rmpp.header(ends.raw().nextControl()).data1());
            for (byte[] segment : third.subList(1, third.size())) {
                ends.raw().send(segment, ends.server().lid());
            }
            RmppHeader last = Rmpp.header(ends.raw().nextControl());
            assertEquals(JOURNAL_SEGMENTS, last.data1(), "the last segment acknowledged");
            assertEquals(new Journal().fill(0x44), ends.received().poll(10, TimeUnit.SECONDS), "a whole transfer still gets through");
            ends.raw().send(third.getLast(), ends.server().lid());
            RmppHeader again = Rmpp.header(ends.raw().nextControl());
            assertEquals(Rmpp.TYPE_ACK, again.rmppType(), "the last segment resent (our ACK lost) is acknowledged again");
            assertEquals(JOURNAL_SEGMENTS, again.data1());
            assertNull(ends.received().poll(300, TimeUnit.MILLISECONDS), "and not delivered twice");
        }
    }

    @Test
    void theServerStopsTransfersBeyondItsLimit(Fabric fabric) throws Exception {
        try (RawToServer ends = new RawToServer(fabric)) {
            ends.server().engine.requestSegmentTimeouts(Duration.ofSeconds(5), 0);
            for (int i = 0; i <= MadEngine.MAX_REQUEST_TRANSFERS; i++) {
                ends.raw().send(setSegments(0x6000 + i).getFirst(), ends.server().lid());
            }
            int acks = 0;
            byte[] stop = null;
            for (int i = 0; i <= MadEngine.MAX_REQUEST_TRANSFERS; i++) {
                byte[] control = ends.raw().nextControl();
                if (Rmpp.header(control).rmppType() == Rmpp.TYPE_ACK) {
                    acks++;
                } else {
                    stop = control;
                }
            }
            assertEquals(MadEngine.MAX_REQUEST_TRANSFERS, acks, "every transfer within the limit was started");
            assertEquals(Rmpp.TYPE_STOP, Rmpp.header(stop).rmppType(), "the sender of one more is told to stop");
            assertEquals(1, Rmpp.header(stop).rmppStatus(), "resources exhausted");
            assertEquals(0x6000 + MadEngine.MAX_REQUEST_TRANSFERS, Bits.u32(stop, 12), "the one past the limit");
        }
    }

    @Test
    void theClientAbortsARequestItsReceiverNeverAcknowledges(Fabric fabric) throws Exception {
        try (SimAgent client = new SimAgent(fabric, "node01 HCA-1");
                RawPeer raw = new RawPeer(fabric, "node04 HCA-1")) {
            IBPath path = client.gmpPath(raw.lid(), 1);
            Journal journal = (Journal) new Journal().fill(3);
            CompletableFuture<Journal> set = CompletableFuture.supplyAsync(() -> client.mt.vendSet(journal, TestVendorAttributes.OUI, path, 0));
            List<RmppHeader> seen = new ArrayList<>();
            RmppHeader h;
            do {
                h = Rmpp.header(raw.next(m -> Rmpp.isActive(m, m.length)));
                seen.add(h);
            } while (h.rmppType() != Rmpp.TYPE_ABORT);
            assertEquals(3, seen.size(), "segment 1, resent once, then ABORT");
            assertTrue(seen.subList(0, seen.size() - 1).stream().allMatch(s -> s.rmppType() == Rmpp.TYPE_DATA && s.data1() == 1));
            assertEquals(Rmpp.STATUS_TMR, h.rmppStatus());
            try {
                set.get(20, TimeUnit.SECONDS);
                throw new AssertionError("the Set did not fail");
            } catch (java.util.concurrent.ExecutionException e) {
                MadException m = assertInstanceOf(MadTimeoutException.class, e.getCause());
                assertTrue(m.getMessage().contains("segment 1 of " + JOURNAL_SEGMENTS + " unacknowledged"), m.getMessage());
            }
        }
    }

    /** A Journal server at node03 that does not answer, and a raw peer at node04 sending it segments by hand. */
    private record RawToServer(SimAgent server, RawPeer raw, BlockingQueue<Journal> received) implements AutoCloseable {
        RawToServer(Fabric fabric, BlockingQueue<Journal> received) {
            this(journalServer(fabric, "node03 HCA-1", received, false), new RawPeer(fabric, "node04 HCA-1"), received);
        }

        RawToServer(Fabric fabric) {
            this(fabric, new LinkedBlockingQueue<>());
        }

        @Override
        public void close() {
            try (server) {
                raw.close();
            }
        }
    }

    /** A server taking Journal Sets: it records each, and answers with it when {@code answer}. */
    static SimAgent journalServer(Fabric fabric, String node, BlockingQueue<Journal> received, boolean answer) {
        SimAgent server = new SimAgent(fabric, node);
        server.mt.registerServer(VENDOR_CLASS, 1, SET, TestVendorAttributes.OUI);
        return server.serve((agent, request) -> {
            Journal journal = request.attribute(Journal.class);
            received.add(journal);
            if (answer) {
                agent.mt.sendReply(request, journal);
            }
        });
    }

    /** The RMPP segments of a Journal Set with TID {@code tid}, the attribute filled with seed 0x44. */
    static List<byte[]> setSegments(long tid) {
        Journal journal = (Journal) new Journal().fill(0x44);
        byte[] transfer = new byte[MadDecoder.dataOffset(VENDOR_CLASS) + journal.size()];
        transfer[0] = Mad.BASE_VERSION;
        transfer[1] = (byte) VENDOR_CLASS;
        transfer[2] = 1;
        transfer[3] = Mad.METHOD_SET;
        Bits.u64(transfer, 8, tid);
        Bits.u16(transfer, 16, journal.attributeId());
        new VendorOuiFormat(transfer, 0).oui(TestVendorAttributes.OUI);
        journal.pack(transfer, MadDecoder.dataOffset(VENDOR_CLASS));
        return Rmpp.segments(Arrays.copyOf(transfer, transfer.length));
    }
}

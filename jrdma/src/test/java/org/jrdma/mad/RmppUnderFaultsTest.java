package org.jrdma.mad;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.jrdma.iba.wire.Bits;
import org.jrdma.iba.Mad;
import org.jrdma.iba.mad.RmppHeader;
import org.jrdma.iba.sa.SaNodeRecord;
import org.jrdma.mad.sim.IbsimClient;
import org.jrdma.path.IBPath;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.Topology;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;

/**
 * RMPP under faults, over ibsim with OpenSM up: an 84-segment SA table while a tenth of the
 * MADs each way are lost ends whole or in a clean {@link MadException}, and 10,000 transfers
 * aborted mid-way, as responses and as requests, leave no state behind in either engine
 * ({@link MadEngine#openTransactions()}). OpenSM behind ibsim cannot send multi-packet answers,
 * so the tables come from a jrdma agent serving SA GetTable with as many NodeRecords as the
 * request's LID says. Two fixes came out of these: the sender resends as soon as the receiver
 * acknowledges the same segment again, and the receiver of a response acknowledges again a
 * segment that comes after the transfer ended whole; before them 1 of 20 tables of 168 segments
 * got through (with 270 ms and 3 resends), after them 20 of 20.
 */
class RmppUnderFaultsTest {
    private static final int ABORTED = 10_000;
    /** The wait for each MAD or segment, both ends, and the tries: enough for a loaded machine. */
    private static final Duration PATIENCE = Duration.ofMillis(500);
    private static final int RETRIES = 5;
    /** 150 NodeRecords of 112 bytes: 84 segments of 200 bytes. */
    private static final int RECORDS = 150;
    private static final int TRANSFERS = 10;

    @Test
    void aLargeTableUnderTenPercentLossEndsWholeOrInACleanFailure() {
        try (Fabric fabric = Fabric.start(Topology.bundled("fat-tree"), Fabric.Options.defaults().withSweepSeconds(0));
                SimAgent server = new SimAgent(fabric, "node03 HCA-1");
                SimAgent client = new SimAgent(fabric, "node01 HCA-1")) {
            server.mt.registerServer(Mad.CLASS_SUBN_ADM, RmppTest.SA_VERSION, 1L << Mad.METHOD_GET_TABLE, 0);
            server.serve((agent, request) -> agent.mt.withTimeouts(PATIENCE, RETRIES)
                    .sendReply(request, RmppTest.records(((SaNodeRecord) request.attribute().orElseThrow()).lid())));
            fabric.error("node01 HCA-1", 1, 10);    // a tenth of the segments lost
            fabric.error("node03 HCA-1", 1, 10);    // and of the requests and ACKs
            try {
                transfers(client, server);
            } finally {
                fabric.error("node01 HCA-1", 1, 0); // ibsim loses the agents' DISCONNECT too otherwise
                fabric.error("node03 HCA-1", 1, 0);
            }
        }
    }

    /** Tables of {@value #RECORDS} NodeRecords read by {@code client} from {@code server}, each whole or a clean failure. */
    private static void transfers(SimAgent client, SimAgent server) {
        IBPath toServer = client.gmpPath(server.lid(), RETRIES);
        MadTransactor patient = client.mt.withTimeouts(PATIENCE, RETRIES);
        int whole = 0;
        List<String> failures = new ArrayList<>();
        long start = System.nanoTime();
        for (int i = 0; i < TRANSFERS; i++) {
            long t = System.nanoTime();
            try {
                assertEquals(RmppTest.records(RECORDS), patient.subnAdmGetTable(new SaNodeRecord().lid(RECORDS),
                        SaNodeRecord.LID_COMPONENT_MASK, toServer));
                whole++;
            } catch (MadException e) {
                assertTrue(e.getMessage().contains("RMPP") || e instanceof MadTimeoutException, e.getMessage());
                failures.add(String.format("transfer %d after %d ms: %s", i, (System.nanoTime() - t) / 1_000_000,
                        e.getMessage()));
            }
            assertTrue(System.nanoTime() - t < Duration.ofSeconds(60).toNanos(), "transfer " + i + " took too long");
        }
        System.out.printf("84-segment tables under 10 %% loss: %d whole, %d failed cleanly, %.1f s%n", whole,
                failures.size(), (System.nanoTime() - start) / 1e9);
        assertTrue(whole >= TRANSFERS - 2, whole + " of " + TRANSFERS + " whole; the failures:\n"
                + String.join("\n", failures));
        assertEquals(0, client.engine.openTransactions());
        awaitIdle(server.engine);
    }

    /** A client's table read whose response the sender aborts after segment 1, 10,000 times: each a clean failure, nothing kept. */
    @Test
    @SimulatedFabric(topology = "two-switch")
    void tenThousandAbortedResponsesLeaveNoState(Fabric fabric) throws Exception {
        try (RawPeer raw = new RawPeer(fabric, "node04 HCA-1");
                SimAgent client = new SimAgent(fabric, "node01 HCA-1")) {
            IBPath path = client.patientPath(raw.lid()).copy(b -> b.retries(0));
            CompletableFuture<Integer> reads = CompletableFuture.supplyAsync(() -> {
                int aborted = 0;
                for (int i = 0; i < ABORTED; i++) {
                    try {
                        client.mt.subnAdmGetTable(new SaNodeRecord(), 0, path);
                    } catch (MadException e) {
                        assertTrue(e.getMessage().contains("the sender aborted the RMPP transfer after 1 segments"), e.getMessage());
                        aborted++;
                    }
                }
                return aborted;
            });
            long start = System.nanoTime();
            for (int i = 0; i < ABORTED; i++) {
                IbsimClient.SimPacket request = raw.nextRequest();
                byte[] first = raw.segments(request, 40).getFirst();
                raw.sendTo(request, first);
                assertEquals(Rmpp.TYPE_ACK, Rmpp.header(raw.nextControl()).rmppType());
                raw.sendTo(request, Rmpp.control(first, false, Rmpp.TYPE_ABORT, Rmpp.STATUS_TMR, 0, 0));
            }
            assertEquals(ABORTED, reads.get(60, TimeUnit.SECONDS));
            System.out.printf("%d aborted responses in %.1f s%n", ABORTED, (System.nanoTime() - start) / 1e9);
            assertEquals(0, client.engine.openTransactions());
        }
    }

    /** A multi-segment request its sender aborts after segment 1, 10,000 times: none delivered, nothing kept by the server. */
    @Test
    @SimulatedFabric(topology = "two-switch")
    void tenThousandAbortedRequestsLeaveNoState(Fabric fabric) {
        try (SimAgent server = RmppRequestTest.journalServer(fabric, "node03 HCA-1", new java.util.concurrent.LinkedBlockingQueue<>(), false);
                RawPeer raw = new RawPeer(fabric, "node04 HCA-1")) {
            long start = System.nanoTime();
            for (int i = 0; i < ABORTED; i++) {
                List<byte[]> segments = RmppRequestTest.setSegments(0x7000_0000L + i);
                raw.send(segments.getFirst(), server.lid());
                byte[] ack = raw.nextControl();
                assertEquals(Rmpp.TYPE_ACK, Rmpp.header(ack).rmppType());
                raw.send(Rmpp.control(segments.getFirst(), false, Rmpp.TYPE_ABORT, Rmpp.STATUS_TMR, 0, 0), server.lid());
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (server.engine.failedRequestTransfers() < ABORTED && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            System.out.printf("%d aborted requests in %.1f s%n", ABORTED, (System.nanoTime() - start) / 1e9);
            assertEquals(ABORTED, server.engine.failedRequestTransfers());
            awaitIdle(server.engine);
        }
    }

    /**
     * A receiver that waited in vain for the segments after one acknowledges that one again: the
     * sender resends from the next at once, not after its own timeout (5 s here), by which time a
     * receiver with a shorter one has given up. Under loss this is what gets a long transfer through.
     */
    @Test
    @SimulatedFabric(topology = "two-switch")
    void theSenderResendsAtOnceWhenTheReceiverAcknowledgesTheSameSegmentAgain(Fabric fabric) {
        try (SimAgent server = new SimAgent(fabric, "node03 HCA-1");
                RawPeer raw = new RawPeer(fabric, "node02 HCA-1")) {
            server.mt.registerServer(Mad.CLASS_SUBN_ADM, RmppTest.SA_VERSION, 1L << Mad.METHOD_GET_TABLE, 0);
            server.serve((agent, request) -> {
                agent.mt.withTimeouts(Duration.ofSeconds(5), 1).sendReply(request, RmppTest.records(40));
            });
            long tid = raw.sendGetTable(server.lid());
            Predicate<byte[]> ofTransfer = m -> (int) Bits.u32(m, 12) == (int) tid;
            byte[] first = raw.next(ofTransfer);
            raw.send(Rmpp.control(first, true, Rmpp.TYPE_ACK, 0, 1, 3), server.lid());
            for (int segment = 2; segment <= 3; segment++) {
                assertEquals(segment, Rmpp.header(raw.next(ofTransfer)).data1(), "the window the ACK opened");
            }
            long start = System.nanoTime();
            raw.send(Rmpp.control(first, true, Rmpp.TYPE_ACK, 0, 1, 3), server.lid());
            assertEquals(2, Rmpp.header(raw.next(ofTransfer)).data1(), "resent from the segment after the one acknowledged again");
            assertEquals(3, Rmpp.header(raw.next(ofTransfer)).data1());
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(millis < 2_000, "resent after " + millis + " ms, not after the sender's 5 s timeout");
            raw.send(Rmpp.control(first, true, Rmpp.TYPE_ACK, 0, 23, 23), server.lid()); // all 23 segments: the transfer ends
            awaitIdle(server.engine);
        }
    }

    /**
     * A response received whole whose last segment comes again (the responder missed our last
     * ACK) is acknowledged again, so the responder ends at once instead of resending until its
     * retries run out, answering nothing else meanwhile.
     */
    @Test
    @SimulatedFabric(topology = "two-switch")
    void aResentLastSegmentOfAResponseReceivedWholeIsAcknowledgedAgain(Fabric fabric) throws Exception {
        try (RawPeer raw = new RawPeer(fabric, "node04 HCA-1");
                SimAgent client = new SimAgent(fabric, "node01 HCA-1")) {
            IBPath path = client.patientPath(raw.lid());
            CompletableFuture<List<SaNodeRecord>> fetch = CompletableFuture.supplyAsync(
                    () -> client.mt.subnAdmGetTable(new SaNodeRecord(), 0, path));
            IbsimClient.SimPacket request = raw.nextRequest();
            List<byte[]> segments = raw.segments(request, 3);
            assertEquals(2, segments.size());
            raw.sendTo(request, segments.get(0));
            assertEquals(1, Rmpp.header(raw.nextControl()).data1());
            raw.sendTo(request, segments.get(1));
            assertEquals(2, Rmpp.header(raw.nextControl()).data1());
            assertEquals(RmppTest.records(3), fetch.get(10, TimeUnit.SECONDS));

            raw.sendTo(request, segments.get(1));
            RmppHeader again = Rmpp.header(raw.nextControl());
            assertEquals(Rmpp.TYPE_ACK, again.rmppType());
            assertEquals(2, again.data1(), "the last segment acknowledged again");
            assertEquals(0, client.engine.openTransactions());
        }
    }

    /** Waits (10 s at most) for an engine to end what it was doing, then checks it holds nothing. */
    private static void awaitIdle(MadEngine engine) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (engine.openTransactions() > 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertEquals(0, engine.openTransactions());
    }
}

package org.jrdma.mad;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jrdma.iba.Guid;
import org.jrdma.iba.Mad;
import org.jrdma.iba.mad.RmppHeader;
import org.jrdma.iba.sa.SaNodeRecord;
import org.jrdma.iba.wire.Bits;
import org.jrdma.mad.sim.IbsimClient;
import org.jrdma.path.IBPath;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;

/**
 * RMPP (IBA 13.6) done by jrdma between agents on a simulated fabric: ibsim relays single MADs,
 * so a reply longer than one MAD is segmented, windowed and acknowledged by jrdma at both ends.
 * A jrdma server at node03 answers SA-like GetTables and a large vendor attribute; a client at
 * node01 fetches them. The protocol's error paths are driven by a raw ibsim client (no engine)
 * at node04 or node02 playing the other end, sending exactly the segments a test needs.
 */
@SimulatedFabric(topology = "two-switch")
class RmppTest {
    static final int SA_VERSION = 2;
    private static final long GET_TABLE = 1L << Mad.METHOD_GET_TABLE;

    @Test
    void anSaTableOfManySegmentsBetweenTwoJrdmaAgents(Fabric fabric) throws Exception {
        AtomicInteger segments = new AtomicInteger();
        AtomicInteger acks = new AtomicInteger();
        try (SimAgent server = tableServer(fabric, "node03 HCA-1");
                SimAgent client = new SimAgent(fabric, "node01 HCA-1")) {
            server.engine.tracer(new MadTracer() {
                @Override
                public void sent(byte[] mad, MadAddress to) {
                    segments.incrementAndGet();
                }
            });
            client.engine.tracer(new MadTracer() {
                @Override
                public void sent(byte[] mad, MadAddress to) {
                    if (Rmpp.isActive(mad, mad.length) && Rmpp.header(mad).rmppType() == Rmpp.TYPE_ACK) {
                        acks.incrementAndGet();
                    }
                }
            });
            IBPath toServer = client.patientPath(server.lid());
            List<SaNodeRecord> table = client.mt.subnAdmGetTable(new SaNodeRecord().lid(300), SaNodeRecord.LID_COMPONENT_MASK, toServer);
            assertEquals(records(300), table);
            assertEquals(168, segments.get(), "300 records of 112 bytes in 200-byte segments");
            assertEquals(7, acks.get(), "ACKs of segments 1, 33, 65, 97, 129, 161 and 168");

            List<CompletableFuture<List<SaNodeRecord>>> parallel = new ArrayList<>();
            for (int n = 1; n <= 6; n++) {
                int count = n * 25;
                parallel.add(CompletableFuture.supplyAsync(() -> client.mt.subnAdmGetTable(new SaNodeRecord().lid(count),
                        SaNodeRecord.LID_COMPONENT_MASK, toServer)));
            }
            for (int n = 1; n <= 6; n++) {
                assertEquals(records(n * 25), parallel.get(n - 1).get(30, TimeUnit.SECONDS), "six transfers at once, each whole");
            }
            assertEquals(List.of(), client.mt.subnAdmGetTable(new SaNodeRecord().lid(0), SaNodeRecord.LID_COMPONENT_MASK, toServer),
                    "no records: one segment holding the SA header alone");
            assertEquals(records(1), client.mt.subnAdmGetTable(new SaNodeRecord().lid(1), SaNodeRecord.LID_COMPONENT_MASK, toServer));
            MadClassException invalid = assertThrows(MadClassException.class, () -> client.mt.subnAdmGetTable(new SaNodeRecord(), 0, toServer));
            assertEquals(2, invalid.classCode(), "the server's sendErrorException answered with its exception's status");
        }
    }

    @Test
    void aVendorAttributeLongerThanOneMad(Fabric fabric) {
        try (SimAgent server = new SimAgent(fabric, "node03 HCA-1");
                SimAgent client = new SimAgent(fabric, "node01 HCA-1")) {
            server.mt.registerServer(Mad.CLASS_VENDOR_RANGE2_START, 1, 1L << Mad.METHOD_GET, TestVendorAttributes.OUI);
            server.serve((agent, request) -> agent.mt.sendReply(request,
                    new TestVendorAttributes.Log().fill((int) request.attributeModifier())));
            IBPath toServer = client.patientPath(server.lid());
            assertEquals(new TestVendorAttributes.Log().fill(4),
                    client.mt.vendGet(TestVendorAttributes.Log.class, TestVendorAttributes.OUI, toServer, 4));
        }
    }

    @Test
    void theReceiverAbortsASegmentThatBreaksTheProtocol(Fabric fabric) throws Exception {
        try (RawPeer raw = new RawPeer(fabric, "node04 HCA-1");
                SimAgent client = new SimAgent(fabric, "node01 HCA-1")) {
            CompletableFuture<List<SaNodeRecord>> fetch = fetchAsync(client, raw.lid());
            IbsimClient.SimPacket request = raw.nextRequest();
            byte[] first = raw.segments(request, 40).getFirst();
            Rmpp.header(first).rmppFlags(Rmpp.FLAG_ACTIVE); // segment 1 without its First flag
            raw.sendTo(request, first);
            byte[] abort = raw.nextControl();
            assertEquals(Rmpp.TYPE_ABORT, Rmpp.header(abort).rmppType());
            assertEquals(Rmpp.STATUS_BAD_SEG, Rmpp.header(abort).rmppStatus());
            assertEquals(Mad.METHOD_GET_TABLE, abort[3], "the receiver's packets carry the request method");
            MadException e = failure(fetch);
            assertTrue(e.getMessage().contains("aborted (inconsistent first and segment number): the first segment is numbered 1 with flags 0x1"),
                    e.getMessage());
        }
    }

    @Test
    void theReceiverAcknowledgesAgainThenAbortsASenderThatStalls(Fabric fabric) throws Exception {
        try (RawPeer raw = new RawPeer(fabric, "node04 HCA-1");
                SimAgent client = new SimAgent(fabric, "node01 HCA-1")) {
            CompletableFuture<List<SaNodeRecord>> fetch = fetchAsync(client, raw.lid());
            IbsimClient.SimPacket request = raw.nextRequest();
            raw.sendTo(request, raw.segments(request, 40).getFirst());
            raw.expectStallAborted();
            MadException e = failure(fetch);
            assertInstanceOf(MadTimeoutException.class, e);
            assertTrue(e.getMessage().contains("stalled after segment 1"), e.getMessage());
        }
    }

    @Test
    void theReceiverAcknowledgesADuplicateAndStopsWhenTheSenderAborts(Fabric fabric) throws Exception {
        try (RawPeer raw = new RawPeer(fabric, "node04 HCA-1");
                SimAgent client = new SimAgent(fabric, "node01 HCA-1")) {
            CompletableFuture<List<SaNodeRecord>> fetch = fetchAsync(client, raw.lid());
            IbsimClient.SimPacket request = raw.nextRequest();
            List<byte[]> segments = raw.segments(request, 40);
            raw.sendTo(request, segments.get(0));
            assertEquals(1, Rmpp.header(raw.nextControl()).data1());
            raw.sendTo(request, segments.get(1));
            raw.sendTo(request, segments.get(1));
            RmppHeader again = Rmpp.header(raw.nextControl());
            assertEquals(Rmpp.TYPE_ACK, again.rmppType());
            assertEquals(2, again.data1(), "a duplicate is acknowledged with the last segment in order");
            raw.sendTo(request, Rmpp.control(segments.get(0), false, Rmpp.TYPE_ABORT, Rmpp.STATUS_TMR, 0, 0));
            MadException e = failure(fetch);
            assertTrue(e.getMessage().contains("the sender aborted the RMPP transfer after 2 segments: too many retries"), e.getMessage());
        }
    }

    @Test
    void theSenderResendsAWindowThenAbortsAReceiverThatNeverAcknowledges(Fabric fabric) throws Exception {
        BlockingQueue<MadException> replyFailures = new LinkedBlockingQueue<>();
        try (SimAgent server = new SimAgent(fabric, "node03 HCA-1");
                RawPeer raw = new RawPeer(fabric, "node02 HCA-1")) {
            server.mt.registerServer(Mad.CLASS_SUBN_ADM, SA_VERSION, GET_TABLE, 0);
            server.serve((agent, request) -> {
                try {
                    agent.mt.withTimeouts(Duration.ofMillis(300), 1).sendReply(request, records(40));
                } catch (MadException e) {
                    replyFailures.add(e);
                }
            });
            long tid = raw.sendGetTable(server.lid());
            List<byte[]> seen = new ArrayList<>();
            byte[] abort = null;
            while (abort == null) {
                byte[] mad = raw.next(m -> (int) Bits.u32(m, 12) == (int) tid);
                if (Rmpp.header(mad).rmppType() == Rmpp.TYPE_ABORT) {
                    abort = mad;
                } else {
                    seen.add(mad);
                }
            }
            assertEquals(2, seen.size(), "segment 1, then once more after the timeout (one retry)");
            assertTrue(seen.stream().allMatch(s -> Rmpp.header(s).data1() == 1));
            assertEquals(Rmpp.STATUS_TMR, Rmpp.header(abort).rmppStatus());
            MadException e = replyFailures.poll(10, TimeUnit.SECONDS);
            assertInstanceOf(MadTimeoutException.class, e);
            assertTrue(e.getMessage().contains("segment 1 of 23 unacknowledged after 2 attempts of 300 ms"), e.getMessage());
        }
    }

    @Test
    void theSenderStopsWhenTheReceiverAbortsMidTransfer(Fabric fabric) throws Exception {
        BlockingQueue<MadException> replyFailures = new LinkedBlockingQueue<>();
        try (SimAgent server = new SimAgent(fabric, "node03 HCA-1");
                RawPeer raw = new RawPeer(fabric, "node02 HCA-1")) {
            server.mt.registerServer(Mad.CLASS_SUBN_ADM, SA_VERSION, GET_TABLE, 0);
            server.serve((agent, request) -> {
                try {
                    agent.mt.sendReply(request, records(40));
                } catch (MadException e) {
                    replyFailures.add(e);
                }
            });
            long tid = raw.sendGetTable(server.lid());
            byte[] first = raw.next(m -> (int) Bits.u32(m, 12) == (int) tid);
            raw.send(Rmpp.control(first, true, Rmpp.TYPE_ACK, 0, 1, 3), server.lid());
            for (int segment = 2; segment <= 3; segment++) {
                assertEquals(segment, Rmpp.header(raw.next(m -> (int) Bits.u32(m, 12) == (int) tid)).data1(), "the window the ACK opened");
            }
            raw.send(Rmpp.control(first, true, Rmpp.TYPE_STOP, 1, 0, 0), server.lid());
            MadException e = replyFailures.poll(10, TimeUnit.SECONDS);
            assertNotNull(e);
            assertTrue(e.getMessage().contains("stopped the RMPP transfer at segment 1 of 23: resources exhausted"), e.getMessage());
        }
    }

    /**
     * A jrdma SA-like server answering a NodeRecord GetTable with as many records as the request's
     * LID says, and a request whose ComponentMask selects anything else with Request Invalid.
     */
    private static SimAgent tableServer(Fabric fabric, String node) {
        SimAgent server = new SimAgent(fabric, node);
        server.mt.registerServer(Mad.CLASS_SUBN_ADM, SA_VERSION, GET_TABLE, 0);
        return server.serve((agent, request) -> {
            if (request.componentMask() != SaNodeRecord.LID_COMPONENT_MASK) {
                throw new MadClassException("only LIDs are selected here", Mad.CLASS_SUBN_ADM, Mad.STATUS_SA_REQ_INVALID);
            }
            agent.mt.sendReply(request, records(((SaNodeRecord) request.attribute().orElseThrow()).lid()));
        });
    }

    /** {@code count} distinct NodeRecords. */
    static List<SaNodeRecord> records(int count) {
        List<SaNodeRecord> records = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            SaNodeRecord r = new SaNodeRecord().lid(i);
            r.nodeInfo().nodeGuid(new Guid(0x0002c90300100000L + i)).numPorts(i % 36);
            r.nodeDescription().nodeString("node-" + i);
            records.add(r);
        }
        return records;
    }

    private static CompletableFuture<List<SaNodeRecord>> fetchAsync(SimAgent client, int lid) {
        IBPath path = client.gmpPath(lid, 1);
        return CompletableFuture.supplyAsync(() -> client.mt.subnAdmGetTable(new SaNodeRecord(), 0, path));
    }

    private static MadException failure(CompletableFuture<?> fetch) throws Exception {
        try {
            fetch.get(20, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            return assertInstanceOf(MadException.class, e.getCause());
        }
        throw new AssertionError("the transfer did not fail");
    }
}

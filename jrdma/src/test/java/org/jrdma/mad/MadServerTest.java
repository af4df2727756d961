package org.jrdma.mad;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jrdma.iba.Iba;
import org.jrdma.iba.Mad;
import org.jrdma.iba.cm.CmReq;
import org.jrdma.iba.dm.DmPrepareToTest;
import org.jrdma.iba.dm.DmTestDeviceOnce;
import org.jrdma.iba.mad.MadClassPortInfo;
import org.jrdma.iba.wire.Bits;
import org.jrdma.path.IBPath;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;

/**
 * jrdma as a MAD agent: servers attached at node03 and node04 of a simulated fabric answer the
 * RPCs a client at node01 makes, ibsim relaying both ways (it hands QP1 requests to the client
 * that declared itself its port's SM, and routes responses back by the client number in the TID).
 * Busy and redirect replies, which no stock peer sends, come from these servers.
 */
@SimulatedFabric(topology = "two-switch")
class MadServerTest {
    private static final int VENDOR = Mad.CLASS_VENDOR_RANGE1_START;
    private static final int VENDOR_OUI = Mad.CLASS_VENDOR_RANGE2_START;
    private static final long GET_SET = 1L << Mad.METHOD_GET | 1L << Mad.METHOD_SET;

    @Test
    void vendorGetAndSetInBothVendorRanges(Fabric fabric) {
        try (SimAgent server = new SimAgent(fabric, "node03 HCA-1");
                SimAgent client = new SimAgent(fabric, "node01 HCA-1")) {
            server.mt.registerServer(VENDOR, 1, GET_SET, 0);
            server.mt.registerServer(VENDOR_OUI, 1, GET_SET, TestVendorAttributes.OUI);
            server.serve((agent, request) -> {
                if (request.mgmtClass() == VENDOR && request.method() == Mad.METHOD_GET) {
                    agent.mt.sendReply(request, new TestVendorAttributes.Counters().fill((int) request.attributeModifier()));
                } else if (request.mgmtClass() == VENDOR) {
                    agent.mt.sendReply(request, request.attribute(TestVendorAttributes.Counters.class));
                } else {
                    agent.mt.sendReply(request, new TestVendorAttributes.Settings().fill((int) request.attributeModifier()));
                }
            });
            IBPath toServer = client.patientPath(server.lid());
            assertEquals(new TestVendorAttributes.Counters().fill(5), client.mt.vendGet(TestVendorAttributes.Counters.class, toServer, 5));
            TestVendorAttributes.Blob written = new TestVendorAttributes.Counters().fill(9);
            assertEquals(written, client.mt.vendSet((TestVendorAttributes.Counters) written, toServer, 0));
            assertEquals(new TestVendorAttributes.Settings().fill(3),
                    client.mt.vendGet(TestVendorAttributes.Settings.class, TestVendorAttributes.OUI, toServer, 3));
            MadException otherOui = assertThrows(MadException.class,
                    () -> client.mt.vendGet(TestVendorAttributes.Settings.class, 0x123456, toServer, 3));
            assertEquals(Mad.STATUS_UNSUP_METHOD_ATTR_COMBO, otherOui.status().orElseThrow(),
                    "no agent serves that OUI, so the server's transport answers as the kernel would: " + otherOui.getMessage());
        }
    }

    @Test
    void baseboardDeviceAndCommunicationManagementRpcs(Fabric fabric) {
        BlockingQueue<IncomingRequest> sends = new LinkedBlockingQueue<>();
        try (SimAgent server = new SimAgent(fabric, "node03 HCA-1");
                SimAgent client = new SimAgent(fabric, "node01 HCA-1")) {
            server.mt.registerServer(Mad.CLASS_BM, 1, GET_SET, 0);
            server.mt.registerServer(Mad.CLASS_DEVICE_MGMT, 1, GET_SET, 0);
            server.mt.registerServer(Mad.CLASS_CM, 2, 1L << Mad.METHOD_GET | 1L << Mad.METHOD_SEND, 0);
            server.serve((agent, request) -> {
                if (request.method() == Mad.METHOD_SEND) {
                    sends.add(request);
                } else if (request.attributeId() == MadClassPortInfo.ATTRIBUTE_ID && request.method() == Mad.METHOD_GET) {
                    agent.mt.sendReply(request, new MadClassPortInfo().baseVersion(1).classVersion(request.header().classVersion())
                            .capabilityMask(request.mgmtClass()));
                } else {
                    agent.mt.sendReply(request, request.attribute().orElseThrow());
                }
            });
            IBPath toServer = client.patientPath(server.lid());
            assertEquals(Mad.CLASS_BM, client.mt.bmGet(MadClassPortInfo.class, toServer, 0).capabilityMask());
            MadClassPortInfo cpi = new MadClassPortInfo().respTimeValue(17);
            assertEquals(cpi, client.mt.bmSet(cpi, toServer, 0));
            assertEquals(Mad.CLASS_DEVICE_MGMT, client.mt.devMgtGet(MadClassPortInfo.class, toServer, 0).capabilityMask());
            byte[] pattern = new byte[DmPrepareToTest.SIZE];
            Arrays.fill(pattern, (byte) 0x5A);
            DmPrepareToTest prepare = new DmPrepareToTest().unpack(pattern, 0);
            assertEquals(prepare, client.mt.devMgtSet(prepare, toServer, 2));
            MadClassPortInfo cm = client.mt.commMgtGet(MadClassPortInfo.class, toServer, 0);
            assertEquals(Mad.CLASS_CM, cm.capabilityMask());
            assertEquals(2, cm.classVersion());

            byte[] sent = client.mt.commMgtSend(new CmReq().localCommunicationId(0x1234).serviceId(0x1000), toServer, 0);
            IncomingRequest req = sends.poll(5, TimeUnit.SECONDS);
            assertNotNull(req, "the REQ reached the server");
            assertEquals(CmReq.ATTRIBUTE_ID, req.attributeId());
            assertEquals(0x1234, ((CmReq) req.attribute().orElseThrow()).localCommunicationId());
            assertEquals(Bits.u32(sent, 12), req.header().transactionId() & 0xFFFF_FFFFL);
            assertEquals(client.lid(), req.path().slid(), "the received path has the sender's LID as SLID");
            assertEquals(client.lid(), req.replyPath().dlid(), "and the reply path goes back to it");
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void errorRepliesAndExceptionsReachTheRequester(Fabric fabric) {
        try (SimAgent server = new SimAgent(fabric, "node03 HCA-1");
                SimAgent client = new SimAgent(fabric, "node01 HCA-1")) {
            server.mt.registerServer(VENDOR, 1, GET_SET, 0);
            server.mt.registerServer(Mad.CLASS_DEVICE_MGMT, 1, GET_SET, 0);
            server.serve((agent, request) -> {
                switch ((int) request.attributeModifier()) {
                    case 7 -> agent.mt.sendErrorReply(request.mad(), 0x0100);
                    case 8 -> throw new MadException("no such counter", Mad.STATUS_INVALID_ATTR_OR_MODIFIER);
                    case 99 -> { } // never answered
                    default -> agent.mt.sendReply(request, new TestVendorAttributes.Counters());
                }
            });
            IBPath toServer = client.gmpPath(server.lid(), 1);
            MadClassException classError = assertThrows(MadClassException.class,
                    () -> client.mt.vendGet(TestVendorAttributes.Counters.class, toServer, 7));
            assertEquals(1, classError.classCode());
            assertEquals(VENDOR, classError.mgmtClass());
            assertEquals(7, Bits.u32(classError.reply().orElseThrow(), 20), "the request came back whole");

            MadException invalid = assertThrows(MadException.class, () -> client.mt.vendGet(TestVendorAttributes.Counters.class, toServer, 8));
            assertEquals(Mad.STATUS_INVALID_ATTR_OR_MODIFIER, invalid.status().orElseThrow());

            MadTimeoutException silence = assertThrows(MadTimeoutException.class,
                    () -> client.mt.vendGet(TestVendorAttributes.Counters.class, toServer, 99));
            assertTrue(silence.getMessage().contains("no response after 2 attempts"), silence.getMessage());

            // TestDeviceOnce allows Set only: the server's parseRequest refuses a Get.
            byte[] get = new MadCall<>(Rpc.DEV_MGT_SET, Mad.CLASS_DEVICE_MGMT, new DmTestDeviceOnce(), 0, 0, 0).request(toServer);
            get[3] = Mad.METHOD_GET;
            ReceivedMad refused = client.engine.execute(get, MadAddress.forPath(toServer, Mad.CLASS_DEVICE_MGMT), Duration.ofSeconds(2), 1);
            assertEquals(Mad.STATUS_UNSUP_METHOD_ATTR_COMBO, Bits.u16(refused.mad(), 4));

            // No agent serves class 0x0A: the transport answers a Get itself, as the kernel does.
            byte[] unserved = get.clone();
            unserved[1] = 0x0A;
            ReceivedMad unsupported = client.engine.execute(unserved, MadAddress.forPath(toServer, 0x0A), Duration.ofSeconds(2), 1);
            assertEquals(Mad.STATUS_UNSUP_METHOD_ATTR_COMBO, Bits.u16(unsupported.mad(), 4));
            assertEquals((byte) Mad.METHOD_GET_RESP, unsupported.mad()[3]);
        }
    }

    @Test
    void parseRequestNamesTheStatusToAnswerWith(Fabric fabric) {
        try (SimAgent agent = new SimAgent(fabric, "node03 HCA-1")) {
            byte[] mad = new byte[256];
            mad[0] = 2;
            mad[1] = (byte) VENDOR;
            mad[3] = Mad.METHOD_GET;
            ReceivedMad badVersion = new ReceivedMad(mad, MadAddress.gmp(1), false);
            MadException version = assertThrows(MadException.class, () -> agent.mt.parseRequest(badVersion));
            assertEquals(Mad.STATUS_BAD_VERSION, version.status().orElseThrow());
            assertEquals(1, version.path().orElseThrow().slid());

            mad[0] = 1;
            mad[3] = (byte) Mad.METHOD_GET_RESP;
            MadException response = assertThrows(MadException.class, () -> agent.mt.parseRequest(new ReceivedMad(mad, MadAddress.gmp(1), false)));
            assertTrue(response.getMessage().contains("is a response, not a request"), response.getMessage());

            byte[] table = new byte[256];
            table[0] = 1;
            table[1] = Mad.CLASS_SUBN_ADM;
            table[3] = Mad.METHOD_GET_TABLE;
            Bits.u16(table, 16, 0x0011);
            MadException undecodable = assertThrows(MadException.class,
                    () -> agent.mt.parseRequest(new ReceivedMad(table, 60, MadAddress.gmp(1), false)));
            assertEquals(Mad.STATUS_INVALID_ATTR_OR_MODIFIER, undecodable.status().orElseThrow(), undecodable.getMessage());
        }
    }

    @Test
    void aBusyResponderIsAskedAgainAndOneThatStaysBusyTimesOut(Fabric fabric) {
        Map<Long, AtomicInteger> attempts = new ConcurrentHashMap<>();
        try (SimAgent server = new SimAgent(fabric, "node03 HCA-1");
                SimAgent client = new SimAgent(fabric, "node01 HCA-1")) {
            server.mt.registerServer(VENDOR, 1, GET_SET, 0);
            server.serve((agent, request) -> {
                int attempt = attempts.computeIfAbsent(request.header().transactionId(), t -> new AtomicInteger()).incrementAndGet();
                if (attempt <= 2) {
                    agent.mt.sendErrorReply(request.mad(), Mad.STATUS_BUSY);
                } else {
                    agent.mt.sendReply(request, new TestVendorAttributes.Counters().fill(1));
                }
            });
            assertEquals(new TestVendorAttributes.Counters().fill(1),
                    client.mt.vendGet(TestVendorAttributes.Counters.class, client.patientPath(server.lid()), 0));
            assertEquals(3, attempts.values().iterator().next().get(), "two busy replies, then the answer");

            MadTimeoutException busy = assertThrows(MadTimeoutException.class,
                    () -> client.mt.vendGet(TestVendorAttributes.Counters.class, client.gmpPath(server.lid(), 1), 0));
            assertTrue(busy.getMessage().contains("the responder stayed busy after 2 attempts"), busy.getMessage());
            assertEquals(Mad.STATUS_BUSY, Bits.u16(busy.reply().orElseThrow(), 4), "it holds the last busy reply");
        }
    }

    @Test
    void aRedirectIsFollowedRememberedAndForgottenWhenTheNewAgentGoesSilent(Fabric fabric) {
        AtomicInteger asked = new AtomicInteger();
        AtomicInteger answered = new AtomicInteger();
        try (SimAgent original = new SimAgent(fabric, "node03 HCA-1");
                SimAgent client = new SimAgent(fabric, "node01 HCA-1")) {
            SimAgent redirected = redirectTarget(fabric, answered);
            int targetLid = redirected.lid();
            redirectDevMgt(original, targetLid, asked);
            IBPath toOriginal = client.patientPath(original.lid());
            IBPath quicklyToOriginal = client.gmpPath(original.lid(), 1);
            assertEquals(0x0C04, client.mt.devMgtGet(MadClassPortInfo.class, toOriginal, 0).capabilityMask(), "answered by node04");
            assertEquals(1, asked.get());
            client.mt.devMgtGet(MadClassPortInfo.class, toOriginal, 0);
            assertEquals(1, asked.get(), "the second request went to node04 at once");
            assertEquals(2, answered.get());

            redirected.close();
            MadTimeoutException silent = assertThrows(MadTimeoutException.class,
                    () -> client.mt.devMgtGet(MadClassPortInfo.class, quicklyToOriginal, 0));
            assertEquals(targetLid, silent.path().orElseThrow().dlid(), "it timed out at node04");
            try (SimAgent back = redirectTarget(fabric, answered)) {
                assertEquals(0x0C04, client.mt.devMgtGet(MadClassPortInfo.class, toOriginal, 0).capabilityMask());
                assertEquals(2, asked.get(), "after the timeout the original agent was asked again");
                assertEquals(back.lid(), targetLid);
            }
        }
    }

    /**
     * A submitted GMP ({@link MadTransactor#submit}) follows a redirection as the blocking call
     * does, its completion on a virtual thread; the next one goes to the new agent at once, its
     * completion on the receiver thread.
     */
    @Test
    void aSubmittedGmpFollowsARedirectAndRemembersIt(Fabric fabric) {
        AtomicInteger asked = new AtomicInteger();
        AtomicInteger answered = new AtomicInteger();
        try (SimAgent original = new SimAgent(fabric, "node03 HCA-1");
                SimAgent client = new SimAgent(fabric, "node01 HCA-1");
                SimAgent redirected = redirectTarget(fabric, answered)) {
            int targetLid = redirected.lid();
            redirectDevMgt(original, targetLid, asked);
            IBPath toOriginal = client.patientPath(original.lid());
            for (String thread : new String[] {"mad-async", "jrdma-mad-receiver"}) {
                CompletableFuture<MadClassPortInfo> answer = new CompletableFuture<>();
                client.mt.submit(Rpc.DEV_MGT_GET, new MadClassPortInfo(), toOriginal, 0, (cpi, failure) -> {
                    if (failure != null || !Thread.currentThread().getName().startsWith(thread)) {
                        answer.completeExceptionally(failure != null ? failure : new AssertionError(Thread.currentThread().getName()));
                    } else {
                        answer.complete(cpi);
                    }
                });
                assertEquals(0x0C04, answer.join().capabilityMask(), "answered by node04");
            }
            assertEquals(1, asked.get(), "the second request went to node04 at once");
            assertEquals(2, answered.get());
        }
    }

    /** A redirection naming only a GID is resolved to a path at the SA first (IBA 13.5.3.3). */
    @Test
    void aRedirectNamingOnlyAGidIsResolvedAtTheSa(Fabric fabric) {
        AtomicInteger answered = new AtomicInteger();
        try (SimAgent original = new SimAgent(fabric, "node03 HCA-1");
                SimAgent client = new SimAgent(fabric, "node01 HCA-1");
                SimAgent target = redirectTarget(fabric, answered)) {
            original.mt.registerServer(Mad.CLASS_BM, 1, GET_SET, 0);
            original.serve((agent, request) -> agent.mt.sendReply(request, new MadClassPortInfo().redirectGid(target.endPort.defaultGid())
                    .redirectQp(Iba.QP1).redirectQKey(Iba.IB_DEFAULT_QP1_QKEY & 0xFFFF_FFFFL), Mad.STATUS_REDIRECT));
            MadClassPortInfo answer = client.mt.bmGet(MadClassPortInfo.class, client.patientPath(original.lid()), 0);
            assertEquals(0x0C04, answer.capabilityMask());
            assertEquals(1, answered.get());
        }
    }

    /** Has {@code original} serve DevMgt by redirecting every request to QP1 at {@code targetLid}, counting them in {@code asked}. */
    private static void redirectDevMgt(SimAgent original, int targetLid, AtomicInteger asked) {
        original.mt.registerServer(Mad.CLASS_DEVICE_MGMT, 1, GET_SET, 0);
        original.serve((agent, request) -> {
            asked.incrementAndGet();
            agent.mt.sendReply(request, new MadClassPortInfo().redirectLid(targetLid).redirectQp(Iba.QP1)
                    .redirectQKey(Iba.IB_DEFAULT_QP1_QKEY & 0xFFFF_FFFFL).redirectPKey(Iba.DEFAULT_PKEY), Mad.STATUS_REDIRECT);
        });
    }

    /** A DevMgt and BM agent at node04 answering ClassPortInfo with capability mask 0x0C04. */
    private static SimAgent redirectTarget(Fabric fabric, AtomicInteger answered) {
        SimAgent target = new SimAgent(fabric, "node04 HCA-1");
        target.mt.registerServer(Mad.CLASS_DEVICE_MGMT, 1, GET_SET, 0);
        target.mt.registerServer(Mad.CLASS_BM, 1, GET_SET, 0);
        return target.serve((agent, request) -> {
            answered.incrementAndGet();
            agent.mt.sendReply(request, new MadClassPortInfo().capabilityMask(0x0C04));
        });
    }

    @Test
    void aSendIsNotAnsweredEvenWithAnError(Fabric fabric) {
        try (SimAgent agent = new SimAgent(fabric, "node03 HCA-1")) {
            byte[] send = new byte[256];
            send[0] = 1;
            send[1] = Mad.CLASS_CM;
            send[2] = 2;
            send[3] = Mad.METHOD_SEND;
            AtomicInteger sent = new AtomicInteger();
            agent.engine.tracer(new MadTracer() {
                @Override
                public void sent(byte[] mad, MadAddress to) {
                    sent.incrementAndGet();
                }
            });
            agent.mt.sendErrorException(new ReceivedMad(send, MadAddress.gmp(agent.lid()), false), new MadException("x"));
            assertEquals(0, sent.get());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> agent.mt.sendErrorReply(new ReceivedMad(send, MadAddress.gmp(agent.lid()), false), 0x1C));
            assertEquals("method 0x03 is not a request that gets a response", e.getMessage());
        }
    }

    /**
     * A server slower than its client's timeout gets each request again under the same TID
     * (IBA 13.4.6.4) while it is still answering it: the copies are dropped, so the handler runs
     * once per request and the requests after it are not queued behind answers nobody waits for.
     * Before {@link RequestsInService}, each copy was answered in turn (as RmppUnderFaultsTest
     * showed with a server 800 ms slow: 1 of 10 tables whole).
     */
    @Test
    void copiesOfARequestBeingAnsweredAreDropped(Fabric fabric) {
        AtomicInteger handled = new AtomicInteger();
        try (SimAgent server = new SimAgent(fabric, "node03 HCA-1");
                SimAgent client = new SimAgent(fabric, "node01 HCA-1")) {
            server.mt.registerServer(VENDOR, 1, GET_SET, 0);
            server.serve((agent, request) -> {
                handled.incrementAndGet();
                try {
                    Thread.sleep(700);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                agent.mt.sendReply(request, new TestVendorAttributes.Counters().fill((int) request.attributeModifier()));
            });
            MadTransactor hasty = client.mt.withTimeouts(Duration.ofMillis(250), 7);
            IBPath toServer = client.gmpPath(server.lid(), 7);
            for (int i = 1; i <= 5; i++) {
                assertEquals(new TestVendorAttributes.Counters().fill(i), hasty.vendGet(TestVendorAttributes.Counters.class, toServer, i));
            }
            assertEquals(5, handled.get(), "the handler ran once per request");
            assertTrue(server.engine.duplicateRequests() >= 5,
                    "each request came at least twice: " + server.engine.duplicateRequests() + " copies dropped");
        }
    }
}

package org.jrdma.mad;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Guid;
import org.jrdma.iba.Iba;
import org.jrdma.iba.Mad;
import org.jrdma.iba.pm.PmPortCounters;
import org.jrdma.path.IBPath;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;

/**
 * The seed's MAD layer members that {@link MadTransactorTest} and {@link MadServerTest} leave
 * out, against OpenSM and jrdma agents on a simulated fabric: the reply state of a call
 * ({@code reply_fmt}, {@code reply_path}), {@code get_request_match_key}, {@code send_reply}
 * with its modifier, status and class code, {@code register_server_fmt}, {@code get_mad_path}
 * from a string or a GUID.
 */
@SimulatedFabric(topology = "two-switch")
class SeedMadLayerTest {
    private static final Guid NODE04_PORT = Guid.parse("0002:c903:0000:1041");

    @Test
    void eachCallGetsItsOwnReplyFormatAndPath(Fabric fabric) {
        try (SimAgent a = new SimAgent(fabric, "node01 HCA-1");
                SimAgent b = new SimAgent(fabric, "node04 HCA-1");
                SimAgent c = new SimAgent(fabric, "node03 HCA-1")) {
            IBPath toB = PathResolver.getMadPath(a.mt, b.lid());
            IBPath toC = PathResolver.getMadPath(a.mt, c.lid());
            MadReply<PmPortCounters> reply = a.mt.withReply(m -> m.performanceGet(new PmPortCounters().portSelect(1), toB));
            assertEquals(1, reply.result().portSelect());
            assertEquals(b.lid(), reply.path().slid(), "reply_path: received semantics, the responder's LID");
            assertEquals(a.lid(), reply.path().dlid());
            assertEquals(Mad.CLASS_PERF_MGMT, reply.header().mgmtClass());
            assertEquals(1, reply.header().r(), "a response");
            assertEquals(Mad.METHOD_GET, reply.header().method());
            assertEquals(0, reply.status());
            assertInstanceOf(PmPortCounters.class, reply.format().attribute(), "reply_fmt decodes the reply");
            assertEquals(b.lid(), reply.path().reverse(true).dlid(), "reversed, it leads back to the responder");

            // Two threads sharing the transactor each see their own reply, never the other's.
            List<CompletableFuture<MadReply<Integer>>> calls = List.of(b, c, b, c).stream()
                    .map(to -> CompletableFuture.supplyAsync(() -> a.mt.withReply(m -> {
                        IBPath path = to == b ? toB : toC;
                        return m.performanceGet(new PmPortCounters().portSelect(1), path).portSelect() + to.lid();
                    }), r -> Thread.ofVirtual().start(r)))
                    .toList();
            for (CompletableFuture<MadReply<Integer>> call : calls) {
                MadReply<Integer> r = call.join();
                assertEquals(r.result() - 1, r.path().slid());
            }
            assertThrows(IllegalStateException.class, () -> a.mt.withReply(m -> 1), "no RPC, no reply");
        }
    }

    @Test
    void serversMatchRequestsAndAnswerWithModifierStatusAndClassCode(Fabric fabric) throws InterruptedException {
        try (SimAgent server = new SimAgent(fabric, "node03 HCA-1");
                SimAgent client = new SimAgent(fabric, "node01 HCA-1")) {
            server.mt.registerServer(TestVendorAttributes.Counters.class); // register_server_fmt: class 0x09 v1, Get and Set
            server.mt.registerServer(Mad.CLASS_VENDOR_RANGE2_START, 1, 1L << Mad.METHOD_GET, TestVendorAttributes.OUI);
            BlockingQueue<MadTransactor.RequestMatchKey> keys = new LinkedBlockingQueue<>();
            server.serve((agent, request) -> {
                keys.add(MadTransactor.requestMatchKey(request.mad().mad()));
                switch ((int) request.attributeModifier()) {
                    case 1 -> agent.mt.sendReply(request, new TestVendorAttributes.Counters().fill(1), 0x1234_5678L, 0, 0);
                    case 2 -> agent.mt.sendReply(request, new TestVendorAttributes.Counters(), 2, 0, 3);
                    case 3 -> agent.mt.sendErrorReply(request.mad(), Mad.STATUS_UNSUP_METHOD, 5);
                    default -> agent.mt.sendReply(request, new TestVendorAttributes.Settings().fill(4));
                }
            });
            IBPath toServer = client.patientPath(server.lid());
            MadReply<TestVendorAttributes.Counters> modified = client.mt.withReply(
                    m -> m.vendGet(TestVendorAttributes.Counters.class, toServer, 1));
            assertEquals(new TestVendorAttributes.Counters().fill(1), modified.result());
            assertEquals(0x1234_5678L, modified.header().attributeModifier(), "send_reply's attributeModifier");
            assertEquals(new MadTransactor.RequestMatchKey(0x09, 0x0101, 0x0010), keys.poll(5, TimeUnit.SECONDS));

            MadClassException classCode = assertThrows(MadClassException.class,
                    () -> client.mt.vendGet(TestVendorAttributes.Counters.class, toServer, 2));
            assertEquals(3, classCode.classCode(), "send_reply's class_code, in bits 8-14 of the status");
            MadClassException both = assertThrows(MadClassException.class,
                    () -> client.mt.vendGet(TestVendorAttributes.Counters.class, toServer, 3));
            assertEquals(5 << 8 | Mad.STATUS_UNSUP_METHOD, both.status().orElseThrow(), "send_error_reply's status and class_code");
            keys.clear();

            client.mt.vendGet(TestVendorAttributes.Settings.class, TestVendorAttributes.OUI, toServer, 4);
            MadTransactor.RequestMatchKey vendor = keys.poll(5, TimeUnit.SECONDS);
            assertEquals((long) TestVendorAttributes.OUI << 8 | Mad.CLASS_VENDOR_RANGE2_START, vendor.ouiClass(), "the OUI above the class");
            assertEquals(0x0101, vendor.versions());
            assertEquals(0x0011, vendor.attributeId());
            assertThrows(IllegalArgumentException.class,
                    () -> server.mt.sendReply(null, new TestVendorAttributes.Counters(), 0, 0, 0x80));
        }
    }

    @Test
    void madPathsFromAStringOrAGuidAreTheSaPathToThatPort(Fabric fabric) {
        try (SimAgent a = new SimAgent(fabric, "node01 HCA-1");
                SimAgent b = new SimAgent(fabric, "node04 HCA-1")) {
            IBPath byLid = PathResolver.getMadPath(a.mt, b.lid());
            assertEquals(byLid, PathResolver.getMadPath(a.mt, NODE04_PORT));
            assertEquals(byLid, PathResolver.getMadPath(a.mt, "0002:c903:0000:1041"), "a port GUID");
            assertEquals(byLid, PathResolver.getMadPath(a.mt, Gid.of(NODE04_PORT).toString()), "a port GID");
            assertEquals(byLid, PathResolver.getMadPath(a.mt, Integer.toString(b.lid())), "a LID");
            assertEquals(byLid, PathResolver.getMadPath(a.mt, "0x" + Integer.toHexString(b.lid())), "a hex LID");
            assertEquals(Iba.QP1, byLid.dqpn().orElseThrow());
            assertThrows(IllegalArgumentException.class, () -> PathResolver.getMadPath(a.mt, "0,1,"), "a directed route");
        }
    }

    @Test
    void aPathsUmadAgentGoesIntoItsMadAddress() {
        IBPath path = IBPath.builder(null).dlid(5).umadAgentId(3).build();
        assertEquals(3, MadAddress.forPath(path, Mad.CLASS_PERF_MGMT).agentId());
        assertEquals(3, MadAddress.forPath(path, Mad.CLASS_SUBN_LID_ROUTED).agentId());
        assertEquals(-1, MadAddress.forPath(IBPath.builder(null).dlid(5).build(), Mad.CLASS_PERF_MGMT).agentId());
        assertEquals(MadAddress.gmp(5), new MadAddress(5, 1, Iba.IB_DEFAULT_QP1_QKEY, 0, 0, null, -1));
    }
}

package org.jrdma.mad;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jrdma.iba.Mad;
import org.jrdma.iba.mad.MadClassPortInfo;
import org.jrdma.iba.mad.SaFormat;
import org.jrdma.iba.mad.SmpDirectedFormat;
import org.jrdma.iba.mad.SmpFormat;
import org.jrdma.iba.pm.PmPortCounters;
import org.jrdma.iba.sa.SaNodeRecord;
import org.jrdma.iba.sa.SaPortInfoRecord;
import org.jrdma.iba.smp.SmpLedInfo;
import org.jrdma.iba.smp.SmpNodeDescription;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.iba.smp.SmpSwitchInfo;
import org.jrdma.iba.wire.Bits;
import org.jrdma.path.IBDRPath;
import org.jrdma.path.IBPath;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;

/**
 * The MAD RPCs on paths against ibsim's agents (SMA, PMA) and OpenSM's SA, and their error paths.
 * The two-switch fabric: node01 and node02 on sw1 (ports 1, 2), node03 and node04 on sw2, sw1 port
 * 7 to sw2 port 7; OpenSM runs at sw1.
 */
@SimulatedFabric(topology = "two-switch")
class MadTransactorTest {
    private static final long SW1 = 0x0002c90300000a01L;
    private static final long SW2 = 0x0002c90300000a02L;
    /** OpenSM's default sa_key, the SM_Key it accepts besides 0. */
    private static final long OPENSM_SA_KEY = 1;

    @Test
    void subnGetOnDirectedRouteAndLidPathsReachTheSameNodes(Fabric fabric) {
        try (SimAgent a = new SimAgent(fabric, "node01 HCA-1")) {
            assertEquals(0x0002c90300001010L, a.mt.subnGet(SmpNodeInfo.class, a.dr(), 0).nodeGuid().value(), "the local node");
            SmpNodeInfo sw2 = a.mt.subnGet(new SmpNodeInfo(), a.dr(1, 7), 0);
            assertEquals(SW2, sw2.nodeGuid().value());
            int sw2Lid = a.mt.subnGet(SmpPortInfo.class, a.dr(1, 7), 0).lid();
            IBPath byLid = IBPath.builder(a.endPort).dlid(sw2Lid).build();
            assertEquals(SW2, a.mt.subnGet(SmpNodeInfo.class, byLid, 0).nodeGuid().value());
            assertEquals("sw2", a.mt.subnGet(SmpNodeDescription.class, byLid, 0).nodeString());
        }
    }

    @Test
    void smpsCarryThePathsMKeyAndRouteAndGmpsTheSmKey(Fabric fabric) {
        try (SimAgent a = new SimAgent(fabric, "node01 HCA-1")) {
            List<byte[]> sent = new CopyOnWriteArrayList<>();
            a.engine.tracer(new MadTracer() {
                @Override
                public void sent(byte[] mad, MadAddress to) {
                    sent.add(mad.clone());
                }
            });
            IBDRPath route = a.dr(1, 7).copy(b -> b.mKey(0x1122334455667788L));
            a.mt.subnGet(SmpNodeInfo.class, route, 0);
            SmpDirectedFormat dr = new SmpDirectedFormat(sent.getLast(), 0);
            assertEquals(Mad.CLASS_SUBN_DIRECTED_ROUTE, dr.mgmtClass());
            assertEquals(0x1122334455667788L, dr.mKey());
            assertEquals(2, dr.hopCount());
            assertEquals(1, dr.initialPath(1));
            assertEquals(7, dr.initialPath(2));
            assertEquals(0xFFFF, dr.drSlid());

            IBPath lidRouted = IBPath.builder(a.endPort).dlid(a.endPort.smLid()).mKey(0x0BADC0FFEEL).build();
            a.mt.subnGet(SmpNodeInfo.class, lidRouted, 0);
            SmpFormat smp = new SmpFormat(sent.getLast(), 0);
            assertEquals(Mad.CLASS_SUBN_LID_ROUTED, smp.header().mgmtClass());
            assertEquals(0x0BADC0FFEEL, smp.mKey());

            IBPath sa = a.mt.saPath().copy(b -> b.smKey(OPENSM_SA_KEY));
            a.mt.subnAdmGet(new SaNodeRecord().lid(a.endPort.smLid()), SaNodeRecord.LID_COMPONENT_MASK, sa);
            assertEquals(OPENSM_SA_KEY, new SaFormat(sent.getLast(), 0).smKey());
        }
    }

    /** OpenSM ignores an SA request whose SM_Key is neither 0 nor its own sa_key (IBA 15.2.1.1 lets the SA not answer). */
    @Test
    void openSmIgnoresAWrongSmKey(Fabric fabric) {
        try (SimAgent a = new SimAgent(fabric, "node01 HCA-1")) {
            IBPath wrongKey = a.mt.saPath().copy(b -> b.smKey(0x5AL).respTime(SimAgent.QUICK_RESP_TIME));
            MadTimeoutException e = assertThrows(MadTimeoutException.class, () -> a.mt.subnAdmGet(new SaNodeRecord().lid(a.endPort.smLid()),
                    SaNodeRecord.LID_COMPONENT_MASK, wrongKey));
            assertEquals(0x5AL, new SaFormat(e.request().orElseThrow(), 0).smKey());
        }
    }

    @Test
    void subnSetReturnsTheNodesNewValue(Fabric fabric) {
        try (SimAgent a = new SimAgent(fabric, "node01 HCA-1")) {
            SmpSwitchInfo before = a.mt.subnGet(SmpSwitchInfo.class, a.dr(1), 0);
            SmpSwitchInfo after = a.mt.subnSet(before, a.dr(1), 0);
            assertEquals(before.linearFdbTop(), after.linearFdbTop());
            assertEquals(before.lifeTimeValue(), after.lifeTimeValue());
        }
    }

    @Test
    void aBadStatusIsAMadExceptionCarryingRequestReplyAndPath(Fabric fabric) {
        try (SimAgent a = new SimAgent(fabric, "node01 HCA-1")) {
            IBDRPath self = a.dr();
            MadException combo = assertThrows(MadException.class, () -> a.mt.subnGet(SmpSwitchInfo.class, self, 0));
            assertEquals(Mad.STATUS_UNSUP_METHOD_ATTR_COMBO, combo.status().orElseThrow());
            assertTrue(combo.getMessage().startsWith("SubnGet(SwitchInfo) to IBDRPath("), combo.getMessage());
            assertTrue(combo.getMessage().endsWith("MAD status 0x000c (Method/Attribute combo not supported)"), combo.getMessage());
            assertEquals(self, combo.path().orElseThrow());
            byte[] request = combo.request().orElseThrow();
            byte[] reply = combo.reply().orElseThrow();
            assertEquals(Bits.u32(request, 12), Bits.u32(reply, 12), "the reply to that request");
            assertEquals(Mad.METHOD_GET, request[3]);
            assertEquals((byte) Mad.METHOD_GET_RESP, reply[3]);
            String dump = combo.describe();
            assertTrue(dump.contains("Request:\n  MAD Subn(0x81) Get(0x01) attr 0x0012"), dump);
            assertTrue(dump.contains("Reply:\n  MAD Subn(0x81) GetResp(0x81) attr 0x0012"), dump);
            assertTrue(dump.contains("(Method/Attribute combo not supported)"), dump);
            assertTrue(dump.contains("  SwitchInfo\n"), "the attribute decoded: " + dump);
            assertTrue(dump.contains("  0000:  01 81 01 81"), "and in hex: " + dump);

            MadException badPort = assertThrows(MadException.class, () -> a.mt.subnGet(SmpPortInfo.class, self, 9));
            assertEquals(Mad.STATUS_INVALID_ATTR_OR_MODIFIER, badPort.status().orElseThrow(), badPort.getMessage());
        }
    }

    @Test
    void illegalRpcsAreRefusedBeforeAnythingIsSent(Fabric fabric) {
        try (SimAgent a = new SimAgent(fabric, "node01 HCA-1")) {
            IBDRPath self = a.dr();
            IllegalArgumentException set = assertThrows(IllegalArgumentException.class,
                    () -> a.mt.subnSet(new SmpNodeDescription(), self, 0));
            assertEquals("SubnSet is not a legal RPC for NodeDescription", set.getMessage());
            IllegalArgumentException cls = assertThrows(IllegalArgumentException.class,
                    () -> a.mt.performanceGet(new SmpNodeInfo(), a.gmpPath(a.lid(), 0), 0));
            assertEquals("NodeInfo is not a Perf attribute", cls.getMessage());
            IllegalArgumentException sa = assertThrows(IllegalArgumentException.class,
                    () -> a.mt.subnAdmGet(new PmPortCounters(), 0, a.mt.saPath()));
            assertTrue(sa.getMessage().contains("not a SubnAdm attribute"), sa.getMessage());
            IllegalArgumentException gmpOnDr = assertThrows(IllegalArgumentException.class,
                    () -> a.mt.performanceGet(PmPortCounters.class, self, 0));
            assertTrue(gmpOnDr.getMessage().startsWith("A directed-route path carries SMPs only"), gmpOnDr.getMessage());
            IllegalArgumentException vendor = assertThrows(IllegalArgumentException.class,
                    () -> a.mt.vendGet(TestVendorAttributes.Counters.class, 0x1234, a.gmpPath(a.lid(), 0), 0));
            assertEquals("vendor class 0x9 MADs carry no OUI", vendor.getMessage());
            assertEquals(0, a.engine.unmatchedResponses());
        }
    }

    @Test
    void performanceGetAndSetOnAPath(Fabric fabric) {
        try (SimAgent a = new SimAgent(fabric, "node02 HCA-1")) {
            IBPath pma = a.gmpPath(a.lid(), 1);
            PmPortCounters counters = a.mt.performanceGet(new PmPortCounters().portSelect(1), pma, 0);
            assertEquals(1, counters.portSelect());
            assertTrue(counters.portXmitPkts() > 0, "the SM's sweep went through the port");
            PmPortCounters cleared = a.mt.performanceSet(new PmPortCounters().portSelect(1).counterSelect(0xFFFF), pma, 0);
            assertEquals(1, cleared.portSelect());
            assertTrue(a.mt.performanceGet(new PmPortCounters().portSelect(1), pma, 0).portXmitPkts() < counters.portXmitPkts(),
                    "the packet counters were cleared");
            assertEquals(0, a.mt.performanceGet(MadClassPortInfo.class, pma, 0).redirectLid(), "ibsim's PMA does not redirect");
        }
    }

    @Test
    void subnAdmQueriesOnTheSaPath(Fabric fabric) {
        try (SimAgent a = new SimAgent(fabric, "node03 HCA-1")) {
            SaNodeRecord sw1 = a.mt.subnAdmGet(new SaNodeRecord().lid(a.endPort.smLid()), SaNodeRecord.LID_COMPONENT_MASK);
            assertEquals(SW1, sw1.nodeInfo().nodeGuid().value());
            assertEquals("sw1", sw1.nodeDescription().nodeString());
            List<SaPortInfoRecord> ports = a.mt.subnAdmGetTable(new SaPortInfoRecord().endportLid(a.lid()),
                    SaPortInfoRecord.ENDPORT_LID_COMPONENT_MASK);
            assertEquals(1, ports.size());
            assertEquals(a.lid(), ports.getFirst().portInfo().lid());
            assertEquals(List.of(), a.mt.subnAdmGetTable(new SaNodeRecord().lid(0x1234), SaNodeRecord.LID_COMPONENT_MASK),
                    "No Records is an empty table");
        }
    }

    @Test
    void aClassSpecificStatusIsAMadClassException(Fabric fabric) {
        try (SimAgent a = new SimAgent(fabric, "node03 HCA-1")) {
            MadClassException none = assertThrows(MadClassException.class,
                    () -> a.mt.subnAdmGet(new SaNodeRecord().lid(0x1234), SaNodeRecord.LID_COMPONENT_MASK));
            assertEquals(Mad.CLASS_SUBN_ADM, none.mgmtClass());
            assertEquals(3, none.classCode());
            assertTrue(none.getMessage().endsWith("MAD status 0x0300 (No Records)"), none.getMessage());
            assertEquals(a.mt.saPath(), none.path().orElseThrow());
            assertTrue(none.describe().contains("Reply:\n  MAD SubnAdm(0x03) GetResp(0x81) attr 0x0011"), none.describe());
        }
    }

    @Test
    void noReplyIsAMadTimeoutExceptionCarryingRequestAndPath(Fabric fabric) {
        try (SimAgent a = new SimAgent(fabric, "node01 HCA-1")) {
            IBPath nowhere = a.gmpPath(0x3000, 1);
            MadTimeoutException e = assertThrows(MadTimeoutException.class, () -> a.mt.performanceGet(PmPortCounters.class, nowhere, 0));
            assertTrue(e.getMessage().startsWith("PerformanceGet(PortCounters) to IBPath("), e.getMessage());
            assertTrue(e.getMessage().contains("the fabric could not deliver it after 2 attempts"), e.getMessage());
            assertEquals(nowhere, e.path().orElseThrow());
            assertEquals(PmPortCounters.ATTRIBUTE_ID, Bits.u16(e.request().orElseThrow(), 16));
            assertTrue(e.reply().isEmpty());
            assertTrue(e.describe().contains("Reply: (none)"), e.describe());
        }
    }

    /**
     * ibsim's SMA drops SMPs of attributes it does not implement (no status reply; IBA lets an SMA
     * not answer), so an unknown attribute shows as a timeout.
     */
    @Test
    void anAttributeTheSmaDoesNotKnowGoesUnanswered(Fabric fabric) {
        try (SimAgent a = new SimAgent(fabric, "node01 HCA-1")) {
            MadTimeoutException e = assertThrows(MadTimeoutException.class, () -> a.mt.subnGet(SmpLedInfo.class, a.dr(1), 0));
            assertTrue(e.getMessage().startsWith("SubnGet(LedInfo) to IBDRPath("), e.getMessage());
        }
    }

    @Test
    void theDumpTracerDecodesEveryMad(Fabric fabric) {
        try (SimAgent a = new SimAgent(fabric, "node01 HCA-1")) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            a.engine.tracer(MadTracer.dump(new PrintStream(out, true, StandardCharsets.UTF_8)));
            a.mt.subnGet(SmpNodeDescription.class, a.dr(1), 0);
            String trace = out.toString(StandardCharsets.UTF_8);
            assertTrue(trace.contains("SEND class 0x81 method 0x01 attr 0x0010"), trace);
            assertTrue(trace.contains("RECV class 0x81 method 0x81 attr 0x0010"), trace);
            assertTrue(trace.contains("nodeString......................sw1"), trace);
        }
    }

    @Test
    void withTimeoutsOverridesThePath(Fabric fabric) {
        try (SimAgent a = new SimAgent(fabric, "node01 HCA-1")) {
            IBPath slow = IBPath.builder(a.endPort).dlid(0x3000).build();
            assertTrue(slow.madTimeout().toMillis() > 4000, "the default path waits seconds");
            long start = System.nanoTime();
            MadTimeoutException e = assertThrows(MadTimeoutException.class,
                    () -> a.mt.withTimeouts(Duration.ofMillis(100), 2).performanceGet(PmPortCounters.class, slow, 0));
            assertTrue(e.getMessage().contains("after 3 attempts of 100 ms"), e.getMessage());
            assertTrue((System.nanoTime() - start) / 1_000_000 < 3000);
        }
    }
}

package org.jrdma.mad;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.jrdma.iba.Mad;
import org.jrdma.iba.sa.SaLinkRecord;
import org.jrdma.iba.sa.SaSlToVlMappingTableRecord;
import org.jrdma.iba.sa.SaVlArbitrationTableRecord;
import org.jrdma.iba.smp.SmpGuidInfo;
import org.jrdma.iba.smp.SmpLedInfo;
import org.jrdma.iba.smp.SmpLinearForwardingTable;
import org.jrdma.iba.smp.SmpNodeDescription;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.smp.SmpPKeyTable;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.iba.smp.SmpSlToVlMappingTable;
import org.jrdma.iba.smp.SmpSmInfo;
import org.jrdma.iba.smp.SmpSwitchInfo;
import org.jrdma.iba.smp.SmpVlArbitrationTable;
import org.jrdma.iba.wire.Bits;
import org.jrdma.path.IBDRPath;
import org.jrdma.path.IBPath;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;

/**
 * SubnGet answered by OpenSM's SA, compared with the same SubnGet answered by ibsim's SMAs. From
 * node01: directed route 0,1 is sw1, 0,1,7 is sw2, 0,1,7,1 is node03.
 */
@SimulatedFabric(topology = "two-switch")
class SaTransactorTest {
    /** OpenSM's default sa_key: the SM_Key of a trusted requester. */
    private static final long OPENSM_SA_KEY = 1;

    @Test
    void nodeAttributesFromTheSaMatchTheSmas(Fabric fabric) {
        try (SimAgent a = new SimAgent(fabric, "node01 HCA-1")) {
            SaTransactor sa = new SaTransactor(a.mt);
            IBDRPath sw2 = a.dr(1, 7);
            SmpNodeInfo fromSa = sa.subnGet(SmpNodeInfo.class, sw2, 0);
            SmpNodeInfo fromSma = a.mt.subnGet(SmpNodeInfo.class, sw2, 0);
            assertEquals(fromSma.nodeGuid(), fromSa.nodeGuid());
            assertEquals(fromSma.systemImageGuid(), fromSa.systemImageGuid());
            assertEquals(fromSma.nodeType(), fromSa.nodeType());
            assertEquals(fromSma.numPorts(), fromSa.numPorts());
            assertEquals(fromSma.vendorId(), fromSa.vendorId());
            assertEquals(a.mt.subnGet(SmpNodeDescription.class, sw2, 0), sa.subnGet(SmpNodeDescription.class, sw2, 0));

            SmpSwitchInfo switchInfo = sa.subnGet(SmpSwitchInfo.class, sw2, 0);
            assertEquals(a.mt.subnGet(SmpSwitchInfo.class, sw2, 0).linearFdbCap(), switchInfo.linearFdbCap());
            assertEquals(a.mt.subnGet(SmpLinearForwardingTable.class, sw2, 0), sa.subnGet(SmpLinearForwardingTable.class, sw2, 0));
        }
    }

    @Test
    void portInfoOfSwitchPortsAndOfCaPorts(Fabric fabric) {
        try (SimAgent a = new SimAgent(fabric, "node01 HCA-1")) {
            SaTransactor sa = new SaTransactor(a.mt);
            IBDRPath sw2 = a.dr(1, 7);
            int sw2Lid = a.mt.subnGet(SmpPortInfo.class, sw2, 0).lid();
            assertEquals(sw2Lid, sa.subnGet(SmpPortInfo.class, sw2, 0).lid(), "modifier 0 of a switch not known yet: port 0 from the table");
            SmpPortInfo port7 = sa.subnGet(SmpPortInfo.class, sw2, 7);
            SmpPortInfo port7Sma = a.mt.subnGet(SmpPortInfo.class, sw2, 7);
            assertEquals(port7Sma.portState(), port7.portState());
            assertEquals(port7Sma.linkWidthActive(), port7.linkWidthActive());
            sa.subnGet(SmpNodeInfo.class, sw2, 0);
            assertEquals(sw2Lid, sa.subnGet(SmpPortInfo.class, sw2, 0).lid(), "modifier 0 of a known switch: port 0 by SubnAdmGet");

            IBDRPath node03 = a.dr(1, 7, 1);
            SmpPortInfo ca = sa.subnGet(SmpPortInfo.class, node03, 0);
            assertEquals(a.mt.subnGet(SmpPortInfo.class, node03, 0).lid(), ca.lid(), "modifier 0 of a CA: the port itself");
            assertEquals(1, ca.localPortNum());
        }
    }

    @Test
    void tablesFromTheSa(Fabric fabric) {
        try (SimAgent a = new SimAgent(fabric, "node01 HCA-1")) {
            IBDRPath node03 = a.dr(1, 7, 1);
            MadClassException untrusted = assertThrows(MadClassException.class,
                    () -> new SaTransactor(a.mt).subnGet(SmpPKeyTable.class, node03, 0));
            assertEquals(2, untrusted.classCode(), "OpenSM gives P_KeyTableRecords to trusted requesters only (IBA 15.4.1)");
            SaTransactor sa = new SaTransactor(a.mt.withSaPath(a.mt.saPath().copy(b -> b.smKey(OPENSM_SA_KEY))));
            sa.subnGet(SmpNodeInfo.class, node03, 0);
            assertEquals(a.mt.subnGet(SmpPKeyTable.class, node03, 0), sa.subnGet(SmpPKeyTable.class, node03, 0));
            // OpenSM keeps its own copy of these tables, which need not be what ibsim's SMA holds (with QoS
            // off OpenSM does not program a CA's SL-to-VL table): the SA's answer is its record.
            int lid = a.mt.subnGet(SmpPortInfo.class, node03, 0).lid();
            assertEquals(sa.subnAdmGetTable(new SaSlToVlMappingTableRecord().lid(lid), SaSlToVlMappingTableRecord.LID_COMPONENT_MASK)
                    .getFirst().slToVlMappingTable(), sa.subnGet(SmpSlToVlMappingTable.class, node03, 0));
            List<SaVlArbitrationTableRecord> vlArb = sa.subnAdmGetTable(new SaVlArbitrationTableRecord().lid(lid).blockNum(1),
                    SaVlArbitrationTableRecord.LID_COMPONENT_MASK | SaVlArbitrationTableRecord.BLOCK_NUM_COMPONENT_MASK);
            assertEquals(vlArb.isEmpty() ? new SmpVlArbitrationTable() : vlArb.getFirst().vlArbitrationTable(),
                    sa.subnGet(SmpVlArbitrationTable.class, node03, 0x10000));
            assertEquals(a.mt.subnGet(SmpGuidInfo.class, node03, 0).guid0(), sa.subnGet(SmpGuidInfo.class, node03, 0).guid0());
            IBDRPath sw2 = a.dr(1, 7);
            assertEquals(new SmpLinearForwardingTable(), sa.subnGet(SmpLinearForwardingTable.class, sw2, 700),
                    "OpenSM has no record of an unprogrammed block: a zero block, as python-rdma does");
        }
    }

    @Test
    void smInfoOfTheSubnetManager(Fabric fabric) {
        try (SimAgent a = new SimAgent(fabric, "node01 HCA-1")) {
            SaTransactor sa = new SaTransactor(a.mt);
            IBPath sm = IBPath.builder(a.endPort).dlid(a.endPort.smLid()).build();
            SmpSmInfo info = sa.subnGet(SmpSmInfo.class, sm, 0);
            assertEquals(0x0002c90300000a01L, info.guid().value(), "OpenSM runs at sw1");
            assertEquals(3, info.smState(), "master");
        }
    }

    @Test
    void aDirectedRouteIsResolvedToItsLidOnceByLinkRecords(Fabric fabric) {
        try (SimAgent a = new SimAgent(fabric, "node01 HCA-1")) {
            AtomicInteger linkQueries = countLinkRecordQueries(a);
            SaTransactor sa = new SaTransactor(a.mt);
            IBDRPath node03 = a.dr(1, 7, 1);
            assertEquals("node03 HCA-1", sa.subnGet(SmpNodeDescription.class, node03, 0).nodeString());
            assertEquals(3, linkQueries.get(), "one LinkRecord per hop");
            sa.subnGet(SmpNodeInfo.class, node03, 0);
            assertEquals(3, linkQueries.get(), "remembered");
            sa.subnGet(SmpNodeInfo.class, node03.copy(b -> b.drDlid(a.lid())), 0);
            assertEquals(3, linkQueries.get(), "a route with its DrDLID set needs none");
        }
    }

    @Test
    void otherRpcsAndAttributesGoAsSmps(Fabric fabric) {
        try (SimAgent a = new SimAgent(fabric, "node01 HCA-1")) {
            SaTransactor sa = new SaTransactor(a.mt);
            IBDRPath sw1 = a.dr(1);
            SmpSwitchInfo info = sa.subnGet(SmpSwitchInfo.class, sw1, 0);
            assertEquals(info.linearFdbTop(), sa.subnSet(info, sw1, 0).linearFdbTop(), "SubnSet is an SMP");
            MadTimeoutException led = assertThrows(MadTimeoutException.class, () -> sa.subnGet(SmpLedInfo.class, sw1, 0));
            assertTrue(led.getMessage().startsWith("SubnGet(LedInfo) to IBDRPath("), "an SMP, which ibsim drops: " + led.getMessage());
            assertThrows(IllegalArgumentException.class, () -> new SaTransactor(new MadTransactor(a.engine, null)));
        }
    }

    @Test
    void getPathLidAndPreparePathLidResolveARouteOnceAndCloseClosesTheParent(Fabric fabric) {
        try (SimAgent a = new SimAgent(fabric, "node01 HCA-1")) {
            AtomicInteger linkQueries = countLinkRecordQueries(a);
            IBDRPath node03 = a.dr(1, 7, 1);
            int lid = a.mt.subnGet(SmpPortInfo.class, node03, 1).lid();
            try (SaTransactor sa = new SaTransactor(a.mt)) {
                assertEquals(lid, sa.preparePathLid(node03).join());
                assertEquals(3, linkQueries.get(), "one LinkRecord per hop");
                assertEquals(lid, sa.getPathLid(node03));
                assertEquals("node03 HCA-1", sa.subnGet(SmpNodeDescription.class, node03).nodeString());
                assertEquals(3, linkQueries.get(), "prepared: remembered");
                assertEquals(a.lid(), sa.getPathLid(a.gmpPath(a.lid(), 0)), "a LID-routed path's DLID");
            }
            assertEquals(lid, a.mt.subnGet(SmpPortInfo.class, node03).lid(), "a parent that does not own its engine stays open");
        }
        MadTransactor owner = MadTransactor.open(org.jrdma.mad.sim.IbsimTransport.attach(fabric.socketName(), "node02 HCA-1"), null, 4);
        try (SaTransactor sa = new SaTransactor(owner)) {
            assertEquals("node02 HCA-1", sa.subnGet(SmpNodeDescription.class, IBPath.builder(owner.endPort().orElseThrow())
                    .dlid(owner.endPort().orElseThrow().lid()).build()).nodeString());
        }
        assertThrows(IllegalStateException.class, () -> owner.subnGet(SmpNodeInfo.class, IBPath.builder(owner.endPort().orElseThrow()).dlid(1).build()),
                "closing the SaTransactor closed its parent's engine");
    }

    /** Counts the LinkRecord queries {@code a} sends to the SA from now on. */
    private static AtomicInteger countLinkRecordQueries(SimAgent a) {
        AtomicInteger linkQueries = new AtomicInteger();
        a.engine.tracer(new MadTracer() {
            @Override
            public void sent(byte[] mad, MadAddress to) {
                if (mad[1] == Mad.CLASS_SUBN_ADM && Bits.u16(mad, 16) == SaLinkRecord.ATTRIBUTE_ID) {
                    linkQueries.incrementAndGet();
                }
            }
        });
        return linkQueries;
    }
}

package org.jrdma.vtools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.jrdma.devices.EndPort;
import org.jrdma.devices.LinkLayer;
import org.jrdma.iba.Mtu;
import org.jrdma.iba.sa.SaPathRecord;
import org.jrdma.mad.MadTransactor;
import org.jrdma.mad.sim.IbsimTransport;
import org.jrdma.path.IBPath;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;

/**
 * The path half of the no-CM exchange on native InfiniBand, against OpenSM on a simulated fat
 * tree: two CAs on different leaves exchange their paths as the seed's recipe does (side B
 * resolves through the SA, side A too), and each side's path is the SA's PathRecord for its
 * direction. The queue pairs' half ({@code fillPath}, {@code establish}) runs in the soft-RoCE
 * VM ({@code VtoolsInVm}); here the fill is what {@code Qp.fillPath} would add, fixed.
 */
@SimulatedFabric(topology = "fat-tree")
class NoCmPathTest {
    private static final int QPN_A = 0x000A11;
    private static final int QPN_B = 0x000B22;

    /** One side: a MAD transactor attached at a CA of the fabric, owning its engine and transport. */
    private static MadTransactor attach(Fabric fabric, String node) {
        return MadTransactor.open(IbsimTransport.attach(fabric.socketName(), node), null, 16);
    }

    @Test
    void eachSideOfTheExchangeGetsTheSasPathRecordForItsDirection(Fabric fabric) throws IOException {
        try (MadTransactor a = attach(fabric, "node01 HCA-1"); MadTransactor b = attach(fabric, "node05 HCA-1")) {
            EndPort portA = a.endPort().orElseThrow();
            EndPort portB = b.endPort().orElseThrow();
            assertEquals(LinkLayer.INFINIBAND, portA.linkLayer());

            // A: no SLID given; the exchange takes the port's base LID. Then what fillPath adds.
            IBPath localA = NoCmExchange.local(IBPath.builder(portA).sgid(portA.defaultGid()).build(), portA);
            assertEquals(portA.lid(), localA.slid());
            IBPath offer = NoCmExchange.offer(localA.copy(p -> p.sqpn(QPN_A).sqpsn(0x1111).dqpsn(0x2222).mtu(Mtu.MTU_256)));
            IBPath received = roundTrip(offer, portB);

            IBPath pathB = NoCmExchange.answer(received, IBPath.builder(portB).build(),
                    p -> p.copy(f -> f.sqpn(QPN_B).mtu(Mtu.MTU_256)), b);
            IBPath pathA = NoCmExchange.accept(roundTrip(pathB, portA), a);

            assertMatchesRecord(pathB, record(b, portB, portA));
            assertMatchesRecord(pathA, record(a, portA, portB));
            assertEquals(portB.lid(), pathA.dlid());
            assertEquals(portA.lid(), pathB.dlid());
            assertEquals(QPN_A, pathA.sqpn().orElseThrow());
            assertEquals(QPN_B, pathA.dqpn().orElseThrow());
            assertEquals(QPN_B, pathB.sqpn().orElseThrow());
            assertEquals(QPN_A, pathB.dqpn().orElseThrow());
            assertEquals(pathA.sqpsn(), pathB.dqpsn(), "A's send PSN is what B expects");
            assertEquals(pathA.dqpsn(), pathB.sqpsn(), "B's send PSN is what A expects");
        }
    }

    /** {@code path} sent and received as the exchange does, arriving at {@code endPort}. */
    private static IBPath roundTrip(IBPath path, EndPort endPort) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        NoCmExchange.sendPath(out, path);
        return NoCmExchange.receivePath(new ByteArrayInputStream(out.toByteArray()), endPort);
    }

    /** The SA's reversible PathRecord from {@code from} to {@code to}, asked directly. */
    private static SaPathRecord record(MadTransactor mt, EndPort from, EndPort to) {
        return mt.subnAdmGet(new SaPathRecord().sgid(from.defaultGid()).dgid(to.defaultGid()).reversible(1),
                SaPathRecord.SGID_COMPONENT_MASK | SaPathRecord.DGID_COMPONENT_MASK | SaPathRecord.REVERSIBLE_COMPONENT_MASK);
    }

    private static void assertMatchesRecord(IBPath path, SaPathRecord record) {
        assertNotEquals(0, path.slid(), "SLID");
        assertNotEquals(0, path.dlid(), "DLID");
        assertEquals(record.slid(), path.slid(), "SLID");
        assertEquals(record.dlid(), path.dlid(), "DLID");
        assertEquals(record.sgid(), path.sgid().orElseThrow(), "SGID");
        assertEquals(record.dgid(), path.dgid().orElseThrow(), "DGID");
        assertEquals(record.sl(), path.sl(), "SL");
        assertEquals(record.mtu(), path.mtu().value(), "MTU");
        assertEquals(record.rate(), path.rate().value(), "rate");
        assertEquals(record.packetLifeTime(), path.packetLifeTime(), "packet lifetime");
        assertEquals(record.pKey(), path.pkey(), "P_Key");
        assertTrue(path.complete(), path.toString());
    }
}

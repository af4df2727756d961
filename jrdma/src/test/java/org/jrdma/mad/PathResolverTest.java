package org.jrdma.mad;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jrdma.iba.Gid;
import org.jrdma.iba.Iba;
import org.jrdma.iba.Mad;
import org.jrdma.iba.Mtu;
import org.jrdma.iba.StaticRate;
import org.jrdma.iba.pm.PmPortCounters;
import org.jrdma.mad.PathProperties.Selector;
import org.jrdma.path.IBPath;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;

/** Paths from OpenSM's PathRecords: resolvePath and getMadPath. */
@SimulatedFabric(topology = "two-switch")
class PathResolverTest {
    private static final Gid NODE04 = Gid.parse("fe80::2:c903:0:1041");

    @Test
    void aMadPathToALidIsCompleteAndCarriesGmps(Fabric fabric) {
        try (SimAgent a = new SimAgent(fabric, "node01 HCA-1");
                SimAgent b = new SimAgent(fabric, "node04 HCA-1")) {
            IBPath path = PathResolver.getMadPath(a.mt, b.lid());
            assertEquals(b.lid(), path.dlid());
            assertEquals(a.lid(), path.slid());
            assertEquals(NODE04, path.dgid().orElseThrow());
            assertEquals(a.endPort.defaultGid(), path.sgid().orElseThrow());
            assertEquals(Iba.DEFAULT_PKEY, path.pkey());
            assertEquals(Iba.QP1, path.dqpn().orElseThrow());
            assertEquals(Iba.IB_DEFAULT_QP1_QKEY, path.qkey().orElseThrow());
            assertFalse(path.hasGrh(), "within the subnet");
            assertTrue(path.complete());
            assertEquals(1, a.mt.performanceGet(new PmPortCounters().portSelect(1), path, 0).portSelect());
        }
    }

    @Test
    void aMadPathToAGidFindsTheSameLid(Fabric fabric) {
        try (SimAgent a = new SimAgent(fabric, "node01 HCA-1")) {
            IBPath byGid = PathResolver.getMadPath(a.mt, NODE04);
            IBPath byLid = PathResolver.getMadPath(a.mt, byGid.dlid());
            assertEquals(byLid, byGid);
            IBPath resolved = PathResolver.resolvePath(a.mt, IBPath.builder(null).dlid(byGid.dlid()).build(), false);
            assertEquals(a.endPort, resolved.endPort().orElseThrow(), "the transactor's end port");
            assertEquals(byGid.sl(), resolved.sl());
            assertTrue(resolved.dqpn().isEmpty(), "resolvePath leaves the QP fields alone");
        }
    }

    @Test
    void noRecordIsSaPathNotFound(Fabric fabric) {
        try (SimAgent a = new SimAgent(fabric, "node01 HCA-1")) {
            SaPathNotFoundException lid = assertThrows(SaPathNotFoundException.class, () -> PathResolver.getMadPath(a.mt, 0x2000));
            assertEquals(Mad.CLASS_SUBN_ADM, lid.mgmtClass());
            assertTrue(lid.getMessage().startsWith("Failed getting path record for path IBPath("), lid.getMessage());
            assertTrue(lid.request().isPresent() && lid.reply().isPresent() && lid.path().isPresent());
            SaPathNotFoundException gid = assertThrows(SaPathNotFoundException.class,
                    () -> PathResolver.getMadPath(a.mt, Gid.parse("fe80::2:c903:0:9999")));
            assertTrue(gid.classCode() == 3 || gid.classCode() == 5, gid.getMessage());
            assertThrows(IllegalArgumentException.class, () -> PathResolver.resolvePath(a.mt, IBPath.builder(a.endPort).build(), true));
        }
    }

    @Test
    void propertiesGoIntoTheQueryAndTheSaHonoursThem(Fabric fabric) {
        try (SimAgent a = new SimAgent(fabric, "node01 HCA-1")) {
            IBPath destination = IBPath.builder(a.endPort).dgid(NODE04).build();
            IBPath plain = PathResolver.resolvePath(a.mt, destination, true);
            PathProperties same = PathProperties.builder().pkey(plain.pkey()).sl(plain.sl())
                    .mtu(Selector.EXACTLY, plain.mtu()).rate(Selector.EXACTLY, plain.rate()).build();
            assertEquals(plain, PathResolver.resolvePath(a.mt, destination, true, same));
            PathProperties largest = PathProperties.builder().mtu(Selector.LARGEST, Mtu.MTU_256)
                    .rate(Selector.LARGEST, StaticRate.RATE_2_5_GBPS).build();
            assertEquals(plain, PathResolver.resolvePath(a.mt, destination, true, largest));

            assertThrows(SaPathNotFoundException.class, () -> PathResolver.resolvePath(a.mt, destination, true,
                    PathProperties.builder().pkey(0x1234).build()), "a P_Key the ports are not members of");
            assertThrows(SaPathNotFoundException.class, () -> PathResolver.resolvePath(a.mt, destination, true,
                    PathProperties.builder().mtu(Selector.GREATER_THAN, plain.mtu()).build()), "an MTU above the path's");
        }
    }

    @Test
    void propertiesRefuseValuesOutsideTheirFields() {
        assertThrows(IllegalArgumentException.class, () -> PathProperties.builder().sl(16).build());
        assertThrows(IllegalArgumentException.class, () -> PathProperties.builder().pkey(0x10000).build());
        assertThrows(IllegalArgumentException.class, () -> PathProperties.builder().flowLabel(1 << 20).build());
        assertThrows(IllegalArgumentException.class, () -> PathProperties.builder().packetLifeTime(Selector.EXACTLY, 64).build());
        assertThrows(IllegalArgumentException.class,
                () -> new PathProperties(-1, -1, Selector.EXACTLY, null, null, null, null, -1, -1, -1, -1));
    }
}

package org.jrdma.mad;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jrdma.iba.Gid;
import org.jrdma.iba.Iba;
import org.jrdma.iba.Mad;
import org.jrdma.iba.pm.PmPortCounters;
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
}

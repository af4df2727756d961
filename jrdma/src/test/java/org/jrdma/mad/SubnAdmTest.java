package org.jrdma.mad;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.jrdma.iba.Iba;
import org.jrdma.iba.sa.SaMultiPathRecord;
import org.jrdma.iba.sa.SaPathRecord;
import org.jrdma.iba.sa.SaServiceRecord;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;

/**
 * SubnAdmSet, SubnAdmDelete and SubnAdmGetMulti against OpenSM's SA. OpenSM answers GetMulti with
 * an RMPP segment of its own making (First and Last, PayloadLength 220) that ibsim relays at its
 * written length: the engine receives it as a one-segment transfer, acknowledges it, and keeps only
 * the bytes that came.
 */
@SimulatedFabric(topology = "two-switch")
class SubnAdmTest {
    private static final long SERVICE_ID = 0x1000_0000_0000_4242L;

    @Test
    void aServiceRecordIsSetFoundAndDeleted(Fabric fabric) {
        try (SimAgent a = new SimAgent(fabric, "node02 HCA-1")) {
            long key = SaServiceRecord.SERVICE_ID_COMPONENT_MASK | SaServiceRecord.SERVICE_GID_COMPONENT_MASK
                    | SaServiceRecord.SERVICE_P_KEY_COMPONENT_MASK;
            SaServiceRecord service = new SaServiceRecord().serviceId(SERVICE_ID).serviceGid(a.endPort.defaultGid())
                    .servicePKey(Iba.DEFAULT_PKEY).serviceLease(0xFFFF_FFFFL).serviceName("jrdma test service");
            SaServiceRecord set = a.mt.subnAdmSet(service, key | SaServiceRecord.SERVICE_LEASE_COMPONENT_MASK
                    | SaServiceRecord.SERVICE_NAME_COMPONENT_MASK, a.mt.saPath());
            assertEquals("jrdma test service", set.serviceName());
            List<SaServiceRecord> found = a.mt.subnAdmGetTable(new SaServiceRecord().serviceId(SERVICE_ID),
                    SaServiceRecord.SERVICE_ID_COMPONENT_MASK);
            assertEquals(1, found.size());
            assertEquals(a.endPort.defaultGid(), found.getFirst().serviceGid());
            SaServiceRecord deleted = a.mt.subnAdmDelete(service, key, a.mt.saPath());
            assertEquals(SERVICE_ID, deleted.serviceId());
            assertEquals(List.of(), a.mt.subnAdmGetTable(new SaServiceRecord().serviceId(SERVICE_ID),
                    SaServiceRecord.SERVICE_ID_COMPONENT_MASK));
        }
    }

    @Test
    void getMultiAnswersAMultiPathRecordWithPathRecords(Fabric fabric) {
        try (SimAgent a = new SimAgent(fabric, "node02 HCA-1");
                SimAgent node04 = new SimAgent(fabric, "node04 HCA-1")) {
            SaMultiPathRecord request = new SaMultiPathRecord().numbPath(1).sgidCount(1).dgidCount(1).reversible(1);
            request.sdGid(0, a.endPort.defaultGid());
            request.sdGid(1, node04.endPort.defaultGid());
            long mask = SaMultiPathRecord.NUMB_PATH_COMPONENT_MASK | SaMultiPathRecord.SGID_COUNT_COMPONENT_MASK
                    | SaMultiPathRecord.DGID_COUNT_COMPONENT_MASK | SaMultiPathRecord.SD_GID_COMPONENT_MASK
                    | SaMultiPathRecord.REVERSIBLE_COMPONENT_MASK;
            List<SaPathRecord> paths = a.mt.subnAdmGetMulti(request, mask, a.mt.saPath());
            assertEquals(1, paths.size());
            assertEquals(a.lid(), paths.getFirst().slid());
            assertEquals(node04.lid(), paths.getFirst().dlid());
            assertEquals(node04.endPort.defaultGid(), paths.getFirst().dgid());
        }
    }
}

package org.jrdma.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jrdma.iba.Gid;
import org.jrdma.iba.Mtu;
import org.junit.jupiter.api.Test;

/** The attribute builders: masks follow what is set, ranges are those of the C fields. */
class AttrTest {
    @Test
    void qpAttrMaskHasTheBitOfEverySetter() {
        QpAttr attr = new QpAttr();
        assertEquals(0, attr.mask());
        attr.qpState(QpState.RTR).pathMtu(Mtu.MTU_1024).destQpNum(0xFFFFFF).rqPsn(0).maxDestRdAtomic(1)
                .minRnrTimer(12).ahAttr(new AhAttr().dlid(0xFFFF).portNum(1));
        assertEquals(QpAttr.STATE | QpAttr.PATH_MTU | QpAttr.DEST_QPN | QpAttr.RQ_PSN | QpAttr.MAX_DEST_RD_ATOMIC
                | QpAttr.MIN_RNR_TIMER | QpAttr.AV, attr.mask());
        assertEquals(0xFFFFFF, attr.destQpNum());
        assertEquals(0xFFFF, attr.ahAttr().dlid());
        assertEquals(QpAttr.ALT_PATH, new QpAttr().altPath(new AhAttr(), 0xFFFF, 255, 31).mask());
        assertEquals(0, new QpAttr().sqDraining(true).mask());
    }

    @Test
    void qpAttrRejectsValuesTheFieldCannotHold() {
        assertThrows(IllegalArgumentException.class, () -> new QpAttr().destQpNum(1 << 24));
        assertThrows(IllegalArgumentException.class, () -> new QpAttr().sqPsn(-1));
        assertThrows(IllegalArgumentException.class, () -> new QpAttr().timeout(32));
        assertThrows(IllegalArgumentException.class, () -> new QpAttr().retryCnt(8));
        assertThrows(IllegalArgumentException.class, () -> new QpAttr().rnrRetry(8));
        assertThrows(IllegalArgumentException.class, () -> new QpAttr().pkeyIndex(0x10000));
        assertThrows(IllegalArgumentException.class, () -> new QpAttr().pathMigState(3));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new QpAttr().minRnrTimer(32));
        assertEquals("min_rnr_timer must be 0 to 31, not 32", e.getMessage());
    }

    @Test
    void ahAttrGrhSetsIsGlobal() {
        Gid gid = Gid.parse("fe80::1");
        AhAttr attr = new AhAttr();
        assertFalse(attr.isGlobal());
        attr.grh(gid, 3, 64);
        assertTrue(attr.isGlobal());
        assertEquals(gid, attr.dgid());
        assertEquals(3, attr.sgidIndex());
        assertEquals(64, attr.hopLimit());
        assertThrows(IllegalArgumentException.class, () -> new AhAttr().flowLabel(1 << 20));
        assertThrows(IllegalArgumentException.class, () -> new AhAttr().sl(16));
    }

    @Test
    void capsAndSrqAttrsRejectNegativeSizes() {
        assertThrows(IllegalArgumentException.class, () -> new QpCap(-1, 0, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new SrqAttr(0, -1, 0));
    }

    @Test
    void workRequestsKeepWhatIsSet() {
        Sge a = new Sge(0x1000, 64, 7);
        Sge b = new Sge(0x2000, 32, 7);
        SendWr wr = new SendWr().wrId(-1L).opcode(WrOpcode.ATOMIC_CMP_AND_SWP).sgList(a, b)
                .atomic(0x3000, 9, 41, 99).flags(SendFlags.SIGNALED | SendFlags.FENCE);
        assertEquals(2, wr.numSge());
        assertEquals(b, wr.sge(1));
        assertEquals(41, wr.compareAdd());
        assertEquals(99, wr.swap());
        assertEquals(1, wr.sge(a).numSge());
        assertThrows(IndexOutOfBoundsException.class, () -> wr.sge(1));
        assertThrows(NullPointerException.class, () -> new SendWr().ud(null, 0, 0));
        assertThrows(NullPointerException.class, () -> new QpInitAttr(QpType.RC, null, null));
        RecvWr recv = new RecvWr().wrId(5).sge(a).next(new RecvWr());
        assertEquals(1, recv.numSge());
        assertTrue(recv.next() != null);
    }

    @Test
    void enumsDecodeTheirNumbers() {
        assertEquals(WcStatus.REM_ACCESS_ERR, WcStatus.fromValue(10));
        assertEquals(WcOpcode.RECV_RDMA_WITH_IMM, WcOpcode.fromValue(129));
        assertTrue(WcOpcode.RECV.isRecv());
        assertFalse(WcOpcode.RDMA_READ.isRecv());
        assertEquals(QpType.UD, QpType.fromValue(4));
        assertEquals(EventType.SRQ_LIMIT_REACHED, EventType.fromValue(15));
        assertThrows(IllegalArgumentException.class, () -> WcStatus.fromValue(99));
        assertThrows(IllegalArgumentException.class, () -> WcOpcode.fromValue(8));
        assertThrows(IllegalArgumentException.class, () -> QpType.fromValue(8));
    }
}

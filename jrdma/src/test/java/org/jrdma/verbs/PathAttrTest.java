package org.jrdma.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.jrdma.devices.EndPort;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Mtu;
import org.jrdma.iba.PhysPortState;
import org.jrdma.iba.PortState;
import org.jrdma.iba.StaticRate;
import org.jrdma.path.IBPath;
import org.junit.jupiter.api.Test;

/**
 * The seed's two tables ("Verbs and IBPath"): each row of the QP table, transition by transition
 * and QP type by QP type, and each row of the AH table, checked on {@link QpAttr#forInit},
 * {@link QpAttr#forRtr}, {@link QpAttr#forRts} and {@link AhAttr#fromPath} with every attribute
 * set to a value that differs from the others.
 */
class PathAttrTest {
    private static final Gid GID_0 = Gid.parse("fe80::2:c903:0:1491");
    private static final Gid GID_1 = Gid.parse("fec0::2:c903:0:1491");
    private static final Gid REMOTE = Gid.parse("fe80::2:c903:0:2222");
    /** Port 2 of mlx4_0: base LID 0x10 with LMC 2, two GIDs, three P_Keys. */
    private static final EndPort PORT = EndPort.builder("mlx4_0", 2).lid(0x10).lmc(2).state(PortState.ACTIVE)
            .physState(PhysPortState.LINK_UP).gids(List.of(GID_0, GID_1)).pkeys(0xFFFF, 0x8001, 0x7FFF)
            .subnetTimeout(16).build();

    /** A path whose every attribute of both tables has a value of its own. */
    private static final IBPath PATH = IBPath.builder(PORT).pkey(0x8001).qkey(0x11111111).mtu(Mtu.MTU_2048)
            .retries(5).minRnrTimer(12).packetLifeTime(14).dackRespTime(16).sackRespTime(3).dqpn(0xABCDEF)
            .sqpn(0x123).dqpsn(0x654321).sqpsn(0x123456).drdatomic(8).srdatomic(4).hasGrh(true).dgid(REMOTE)
            .sgid(GID_1).flowLabel(0x12345).hopLimit(64).trafficClass(0x28).dlid(0x40).slid(0x12).sl(9)
            .rate(StaticRate.RATE_40_GBPS).build();

    @Test
    void initOfAConnectedQpTakesPortPkeyIndexAndAccess() {
        for (QpType type : new QpType[] {QpType.RC, QpType.UC}) {
            QpAttr attr = QpAttr.forInit(type, PATH, Access.REMOTE_WRITE | Access.REMOTE_READ);
            assertEquals(QpAttr.STATE | QpAttr.PKEY_INDEX | QpAttr.PORT | QpAttr.ACCESS_FLAGS, attr.mask(), type.name());
            assertEquals(QpState.INIT, attr.qpState());
            assertEquals(2, attr.portNum(), "end_port.port_id -> port_num");
            assertEquals(1, attr.pkeyIndex(), "pkey -> pkey_index");
            assertEquals(Access.REMOTE_WRITE | Access.REMOTE_READ, attr.qpAccessFlags());
        }
    }

    @Test
    void initOfAUdQpTakesTheQkey() {
        QpAttr attr = QpAttr.forInit(QpType.UD, PATH, Access.REMOTE_WRITE);
        assertEquals(QpAttr.STATE | QpAttr.PKEY_INDEX | QpAttr.PORT | QpAttr.QKEY, attr.mask());
        assertEquals(0x11111111, attr.qkey(), "qkey -> qkey");
        assertEquals(1, attr.pkeyIndex());
        assertEquals(2, attr.portNum());
        assertThrows(IllegalArgumentException.class, () -> QpAttr.forInit(QpType.UD, PATH.copy(b -> b.qkey(null)), 0));
    }

    @Test
    void rtrOfRcTakesMtuDestinationPsnAtomicsRnrTimerAndAddress() {
        QpAttr attr = QpAttr.forRtr(QpType.RC, PATH);
        assertEquals(QpAttr.STATE | QpAttr.PATH_MTU | QpAttr.DEST_QPN | QpAttr.RQ_PSN | QpAttr.AV
                | QpAttr.MAX_DEST_RD_ATOMIC | QpAttr.MIN_RNR_TIMER, attr.mask());
        assertEquals(QpState.RTR, attr.qpState());
        assertEquals(Mtu.MTU_2048, attr.pathMtu(), "MTU -> path_mtu");
        assertEquals(0xABCDEF, attr.destQpNum(), "dqpn -> dest_qp_num");
        assertEquals(0x654321, attr.rqPsn(), "dqpsn -> rq_psn");
        assertEquals(8, attr.maxDestRdAtomic(), "drdatomic -> max_dest_rd_atomic");
        assertEquals(12, attr.minRnrTimer(), "min_rnr_timer -> min_rnr_timer");
        assertEquals(AhAttr.fromPath(PATH).toString(), attr.ahAttr().toString());
    }

    @Test
    void rtrOfUcLeavesOutRcOnlyAttributesAndUdSetsOnlyTheState() {
        assertEquals(QpAttr.STATE | QpAttr.PATH_MTU | QpAttr.DEST_QPN | QpAttr.RQ_PSN | QpAttr.AV,
                QpAttr.forRtr(QpType.UC, PATH).mask());
        assertEquals(QpAttr.STATE, QpAttr.forRtr(QpType.UD, PATH).mask());
        assertEquals(QpAttr.STATE, QpAttr.forRtr(QpType.UD, PATH.copy(b -> b.dqpn(null))).mask());
        assertThrows(IllegalArgumentException.class, () -> QpAttr.forRtr(QpType.RC, PATH.copy(b -> b.dqpn(null))));
    }

    @Test
    void rtsOfRcTakesPsnTimeoutRetriesAndAtomics() {
        QpAttr attr = QpAttr.forRts(QpType.RC, PATH);
        assertEquals(QpAttr.STATE | QpAttr.SQ_PSN | QpAttr.TIMEOUT | QpAttr.RETRY_CNT | QpAttr.RNR_RETRY
                | QpAttr.MAX_QP_RD_ATOMIC, attr.mask());
        assertEquals(QpState.RTS, attr.qpState());
        assertEquals(0x123456, attr.sqPsn(), "sqpsn -> sq_psn");
        assertEquals(5, attr.retryCnt(), "retries -> retry_cnt");
        assertEquals(4, attr.maxRdAtomic(), "srdatomic -> max_rd_atomic");
        assertEquals(7, attr.rnrRetry(), "python-rdma's fixed rnr_retry");
        // 4.096 us * (2^(14+1) + 2^16) needs 2^17: packet_life_time and dack_resp_time -> timeout
        assertEquals(17, attr.timeout());
        assertEquals(17, QpAttr.forRts(QpType.RC, PATH.copy(b -> b.packetLifeTime(15).dackRespTime(2))).timeout());
        assertEquals(19, QpAttr.forRts(QpType.RC, PATH.copy(b -> b.packetLifeTime(14).dackRespTime(18))).timeout());
        assertEquals(7, QpAttr.forRts(QpType.RC, PATH.copy(b -> b.retries(200))).retryCnt(), "3 bits at most");
    }

    @Test
    void rtsOfUcAndUdTakesOnlyThePsn() {
        for (QpType type : new QpType[] {QpType.UC, QpType.UD}) {
            QpAttr attr = QpAttr.forRts(type, PATH);
            assertEquals(QpAttr.STATE | QpAttr.SQ_PSN, attr.mask(), type.name());
            assertEquals(0x123456, attr.sqPsn());
        }
    }

    @Test
    void timerValueIsTheSmallestCoveringTheTime() {
        assertEquals(0, QpAttr.timerValue(Duration.ofNanos(4096)));
        assertEquals(1, QpAttr.timerValue(Duration.ofNanos(4097)));
        assertEquals(10, QpAttr.timerValue(Duration.ofNanos(4096L << 10)));
        assertEquals(31, QpAttr.timerValue(Duration.ofDays(365)));
        assertEquals(31, QpAttr.timerValue(Duration.ofNanos(4096L << 31)));
    }

    @Test
    void addressVectorFollowsTheAhTable() {
        AhAttr attr = AhAttr.fromPath(PATH);
        assertTrue(attr.isGlobal(), "has_grh -> is_global");
        assertEquals(REMOTE, attr.dgid(), "DGID -> grh.dgid");
        assertEquals(1, attr.sgidIndex(), "SGID -> grh.sgid_index");
        assertEquals(0x12345, attr.flowLabel(), "flow_label -> grh.flow_label");
        assertEquals(64, attr.hopLimit(), "hop_limit -> grh.hop_limit");
        assertEquals(0x28, attr.trafficClass(), "traffic_class -> grh.traffic_class");
        assertEquals(0x40, attr.dlid(), "DLID -> dlid");
        assertEquals(2, attr.srcPathBits(), "SLID 0x12 under LMC 2 -> src_path_bits");
        assertEquals(9, attr.sl(), "SL -> sl");
        assertEquals(StaticRate.RATE_40_GBPS.value(), attr.staticRate(), "rate -> static_rate");
        assertEquals(2, attr.portNum(), "end_port.port_id -> port_num");
    }

    @Test
    void addressVectorWithoutGrhNeedsNoSgid() {
        AhAttr attr = AhAttr.fromPath(IBPath.builder(PORT).dlid(7).build());
        assertFalse(attr.isGlobal());
        assertEquals(7, attr.dlid());
        assertEquals(0, attr.sgidIndex());
        assertThrows(IllegalStateException.class, () -> AhAttr.fromPath(PATH.copy(b -> b.sgid(null))));
        assertThrows(IllegalStateException.class, () -> AhAttr.fromPath(PATH.copy(b -> b.endPort(null))));
    }

    @Test
    void pathsWithoutEndPortOrWithAForeignPkeyAreRefused() {
        IBPath noPort = PATH.copy(b -> b.endPort(null));
        assertThrows(IllegalStateException.class, () -> QpAttr.forInit(QpType.RC, noPort, 0));
        assertThrows(IllegalStateException.class, () -> QpAttr.forRtr(QpType.RC, noPort));
        assertThrows(org.jrdma.RdmaException.class, () -> QpAttr.forInit(QpType.RC, PATH.copy(b -> b.pkey(0x1234)), 0));
    }
}

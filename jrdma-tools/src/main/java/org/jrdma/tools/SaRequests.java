package org.jrdma.tools;

import org.jrdma.iba.sa.SaMcMemberRecord;
import org.jrdma.iba.sa.SaPathRecord;
import org.jrdma.tools.SaQueryTable.Template;

/**
 * The PathRecord and MCMemberRecord templates saquery builds from its options
 * ({@code query_path_records}, {@code query_mcmember_records}), byte for byte: the widths saquery
 * gives each value (the flow label is tested and set as a byte, the PathRecord HopLimit as the
 * whole word it shares with the flow label), the QoS class and SL packed as
 * {@code ib_path_rec_set_qos_class} packs them, the MTU, rate and packet lifetime bytes with their
 * selectors.
 */
final class SaRequests {
    private SaRequests() {
    }

    /** {@code query_path_records}: the PathRecord template of the options. */
    static Template pathRecord(SaqueryParams p) {
        Template t = new Template(64);
        t.val64(0, p.serviceId, 0, SaPathRecord.SERVICE_ID8_MSB_COMPONENT_MASK | SaPathRecord.SERVICE_ID56_LSB_COMPONENT_MASK);
        t.gid(24, p.sgid, SaPathRecord.SGID_COMPONENT_MASK);
        t.gid(8, p.dgid, SaPathRecord.DGID_COMPONENT_MASK);
        t.val16(42, p.slid, 0, SaPathRecord.SLID_COMPONENT_MASK);
        t.val16(40, p.dlid, 0, SaPathRecord.DLID_COMPONENT_MASK);
        t.val32(44, p.hopLimit, -1, SaPathRecord.HOP_LIMIT_COMPONENT_MASK);
        long flow = 0;
        if ((byte) p.flowLabel != 0) {
            flow = p.flowLabel & 0xff;
            t.mask |= SaPathRecord.FLOW_LABEL_COMPONENT_MASK;
        }
        t.put32(44, SaRecordPrinter.u32(t.bytes, 44) | (flow << 8));
        t.val8(48, p.tclass, 0, SaPathRecord.T_CLASS_COMPONENT_MASK);
        int reversible = 0;
        if ((byte) p.reversible != -1) {
            reversible = (int) p.reversible & 0xff;
            t.mask |= SaPathRecord.REVERSIBLE_COMPONENT_MASK;
        }
        t.val8(49, p.numbPath, -1, SaPathRecord.NUMB_PATH_COMPONENT_MASK);
        t.bytes[49] |= (byte) (reversible << 7);
        t.val16(50, p.pkey, 0, SaPathRecord.P_KEY_COMPONENT_MASK);
        t.val16(52, p.sl, -1, SaPathRecord.SL_COMPONENT_MASK);
        long qosClass = 0;
        if (p.qosClass != -1) {
            qosClass = p.qosClass;
            t.mask |= SaPathRecord.QOS_CLASS_COMPONENT_MASK;
        }
        int qosClassSl = (SaRecordPrinter.u16(t.bytes, 52) & 0xf) | (int) ((qosClass << 4) & 0xffff);
        t.bytes[52] = (byte) (qosClassSl >> 8);
        t.bytes[53] = (byte) qosClassSl;
        t.valAndSelector(54, p.mtu, SaPathRecord.MTU_SELECTOR_COMPONENT_MASK, SaPathRecord.MTU_COMPONENT_MASK);
        t.valAndSelector(55, p.rate, SaPathRecord.RATE_SELECTOR_COMPONENT_MASK, SaPathRecord.RATE_COMPONENT_MASK);
        t.valAndSelector(56, p.pktLife, SaPathRecord.PACKET_LIFE_TIME_SELECTOR_COMPONENT_MASK,
                SaPathRecord.PACKET_LIFE_TIME_COMPONENT_MASK);
        return t;
    }

    /** {@code query_mcmember_records}: the MCMemberRecord template of the options. */
    static Template mcMemberRecord(SaqueryParams p) {
        Template t = new Template(56);
        t.gid(0, p.mgid, SaMcMemberRecord.MGID_COMPONENT_MASK);
        t.gid(16, p.gid, SaMcMemberRecord.PORT_GID_COMPONENT_MASK);
        t.val16(36, p.mlid, 0, SaMcMemberRecord.MLID_COMPONENT_MASK);
        t.val32(32, p.qkey, 0, SaMcMemberRecord.Q_KEY_COMPONENT_MASK);
        t.valAndSelector(38, p.mtu, SaMcMemberRecord.MTU_SELECTOR_COMPONENT_MASK, SaMcMemberRecord.MTU_COMPONENT_MASK);
        t.valAndSelector(42, p.rate, SaMcMemberRecord.RATE_SELECTOR_COMPONENT_MASK, SaMcMemberRecord.RATE_COMPONENT_MASK);
        t.valAndSelector(43, p.pktLife, SaMcMemberRecord.PACKET_LIFE_TIME_SELECTOR_COMPONENT_MASK,
                SaMcMemberRecord.PACKET_LIFE_TIME_COMPONENT_MASK);
        t.val8(39, p.tclass, 0, SaMcMemberRecord.T_CLASS_COMPONENT_MASK);
        t.val16(40, p.pkey, 0, SaMcMemberRecord.P_KEY_COMPONENT_MASK);
        long sl = component(t, p.sl, -1, SaMcMemberRecord.SL_COMPONENT_MASK);
        long flow = component(t, p.flowLabel, 0, SaMcMemberRecord.FLOW_LABEL_COMPONENT_MASK);
        long hop = component(t, p.hopLimit, -1, SaMcMemberRecord.HOP_LIMIT_COMPONENT_MASK);
        t.put32(44, ((sl & 0xff) << 28) | ((flow & 0xfffff) << 8) | (hop & 0xff));
        long scope = component(t, p.scope, 0, SaMcMemberRecord.SCOPE_COMPONENT_MASK);
        t.val8(48, p.joinState, 0, SaMcMemberRecord.JOIN_STATE_COMPONENT_MASK);
        t.bytes[48] |= (byte) (scope << 4);
        if ((byte) p.proxyJoin != -1) {
            // ProxyJoin is a one-bit C bit-field, the low bit of its byte on the machines saquery runs on.
            t.bytes[49] = (byte) (p.proxyJoin & 1);
            t.mask |= SaMcMemberRecord.PROXY_JOIN_COMPONENT_MASK;
        }
        return t;
    }

    /** A byte-wide value set aside for packing: its low byte if it differs from {@code unset} there, else 0. */
    private static long component(Template t, long value, long unset, long bit) {
        if ((byte) value != (byte) unset) {
            t.mask |= bit;
            return value & 0xff;
        }
        return 0;
    }
}

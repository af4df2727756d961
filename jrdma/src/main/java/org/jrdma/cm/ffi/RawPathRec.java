package org.jrdma.cm.ffi;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import org.jrdma.iba.Gid;

/**
 * {@code struct ibv_sa_path_rec} copied into Java: a path record (IBA 15.2.5.16) as librdmacm
 * reports the paths of a resolved route, every member a host value. {@link #writeRecord} writes
 * it as the wire-form {@code struct ibv_path_record} that {@code RDMA_OPTION_IB_PATH} takes.
 *
 * @param dgid                   destination GID
 * @param sgid                   source GID
 * @param dlid                   destination LID (0 on RoCE)
 * @param slid                   source LID
 * @param rawTraffic             {@code raw_traffic}
 * @param flowLabel              GRH flow label, 20 bits
 * @param hopLimit               GRH hop limit
 * @param trafficClass           GRH traffic class
 * @param reversible             {@code reversible}, non-zero when the path is
 * @param numbPath               {@code numb_path}
 * @param pkey                   P_Key
 * @param sl                     service level
 * @param mtuSelector            {@code mtu_selector}
 * @param mtu                    path MTU, IBA code (1 = 256 .. 5 = 4096)
 * @param rateSelector           {@code rate_selector}
 * @param rate                   static rate, IBA code
 * @param packetLifeTimeSelector {@code packet_life_time_selector}
 * @param packetLifeTime         packet lifetime, 4.096 µs × 2^value
 * @param preference             {@code preference}
 */
public record RawPathRec(Gid dgid, Gid sgid, int dlid, int slid, int rawTraffic, int flowLabel, int hopLimit,
        int trafficClass, int reversible, int numbPath, int pkey, int sl, int mtuSelector, int mtu, int rateSelector,
        int rate, int packetLifeTimeSelector, int packetLifeTime, int preference) {
    private static final long DGID = CmStructs.offset(CmStructs.IBV_SA_PATH_REC, "dgid");
    private static final long SGID = CmStructs.offset(CmStructs.IBV_SA_PATH_REC, "sgid");
    private static final VarHandle DLID = h("dlid");
    private static final VarHandle SLID = h("slid");
    private static final VarHandle RAW_TRAFFIC = h("raw_traffic");
    private static final VarHandle FLOW_LABEL = h("flow_label");
    private static final VarHandle HOP_LIMIT = h("hop_limit");
    private static final VarHandle TRAFFIC_CLASS = h("traffic_class");
    private static final VarHandle REVERSIBLE = h("reversible");
    private static final VarHandle NUMB_PATH = h("numb_path");
    private static final VarHandle PKEY = h("pkey");
    private static final VarHandle SL = h("sl");
    private static final VarHandle MTU_SELECTOR = h("mtu_selector");
    private static final VarHandle MTU = h("mtu");
    private static final VarHandle RATE_SELECTOR = h("rate_selector");
    private static final VarHandle RATE = h("rate");
    private static final VarHandle PLT_SELECTOR = h("packet_life_time_selector");
    private static final VarHandle PLT = h("packet_life_time");
    private static final VarHandle PREFERENCE = h("preference");

    private static final long R_DGID = CmStructs.offset(CmStructs.IBV_PATH_RECORD, "dgid");
    private static final long R_SGID = CmStructs.offset(CmStructs.IBV_PATH_RECORD, "sgid");
    private static final VarHandle R_DLID = r("dlid");
    private static final VarHandle R_SLID = r("slid");
    private static final VarHandle R_FLOWLABEL_HOPLIMIT = r("flowlabel_hoplimit");
    private static final VarHandle R_TCLASS = r("tclass");
    private static final VarHandle R_REVERSIBLE_NUMPATH = r("reversible_numpath");
    private static final VarHandle R_PKEY = r("pkey");
    private static final VarHandle R_QOSCLASS_SL = r("qosclass_sl");
    private static final VarHandle R_MTU = r("mtu");
    private static final VarHandle R_RATE = r("rate");
    private static final VarHandle R_PACKETLIFETIME = r("packetlifetime");
    private static final VarHandle R_PREFERENCE = r("preference");

    private static final int FLOW_LABEL_MASK = 0xF_FFFF;
    private static final int BYTE = 0xFF;
    private static final int SIX_BITS = 0x3F;
    private static final int SEVEN_BITS = 0x7F;
    private static final int SL_MASK = 0xF;

    /** The {@code struct ibv_sa_path_rec} at the start of {@code s}. */
    static RawPathRec read(MemorySegment s) {
        return new RawPathRec(Gid.fromSegment(s, DGID), Gid.fromSegment(s, SGID), u16(DLID.get(s, 0L)),
                u16(SLID.get(s, 0L)), (int) RAW_TRAFFIC.get(s, 0L), (int) FLOW_LABEL.get(s, 0L), u8(HOP_LIMIT.get(s, 0L)),
                u8(TRAFFIC_CLASS.get(s, 0L)), (int) REVERSIBLE.get(s, 0L), u8(NUMB_PATH.get(s, 0L)), u16(PKEY.get(s, 0L)),
                u8(SL.get(s, 0L)), u8(MTU_SELECTOR.get(s, 0L)), u8(MTU.get(s, 0L)), u8(RATE_SELECTOR.get(s, 0L)),
                u8(RATE.get(s, 0L)), u8(PLT_SELECTOR.get(s, 0L)), u8(PLT.get(s, 0L)), u8(PREFERENCE.get(s, 0L)));
    }

    /**
     * Writes this path as a {@code struct ibv_path_record} at the start of {@code s} (service ID
     * 0): flow label in bits 27:8 and hop limit in 7:0 of one word, reversible in bit 7 and the
     * number of paths in 6:0 of one byte, the SL in bits 3:0, each selector in bits 7:6 of its
     * value's byte.
     */
    void writeRecord(MemorySegment s) {
        dgid.writeTo(s, R_DGID);
        sgid.writeTo(s, R_SGID);
        R_DLID.set(s, 0L, (short) dlid);
        R_SLID.set(s, 0L, (short) slid);
        R_FLOWLABEL_HOPLIMIT.set(s, 0L, (flowLabel & FLOW_LABEL_MASK) << 8 | hopLimit & BYTE);
        R_TCLASS.set(s, 0L, (byte) trafficClass);
        R_REVERSIBLE_NUMPATH.set(s, 0L, (byte) ((reversible != 0 ? 0x80 : 0) | numbPath & SEVEN_BITS));
        R_PKEY.set(s, 0L, (short) pkey);
        R_QOSCLASS_SL.set(s, 0L, (short) (sl & SL_MASK));
        R_MTU.set(s, 0L, (byte) (mtuSelector << 6 | mtu & SIX_BITS));
        R_RATE.set(s, 0L, (byte) (rateSelector << 6 | rate & SIX_BITS));
        R_PACKETLIFETIME.set(s, 0L, (byte) (packetLifeTimeSelector << 6 | packetLifeTime & SIX_BITS));
        R_PREFERENCE.set(s, 0L, (byte) preference);
    }

    private static VarHandle h(String name) {
        return CmStructs.handle(CmStructs.IBV_SA_PATH_REC, name);
    }

    private static VarHandle r(String name) {
        return CmStructs.handle(CmStructs.IBV_PATH_RECORD, name);
    }

    private static int u8(Object b) {
        return Byte.toUnsignedInt((byte) b);
    }

    private static int u16(Object s) {
        return Short.toUnsignedInt((short) s);
    }
}

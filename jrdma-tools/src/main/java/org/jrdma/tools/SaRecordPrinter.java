package org.jrdma.tools;

import java.nio.charset.StandardCharsets;
import org.jrdma.iba.Gid;

/**
 * What saquery prints for the records it dumps with its own {@code printf} formats (saquery.c's
 * {@code dump_*} functions), byte for byte, read from the record's bytes as the C structures of
 * OpenSM's {@code ib_types.h} read them, quirks included (MCMemberRecord's ProxyJoin is the low bit
 * of its byte, a C bit-field). NodeRecord, PortInfoRecord, PathRecord, LinkRecord and SMInfoRecord
 * are printed by {@link org.jrdma.iba.diag.SaQuery}.
 */
public final class SaRecordPrinter {
    private static final String NOT_DISPLAYED = "<not displayed>";

    private SaRecordPrinter() {
    }

    /** saquery {@code -c} and {@code CPI}: the SA's ClassPortInfo ({@code dump_class_port_info}). */
    static String classPortInfo(byte[] c) {
        return String.format("""
                SA ClassPortInfo:
                \t\tBase version.............%d
                \t\tClass version............%d
                \t\tCapability mask..........0x%04X
                \t\tCapability mask 2........0x%08X
                \t\tResponse time value......0x%02X
                \t\tRedirect GID.............%s
                \t\tRedirect TC/SL/FL........0x%08X
                \t\tRedirect LID.............%d
                \t\tRedirect PKey............0x%04X
                \t\tRedirect QP..............0x%08X
                \t\tRedirect QKey............0x%08X
                \t\tTrap GID.................%s
                \t\tTrap TC/SL/FL............0x%08X
                \t\tTrap LID.................%d
                \t\tTrap PKey................0x%04X
                \t\tTrap HL/QP...............0x%08X
                \t\tTrap QKey................0x%08X
                """, u8(c, 0), u8(c, 1), u16(c, 2), u32(c, 4) >>> 5, u32(c, 4) & 0x1f, gid(c, 8), u32(c, 24), u16(c, 28),
                u16(c, 30), u32(c, 32), u32(c, 36), gid(c, 40), u32(c, 56), u16(c, 60), u16(c, 62), u32(c, 64), u32(c, 68));
    }

    /** saquery {@code -s}: a PortInfoRecord's LIDs and CapabilityMask ({@code dump_portinfo_record}). */
    static String portInfoBrief(byte[] r) {
        return String.format("""
                PortInfoRecord dump:
                \t\tEndPortLid..............%d
                \t\tPortNum.................%d
                \t\tbase_lid................%d
                \t\tmaster_sm_base_lid......%d
                \t\tcapability_mask.........0x%X
                """, u16(r, 0), u8(r, 2), u16(r, 20), u16(r, 22), u32(r, 24));
    }

    /** saquery {@code SL2VL}: {@code dump_one_slvl_record}. */
    static String slToVl(byte[] r) {
        StringBuilder vls = new StringBuilder();
        for (int sl = 0; sl < 16; sl++) {
            vls.append(String.format("%2d|", (u8(r, 8 + sl / 2) >> (sl % 2 == 0 ? 4 : 0)) & 0xf));
        }
        return String.format("""
                SL2VLTableRecord dump:
                \t\tLID........................%d
                \t\tInPort.....................%d
                \t\tOutPort....................%d
                \t\tSL: 0| 1| 2| 3| 4| 5| 6| 7| 8| 9|10|11|12|13|14|15|
                \t\tVL:%s
                """, u16(r, 0), u8(r, 2), u8(r, 3), vls);
    }

    /** saquery {@code VLAR}: {@code dump_one_vlarb_record}, the VL byte printed whole. */
    static String vlArbitration(byte[] r) {
        StringBuilder out = new StringBuilder(String.format("""
                VLArbTableRecord dump:
                \t\tLID........................%d
                \t\tPort.......................%d
                \t\tBlock......................%d
                """, u16(r, 0), u8(r, 2), u8(r, 3)));
        for (int i = 0; i < 32; i += 16) {
            StringBuilder vl = new StringBuilder("\t\tVL    :");
            StringBuilder weight = new StringBuilder("\t\tWeight:");
            for (int e = i; e < i + 16; e++) {
                vl.append(String.format("%2d|", u8(r, 8 + 2 * e)));
                weight.append(String.format("%2d|", u8(r, 9 + 2 * e)));
            }
            out.append(vl).append('\n').append(weight).append('\n');
        }
        return out.toString();
    }

    /** saquery {@code PKTR}: {@code dump_one_pkey_tbl_record}, eight P_Keys a line and an empty line. */
    static String pKeyTable(byte[] r) {
        StringBuilder out = new StringBuilder(String.format("""
                PKeyTableRecord dump:
                \t\tLID........................%d
                \t\tPort.......................%d
                \t\tBlock......................%d
                \t\tPKey Table:
                """, u16(r, 0), u8(r, 4), u16(r, 2)));
        for (int i = 0; i < 32; i += 8) {
            out.append("\t\t");
            for (int k = i; k < i + 8; k++) {
                out.append(String.format(k == i ? "0x%04x" : " 0x%04x", u16(r, 8 + 2 * k)));
            }
            out.append('\n');
        }
        return out.append('\n').toString();
    }

    /** saquery {@code LFTR}: {@code dump_one_lft_record}, one LID and port a line. */
    static String linearForwardingTable(byte[] r) {
        int block = u16(r, 2);
        StringBuilder out = new StringBuilder(String.format("""
                LFT Record dump:
                \t\tLID........................%d
                \t\tBlock......................%d
                \t\tLFT:
                \t\tLID\tPort Number
                """, u16(r, 0), block));
        for (int i = 0; i < 64; i++) {
            out.append(String.format("\t\t%d\t%d\n", block * 64L + i, u8(r, 8 + i)));
        }
        return out.append('\n').toString();
    }

    /** saquery {@code MFTR}: {@code dump_one_mft_record}, one MLID and port mask a line. */
    static String multicastForwardingTable(byte[] r) {
        int positionBlock = u16(r, 2);
        int block = positionBlock & 0x1ff;
        StringBuilder out = new StringBuilder(String.format("""
                MFT Record dump:
                \t\tLID........................%d
                \t\tPosition...................%d
                \t\tBlock......................%d
                \t\tMFT:
                \t\tMLID\tPort Mask
                """, u16(r, 0), positionBlock >> 12, block));
        for (int i = 0; i < 32; i++) {
            out.append(String.format("\t\t0x%04x\t0x%04x\n", 0xc000 + block * 32 + i, u16(r, 8 + 2 * i)));
        }
        return out.append('\n').toString();
    }

    /** saquery {@code GIR}: {@code dump_one_guidinfo_record}. */
    public static String guidInfo(byte[] r) {
        StringBuilder out = new StringBuilder(String.format("""
                GUIDInfo Record dump:
                \t\tLID........................%d
                \t\tBlock......................%d
                """, u16(r, 0), u8(r, 2)));
        for (int i = 0; i < 8; i++) {
            out.append(String.format("\t\tGUID %d.....................0x%016x\n", i, u64(r, 8 + 8 * i)));
        }
        return out.toString();
    }

    /** saquery {@code SWIR}: {@code dump_switch_info_record}; MulticastFDBTop only if the SA's CapabilityMask2 has IsMcastTopSupported (bit 3). */
    static String switchInfo(byte[] r, long saCapabilityMask2) {
        String out = String.format("""
                SwitchInfoRecord dump:
                \t\tRID
                \t\tLID.....................................%d
                \t\tSwitchInfo dump:
                \t\tLinearFDBCap............................0x%X
                \t\tRandomFDBCap............................0x%X
                \t\tMulticastFDBCap.........................0x%X
                \t\tLinearFDBTop............................0x%X
                \t\tDefaultPort.............................%d
                \t\tDefaultMulticastPrimaryPort.............%d
                \t\tDefaultMulticastNotPrimaryPort..........%d
                \t\tLifeTimeValue/PortStateChange/OpSL2VL...0x%X
                \t\tLIDsPerPort.............................0x%X
                \t\tPartitionEnforcementCap.................0x%X
                \t\tflags...................................0x%X
                """, u16(r, 0), u16(r, 4), u16(r, 6), u16(r, 8), u16(r, 10), u8(r, 12), u8(r, 13), u8(r, 14), u8(r, 15),
                u16(r, 16), u16(r, 18), u8(r, 20));
        if ((saCapabilityMask2 & (1 << 3)) != 0) {
            out += String.format("\t\tMulticastFDBTop.........................0x%X\n", u16(r, 22));
        }
        return out;
    }

    /** saquery {@code IIR}: {@code dump_inform_info_record}, generic or vendor; the QPN hidden unless keys are shown. */
    static String informInfo(byte[] r, boolean showKeys) {
        boolean generic = u8(r, 46) != 0;
        long qpnResp = u32(r, 52);
        String qpn = showKeys ? String.format("0x%06X", qpnResp >>> 8) : NOT_DISPLAYED;
        return String.format("""
                InformInfoRecord dump:
                \t\tRID
                \t\tSubscriberGID...........%s
                \t\tSubscriberEnum..........0x%X
                \t\tInformInfo dump:
                \t\tgid.....................%s
                \t\tlid_range_begin.........%d
                \t\tlid_range_end...........%d
                \t\tis_generic..............0x%X
                \t\tsubscribe...............0x%X
                \t\ttrap_type...............0x%X
                \t\t%s
                \t\tqpn.....................%s
                \t\tresp_time_val...........0x%X
                \t\t%s...............0x%06X
                """, gid(r, 0), u16(r, 16), gid(r, 24), u16(r, 40), u16(r, 42), u8(r, 46), u8(r, 47), u16(r, 48),
                generic ? String.format("trap_num................%d", u16(r, 50)) : String.format("dev_id..................0x%X", u16(r, 50)),
                qpn, qpnResp & 0x1f, generic ? "node_type" : "vendor_id", (u8(r, 57) << 16) | u16(r, 58));
    }

    /** saquery {@code SR} and {@code -S}: {@code dump_service_record}; the ServiceKey hidden unless keys are shown. */
    static String service(byte[] r, boolean showKeys) {
        StringBuilder key = new StringBuilder("0x");
        for (int i = 0; i < 16; i++) {
            key.append(String.format("%02x", u8(r, 32 + i)));
        }
        int nameEnd = 48;
        while (nameEnd < 112 && r[nameEnd] != 0) {
            nameEnd++;
        }
        StringBuilder out = new StringBuilder(String.format("""
                ServiceRecord dump:
                \t\tServiceID...............0x%016x
                \t\tServiceGID..............%s
                \t\tServiceP_Key............0x%X
                \t\tServiceLease............0x%X
                \t\tServiceKey..............%s
                \t\tServiceName.............%s
                """, u64(r, 0), gid(r, 8), u16(r, 24), u32(r, 28), showKeys ? key : NOT_DISPLAYED,
                new String(r, 48, nameEnd - 48, StandardCharsets.ISO_8859_1)));
        for (int i = 0; i < 16; i++) {
            out.append(dataLine("ServiceData8." + (i + 1), "0x" + Integer.toHexString(u8(r, 112 + i)).toUpperCase()));
        }
        for (int i = 0; i < 8; i++) {
            out.append(dataLine("ServiceData16." + (i + 1), "0x" + Integer.toHexString(u16(r, 128 + 2 * i)).toUpperCase()));
        }
        for (int i = 0; i < 4; i++) {
            out.append(dataLine("ServiceData32." + (i + 1), "0x" + Long.toHexString(u32(r, 144 + 4 * i)).toUpperCase()));
        }
        for (int i = 0; i < 2; i++) {
            out.append(dataLine("ServiceData64." + (i + 1), String.format("0x%016x", u64(r, 160 + 8 * i))));
        }
        return out.toString();
    }

    private static String dataLine(String label, String value) {
        return "\t\t" + label + ".".repeat(24 - label.length()) + value + "\n";
    }

    /** saquery {@code MCMR}: {@code dump_one_mcmember_record}. */
    static String mcMember(byte[] r) {
        long slFlowHop = u32(r, 44);
        return String.format("""
                MCMember Record dump:
                \t\tMGID....................%s
                \t\tPortGid.................%s
                \t\tqkey....................0x%x
                \t\tmlid....................0x%x
                \t\tmtu.....................0x%x
                \t\tTClass..................0x%x
                \t\tpkey....................0x%x
                \t\trate....................0x%x
                \t\tpkt_life................0x%x
                \t\tSL......................0x%x
                \t\tFlowLabel...............0x%x
                \t\tHopLimit................0x%x
                \t\tScope...................0x%x
                \t\tJoinState...............0x%x
                \t\tProxyJoin...............0x%x
                """, gid(r, 0), gid(r, 16), u32(r, 32), u16(r, 36), u8(r, 38), u8(r, 39), u16(r, 40), u8(r, 42), u8(r, 43),
                slFlowHop >>> 28, (slFlowHop >>> 8) & 0xfffff, slFlowHop & 0xff, u8(r, 48) >> 4, u8(r, 48) & 0xf, u8(r, 49) & 1);
    }

    /** saquery {@code -g}: {@code dump_multicast_group_record}. */
    static String mcGroup(byte[] r) {
        return String.format("""
                MCMemberRecord group dump:
                \t\tMGID....................%s
                \t\tMlid....................0x%X
                \t\tMtu.....................0x%X
                \t\tpkey....................0x%X
                \t\tRate....................0x%X
                \t\tSL......................0x%X
                """, gid(r, 0), u16(r, 36), u8(r, 38), u16(r, 40), u8(r, 42), u32(r, 44) >>> 28);
    }

    /** saquery {@code -m}: {@code dump_multicast_member_record}, the member's node named ({@code <unknown>} if no node has its port GUID). */
    static String mcMember(byte[] r, String nodeName) {
        return String.format("""
                MCMemberRecord member dump:
                \t\tMGID....................%s
                \t\tMlid....................0x%X
                \t\tPortGid.................%s
                \t\tScopeState..............0x%X
                \t\tProxyJoin...............0x%X
                \t\tNodeDescription.........%s
                """, gid(r, 0), u16(r, 36), gid(r, 16), u8(r, 48), u8(r, 49) & 1, nodeName);
    }

    /** saquery {@code -m <mlid>}: the one line of a member of that group. */
    static String mcMemberGid(byte[] r, String nodeName) {
        return String.format("\t\tPortGid.................%s (%s)\n", gid(r, 16), nodeName);
    }

    static int u8(byte[] b, int offset) {
        return b[offset] & 0xff;
    }

    static int u16(byte[] b, int offset) {
        return (u8(b, offset) << 8) | u8(b, offset + 1);
    }

    static long u32(byte[] b, int offset) {
        return ((long) u16(b, offset) << 16) | u16(b, offset + 2);
    }

    static long u64(byte[] b, int offset) {
        return (u32(b, offset) << 32) | u32(b, offset + 4);
    }

    private static String gid(byte[] b, int offset) {
        return Gid.fromBytes(b, offset).toString();
    }
}

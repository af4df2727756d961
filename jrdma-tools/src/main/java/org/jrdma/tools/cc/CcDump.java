package org.jrdma.tools.cc;

import java.util.HexFormat;
import org.jrdma.iba.cc.CcCaCongestionEntry;
import org.jrdma.iba.cc.CcCongestionControlTableEntry;
import org.jrdma.iba.cc.CcCongestionLogEventCa;
import org.jrdma.iba.cc.CcCongestionLogEventSwitch;
import org.jrdma.iba.cc.CcSwitchPortCongestionSettingElement;
import org.jrdma.iba.diag.Padding;
import org.jrdma.iba.mad.MadClassPortInfo;

/**
 * The congestion control attributes as libibmad's {@code mad_dump_cc_*} and
 * {@code mad_dump_classportinfo} write them: one {@code Name:.....value} line per field, the value
 * in column 34, unsigned fields in decimal, hex fields as {@code 0x} and two digits a byte, byte
 * arrays as bare hex.
 */
final class CcDump {
    private final StringBuilder text = new StringBuilder();

    /** The lines written so far. */
    @Override
    public String toString() {
        return text.toString();
    }

    CcDump uint(String name, long value) {
        return line(name, Long.toUnsignedString(value));
    }

    /** {@code mad_dump_hex}: 0x and two digits for each byte the field's {@code bits} span. */
    CcDump hex(String name, long value, int bits) {
        String digits = Long.toHexString(value);
        int width = 2 * ((bits + 7) / 8);
        return line(name, "0x" + "0".repeat(Math.max(0, width - digits.length())) + digits);
    }

    /** {@code mad_dump_array}: each byte as two hex digits. */
    CcDump array(String name, byte[] bytes) {
        return line(name, HexFormat.of().formatHex(bytes));
    }

    private CcDump line(String name, String value) {
        text.append(Padding.IBMAD.prefix(name, value)).append(value).append('\n');
        return this;
    }

    static String classPortInfo(MadClassPortInfo cpi) {
        byte[] bytes = cpi.toBytes();
        byte[] redirectGid = new byte[16];
        byte[] trapGid = new byte[16];
        System.arraycopy(bytes, 8, redirectGid, 0, 16);
        System.arraycopy(bytes, 40, trapGid, 0, 16);
        return new CcDump().uint("BaseVersion", cpi.baseVersion()).uint("ClassVersion", cpi.classVersion())
                .hex("CapabilityMask", cpi.capabilityMask(), 16).hex("CapabilityMask2", cpi.capabilityMask2(), 27)
                .uint("RespTimeVal", cpi.respTimeValue()).array("RedirectGID", redirectGid).hex("RedirectTC", cpi.redirectTc(), 8)
                .uint("RedirectSL", cpi.redirectSl()).hex("RedirectFL", cpi.redirectFl(), 20).uint("RedirectLID", cpi.redirectLid())
                .hex("RedirectPKey", cpi.redirectPKey(), 16).hex("RedirectQP", cpi.redirectQp(), 24)
                .hex("RedirectQKey", cpi.redirectQKey(), 32).array("TrapGID", trapGid).hex("TrapTC", cpi.trapTc(), 8)
                .uint("TrapSL", cpi.trapSl()).hex("TrapFL", cpi.trapFl(), 20).uint("TrapLID", cpi.trapLid())
                .hex("TrapPKey", cpi.trapPKey(), 16).uint("TrapHL", cpi.trapHl()).hex("TrapQP", cpi.trapQp(), 24)
                .hex("TrapQKey", cpi.trapQKey(), 32).toString();
    }

    static String switchPortElement(CcSwitchPortCongestionSettingElement e) {
        return new CcDump().uint("Valid", e.valid()).uint("Control_Type", e.controlType()).hex("Threshold", e.threshold(), 4)
                .uint("Packet_Size", e.packetSize()).uint("Cong_Parm_Marking_Rate", e.congParmMarkingRate()).toString();
    }

    static String caEntry(CcCaCongestionEntry e) {
        return new CcDump().uint("CCTI_Timer", e.cctiTimer()).uint("CCTI_Increase", e.cctiIncrease())
                .uint("Trigger_Threshold", e.triggerThreshold()).uint("CCTI_Min", e.cctiMin()).toString();
    }

    static String tableEntry(CcCongestionControlTableEntry e) {
        return new CcDump().uint("CCT_Shift", e.cctShift()).uint("CCT_Multiplier", e.cctMultiplier()).toString();
    }

    static String switchLogEvent(CcCongestionLogEventSwitch e) {
        return new CcDump().uint("SLID", e.slid()).uint("DLID", e.dlid()).uint("SL", e.sl()).uint("Timestamp", e.timestamp()).toString();
    }

    static String caLogEvent(CcCongestionLogEventCa e) {
        return new CcDump().uint("Local_QP_CN_Entry", e.localQpCnEntry()).uint("SL_CN_Entry", e.slCnEntry())
                .hex("Service_Type_CN_Entry", e.serviceTypeCnEntry(), 4).uint("Remote_QP_Number_CN_Entry", e.remoteQpNumberCnEntry())
                .uint("Local_LID_CN", e.localLidCn()).uint("Remote_LID_CN_Entry", e.remoteLidCnEntry())
                .uint("Timestamp_CN_Entry", e.timestampCnEntry()).toString();
    }
}

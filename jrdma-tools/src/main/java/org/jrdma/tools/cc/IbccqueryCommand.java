package org.jrdma.tools.cc;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jrdma.RdmaException;
import org.jrdma.iba.cc.CcCaCongestionEntry;
import org.jrdma.iba.cc.CcCaCongestionSetting;
import org.jrdma.iba.cc.CcCongestionControlTable;
import org.jrdma.iba.cc.CcCongestionControlTableEntry;
import org.jrdma.iba.cc.CcCongestionInfo;
import org.jrdma.iba.cc.CcCongestionKeyInfo;
import org.jrdma.iba.cc.CcCongestionLog;
import org.jrdma.iba.cc.CcCongestionLogCa;
import org.jrdma.iba.cc.CcCongestionLogEventCa;
import org.jrdma.iba.cc.CcCongestionLogEventSwitch;
import org.jrdma.iba.cc.CcCongestionLogSwitch;
import org.jrdma.iba.cc.CcSwitchCongestionSetting;
import org.jrdma.iba.cc.CcSwitchPortCongestionSetting;
import org.jrdma.iba.cc.CcSwitchPortCongestionSettingElement;
import org.jrdma.iba.cc.CcTimestamp;
import org.jrdma.iba.mad.MadClassPortInfo;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.tools.CNumbers;
import org.jrdma.tools.json.JsonOutput;
import picocli.CommandLine.Command;

/**
 * {@code ibtool ibccquery}: infiniband-diags' ibccquery, a Congestion Control attribute (class
 * 0x21, IBA annex A10) of a port read by CC Get with the CC_Key of {@code -c}: ClassPortInfo,
 * CongestionInfo, CongestionKeyInfo, CongestionLog, SwitchCongestionSetting,
 * SwitchPortCongestionSetting (every port of a switch, or one), CACongestionSetting,
 * CongestionControlTable (every block up to CCTI_Limit) and Timestamp, each printed as libibmad
 * dumps it after a {@code # <attribute>: Lid <n>} line.
 *
 * <p>As the C tool does, SwitchPortCongestionSetting counts 48 ports a block (IBA: 32), reading
 * ports past the 32nd of a block from the rest of the MAD's data.
 *
 * <p>With {@code --json} the document's value is the attribute, its components by their IBA
 * names; a CongestionLog's {@code congestionEntryList} holds the events the text shows (not the
 * empty ones), a SwitchPortCongestionSetting is the list of the ports shown ({@code [{portNum,
 * setting}]}), a CongestionControlTable {@code {cctiLimit, entries}} with the entries shown.
 */
@Command(name = "ibccquery", mixinStandardHelpOptions = true,
        description = "Query a congestion control attribute of a port: ClassPortInfo (CP), CongestionInfo (CI), CongestionKeyInfo (CK), "
                + "CongestionLog (CL), SwitchCongestionSetting (SS), SwitchPortCongestionSetting (SP), CACongestionSetting (CS), "
                + "CongestionControlTable (CT), Timestamp (TI).")
public final class IbccqueryCommand extends CcCommand {
    /** The ports of one SwitchPortCongestionSetting block as ibccquery counts them. */
    private static final int PORTS_PER_BLOCK = 48;
    private static final int SWITCH_NODE = 2;

    /**
     * One port's SwitchPortCongestionSettingElement, as the document lists them.
     *
     * @param portNum the port
     * @param setting its element
     */
    public record PortSetting(int portNum, CcSwitchPortCongestionSettingElement setting) {
    }

    /**
     * The CongestionControlTable as the document has it.
     *
     * @param cctiLimit the CCTI_Limit
     * @param entries   the entries shown, from index 0
     */
    public record ControlTable(int cctiLimit, List<CcCongestionControlTableEntry> entries) {
    }

    @Override
    List<Operation> operations() {
        return List.of(new Operation("ClassPortInfo", "CP", this::classPortInfo),
                new Operation("CongestionInfo", "CI", this::congestionInfo),
                new Operation("CongestionKeyInfo", "CK", this::congestionKeyInfo),
                new Operation("CongestionLog", "CL", this::congestionLog),
                new Operation("SwitchCongestionSetting", "SS", this::switchCongestionSetting),
                new Operation("SwitchPortCongestionSetting", "SP", this::switchPortCongestionSetting),
                new Operation("CACongestionSetting", "CS", this::caCongestionSetting),
                new Operation("CongestionControlTable", "CT", this::congestionControlTable),
                new Operation("Timestamp", "TI", this::timestamp));
    }

    private String classPortInfo(Target target, List<String> args) {
        MadClassPortInfo cpi;
        try {
            cpi = target.cc().get(new MadClassPortInfo(), 0);
        } catch (RdmaException e) {
            return target.failed(e, "class port info query failed");
        }
        print("# ClassPortInfo: " + target.name() + "\n" + CcDump.classPortInfo(cpi));
        result(cpi, null);
        return null;
    }

    private String congestionInfo(Target target, List<String> args) {
        CcCongestionInfo info;
        try {
            info = target.cc().get(new CcCongestionInfo(), 0);
        } catch (RdmaException e) {
            return target.failed(e, "congestion info query failed");
        }
        print("# CongestionInfo: " + target.name() + "\n" + new CcDump().hex("CongestionInfo", info.congestionInfo(), 16)
                .uint("ControlTableCap", info.controlTableCap()));
        result(info, null);
        return null;
    }

    private String congestionKeyInfo(Target target, List<String> args) {
        CcCongestionKeyInfo info;
        try {
            info = target.cc().get(new CcCongestionKeyInfo(), 0);
        } catch (RdmaException e) {
            return target.failed(e, "congestion key info query failed");
        }
        print("# CongestionKeyInfo: " + target.name() + "\n" + new CcDump().hex("CC_Key", info.ccKey(), 64)
                .uint("CC_KeyProtectBit", info.ccKeyProtectBit()).uint("CC_KeyLeasePeriod", info.ccKeyLeasePeriod())
                .uint("CC_KeyViolations", info.ccKeyViolations()));
        result(info, null);
        return null;
    }

    private String congestionLog(Target target, List<String> args) {
        byte[] data;
        try {
            data = target.cc().getData(new CcCongestionLog(), 0);
        } catch (RdmaException e) {
            return target.failed(e, "congestion log query failed");
        }
        int type = data[0] & 0xFF;
        if (type != 1 && type != 2) {
            return "unrecognized log type";
        }
        print("# CongestionLog: " + target.name() + "\n" + new CcDump().uint("LogType", type).hex("CongestionFlags", data[1] & 0xFF, 8));
        List<IbaStruct> events = new ArrayList<>();
        IbaStruct log;
        if (type == 1) {
            CcCongestionLogSwitch switchLog = new CcCongestionLogSwitch().unpack(data, 0);
            log = switchLog;
            print(new CcDump().uint("LogEventsCounter", switchLog.logEventsCounter()).uint("CurrentTimeStamp", switchLog.currentTimeStamp())
                    .array("PortMap", switchLog.portMap()) + "\n");
            for (int i = 0; i < 15; i++) {
                int at = 40 + i * CcCongestionLogEventSwitch.SIZE;
                if (!zero(data, at, CcCongestionLogEventSwitch.SIZE)) {
                    CcCongestionLogEventSwitch event = new CcCongestionLogEventSwitch().unpack(data, at);
                    events.add(event);
                    print(CcDump.switchLogEvent(event) + "\n");
                }
            }
        } else {
            CcCongestionLogCa caLog = new CcCongestionLogCa().unpack(data, 0);
            log = caLog;
            print(new CcDump().uint("ThresholdEventCounter", caLog.thresholdEventCounter())
                    .hex("ThresholdCongestionEventMap", caLog.thresholdCongestionEventMap(), 16)
                    .uint("CurrentTimeStamp", caLog.currentTimeStamp()) + "\n");
            for (int i = 0; i < 13; i++) {
                int at = 12 + i * CcCongestionLogEventCa.SIZE;
                if (!zero(data, at, CcCongestionLogEventCa.SIZE)) {
                    CcCongestionLogEventCa event = new CcCongestionLogEventCa().unpack(data, at);
                    events.add(event);
                    print(CcDump.caLogEvent(event) + "\n");
                }
            }
        }
        if (jsonRequested()) {
            Map<String, Object> members = JsonOutput.fields(log);
            members.put("congestionEntryList", events);
            result(members, null);
        }
        return null;
    }

    private static boolean zero(byte[] data, int from, int length) {
        for (int i = from; i < from + length; i++) {
            if (data[i] != 0) {
                return false;
            }
        }
        return true;
    }

    private String switchCongestionSetting(Target target, List<String> args) {
        CcSwitchCongestionSetting s;
        try {
            s = target.cc().get(new CcSwitchCongestionSetting(), 0);
        } catch (RdmaException e) {
            return target.failed(e, "switch congestion setting query failed");
        }
        print("# SwitchCongestionSetting: " + target.name() + "\n" + new CcDump().hex("Control_Map", s.controlMap(), 32)
                .array("Victim_Mask", s.victimMask()).array("Credit_Mask", s.creditMask()).hex("Threshold", s.threshold(), 4)
                .uint("Packet_Size", s.packetSize()).hex("CS_Threshold", s.csThreshold(), 4).hex("CS_ReturnDelay", s.csReturnDelay(), 16)
                .uint("Marking_Rate", s.markingRate()));
        result(s, null);
        return null;
    }

    private String switchPortCongestionSetting(Target target, List<String> args) {
        int portnum = args.isEmpty() ? 0 : (int) CNumbers.strtoul(args.getFirst());
        SmpNodeInfo node = target.nodeInfo();
        if (node == null) {
            return "node info query failed";
        }
        if (node.nodeType() != SWITCH_NODE) {
            return "destination not a switch";
        }
        print("# SwitchPortCongestionSetting: " + target.name() + "\n");
        int numports = node.numPorts();
        List<PortSetting> ports = new ArrayList<>();
        if (portnum != 0) {
            if (portnum > numports) {
                return "invalid port number specified";
            }
            byte[] data;
            try {
                data = target.cc().getData(new CcSwitchPortCongestionSetting(), portnum / PORTS_PER_BLOCK);
            } catch (RdmaException e) {
                return target.failed(e, "switch port congestion setting query failed");
            }
            CcSwitchPortCongestionSettingElement element = element(data, portnum % PORTS_PER_BLOCK);
            print(CcDump.switchPortElement(element));
            result(List.of(new PortSetting(portnum, element)), null);
            return null;
        }
        int outputs = 0;
        for (int i = 0; i < numports / PORTS_PER_BLOCK + 1; i++) {
            byte[] data;
            try {
                data = target.cc().getData(new CcSwitchPortCongestionSetting(), i);
            } catch (RdmaException e) {
                return target.failed(e, "switch port congestion setting query failed");
            }
            for (int j = 0; j < PORTS_PER_BLOCK && outputs <= numports; j++, outputs++) {
                CcSwitchPortCongestionSettingElement element = element(data, j);
                ports.add(new PortSetting(i * PORTS_PER_BLOCK + j, element));
                print(new CcDump().uint("Port", (long) i * PORTS_PER_BLOCK + j) + CcDump.switchPortElement(element) + "\n");
            }
        }
        result(ports, null);
        return null;
    }

    /**
     * The element at {@code index} of the data; a negative index (a negative port number, which the
     * C tool takes) reads before the data, the CC MAD's reserved bytes: zeros.
     */
    private static CcSwitchPortCongestionSettingElement element(byte[] data, int index) {
        if (index < 0) {
            return new CcSwitchPortCongestionSettingElement();
        }
        return new CcSwitchPortCongestionSettingElement().unpack(data, index * CcSwitchPortCongestionSettingElement.SIZE);
    }

    private String caCongestionSetting(Target target, List<String> args) {
        CcCaCongestionSetting s;
        try {
            s = target.cc().get(new CcCaCongestionSetting(), 0);
        } catch (RdmaException e) {
            return target.failed(e, "ca congestion setting query failed");
        }
        print("# CACongestionSetting: " + target.name() + "\n" + new CcDump().hex("Port_Control", s.portControl(), 16)
                .hex("Control_Map", s.controlMap(), 16) + "\n");
        for (int i = 0; i < 16; i++) {
            CcCaCongestionEntry entry = s.caCongestionEntryList(i);
            print(new CcDump().uint("SL", i) + CcDump.caEntry(entry) + "\n");
        }
        result(s, null);
        return null;
    }

    private String congestionControlTable(Target target, List<String> args) {
        CcCongestionControlTable table;
        try {
            table = target.cc().get(new CcCongestionControlTable(), 0);
        } catch (RdmaException e) {
            return target.failed(e, "congestion control table query failed");
        }
        int limit = table.cctiLimit();
        print("# CongestionControlTable: " + target.name() + "\n" + new CcDump().uint("CCTI_Limit", limit) + "\n");
        List<CcCongestionControlTableEntry> entries = new ArrayList<>();
        result(new ControlTable(limit, entries), null);
        if (limit == 0) {
            return null;
        }
        int outputs = 0;
        for (int i = 0; i < limit / 64 + 1; i++) {
            if (i > 0) {
                try {
                    table = target.cc().get(new CcCongestionControlTable(), i);
                } catch (RdmaException e) {
                    return target.failed(e, "congestion control table query failed");
                }
            }
            for (int j = 0; j < 64 && outputs <= limit; j++, outputs++) {
                CcCongestionControlTableEntry entry = table.cctiEntryList(j);
                entries.add(entry);
                print(new CcDump().uint("Entry", (long) i * 64 + j) + CcDump.tableEntry(entry) + "\n");
            }
        }
        return null;
    }

    private String timestamp(Target target, List<String> args) {
        CcTimestamp t;
        try {
            t = target.cc().get(new CcTimestamp(), 0);
        } catch (RdmaException e) {
            return target.failed(e, "timestamp query failed");
        }
        print("# Timestamp: " + target.name() + "\n" + new CcDump().uint("Timestamp", t.timestamp()));
        result(t, null);
        return null;
    }
}

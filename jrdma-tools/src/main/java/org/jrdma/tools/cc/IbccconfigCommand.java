package org.jrdma.tools.cc;

import java.util.List;
import org.jrdma.RdmaException;
import org.jrdma.iba.cc.CcCaCongestionEntry;
import org.jrdma.iba.cc.CcCaCongestionSetting;
import org.jrdma.iba.cc.CcCongestionControlTable;
import org.jrdma.iba.cc.CcCongestionControlTableEntry;
import org.jrdma.iba.cc.CcCongestionKeyInfo;
import org.jrdma.iba.cc.CcSwitchCongestionSetting;
import org.jrdma.iba.cc.CcSwitchPortCongestionSetting;
import org.jrdma.iba.cc.CcSwitchPortCongestionSettingElement;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.iba.wire.MadAttribute;
import picocli.CommandLine.Command;

/**
 * {@code ibtool ibccconfig}: infiniband-diags' ibccconfig, a Congestion Control attribute (class
 * 0x21, IBA annex A10) of a port written by CC Set with the CC_Key of {@code -c}:
 * CongestionKeyInfo, SwitchCongestionSetting, one port's SwitchPortCongestionSetting (read, changed,
 * written back), CACongestionSetting (the same entry for every SL of the control map) and one
 * block of the CongestionControlTable. The arguments are read and checked as the C tool reads
 * them ({@code strtoul}, masks as 256-bit hex, {@code shift:multiplier} entries), with its
 * messages; nothing is printed on success.
 *
 * <p>As the C tool does, SwitchPortCongestionSetting reads the block of 32 ports holding the port
 * and writes it back as block {@code port / 48}.
 *
 * <p>With {@code --json} the document's value is the attribute as written, its modifier the Set's.
 */
@Command(name = "ibccconfig", mixinStandardHelpOptions = true,
        description = "Configure a congestion control attribute of a port: CongestionKeyInfo (CK), SwitchCongestionSetting (SS), "
                + "SwitchPortCongestionSetting (SP), CACongestionSetting (CS), CongestionControlTable (CT).")
public final class IbccconfigCommand extends CcCommand {
    private static final int SWITCH_NODE = 2;
    private static final long USHRT_MAX = 0xFFFF;

    @Override
    List<Operation> operations() {
        return List.of(new Operation("CongestionKeyInfo", "CK", this::congestionKeyInfo),
                new Operation("SwitchCongestionSetting", "SS", this::switchCongestionSetting),
                new Operation("SwitchPortCongestionSetting", "SP", this::switchPortCongestionSetting),
                new Operation("CACongestionSetting", "CS", this::caCongestionSetting),
                new Operation("CongestionControlTable", "CT", this::congestionControlTable));
    }

    private String congestionKeyInfo(Target target, List<String> args) {
        if (args.size() != 4) {
            return "invalid number of parameters for CongestionKeyInfo";
        }
        try {
            long key = CArguments.strtoull(args.get(0));
            long protectBit = CArguments.parseint(args.get(1), false);
            long leasePeriod = CArguments.parseint(args.get(2), false);
            long violations = CArguments.parseint(args.get(3), false);
            if (protectBit != 0 && protectBit != 1) {
                return "invalid cc_keyprotectbit value";
            }
            if (leasePeriod > USHRT_MAX) {
                return "invalid cc_keyleaseperiod value";
            }
            if (violations > USHRT_MAX) {
                return "invalid cc_keyviolations value";
            }
            CcCongestionKeyInfo info = new CcCongestionKeyInfo().ccKey(key).ccKeyProtectBit((int) protectBit)
                    .ccKeyLeasePeriod((int) leasePeriod).ccKeyViolations((int) violations);
            return set(target, info, 0, "congestion key info config failed");
        } catch (CArguments.Invalid e) {
            return e.getMessage();
        }
    }

    private String switchCongestionSetting(Target target, List<String> args) {
        if (args.size() != 8) {
            return "invalid number of parameters for SwitchCongestionSetting";
        }
        try {
            long controlMap = CArguments.parseint(args.get(0), false);
            byte[] victimMask = CArguments.parse256(args.get(1));
            byte[] creditMask = CArguments.parse256(args.get(2));
            long threshold = CArguments.parseint(args.get(3), false);
            long packetSize = CArguments.parseint(args.get(4), false);
            long csThreshold = CArguments.parseint(args.get(5), false);
            long[] returnDelay = CArguments.parsecct(args.get(6));
            long csReturnDelay = (returnDelay[1] | returnDelay[0] << 14) & 0xFFFF_FFFFL;
            long markingRate = CArguments.parseint(args.get(7), false);
            CcSwitchCongestionSetting setting = new CcSwitchCongestionSetting().controlMap(controlMap).victimMask(victimMask)
                    .creditMask(creditMask).threshold((int) threshold & 0xF).packetSize((int) packetSize & 0xFF)
                    .csThreshold((int) csThreshold & 0xF).csReturnDelay((int) csReturnDelay & 0xFFFF).markingRate((int) markingRate & 0xFFFF);
            return set(target, setting, 0, "switch congestion setting config failed");
        } catch (CArguments.Invalid e) {
            return e.getMessage();
        }
    }

    private String switchPortCongestionSetting(Target target, List<String> args) {
        if (args.size() != 6) {
            return "invalid number of parameters for SwitchPortCongestion";
        }
        long[] values = new long[6];
        try {
            for (int i = 0; i < 6; i++) {
                values[i] = CArguments.parseint(args.get(i), false);
            }
        } catch (CArguments.Invalid e) {
            return e.getMessage();
        }
        long portnum = values[0];
        SmpNodeInfo node = target.nodeInfo();
        if (node == null) {
            return "node info config failed";
        }
        if (node.nodeType() != SWITCH_NODE) {
            return "destination not a switch";
        }
        if (portnum > node.numPorts()) {
            return "invalid port number specified";
        }
        CcSwitchPortCongestionSetting setting;
        try {
            setting = target.cc().get(new CcSwitchPortCongestionSetting(), portnum / 32);
        } catch (RdmaException e) {
            return target.failed(e, "switch port congestion setting query failed");
        }
        CcSwitchPortCongestionSettingElement element = setting.block((int) (portnum % 32)).valid((int) values[1] & 1)
                .controlType((int) values[2] & 1).threshold((int) values[3] & 0xF).packetSize((int) values[4] & 0xFF)
                .congParmMarkingRate((int) values[5] & 0xFFFF);
        setting.block((int) (portnum % 32), element);
        return set(target, setting, portnum / 48, "switch port congestion setting config failed");
    }

    private String caCongestionSetting(Target target, List<String> args) {
        if (args.size() != 6) {
            return "invalid number of parameters for CACongestionSetting";
        }
        long[] values = new long[6];
        try {
            for (int i = 0; i < 6; i++) {
                values[i] = CArguments.parseint(args.get(i), false);
            }
        } catch (CArguments.Invalid e) {
            return e.getMessage();
        }
        CcCaCongestionSetting setting = new CcCaCongestionSetting().portControl((int) values[0] & 0xFFFF)
                .controlMap((int) values[1] & 0xFFFF);
        for (int sl = 0; sl < 16; sl++) {
            if ((values[1] & 1L << sl) != 0) {
                setting.caCongestionEntryList(sl, new CcCaCongestionEntry().cctiTimer((int) values[2] & 0xFFFF)
                        .cctiIncrease((int) values[3] & 0xFF).triggerThreshold((int) values[4] & 0xFF).cctiMin((int) values[5] & 0xFF));
            }
        }
        return set(target, setting, 0, "ca congestion setting config failed");
    }

    private String congestionControlTable(Target target, List<String> args) {
        if (args.size() < 2 || args.size() > 66) {
            return "invalid number of parameters for CongestionControlTable";
        }
        try {
            long limit = CArguments.parseint(args.get(0), false);
            long index = CArguments.parseint(args.get(1), false);
            int entries = args.size() - 2;
            if (limit != 0 && (limit + 1 & 0xFFFF_FFFFL) != (index * 64 + entries & 0xFFFF_FFFFL)) {
                return "invalid number of cct entries input given ccti_limit and index";
            }
            CcCongestionControlTable table = new CcCongestionControlTable().cctiLimit((int) limit & 0xFFFF);
            long[][] ccts = new long[entries][];
            for (int i = 0; i < entries; i++) {
                ccts[i] = CArguments.parsecct(args.get(i + 2));
            }
            for (int i = 0; i < entries; i++) {
                table.cctiEntryList(i, new CcCongestionControlTableEntry().cctShift((int) ccts[i][0] & 0x3)
                        .cctMultiplier((int) ccts[i][1] & 0x3FFF));
            }
            return set(target, table, index, "congestion control table config failed");
        } catch (CArguments.Invalid e) {
            return e.getMessage();
        }
    }

    private static <T extends IbaStruct & MadAttribute> String set(Target target, T attribute, long modifier, String failure) {
        try {
            target.cc().set(attribute, modifier);
            target.command().result(attribute, modifier);
            return null;
        } catch (RdmaException e) {
            return target.failed(e, failure);
        }
    }
}

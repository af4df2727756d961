package org.jrdma.tools;

import java.io.Console;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongConsumer;
import org.jrdma.RdmaException;
import org.jrdma.iba.diag.DiagOptions;
import org.jrdma.iba.smp.SmpMlnxExtendedPortInfo;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.mad.MadTimeoutException;
import org.jrdma.mad.MadTransactor;
import org.jrdma.mad.SmpClient;
import org.jrdma.mad.SmpTarget;
import org.jrdma.path.IBDRPath;
import org.jrdma.tools.json.JsonOutput;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtool ibportstate}: shows a port's states, LIDs, widths and speeds, and changes them with
 * a SubnSet(PortInfo), as infiniband-diags' ibportstate does: {@code enable}/{@code on},
 * {@code disable}/{@code off}, {@code reset} set PortPhysicalState; {@code down}, {@code arm},
 * {@code active} set PortState; {@code speed}, {@code espeed}, {@code width}, {@code vls},
 * {@code mtu}, {@code lid}, {@code smlid}, {@code lmc}, {@code mkey}, {@code mkeylease},
 * {@code mkeyprot} set their components; {@code fdr10} sets the Mellanox MlnxExtendedPortInfo. A
 * query of an active switch port also shows the port at the other end of its link, read by
 * directed route through it, and warns when the two ports run slower than both enable.
 */
@Command(name = "ibportstate", mixinStandardHelpOptions = true,
        description = "Show or change the state, speed, width and LIDs of a port (switch or CA).")
final class IbportstateCommand extends FabricCommand {
    private static final int NODE_TYPE_SWITCH = 2;
    /** PortInfo:CapabilityMask.IsExtendedSpeedsSupported. */
    private static final int HAS_EXT_SPEEDS = 1 << 14;
    private static final int PORT_STATE_ACTIVE = 4;
    private static final int PHYS_STATE_DISABLED = 3;
    /** MlnxExtendedPortInfo:LinkSpeed bit of FDR10. */
    private static final int FDR10 = 1;
    private static final int PERMISSIVE_LID = 0xFFFF;
    /** How {@link org.jrdma.mad.MadEngine} says that no answer came, as opposed to one the fabric returned undelivered. */
    private static final String NO_RESPONSE = ": no response after ";

    @Mixin
    AddressOptions address;

    @Mixin
    ShowKeysOption keys;

    @Option(names = {"-s", "--sm_port"}, paramLabel = "<lid>", description = "the SM port LID the SA queries of -G go to")
    Integer smPort;

    @Parameters(paramLabel = "ARGS", arity = "2..*", description = "<dest dr_path|lid|guid> <portnum> [<op> [<value>]]...")
    List<String> args;

    private SmpClient smp;
    private DiagOptions options;

    /** The operations taking no value; at most one of them is given. */
    private enum Op { QUERY, ENABLE, RESET, DISABLE, DOWN, ARM, ACTIVE, ON, OFF }

    /** The components an operation sets, each with the C tool's bound check and its failure. */
    private enum Value {
        SPEED, ESPEED, FDR10, WIDTH, VLS, MTU, LID, SMLID, LMC, MKEY, MKEYLEASE, MKEYPROT;

        String failure(long v) {
            String u = Long.toUnsignedString(v);
            return switch (this) {
                case SPEED -> Long.compareUnsigned(v, 15) > 0 ? "invalid speed value " + u : null;
                case ESPEED -> Long.compareUnsigned(v, 31) > 0 ? "invalid extended speed value " + u : null;
                case FDR10 -> Long.compareUnsigned(v, 1) > 0 ? "invalid fdr10 speed value " + u : null;
                case WIDTH -> Long.compareUnsigned(v, 31) > 0 && v != 255 ? "invalid width value " + u : null;
                case VLS -> v == 0 || Long.compareUnsigned(v, 5) > 0 ? "invalid vls value " + u : null;
                case MTU -> v == 0 || Long.compareUnsigned(v, 5) > 0 ? "invalid mtu value " + u : null;
                case LID -> v == 0 || Long.compareUnsigned(v, 0xC000) >= 0 ? "invalid lid value 0x" + Long.toHexString(v) : null;
                case SMLID -> v == 0 || Long.compareUnsigned(v, 0xC000) >= 0 ? "invalid smlid value 0x" + Long.toHexString(v) : null;
                case LMC -> Long.compareUnsigned(v, 7) > 0 ? "invalid lmc value " + u : null;
                case MKEY -> null;
                case MKEYLEASE -> Long.compareUnsigned(v, 0xFFFF) > 0 ? "invalid mkey lease time " + u : null;
                case MKEYPROT -> Long.compareUnsigned(v, 3) > 0 ? "invalid mkey protection bit setting " + u : null;
            };
        }
    }

    @Override
    int run() {
        RouteOrGuidOptions.Address dest = address.parse(args.get(0));
        smp = smp();
        options = keys.diagOptions();
        Destination d = dest.resolve(smp, fabric, smPort);
        int portNumber = (int) CNumbers.strtoul(args.get(1));
        Op op = null;
        Map<Value, Long> values = new EnumMap<>(Value.class);
        for (int i = 2; i < args.size(); i++) {
            String word = args.get(i);
            Op plain = name(Op.values(), word);
            Value value = name(Value.values(), word);
            if (plain != null) {
                if (op != null) {
                    throw DiagError.exit(word + " only one of: query, enable, disable, reset, down, arm, active, can be specified");
                }
                op = plain;
            } else if (value != null) {
                if (++i >= args.size()) {
                    throw DiagError.exit(word + " requires an additional parameter");
                }
                long v = value == Value.MKEY ? mKey(args.get(i)) : CNumbers.strtoul(args.get(i));
                String failure = value.failure(v);
                if (failure != null) {
                    throw DiagError.exit(failure);
                }
                values.put(value, v);
            } else {
                throw DiagError.exit("invalid operation: " + word);
            }
        }
        op = op == null ? Op.QUERY : op;
        String destText = d.portId().toString();
        SmpNodeInfo node = nodeInfo(d.target());
        boolean isSwitch = node.nodeType() == NODE_TYPE_SWITCH;
        if ((values.containsKey(Value.MKEY) || values.containsKey(Value.MKEYLEASE) || values.containsKey(Value.MKEYPROT))
                && isSwitch && portNumber != 0) {
            throw DiagError.exit("Can't set M_Key fields on switch port != 0");
        }
        boolean change = op != Op.QUERY || !values.isEmpty();
        jsonDocument.put("destination", destText);
        jsonDocument.put("portNum", portNumber);
        jsonDocument.put("nodeType", node.nodeType());
        if (!json()) {
            print((change ? "Initial " : "") + (isSwitch ? "Switch" : "CA/RT") + " PortInfo:\n");
        }
        SmpPortInfo info = new SmpPortInfo();
        boolean extendedSpeeds = portInfo(d.target(), portNumber, isSwitch, info);
        show("portInfo", IbportstateFormat.port(destText, portNumber, info, extendedSpeeds, !isSwitch || portNumber == 0, options), info);
        SmpMlnxExtendedPortInfo ext = new SmpMlnxExtendedPortInfo();
        if (mlnxExtendedPortInfo(node)) {
            explained("smp query ext portinfo failed", () -> smp.get(ext, d.target(), portNumber));
            show("mlnxExtendedPortInfo", IbportstateFormat.mlnxExtended(destText, portNumber, ext), ext);
        }
        if (change) {
            set(d, destText, portNumber, isSwitch, extendedSpeeds, op, values, info, ext);
        } else if (isSwitch && portNumber != 0 && info.portState() == PORT_STATE_ACTIVE) {
            new IbportstatePeer(this, info, ext, extendedSpeeds).run(d, portNumber);
        }
        if (json()) {
            if (!jsonMessages.isEmpty()) {
                jsonDocument.put("messages", jsonMessages);
            }
            return json(jsonDocument, ExitCodes.OK);
        }
        return ExitCodes.OK;
    }

    /**
     * With {@code --json}: the document, {@code {destination, portNum, nodeType, portInfo,
     * mlnxExtendedPortInfo, afterPortInfo, afterMlnxExtendedPortInfo, peerPortNum, peerPortInfo,
     * peerMlnxExtendedPortInfo, messages}}, each attribute as read (or as set) at that step.
     */
    private final Map<String, Object> jsonDocument = new LinkedHashMap<>();
    private final List<String> jsonMessages = new ArrayList<>();

    /** Prints an attribute's text, or with {@code --json} keeps its fields as they are now under {@code key}. */
    void show(String key, String text, IbaStruct attribute) {
        if (json()) {
            jsonDocument.put(key, JsonOutput.fields(attribute));
        } else {
            print(text);
        }
    }

    /** Keeps a member of the {@code --json} document. */
    void jsonPut(String key, Object value) {
        jsonDocument.put(key, value);
    }

    /** Changes the port as {@code op} and {@code values} say, from the PortInfo just read, and shows what it became. */
    private void set(Destination d, String destText, int portNumber, boolean isSwitch, boolean extendedSpeeds, Op op,
            Map<Value, Long> values, SmpPortInfo info, SmpMlnxExtendedPortInfo ext) {
        int physState = info.portPhysicalState();
        if (!values.containsKey(Value.LID) && (info.lid() == 0 || info.lid() == PERMISSIVE_LID)) {
            info.lid(0x1234); // the SMA refuses a Set with an invalid LID
        }
        if (!values.containsKey(Value.SMLID) && (info.masterSmLid() == 0 || info.masterSmLid() == PERMISSIVE_LID)) {
            info.masterSmLid(0x1234);
        }
        info.portState(0).portPhysicalState(0); // no change
        switch (op) {
            case ON, ENABLE, RESET -> {
                if (op == Op.ON && physState != PHYS_STATE_DISABLED) {
                    print("Port is already in enable state\n");
                    return;
                }
                info.portPhysicalState(2); // Polling
            }
            case OFF, DISABLE -> {
                print("Disable may be irreversible\n");
                info.portPhysicalState(PHYS_STATE_DISABLED);
            }
            case DOWN -> info.portState(1);
            case ARM -> info.portState(3);
            case ACTIVE -> info.portState(PORT_STATE_ACTIVE);
            case QUERY -> { }
        }
        // The enabled speeds and width are always written; 0 means no change.
        info.linkSpeedEnabled((int) (long) values.getOrDefault(Value.SPEED, 0L));
        info.linkSpeedExtEnabled((int) (long) values.getOrDefault(Value.ESPEED, 0L));
        info.linkWidthEnabled((int) (long) values.getOrDefault(Value.WIDTH, 0L));
        ifSet(values, Value.VLS, v -> info.operationalVls((int) v));
        ifSet(values, Value.MTU, v -> info.neighborMtu((int) v));
        ifSet(values, Value.LID, v -> info.lid((int) v));
        ifSet(values, Value.SMLID, v -> info.masterSmLid((int) v));
        ifSet(values, Value.LMC, v -> info.lmc((int) v));
        if (values.containsKey(Value.FDR10)) {
            ext.stateChangeEnable(FDR10).linkSpeedEnabled((int) (long) values.get(Value.FDR10));
            explained("smp set MLNX ext portinfo failed", () -> smp.set(ext, d.target(), portNumber));
            show("afterMlnxExtendedPortInfo", "\nAfter MLNXExtendedPortInfo set:\n" + IbportstateFormat.mlnxExtended(destText, portNumber, ext), ext);
        }
        ifSet(values, Value.MKEY, info::mKey);
        ifSet(values, Value.MKEYLEASE, v -> info.mKeyLeasePeriod((int) v));
        ifSet(values, Value.MKEYPROT, v -> info.mKeyProtectBits((int) v));
        long modifier = portNumber | (extendedSpeeds ? 1L << 31 : 0);
        explained("smp set portinfo failed", () -> smp.set(info, d.target(), modifier));
        show("afterPortInfo", "\nAfter PortInfo set:\n"
                + IbportstateFormat.port(destText, portNumber, info, extendedSpeeds, !isSwitch || portNumber == 0, options), info);
    }

    private static void ifSet(Map<Value, Long> values, Value value, LongConsumer then) {
        Long v = values.get(value);
        if (v != null) {
            then.accept(v);
        }
    }

    /** NodeInfo, as {@code get_node_info} reads it. */
    SmpNodeInfo nodeInfo(SmpTarget target) {
        return explained("smp query nodeinfo failed", () -> smp.get(new SmpNodeInfo(), target, 0));
    }

    /**
     * Reads the port's PortInfo into {@code info}, as {@code get_port_info} does, and says whether
     * the extended speeds are shown: a switch's port 0 says so for all its ports.
     */
    boolean portInfo(SmpTarget target, int port, boolean isSwitch, SmpPortInfo info) {
        SmpPortInfo capabilities = isSwitch
                ? explained("smp query port 0 portinfo failed", () -> smp.get(new SmpPortInfo(), target, 0)) : info;
        explained("smp query portinfo failed", () -> smp.get(info, target, port));
        return (capabilities.capabilityMask() & HAS_EXT_SPEEDS) != 0;
    }

    /** The PortInfo of a port reached by a path the command built (the peer of a switch port). */
    SmpPortInfo portInfo(IBDRPath path, int port, boolean isSwitch, boolean[] extendedSpeeds) {
        MadTransactor transactor = new MadTransactor(engine(), null).withTimeouts(fabric.timeout(), fabric.retries());
        SmpPortInfo capabilities = isSwitch ? explained("smp query port 0 portinfo failed",
                () -> transactor.subnGet(new SmpPortInfo(), path, 0)) : null;
        SmpPortInfo info = explained("smp query portinfo failed", () -> transactor.subnGet(new SmpPortInfo(), path, port));
        extendedSpeeds[0] = ((isSwitch ? capabilities : info).capabilityMask() & HAS_EXT_SPEEDS) != 0;
        return info;
    }

    /** MlnxExtendedPortInfo by a path the command built. */
    SmpMlnxExtendedPortInfo mlnxExtended(IBDRPath path, int port) {
        MadTransactor transactor = new MadTransactor(engine(), null).withTimeouts(fabric.timeout(), fabric.retries());
        return explained("smp query ext portinfo failed", () -> transactor.subnGet(new SmpMlnxExtendedPortInfo(), path, port));
    }

    /**
     * NodeInfo by a path the command built, failing as libibmad does: {@code mad_rpc}'s warning
     * names the whole path ({@code Lid 1 DR path slid 3; dlid 65535; 0,7}), after {@code recv
     * failed} when no answer came at all (the engine's "no response"; a MAD the fabric reports
     * undeliverable comes back with a status, as libibmad's does).
     */
    SmpNodeInfo nodeInfo(IBDRPath path, String dest) {
        MadTransactor transactor = new MadTransactor(engine(), null).withTimeouts(fabric.timeout(), fabric.retries());
        try {
            return transactor.subnGet(new SmpNodeInfo(), path, 0);
        } catch (MadTimeoutException e) {
            DiagError failure = DiagError.exit("smp query nodeinfo failed");
            if (e.getMessage() != null && e.getMessage().contains(NO_RESPONSE)) {
                failure.warn("_do_madrpc", "recv failed: Connection timed out");
            }
            throw failure.warn("mad_rpc", "_do_madrpc failed; dport (" + dest + ")").stderrLine("ibportstate: " + e.getMessage());
        } catch (RdmaException e) {
            throw DiagError.exit("smp query nodeinfo failed", e);
        }
    }

    /** Whether the node has Mellanox's MlnxExtendedPortInfo ({@code is_mlnx_ext_port_info_supported}). */
    static boolean mlnxExtendedPortInfo(SmpNodeInfo node) {
        int devid = node.deviceId();
        int vendor = node.vendorId();
        boolean bull = vendor == 0x119f;
        return devid >= 0xc738 && devid <= 0xc73b || devid == 0xc839 || devid == 0xcb20 || devid == 0xcf08 || devid == 0xcf09
                || devid == 0xd2f0
                || bull && (devid == 0x1b02 || devid == 0x1b50 || devid == 0x1ba0 || devid >= 0x1bd0 && devid <= 0x1bd5 || devid == 0x1bf0)
                || devid >= 0x1003 && devid <= 0x101b || devid == 0xa2d2
                || bull && (devid == 0x1b33 || devid == 0x1b73 || devid == 0x1b40 || devid == 0x1b41 || devid == 0x1b60
                        || devid == 0x1b61 || devid == 0x1b83 || devid == 0x1b93 || devid == 0x1b94 || devid == 0x1bb4
                        || devid == 0x1bb5 || devid >= 0x1bc4 && devid <= 0x1bc6);
    }

    /** The local port, for the peer check's DrSLID ({@code resolve_self}). */
    LocalPort localPort() {
        try {
            return LocalPort.read(smp);
        } catch (RdmaException e) {
            throw DiagError.exit("could not resolve self", e);
        }
    }

    DiagOptions options() {
        return options;
    }

    /** Prints {@code text}; with {@code --json} it is one of the document's {@code messages}. */
    void print(String text) {
        if (json()) {
            jsonMessages.add(text.strip());
        } else {
            out().print(text);
        }
    }

    /**
     * A new M_Key, as {@code strtoull} reads it; text that is not a number makes ibportstate ask
     * for the key ({@code getpass("New M_Key: ")}), which without a terminal fails.
     */
    private long mKey(String text) {
        if (CNumbers.isNumber(text)) {
            return CNumbers.strtoul(text);
        }
        Console console = System.console();
        char[] typed = console == null ? null : console.readPassword("New M_Key: ");
        if (typed == null) {
            err().print("New M_Key: ");
            err().flush();
        }
        String answer = typed == null ? null : new String(typed);
        if (answer == null || !CNumbers.isNumber(answer)) {
            throw DiagError.exit("Bad new M_Key\n");
        }
        return CNumbers.strtoul(answer);
    }

    /** The constant of {@code values} named {@code word} in lower case, or null. */
    private static <E extends Enum<E>> E name(E[] values, String word) {
        for (E e : values) {
            if (e.name().toLowerCase(Locale.ROOT).equals(word)) {
                return e;
            }
        }
        return null;
    }
}

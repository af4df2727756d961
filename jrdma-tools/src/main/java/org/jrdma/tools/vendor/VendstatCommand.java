package org.jrdma.tools.vendor;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.RdmaException;
import org.jrdma.iba.mad.MlxClassPortInfo;
import org.jrdma.iba.mad.MlxConfigCounterGroup;
import org.jrdma.iba.mad.MlxConfigSpaceAccess;
import org.jrdma.iba.mad.MlxConfigSpaceRecord;
import org.jrdma.iba.mad.MlxCounterGroupInfo;
import org.jrdma.iba.mad.MlxGeneralInfo;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.iba.wire.MadAttribute;
import org.jrdma.mad.MadTimeoutException;
import org.jrdma.mad.MadTransactor;
import org.jrdma.path.IBPath;
import org.jrdma.tools.CNumbers;
import org.jrdma.tools.DiagError;
import org.jrdma.tools.ExitCodes;
import org.jrdma.tools.PackageFabricCommand;
import org.jrdma.tools.UsageException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtool vendstat}: infiniband-diags' vendstat, Mellanox's vendor class 0x0A (range 1, no
 * OUI) on an InfiniScale III or IV switch: its general information ({@code -N}: hardware, firmware
 * and software versions), the PortXmitWait counters an InfiniScale III keeps in its configuration
 * space ({@code -w}), an InfiniScale IV port's counter groups ({@code -i}, {@code -c}), and raw
 * configuration space records ({@code -R}, {@code -W}).
 *
 * <p>As in the C tool, {@code -i}, {@code -c}, {@code -R} and {@code -W} report a query that fails
 * on standard error and still exit 0; {@code -N} and {@code -w} first read the class's
 * ClassPortInfo and exit 255 if the class is not served. Without a destination the MADs go to the
 * local port.
 *
 * <p>With {@code --json}: {@link Document}, what the text shows, and the queries that failed.
 */
@Command(name = "vendstat", mixinStandardHelpOptions = true,
        description = "Read or configure a Mellanox switch's vendor attributes: general information, PortXmitWait, counter groups, "
                + "configuration space.")
public final class VendstatCommand extends PackageFabricCommand {
    /** InfiniScale III's device ID, the only one whose PortXmitWait vendstat reads from configuration space. */
    private static final int IS3_DEVICE_ID = 47396;
    /** Where an InfiniScale III keeps PortXmitWait: this address plus the port's (1-based) index << 12. */
    private static final long IS3_PORT_XMIT_WAIT = 0x10013C;
    private static final int MAX_RECORDS = 18;
    /**
     * The device ID ranges whose GeneralInfo carries extended firmware information (SwitchX, Switch-IB,
     * Quantum, InfiniScale IV, ConnectX, BlueField, and Bull's versions of them).
     */
    private static final int[][] EXT_FW_INFO_DEVICES = {{0x0245, 0x0245}, {0xc738, 0xc73b}, {0xcb20, 0xcb20}, {0xcf08, 0xcf08},
        {0xd2f0, 0xd2f0}, {0x01b3, 0x01b3}, {0x1003, 0x101b}, {0xa2d2, 0xa2d2}, {0x1b02, 0x1b02}, {0x1b50, 0x1b50}, {0x1ba0, 0x1ba0},
        {0x1bd0, 0x1bd5}, {0x1bf0, 0x1bf0}, {0x1b33, 0x1b33}, {0x1b73, 0x1b73}, {0x1b40, 0x1b41}, {0x1b60, 0x1b61}, {0x1b83, 0x1b83},
        {0x1b93, 0x1b94}, {0x1bb4, 0x1bb5}, {0x1bc4, 0x1bc6}};
    /** How {@link org.jrdma.mad.MadEngine} says that no answer came, as opposed to one the fabric returned undelivered. */
    private static final String NO_RESPONSE = ": no response after ";

    @Option(names = {"-N", "--N"}, description = "show IS3 or IS4 general information")
    boolean generalInfo;

    @Option(names = {"-w", "--w"}, description = "show IS3 port xmit wait counters")
    boolean xmitWait;

    @Option(names = {"-i", "--i"}, description = "show IS4 counter group info")
    boolean counterGroupInfo;

    @Option(names = {"-c", "--c"}, paramLabel = "<num,num>", description = "configure IS4 counter groups")
    String counterGroups;

    @Option(names = {"-R", "--Read"}, paramLabel = "<addr,mask>", description = "Read configuration space record at addr")
    List<String> reads = List.of();

    @Option(names = {"-W", "--Write"}, paramLabel = "<addr,val,mask>", description = "Write configuration space record at addr")
    List<String> writes = List.of();

    @Option(names = {"-G", "--Guid"}, description = "use GUID address argument (resolved to a LID by the SA)")
    boolean byGuid;

    @Option(names = {"-L", "--Lid"}, description = "use LID address argument (the default)")
    boolean byLid;

    @Parameters(arity = "0..*", paramLabel = "<lid|guid> [port]", description = "the switch (default: the local port) and the port")
    List<String> operands = List.of();

    private IBPath path;
    private String dport;
    /** jrdma's explanation of each failed MAD, told after the C tool's lines. */
    private final List<String> failures = new ArrayList<>();

    /** What the command found, for {@code --json}. */
    private final Document document = new Document();

    /**
     * vendstat's JSON document: the members of what was asked, each as the text shows it.
     * (A class rather than a record: the command fills it in as it goes.)
     */
    public static final class Document {
        /** The switch's LID. */
        public int lid;
        /** The port the counter group MADs name (the attribute modifier), 0 when none was given. */
        public int portNum;
        /** {@code -N}: GeneralInfo. */
        public GeneralInfo generalInfo;
        /** {@code -w}: the ports whose PortXmitWait is not 0. */
        public List<PortXmitWait> portXmitWait;
        /** {@code -i}: CounterGroupInfo. */
        public CounterGroupInfo counterGroupInfo;
        /** {@code -c}: the counter groups configured. */
        public CounterGroupConfig counterGroupConfig;
        /** {@code -R} and {@code -W}: the configuration space records read and written, in order. */
        public List<ConfigSpaceRecord> configSpaceRecords;
        /** The vendor MADs that failed (told on standard error), in order. */
        public final List<Failure> failures = new ArrayList<>();
    }

    /**
     * GeneralInfo (Mellanox vendor attribute 0x17): the attribute, and the versions and PSID as the text shows them.
     *
     * @param attribute the attribute as answered
     * @param fwVersion the firmware version ({@code 01.02.03}; from the extended fields on devices that have them)
     * @param fwPsid    the firmware's PSID
     * @param swVersion the software version
     */
    public record GeneralInfo(MlxGeneralInfo attribute, String fwVersion, String fwPsid, String swVersion) {
    }

    /**
     * An InfiniScale III port's PortXmitWait counter.
     *
     * @param portNum      the port
     * @param portXmitWait its value
     */
    public record PortXmitWait(int portNum, long portXmitWait) {
    }

    /**
     * CounterGroupInfo (Mellanox vendor attribute 0x90).
     *
     * @param numOfCounterGroups the number of counter groups
     * @param groupMasks         each group's mask
     */
    public record CounterGroupInfo(int numOfCounterGroups, List<Long> groupMasks) {
    }

    /**
     * ConfigCounterGroup (Mellanox vendor attribute 0x91) as {@code -c} set it.
     *
     * @param groupSelect0 the group selected first
     * @param groupSelect1 the group selected second
     * @param ok           whether both the Set and the Get that follows it were answered
     */
    public record CounterGroupConfig(int groupSelect0, int groupSelect1, boolean ok) {
    }

    /**
     * A configuration space record as answered.
     *
     * @param method  {@code read} ({@code -R}) or {@code write} ({@code -W})
     * @param address its address
     * @param data    its data under its mask
     */
    public record ConfigSpaceRecord(String method, long address, long data) {
    }

    /**
     * A vendor MAD that failed.
     *
     * @param method      1 Get, 2 Set
     * @param attributeId the attribute
     * @param what        the C tool's line after its failure line ({@code counter group info query failure}), if any
     * @param detail      jrdma's explanation
     */
    public record Failure(int method, int attributeId, String what, String detail) {
    }

    @Override
    protected int execute() {
        int status = query();
        failures.forEach(this::warn);
        return jsonRequested() ? jsonDocument(document, status) : status;
    }

    /** Prints the C tool's text (not with {@code --json}). */
    private void print(String format, Object... args) {
        if (!jsonRequested()) {
            out().printf(format, args);
        }
    }

    private int query() {
        long[] groups = counterGroups == null ? null : counterGroups(counterGroups);
        List<long[]> readRecords = records(reads, 1, "-R <addr,mask>");
        List<long[]> writeRecords = records(writes, 2, "-W <addr,val,mask>");
        int port = operands.size() > 1 ? (int) CNumbers.strtoul(operands.get(1)) : 0;
        int lid;
        if (operands.isEmpty()) {
            Self self = self();
            lid = self.lid();
            port = self.number();
        } else {
            lid = destinationLid(operands.getFirst(), byGuid, "can't resolve destination port");
        }
        document.lid = lid;
        document.portNum = port;
        path = IBPath.builder(null).dlid(lid).build();
        dport = "Lid " + lid;
        MadTransactor transactor = transactor();
        if (counterGroupInfo) {
            MlxCounterGroupInfo info = vendor(transactor, Method.GET, new MlxCounterGroupInfo(), port, "counter group info query failure");
            if (info != null) {
                print("counter_group_info:%n%d counter groups%n", info.numOfCounterGroups());
                List<Long> masks = new ArrayList<>();
                for (int i = 0; i < info.numOfCounterGroups(); i++) {
                    // the C tool reads masks past its two-group array from the rest of the reply
                    masks.add(groupMask(info, i));
                    print("group%d mask %s%n", i, hex(groupMask(info, i)));
                }
                document.counterGroupInfo = new CounterGroupInfo(info.numOfCounterGroups(), masks);
            }
            return ExitCodes.OK;
        }
        if (groups != null) {
            print("counter_groups_config: configuring group0 %d group1 %d%n", (int) groups[0], (int) groups[1]);
            out().flush();
            MlxConfigCounterGroup config = new MlxConfigCounterGroup().groupSelect0((int) groups[0] & 0xFF).groupSelect1((int) groups[1] & 0xFF);
            boolean configured = vendor(transactor, Method.SET, config, port, "config counter group set failure") != null
                    && vendor(transactor, Method.GET, new MlxConfigCounterGroup(), port, "config counter group query failure") != null;
            document.counterGroupConfig = new CounterGroupConfig((int) groups[0], (int) groups[1], configured);
            return ExitCodes.OK;
        }
        if (!readRecords.isEmpty() || !writeRecords.isEmpty()) {
            if (!readRecords.isEmpty()) {
                configSpace(transactor, Method.GET, readRecords);
            }
            if (!writeRecords.isEmpty()) {
                configSpace(transactor, Method.SET, writeRecords);
            }
            return ExitCodes.OK;
        }
        if (!generalInfo && !xmitWait) {
            throw DiagError.exit("at least one of -N and -w must be specified");
        }
        fatal(transactor, Method.GET, new MlxClassPortInfo(), 0, "classportinfo query");
        MlxGeneralInfo info = fatal(transactor, Method.GET, new MlxGeneralInfo(), 0, "generalinfo query");
        if (generalInfo) {
            printGeneralInfo(info);
        }
        if (xmitWait) {
            xmitWait(transactor, info);
        }
        return ExitCodes.OK;
    }

    private void printGeneralInfo(MlxGeneralInfo info) {
        long[] fw;
        long[] sw;
        if (extendedFirmwareInfo(info.deviceId())) {
            fw = new long[] {info.extMajor(), info.extMinor(), info.extSubMinor()};
            sw = new long[] {info.swMajor(), info.swMinor(), info.swSubMinor()};
        } else {
            long word = info.extMajor();
            fw = new long[] {info.fwMajor(), info.fwMinor(), info.fwSubMinor()};
            sw = new long[] {word >> 16 & 0xFF, word >> 8 & 0xFF, word & 0xFF};
        }
        String fwVersion = String.format("%02d.%02d.%02d", (int) fw[0], (int) fw[1], (int) fw[2]);
        String psid = cString(info.toBytes(), MlxGeneralInfo.FW_PSID_BIT_OFFSET / 8);
        String swVersion = String.format("%02d.%02d.%02d", (int) sw[0], (int) sw[1], (int) sw[2]);
        document.generalInfo = new GeneralInfo(info, fwVersion, psid, swVersion);
        print("hw_dev_rev:  0x%04x%n", info.hwRevision());
        print("hw_dev_id:   0x%04x%n", info.deviceId());
        print("hw_uptime:   0x%08x%n", info.uptime());
        print("fw_version:  %s%n", fwVersion);
        print("fw_build_id: 0x%04x%n", info.fwBuildId());
        print("fw_date:     %02x/%02x/%04x%n", info.fwMonth(), info.fwDay(), info.fwYear());
        print("fw_psid:     '%s'%n", psid);
        print("fw_ini_ver:  %d%n", (int) info.fwIniFileVersion());
        print("sw_version:  %s%n", swVersion);
    }

    /** The PSID as {@code %s} prints it: up to its first NUL, which may lie beyond its 16 bytes, as in the C tool. */
    private static String cString(byte[] data, int from) {
        int end = from;
        while (end < data.length && data[end] != 0) {
            end++;
        }
        return new String(data, from, end - from, StandardCharsets.ISO_8859_1);
    }

    private void xmitWait(MadTransactor transactor, MlxGeneralInfo info) {
        if (info.deviceId() != IS3_DEVICE_ID) {
            throw DiagError.exit(String.format("Unsupported device ID 0x%x", info.deviceId()));
        }
        MlxConfigSpaceAccess first = new MlxConfigSpaceAccess();
        for (int i = 0; i < 16; i++) {
            first.record(i, new MlxConfigSpaceRecord().address(IS3_PORT_XMIT_WAIT + ((long) (i + 1) << 12)));
        }
        first = fatal(transactor, Method.GET, first, 2L << 22 | 16L << 16, "vendstat");
        List<PortXmitWait> waits = new ArrayList<>();
        document.portXmitWait = waits;
        for (int i = 0; i < 16; i++) {
            long data = first.record(i).data();
            if (data != 0) {
                waits.add(new PortXmitWait(i + 4, data));
                print("Port %d: PortXmitWait 0x%x%n", i + 4, data);
            }
        }
        MlxConfigSpaceAccess last = new MlxConfigSpaceAccess();
        for (int i = 0; i < 8; i++) {
            last.record(i, new MlxConfigSpaceRecord().address(IS3_PORT_XMIT_WAIT + ((long) (i + 17) << 12)));
        }
        last = fatal(transactor, Method.GET, last, 2L << 22 | 8L << 16, "vendstat");
        for (int i = 0; i < 8; i++) {
            long data = last.record(i).data();
            if (data != 0) {
                waits.add(new PortXmitWait(i < 4 ? i + 21 : i - 3, data));
                print("Port %d: PortXmitWait 0x%x%n", i < 4 ? i + 21 : i - 3, data);
            }
        }
    }

    private void configSpace(MadTransactor transactor, Method method, List<long[]> records) {
        MlxConfigSpaceAccess access = new MlxConfigSpaceAccess();
        int n = Math.min(records.size(), MAX_RECORDS);
        for (int i = 0; i < n; i++) {
            long[] r = records.get(i);
            access.record(i, new MlxConfigSpaceRecord().address(r[0]).data(r[1]).mask(r[2]));
        }
        MlxConfigSpaceAccess answer = vendor(transactor, method, access, 2L << 22 | (long) n << 16,
                "cannot " + (method == Method.SET ? "set" : "get") + " config space records");
        if (document.configSpaceRecords == null) {
            document.configSpaceRecords = new ArrayList<>();
        }
        if (answer != null) {
            for (int i = 0; i < n; i++) {
                MlxConfigSpaceRecord r = answer.record(i);
                document.configSpaceRecords.add(new ConfigSpaceRecord(method == Method.SET ? "write" : "read", r.address(), r.data() & r.mask()));
                print("Config space record at 0x%x: 0x%x%n", r.address(), r.data() & r.mask());
            }
        }
    }

    private static boolean extendedFirmwareInfo(int deviceId) {
        for (int[] range : EXT_FW_INFO_DEVICES) {
            if (range[0] <= deviceId && deviceId <= range[1]) {
                return true;
            }
        }
        return false;
    }

    private static long groupMask(MlxCounterGroupInfo info, int i) {
        return switch (i) {
            case 0 -> info.groupMask0();
            case 1 -> info.groupMask1();
            default -> {
                byte[] rest = info.rest();
                int at = (i - 2) * 4;
                yield at + 4 > rest.length ? 0 : (rest[at] & 0xFFL) << 24 | (rest[at + 1] & 0xFF) << 16 | (rest[at + 2] & 0xFF) << 8
                        | rest[at + 3] & 0xFF;
            }
        };
    }

    /** {@code %#x}: 0 alone, else 0x and the digits. */
    private static String hex(long value) {
        return value == 0 ? "0" : "0x" + Long.toHexString(value);
    }

    private enum Method {
        GET(1), SET(2);

        final int number;

        Method(int number) {
            this.number = number;
        }
    }

    /**
     * One vendor MAD ({@code do_vendor}): the answer, or null once the failure is told on standard
     * error as the C tool tells it (libibmad's warnings, {@code vendstat: method M, attribute A
     * failure}, then {@code after}).
     */
    private <T extends IbaStruct & MadAttribute> T vendor(MadTransactor transactor, Method method, T attribute, long modifier,
            String after) {
        try {
            return method == Method.SET ? transactor.vendSet(attribute, path, modifier) : transactor.vendGet(attribute, path, modifier);
        } catch (RdmaException e) {
            PrintWriter err = err();
            out().flush();
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof MadTimeoutException timeout) {
                    if (timeout.getMessage() != null && timeout.getMessage().contains(NO_RESPONSE)) {
                        err.print(DiagError.ibwarn("_do_madrpc", "recv failed: Connection timed out") + "\n");
                    }
                    err.print(DiagError.ibwarn("mad_rpc_rmpp", "_do_madrpc failed; dport (" + dport + ")") + "\n");
                    break;
                }
            }
            err.printf("vendstat: method %d, attribute %d failure%n", method.number, attribute.attributeId());
            if (after != null) {
                err.print(after + "\n");
            }
            err.flush();
            failures.add(e.getMessage());
            document.failures.add(new Failure(method.number, attribute.attributeId(), after, e.getMessage()));
            return null;
        }
    }

    /** A vendor MAD whose failure ends the command: {@code IBEXIT(what)}, status 255. */
    private <T extends IbaStruct & MadAttribute> T fatal(MadTransactor transactor, Method method, T attribute, long modifier,
            String what) {
        T answer = vendor(transactor, method, attribute, modifier, null);
        if (answer == null) {
            throw DiagError.exit(what, new RdmaException(failures.getLast()));
        }
        return answer;
    }

    /** {@code -c}'s {@code sscanf("%d,%d")}: both numbers, or a usage error. */
    private static long[] counterGroups(String text) {
        Scan scan = new Scan(text);
        Long a = scan.number(10);
        Long b = a != null && scan.comma() ? scan.number(10) : null;
        if (b == null) {
            throw new UsageException(null, "-c " + text + ": expected <num,num>");
        }
        return new long[] {a, b};
    }

    /**
     * The records of {@code -R} or {@code -W} as {@code sscanf("%x,%x[,%x]")} reads them (address,
     * data, mask; a missing mask is 0xffffffff), at most 18; fewer than {@code needed} numbers is a
     * usage error.
     */
    private static List<long[]> records(List<String> texts, int needed, String what) {
        List<long[]> records = new ArrayList<>();
        for (String text : texts) {
            if (records.size() >= MAX_RECORDS) {
                break;
            }
            Scan scan = new Scan(text);
            List<Long> numbers = new ArrayList<>();
            Long n = scan.number(16);
            while (n != null) {
                numbers.add(n & 0xFFFF_FFFFL);
                n = numbers.size() < needed + 1 && scan.comma() ? scan.number(16) : null;
            }
            if (numbers.size() < needed) {
                throw new UsageException(null, what + ": cannot read \"" + text + "\"");
            }
            long mask = numbers.size() > needed ? numbers.get(needed) : 0xFFFF_FFFFL;
            records.add(needed == 1 ? new long[] {numbers.get(0), 0, mask} : new long[] {numbers.get(0), numbers.get(1), mask});
        }
        return records;
    }

    /** The little of {@code sscanf} the options need: {@code %d} and {@code %x} conversions and a literal comma. */
    private static final class Scan {
        private final String text;
        private int at;

        Scan(String text) {
            this.text = text;
        }

        boolean comma() {
            if (at < text.length() && text.charAt(at) == ',') {
                at++;
                return true;
            }
            return false;
        }

        /** A number in {@code radix} after optional blanks and sign (and 0x for hex); null if there is none. */
        Long number(int radix) {
            while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
                at++;
            }
            boolean negative = false;
            if (at < text.length() && (text.charAt(at) == '-' || text.charAt(at) == '+')) {
                negative = text.charAt(at) == '-';
                at++;
            }
            if (radix == 16 && text.startsWith("0x", at) || radix == 16 && text.startsWith("0X", at)) {
                if (at + 2 < text.length() && Character.digit(text.charAt(at + 2), 16) >= 0) {
                    at += 2;
                }
            }
            int start = at;
            long value = 0;
            while (at < text.length() && Character.digit(text.charAt(at), radix) >= 0) {
                value = value * radix + Character.digit(text.charAt(at), radix);
                at++;
            }
            if (at == start) {
                return null;
            }
            return negative ? -value : value;
        }
    }
}

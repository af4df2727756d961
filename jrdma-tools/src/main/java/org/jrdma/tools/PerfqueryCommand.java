package org.jrdma.tools;

import java.util.ArrayList;
import java.util.List;
import org.jrdma.iba.diag.DiagOptions;
import org.jrdma.iba.diag.PerfQuery;
import org.jrdma.iba.diag.PortId;
import org.jrdma.iba.mad.MadClassPortInfo;
import org.jrdma.iba.pm.PmPortCounters;
import org.jrdma.iba.pm.PmPortCountersExtended;
import org.jrdma.iba.pm.PmPortExtendedSpeedsCounters;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.smp.SmpSwitchInfo;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.iba.wire.MadAttribute;
import org.jrdma.mad.GmpClient;
import org.jrdma.mad.SmpTarget;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtool perfquery}: infiniband-diags' perfquery. A port's PortCounters, or
 * PortCountersExtended with {@code -x}, from its performance management agent; the other
 * PerfMgt attributes with their options ({@link PerfAttribute}: {@code -X -S -D -E -T} and the long
 * ones) and PortSamplesControl with {@code -c}; every port summed with {@code -a} (by the agent's
 * AllPortSelect, else port by port) or printed one by one with {@code -l}; a list ({@code 1,4,8}) or
 * range ({@code 1-10}) of ports; {@code -r} resets after reading, {@code -R} only resets, the
 * counters a reset mask selects. Output, messages and statuses are perfquery's.
 */
@Command(name = "perfquery", mixinStandardHelpOptions = true,
        description = "Read (and reset) a port's performance counters, as infiniband-diags' perfquery.")
final class PerfqueryCommand extends FabricCommand {
    /** PortSelect 255: every port of the node. */
    private static final int ALL_PORTS = 0xff;
    private static final int ALL_PORT_SELECT = 1 << 8;
    private static final int EXT_WIDTH_NOIETF = 1 << 10;
    private static final int QP1_DROP_SUPPORTED = 1 << 15;

    @Option(names = {"-x", "--extended"}, description = "show extended port counters")
    boolean extended;

    @Option(names = {"-X", "--xmtsl"}, description = "show Xmt SL port counters")
    void xmtsl(boolean on) {
        select(PerfAttribute.XMIT_DATA_SL);
    }

    @Option(names = {"-S", "--rcvsl"}, description = "show Rcv SL port counters")
    void rcvsl(boolean on) {
        select(PerfAttribute.RCV_DATA_SL);
    }

    @Option(names = {"-D", "--xmtdisc"}, description = "show Xmt Discard Details")
    void xmtdisc(boolean on) {
        select(PerfAttribute.XMIT_DISCARD_DETAILS);
    }

    @Option(names = {"-E", "--rcverr"}, description = "show Rcv Error Details")
    void rcverr(boolean on) {
        select(PerfAttribute.RCV_ERROR_DETAILS);
    }

    @Option(names = {"-T", "--extended_speeds"}, description = "show port extended speeds counters")
    void extendedSpeeds(boolean on) {
        select(PerfAttribute.EXTENDED_SPEEDS);
    }

    @Option(names = "--oprcvcounters", description = "show Rcv Counters per Op code")
    void oprcvcounters(boolean on) {
        select(PerfAttribute.OP_RCV_COUNTERS);
    }

    @Option(names = "--flowctlcounters", description = "show flow control counters")
    void flowctlcounters(boolean on) {
        select(PerfAttribute.FLOW_CTL_COUNTERS);
    }

    @Option(names = "--vloppackets", description = "show packets received per Op code per VL")
    void vloppackets(boolean on) {
        select(PerfAttribute.VL_OP_PACKETS);
    }

    @Option(names = "--vlopdata", description = "show data received per Op code per VL")
    void vlopdata(boolean on) {
        select(PerfAttribute.VL_OP_DATA);
    }

    @Option(names = "--vlxmitflowctlerrors", description = "show flow control update errors per VL")
    void vlxmitflowctlerrors(boolean on) {
        select(PerfAttribute.VL_XMIT_FLOW_CTL_ERRORS);
    }

    @Option(names = "--vlxmitcounters", description = "show ticks waiting to transmit counters per VL")
    void vlxmitcounters(boolean on) {
        select(PerfAttribute.VL_XMIT_WAIT);
    }

    @Option(names = "--swportvlcong", description = "show sw port VL congestion")
    void swportvlcong(boolean on) {
        select(PerfAttribute.SW_PORT_VL_CONGESTION);
    }

    @Option(names = "--rcvcc", description = "show Rcv congestion control counters")
    void rcvcc(boolean on) {
        select(PerfAttribute.RCV_CON_CTRL);
    }

    @Option(names = "--slrcvfecn", description = "show SL Rcv FECN counters")
    void slrcvfecn(boolean on) {
        select(PerfAttribute.SL_RCV_FECN);
    }

    @Option(names = "--slrcvbecn", description = "show SL Rcv BECN counters")
    void slrcvbecn(boolean on) {
        select(PerfAttribute.SL_RCV_BECN);
    }

    @Option(names = "--xmitcc", description = "show Xmit congestion control counters")
    void xmitcc(boolean on) {
        select(PerfAttribute.XMIT_CON_CTRL);
    }

    @Option(names = "--vlxmittimecc", description = "show VL Xmit Time congestion control counters")
    void vlxmittimecc(boolean on) {
        select(PerfAttribute.VL_XMIT_TIME_CONG);
    }

    @Option(names = {"-c", "--smplctl"}, description = "show samples control")
    boolean samplesControl;

    @Option(names = {"-a", "--all_ports"}, description = "show aggregated counters")
    boolean allPorts;

    @Option(names = {"-l", "--loop_ports"}, description = "iterate through each port")
    boolean loopPorts;

    @Option(names = {"-r", "--reset_after_read"}, description = "reset counters after read")
    boolean resetAfterRead;

    @Option(names = {"-R", "--Reset_only"}, description = "only reset counters")
    boolean resetOnly;

    @Parameters(arity = "0..3", paramLabel = "ARG", description = "[<lid|guid> [[port(s)] [reset_mask]]]")
    List<String> words = new ArrayList<>();

    /** The attributes asked for, each option once; perfquery reads the first in its own order. */
    private final List<PerfAttribute> attributes = new ArrayList<>();

    private void select(PerfAttribute attribute) {
        attributes.add(attribute);
    }

    /** With {@code --json}: the LID queried and what was read, in the order perfquery prints it. */
    private int jsonLid;
    private final List<JsonCounters> jsonCounters = new ArrayList<>();

    @Override
    int run() {
        int status = query();
        return json() ? json(new Json(jsonLid, jsonCounters), status) : status;
    }

    /**
     * {@code --json}: the LID queried and each attribute read, in perfquery's order ({@code portNum}
     * 255 for AllPortSelect and for the sum of {@code -a} over the ports); none after a reset alone.
     */
    record Json(int lid, List<JsonCounters> counters) {
    }

    /** One attribute read: its IBA name ({@code PortCounters}, {@code PortCountersExtended}, ...), the port, its fields. */
    record JsonCounters(String attribute, int portNum, IbaStruct values) {
    }

    /** Prints {@code text}, or with {@code --json} keeps {@code values} for the document. */
    private void print(String text, int port, IbaStruct values) {
        if (json()) {
            jsonCounters.add(new JsonCounters(values.ibaName(), port, values));
        } else {
            out().print(python().intNames() ? IntNames.text(List.of(values)) : text);
        }
    }

    private int query() {
        int port = allPorts ? ALL_PORTS : 0;
        List<Integer> ports = new ArrayList<>();
        if (words.size() > 1) {
            String text = words.get(1);
            if (text.contains(",")) {
                for (String token : text.split(",")) {
                    if (!token.isEmpty()) {
                        ports.add((int) CNumbers.strtoul(token));
                    }
                }
                port = ports.getFirst();
            } else if (text.contains("-")) {
                int dash = text.indexOf('-');
                long min = CNumbers.strtoul(text.substring(0, dash));
                long max = CNumbers.strtoul(text.substring(dash + 1));
                if (min >= max) {
                    throw DiagError.exit("max port must be greater than min port in range");
                }
                for (long p = min; p <= max; p++) {
                    ports.add((int) p);
                }
                port = ports.getFirst();
            } else {
                port = (int) CNumbers.strtoul(text);
            }
        }
        long extMask = words.size() > 2 ? CNumbers.strtoul(words.get(2)) : -1L;
        int mask = words.size() > 2 ? (int) extMask : 0xffff;
        int target;
        if (!words.isEmpty()) {
            RouteOrGuidOptions.Address address = RouteOrGuidOptions.lidOrPath(words.getFirst(), false);
            target = ((SmpTarget.Lid) (address.guid() == null ? address.destination() : address.resolve(smp(), fabric)).target()).lid();
        } else {
            LocalPort local = LocalPort.read(smp());
            target = local.lid();
            port = local.number();
        }
        PortId dest = PortId.lid(target);
        jsonLid = target;
        GmpClient gmp = gmp();
        int selected = port;
        MadClassPortInfo cpi = explained("classportinfo query", () -> gmp.performanceGet(new MadClassPortInfo(), target, 0));
        int capMask = cpi.capabilityMask();
        DiagOptions options = DiagOptions.defaults().withPmCapabilities(capMask, cpi.capabilityMask2());
        boolean allPortsLoop = false;
        if ((capMask & ALL_PORT_SELECT) == 0) {
            if (!allPorts && port == ALL_PORTS) {
                throw DiagError.exit("AllPortSelect not supported");
            }
            allPortsLoop = allPorts && port == ALL_PORTS;
        }
        PerfAttribute attribute = attributes.stream().min(Enum::compareTo).orElse(null);
        if (attribute == PerfAttribute.EXTENDED_SPEEDS) {
            extendedSpeeds(gmp, dest, target, port, extMask);
            return ExitCodes.OK;
        }
        if (attribute != null) {
            other(gmp, attribute, dest, target, port, mask);
            return ExitCodes.OK;
        }
        if (samplesControl) {
            IbaStruct control = explained("sampctlquery", () -> gmp.performanceGet(PerfAttribute.samplesControlRequest(selected), target, 0));
            print("# PortSamplesControl: " + dest + " port " + selected + "\n" + PerfAttribute.dump(control.toBytes(), PerfAttribute.SAMPLES_CONTROL),
                    selected, control);
            return ExitCodes.OK;
        }
        boolean everyPort = allPortsLoop || loopPorts && (allPorts || port == ALL_PORTS);
        List<Integer> loop = ports;
        if (everyPort) {
            loop = nodePorts(target, allPortsLoop && !loopPorts);
        }
        if (!resetOnly) {
            if (everyPort || ports.size() > 1) {
                boolean aggregate = everyPort ? allPortsLoop && !loopPorts : allPorts && !loopPorts;
                PerfAggregate sum = new PerfAggregate(extended, options);
                for (int p : loop) {
                    dump(gmp, dest, target, p, options, aggregate ? sum : null);
                }
                if (aggregate) {
                    if (extended) {
                        print(PerfQuery.portCountersExtended(dest, ALL_PORTS, sum.countersExtended(), options), ALL_PORTS, sum.countersExtended());
                    } else {
                        print(PerfQuery.portCounters(dest, ALL_PORTS, sum.counters(), options), ALL_PORTS, sum.counters());
                    }
                }
            } else {
                dump(gmp, dest, target, port, options, null);
            }
            if (!resetAfterRead) {
                return ExitCodes.OK;
            }
        }
        if (words.size() <= 2 && !extended) {
            mask |= (capMask & DiagOptions.PM_XMIT_WAIT_SUPPORTED) != 0 ? 1 << 16 : 0;
            mask |= (capMask & QP1_DROP_SUPPORTED) != 0 ? 1 << 17 : 0;
        }
        if (extended) {
            mask |= 0xfff0000;
            mask |= (capMask & DiagOptions.PM_XMIT_WAIT_SUPPORTED) != 0 ? 1 << 28 : 0;
            mask |= (capMask & QP1_DROP_SUPPORTED) != 0 ? 1 << 29 : 0;
        }
        for (int p : everyPort || ports.size() > 1 ? loop : List.of(port)) {
            reset(gmp, target, p, mask);
        }
        return ExitCodes.OK;
    }

    /**
     * The ports of the node at {@code target}, read by SMP: 1..NumPorts, from 0 on a switch with
     * an enhanced port 0; with {@code emulating}, perfquery's warning that it iterates for an agent
     * without AllPortSelect.
     */
    private List<Integer> nodePorts(int target, boolean emulating) {
        SmpTarget lid = new SmpTarget.Lid(target);
        SmpNodeInfo node = explained("smp query nodeinfo failed", () -> smp().get(new SmpNodeInfo(), lid, 0));
        if (node.numPorts() == 0) {
            throw DiagError.exit("smp query nodeinfo: num ports invalid");
        }
        int start = 1;
        if (node.nodeType() == 2) {
            SmpSwitchInfo info = explained("smp query nodeinfo failed", () -> smp().get(new SmpSwitchInfo(), lid, 0));
            start = info.enhancedPort0() != 0 ? 0 : 1;
        }
        if (emulating) {
            err().print(DiagError.ibwarn("main", "Emulating AllPortSelect by iterating through all ports") + "\n");
            err().flush();
        }
        List<Integer> ports = new ArrayList<>();
        for (int p = start; p <= node.numPorts(); p++) {
            ports.add(p);
        }
        return ports;
    }

    /** {@code dump_perfcounters}: one port's PortCounters or PortCountersExtended, printed or added to {@code sum}. */
    private void dump(GmpClient gmp, PortId dest, int target, int port, DiagOptions options, PerfAggregate sum) {
        if (!extended) {
            PmPortCounters counters = explained("perfquery", () -> gmp.performanceGet(new PmPortCounters().portSelect(port), target, 0));
            if ((options.pmCapabilityMask() & DiagOptions.PM_XMIT_WAIT_SUPPORTED) == 0) {
                counters.portXmitWait(0);
            }
            if (sum != null) {
                sum.add(counters.toBytes());
            } else {
                print(PerfQuery.portCounters(dest, port, counters, options), port, counters);
            }
            return;
        }
        if ((options.pmCapabilityMask() & (DiagOptions.PM_EXT_WIDTH_SUPPORTED | EXT_WIDTH_NOIETF)) == 0) {
            err().print(DiagError.ibwarn("dump_perfcounters", String.format(
                    "PerfMgt ClassPortInfo CapMask 0x%02X; No extended counter support indicated\n", options.pmCapabilityMask() & 0xffff))
                    + "\n");
            err().flush();
        }
        PmPortCountersExtended counters = explained("perfextquery",
                () -> gmp.performanceGet(new PmPortCountersExtended().portSelect(port), target, 0));
        if (sum != null) {
            sum.add(counters.toBytes());
        } else {
            print(PerfQuery.portCountersExtended(dest, port, counters, options), port, counters);
        }
    }

    /** {@code reset_counters}: PortCounters (or PortCountersExtended) Set with the counters {@code mask} selects. */
    private void reset(GmpClient gmp, int target, int port, int mask) {
        int select = mask == 0 ? -1 : mask;
        if (extended) {
            explained("perf ext reset", () -> gmp.performanceSet(new PmPortCountersExtended().portSelect(port)
                    .counterSelect(select & 0xffff).counterSelect2(select >>> 16), target, 0));
        } else {
            explained("perf reset", () -> gmp.performanceSet(new PmPortCounters().portSelect(port).counterSelect(select & 0xffff)
                    .counterSelect2((select >>> 16) & 0xff), target, 0));
        }
    }

    /** perfquery's {@code common_func}: another attribute read and printed, then reset (of the port given) if asked. */
    private void other(GmpClient gmp, PerfAttribute attribute, PortId dest, int target, int port, int mask) {
        if (!resetOnly) {
            IbaStruct values = explained("cannot query " + attribute.label(), () -> gmp.performanceGet(attribute.request(port), target, 0));
            print("# " + attribute.label() + " counters: " + dest + " port " + port + "\n" + attribute.dump(values.toBytes()), port, values);
        }
        if (resetOnly || resetAfterRead) {
            explained("cannot reset " + attribute.label(), () -> gmp.performanceSet(attribute.reset(port, mask), target, 0));
        }
    }

    /** {@code extended_speeds_query}: PortExtendedSpeedsCounters read, then reset with its 64-bit CounterSelect if asked. */
    private void extendedSpeeds(GmpClient gmp, PortId dest, int target, int port, long extMask) {
        PerfAttribute attribute = PerfAttribute.EXTENDED_SPEEDS;
        if (!resetOnly) {
            IbaStruct values = explained("cannot query " + attribute.label(), () -> gmp.performanceGet(attribute.request(port), target, 0));
            print("# " + attribute.label() + " counters: " + dest + " port " + port + "\n" + attribute.dump(values.toBytes()), port, values);
        }
        if (resetOnly || resetAfterRead) {
            long select = extMask == 0 ? -1L : extMask;
            byte[] request = new byte[new PmPortExtendedSpeedsCounters().size()];
            request[1] = (byte) port;
            for (int i = 0; i < 8; i++) {
                request[8 + i] = (byte) (select >>> (56 - 8 * i));
            }
            explained("cannot reset PortExtendedSpeedsCounters",
                    () -> gmp.performanceSet(new PmPortExtendedSpeedsCounters().unpack(request, 0), target, 0));
        }
    }
}

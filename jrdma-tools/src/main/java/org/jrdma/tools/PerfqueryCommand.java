package org.jrdma.tools;

import java.io.PrintWriter;
import org.jrdma.iba.diag.DiagOptions;
import org.jrdma.iba.diag.PerfQuery;
import org.jrdma.iba.diag.PortId;
import org.jrdma.iba.mad.MadClassPortInfo;
import org.jrdma.iba.pm.PmPortCounters;
import org.jrdma.iba.pm.PmPortCountersExtended;
import org.jrdma.mad.GmpClient;
import org.jrdma.mad.SmpTarget;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtool perfquery}: a port's performance counters (PortCounters, or PortCountersExtended
 * with {@code -x}) from its performance management agent, printed as infiniband-diags' perfquery
 * prints them; {@code -r} resets the counters after reading them, {@code -R} only resets.
 */
@Command(name = "perfquery", mixinStandardHelpOptions = true,
        description = "Read (and reset) a port's performance counters: PortCounters, or PortCountersExtended with -x.")
final class PerfqueryCommand extends FabricCommand {
    /** PortCounters:CounterSelect and CounterSelect2 all set: reset every counter. */
    private static final int ALL_COUNTERS = 0xFFFF;
    private static final int ALL_COUNTERS2 = 0xFF;

    @Option(names = {"-x", "--extended"}, description = "PortCountersExtended (64-bit counters)")
    boolean extended;

    @Option(names = {"-r", "--reset_after_read"}, description = "reset the counters after reading them")
    boolean resetAfterRead;

    @Option(names = {"-R", "--Reset_only"}, description = "reset the counters without reading them")
    boolean resetOnly;

    @Parameters(index = "0", arity = "0..1", paramLabel = "LID", description = "the port's LID (default: the local port)")
    String lid;

    @Parameters(index = "1", arity = "0..1", paramLabel = "PORT", description = "the port number (default: the local port's)")
    Integer port;

    @Override
    int run() {
        Integer remote = lid == null ? null : ((SmpTarget.Lid) Destination.parse(lid, false).target()).lid();
        if (port != null) {
            checkRange(port, 0, 255, "port");
        }
        LocalPort local = LocalPort.read(smp());
        int target = remote == null ? local.lid() : remote;
        int portSelect = port != null ? port : remote == null ? local.number() : 1;
        GmpClient gmp = gmp();
        PrintWriter out = out();
        if (!resetOnly) {
            MadClassPortInfo cpi = explained("classportinfo query", () -> gmp.performanceGet(new MadClassPortInfo(), target, 0));
            DiagOptions options = DiagOptions.defaults().withPmCapabilities(cpi.capabilityMask(), cpi.capabilityMask2());
            out.print(extended
                    ? PerfQuery.portCountersExtended(PortId.lid(target), portSelect,
                            explained("perfextquery", () -> gmp.performanceGet(new PmPortCountersExtended().portSelect(portSelect), target, 0)),
                            options)
                    : PerfQuery.portCounters(PortId.lid(target), portSelect,
                            explained("perfquery", () -> gmp.performanceGet(new PmPortCounters().portSelect(portSelect), target, 0)), options));
            out.flush();
        }
        if (resetOnly || resetAfterRead) {
            explained("perf reset", () -> gmp.performanceSet(new PmPortCounters().portSelect(portSelect).counterSelect(ALL_COUNTERS)
                    .counterSelect2(ALL_COUNTERS2), target, 0));
        }
        return ExitCodes.OK;
    }
}

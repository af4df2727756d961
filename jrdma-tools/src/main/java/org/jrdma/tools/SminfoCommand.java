package org.jrdma.tools;

import java.util.List;
import org.jrdma.RdmaException;
import org.jrdma.iba.Guid;
import org.jrdma.iba.diag.PortId;
import org.jrdma.iba.smp.SmpSmInfo;
import org.jrdma.mad.SmpClient;
import org.jrdma.mad.SmpTarget;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtool sminfo}: a subnet manager's SMInfo (IBA 14.2.5.13), by default that of the SM the
 * local port knows (its MasterSMLID), printed as infiniband-diags' sminfo prints it. With a
 * modifier (an SM control: 1 handover, 2 acknowledge, 3 disable, 4 standby, 5 discover) it sends
 * a SubnSet(SMInfo) carrying {@code -s}, {@code -p} and {@code -a} instead of a SubnGet.
 */
@Command(name = "sminfo", mixinStandardHelpOptions = true,
        description = "Query (or, with a modifier, control) the SMInfo of a subnet manager.")
final class SminfoCommand extends FabricCommand {
    private static final String[] STATES = {"SMINFO_NOTACT", "SMINFO_DISCOVER", "SMINFO_STANDBY", "SMINFO_MASTER"};

    @Mixin
    AddressOptions address;

    @Option(names = {"-s", "--state"}, paramLabel = "0-3", defaultValue = "2", description = "set SM state (default: ${DEFAULT-VALUE}, standby)")
    int state;

    @Option(names = {"-p", "--priority"}, paramLabel = "0-15", defaultValue = "0", description = "set SM priority")
    int priority;

    @Option(names = {"-a", "--activity"}, paramLabel = "COUNT", defaultValue = "0", description = "set activity count")
    long activity;

    @Parameters(index = "0", arity = "0..1", paramLabel = "SM",
            description = "the SM port: a LID, with -D a directed route, with -G a port GUID (default: the local port's SM)")
    String sm;

    @Parameters(index = "1", arity = "0..1", paramLabel = "MODIFIER", defaultValue = "0",
            description = "0 to query; an SM control code to send a SubnSet")
    int modifier;

    @Override
    int run() {
        checkRange(state, 0, 3, "--state");
        checkRange(priority, 0, 15, "--priority");
        checkRange(activity, 0, 0xFFFF_FFFFL, "--activity");
        checkRange(modifier, 0, Integer.MAX_VALUE, "MODIFIER");
        RouteOrGuidOptions.Address at = sm == null ? null : address.parse(sm);
        SmpClient smp = smp();
        Destination d;
        if (at != null) {
            d = at.resolve(smp, fabric);
        } else {
            int lid = LocalPort.read(smp).smLid();
            d = new Destination(new SmpTarget.Lid(lid), PortId.lid(lid));
        }
        SmpSmInfo info = new SmpSmInfo();
        try {
            if (modifier != 0) {
                smp.set(info.actCount(activity).priority(priority).smState(state), d.target(), modifier);
            } else {
                smp.get(info, d.target(), 0);
            }
        } catch (RdmaException e) {
            throw DiagError.exit("query", e);
        }
        int smState = info.smState();
        if (json()) {
            return json(new Json(d.portId().lid(), info.guid(), info.actCount(), info.priority(), smState,
                    smState < STATES.length ? STATES[smState] : null, info), ExitCodes.OK);
        }
        if (python().intNames()) {
            out().print(IntNames.text(List.of(info)));
            return ExitCodes.OK;
        }
        out().printf("sminfo: sm lid %d sm guid 0x%x, activity count %d priority %d state %d %s%n", d.portId().lid(),
                info.guid().value(), info.actCount(), info.priority(), smState, smState < STATES.length ? STATES[smState] : "???");
        return ExitCodes.OK;
    }

    /**
     * {@code --json}: the SM's LID and its SMInfo's fields by name, {@code stateName} as sminfo
     * names the state ({@code SMINFO_MASTER}), absent for a state IBA does not define.
     */
    record Json(int lid, Guid guid, long actCount, int priority, int smState, String stateName, SmpSmInfo smInfo) {
    }
}

package org.jrdma.tools.compat;

import java.util.List;
import org.jrdma.tools.DiscoversSubnet;
import picocli.CommandLine.Command;

/**
 * infiniband-diags' deprecated fabric-wide check scripts as ibtool commands ({@link FabricChecks}):
 * output, messages and exit statuses are the script's, the nodes checked at once. Under
 * {@code --json} the result is {@code {checks: [Check...], nodesChecked, badNodes, portsChecked,
 * badPorts, portsOverThreshold, status}} (the counts the script's summary has).
 */
public abstract sealed class FabricCheckCommand extends CompatCommand implements DiscoversSubnet
        permits FabricCheckCommand.State, FabricCheckCommand.Width, FabricCheckCommand.Net, FabricCheckCommand.Errors {
    private FabricChecks.Summary summary;

    /** Which script this is. */
    abstract FabricChecks.Kind kind();

    @Override
    final int run(Script script) {
        summary = FabricChecks.run(kind(), script, args);
        return summary == null ? 255 : summary.status();
    }

    @Override
    final Object document(Script script, int status) {
        if (summary == null) {
            return new Document(script.checks(), null, null, null, null, null, status);
        }
        boolean portChecks = kind() != FabricChecks.Kind.ERRORS;
        boolean counterChecks = kind() == FabricChecks.Kind.NET || kind() == FabricChecks.Kind.ERRORS;
        return new Document(script.checks(), summary.nodes(), summary.badNodes(), summary.ports(),
                portChecks ? summary.badPorts() : null, counterChecks ? summary.portsOverThreshold() : null, status);
    }

    /**
     * The JSON document of a fabric-wide check script; the counts absent after a usage message.
     *
     * @param checks             every check made, in the topology's order
     * @param nodesChecked       the nodes of the topology
     * @param badNodes           the nodes that did not answer NodeInfo
     * @param portsChecked       the ports of the topology
     * @param badPorts           the ports whose state (or width) check failed; not for ibcheckerrors
     * @param portsOverThreshold the ports with counters at or beyond their thresholds; ibchecknet and ibcheckerrors
     * @param status             the exit status
     */
    record Document(List<Check> checks, Integer nodesChecked, Integer badNodes, Integer portsChecked, Integer badPorts,
            Integer portsOverThreshold, int status) {
    }

    /** ibcheckstate: ibchecknode on every node, ibcheckportstate on every port. */
    @Command(name = "ibcheckstate", description = "Check every node and the state of every port of the subnet (deprecated).")
    public static final class State extends FabricCheckCommand {
        @Override
        FabricChecks.Kind kind() {
            return FabricChecks.Kind.STATE;
        }
    }

    /** ibcheckwidth: ibchecknode on every node, ibcheckportwidth on every port. */
    @Command(name = "ibcheckwidth", description = "Check every node and that no port of the subnet runs at 1X (deprecated).")
    public static final class Width extends FabricCheckCommand {
        @Override
        FabricChecks.Kind kind() {
            return FabricChecks.Kind.WIDTH;
        }
    }

    /** ibchecknet: ibchecknode and ibcheckerrs on every node, ibcheckport on every port. */
    @Command(name = "ibchecknet", description = "Check every node, port and port's error counters of the subnet (deprecated: ibqueryerrors).")
    public static final class Net extends FabricCheckCommand {
        @Override
        FabricChecks.Kind kind() {
            return FabricChecks.Kind.NET;
        }
    }

    /** ibcheckerrors: ibchecknode and ibcheckerrs on every node. */
    @Command(name = "ibcheckerrors", description = "Check every node and the error counters of every port of the subnet (deprecated: ibqueryerrors).")
    public static final class Errors extends FabricCheckCommand {
        @Override
        FabricChecks.Kind kind() {
            return FabricChecks.Kind.ERRORS;
        }
    }
}

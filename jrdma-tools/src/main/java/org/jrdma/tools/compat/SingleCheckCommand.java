package org.jrdma.tools.compat;

import java.util.List;
import picocli.CommandLine.Command;

/**
 * infiniband-diags' deprecated per-node and per-port check scripts as ibtool commands
 * ({@link SingleChecks}): output, messages and exit statuses are the script's. Under {@code --json}
 * the result is {@code {checks: [Check...], status}}.
 */
public abstract sealed class SingleCheckCommand extends CompatCommand
        permits SingleCheckCommand.Node, SingleCheckCommand.Port, SingleCheckCommand.PortState, SingleCheckCommand.PortWidth,
        SingleCheckCommand.Errs {

    /** Which script this is. */
    abstract SingleChecks.Kind kind();

    @Override
    final int run(Script script) {
        return SingleChecks.run(kind(), script, script.prog, args);
    }

    @Override
    final Object document(Script script, int status) {
        return new Document(script.checks(), status);
    }

    /**
     * The JSON document of a check script.
     *
     * @param checks the checks made (none after a usage message or {@code -s})
     * @param status the exit status
     */
    record Document(List<Check> checks, int status) {
    }

    /** ibchecknode: whether a node answers a NodeInfo SubnGet. */
    @Command(name = "ibchecknode", description = "Check that a node answers NodeInfo (deprecated: smpquery nodeinfo).")
    public static final class Node extends SingleCheckCommand {
        @Override
        SingleChecks.Kind kind() {
            return SingleChecks.Kind.NODE;
        }
    }

    /** ibcheckport: a port's physical and logical state and its width. */
    @Command(name = "ibcheckport", description = "Check a port's link state, physical state and width (deprecated).")
    public static final class Port extends SingleCheckCommand {
        @Override
        SingleChecks.Kind kind() {
            return SingleChecks.Kind.PORT;
        }
    }

    /** ibcheckportstate: a port's physical and logical state. */
    @Command(name = "ibcheckportstate", description = "Check a port's link state and physical state (deprecated).")
    public static final class PortState extends SingleCheckCommand {
        @Override
        SingleChecks.Kind kind() {
            return SingleChecks.Kind.PORTSTATE;
        }
    }

    /** ibcheckportwidth: whether a port that supports more than 1X runs at 1X. */
    @Command(name = "ibcheckportwidth", description = "Check that a port is not running at 1X (deprecated).")
    public static final class PortWidth extends SingleCheckCommand {
        @Override
        SingleChecks.Kind kind() {
            return SingleChecks.Kind.PORTWIDTH;
        }
    }

    /** ibcheckerrs: a port's (or 255, a switch's) PortCounters error counters against thresholds. */
    @Command(name = "ibcheckerrs", description = "Check a port's error counters against thresholds (deprecated: ibqueryerrors).")
    public static final class Errs extends SingleCheckCommand {
        @Override
        SingleChecks.Kind kind() {
            return SingleChecks.Kind.ERRORS;
        }
    }
}

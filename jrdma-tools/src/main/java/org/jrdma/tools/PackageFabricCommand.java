package org.jrdma.tools;

import java.time.Duration;
import org.jrdma.iba.Guid;
import org.jrdma.mad.MadTransactor;
import org.jrdma.mad.SmpTarget;

/**
 * A {@link FabricCommand} declared in a sub-package of {@code org.jrdma.tools} (one per concept,
 * e.g. {@code org.jrdma.tools.fts}): it does its work in {@link #execute()}, which such a package
 * can implement, and shares everything else (options, engine, output, failures reported as the C
 * tools report them) with the commands of this package.
 */
public abstract class PackageFabricCommand extends FabricCommand {
    @Override
    final int run() throws Exception {
        return execute();
    }

    /** Does the command's work and says how it went: {@link ExitCodes#OK} or another status. */
    protected abstract int execute() throws Exception;

    /** Whether {@code --json} asked for the command's JSON document rather than the C tool's text. */
    protected final boolean jsonRequested() {
        return json();
    }

    /** Writes {@code document} as the command's JSON document and returns {@code status}. */
    protected final int jsonDocument(Object document, int status) {
        return json(document, status);
    }

    /** How long a MAD waits for its answer ({@code -t}). */
    protected final Duration madTimeout() {
        return fabric.timeout();
    }

    /** How many times an unanswered MAD is sent again ({@code --retries}). */
    protected final int madRetries() {
        return fabric.retries();
    }

    /**
     * The LID of {@code -s/--sm_port}, or null when it is not given.
     *
     * @throws DiagError {@code cannot resolve SM destination port <text>} if it is not a LID
     */
    protected final Integer smPortLid() {
        return fabric.smPortLid();
    }

    /** A transactor for general services MADs on {@link #engine()}, with the options' timeout and retries. */
    protected final MadTransactor transactor() {
        return new MadTransactor(engine(), null).withTimeouts(fabric.timeout(), fabric.retries());
    }

    /**
     * The LID of a destination argument as infiniband-diags' {@code resolve_portid_str} reads it: a
     * LID, or with {@code byGuid} a port GUID the SA resolves (at {@code -s/--sm_port}, else at the
     * local port's SM).
     *
     * @param failure the C tool's text when it cannot ({@code can't resolve destination port}),
     *                followed by the argument
     * @throws DiagError {@code <failure> <text>}, with libibmad's warnings and jrdma's reason
     */
    protected final int destinationLid(String text, boolean byGuid, String failure) {
        RouteOrGuidOptions.Address address;
        try {
            address = byGuid ? new RouteOrGuidOptions.Address(text, null, parseGuidOrUnresolved(text))
                    : RouteOrGuidOptions.lidOrPath(text, false);
            return ((SmpTarget.Lid) address.resolve(smp(), fabric).target()).lid();
        } catch (DiagError e) {
            throw e.retext(failure + " " + text);
        }
    }

    private static Guid parseGuidOrUnresolved(String text) {
        try {
            return Guid.parse(text);
        } catch (IllegalArgumentException e) {
            throw Destination.unresolved(text, e);
        }
    }

    /** The port the commands send from: its LID and number ({@code resolve_self}). */
    protected final Self self() {
        LocalPort local = LocalPort.read(smp());
        return new Self(local.lid(), local.number());
    }

    /**
     * The local port as {@code resolve_self} gives it.
     *
     * @param lid    its LID
     * @param number its number (0 on a switch)
     */
    protected record Self(int lid, int number) {
    }
}

package org.jrdma.tools.cc;

import java.util.List;
import java.util.Locale;
import org.jrdma.RdmaException;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.mad.SmpTarget;
import org.jrdma.tools.CNumbers;
import org.jrdma.tools.DiagError;
import org.jrdma.tools.ExitCodes;
import org.jrdma.tools.PackageFabricCommand;
import org.jrdma.tools.UsageException;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * What ibccquery and ibccconfig share: the CC_Key option ({@code -c}), an operation named by its
 * name or alias in any case, a destination LID (or with {@code -G} a port GUID the SA resolves),
 * and the C tools' way of failing: {@code operation <op>: <what failed>} (255); fewer than two
 * operands is a usage error, an unknown operation {@code operation '<op>' not supported} before any
 * MAD is sent.
 *
 * <p>With {@code --json}: {@link Document}, the attribute read (ibccquery) or written (ibccconfig);
 * a failure is the error document, status 255.
 */
abstract sealed class CcCommand extends PackageFabricCommand permits IbccqueryCommand, IbccconfigCommand {
    @Option(names = {"-c", "--cckey"}, paramLabel = "<key>", description = "CC key")
    String ccKey;

    @Option(names = {"-G", "--Guid"}, description = "use GUID address argument (resolved to a LID by the SA)")
    boolean byGuid;

    @Option(names = {"-L", "--Lid"}, description = "use LID address argument (the default)")
    boolean byLid;

    @Parameters(arity = "0..*", paramLabel = "<op> <lid|guid> ...", description = "the operation, the destination, and the operation's arguments")
    List<String> operands = List.of();

    /** An operation of the tool: its name, its alias, and what it does with the arguments after the destination. */
    record Operation(String name, String alias, Op op) {
    }

    /** An operation's work: null when it succeeded, else the C tool's reason. */
    @FunctionalInterface
    interface Op {
        String run(Target target, List<String> args);
    }

    /**
     * Where the operation's MADs go, and how they go: CC MADs with the CC_Key, SMPs for NodeInfo.
     *
     * @param lid     the destination's LID
     * @param cc      the CC MADs to it
     * @param command the command, which sends the SMPs and keeps the failure behind a reason
     */
    record Target(int lid, CcMads cc, CcCommand command) {
        /** libibmad's {@code portid2str}. */
        String name() {
            return "Lid " + lid;
        }

        /** The destination's NodeInfo by SMP, or null if it could not be read. */
        SmpNodeInfo nodeInfo() {
            try {
                return command.smp().get(new SmpNodeInfo(), new SmpTarget.Lid(lid), 0);
            } catch (RdmaException e) {
                command.failure = e;
                return null;
            }
        }

        /** Keeps the failure of a MAD for jrdma's explanation, and returns the C tool's reason. */
        String failed(RdmaException e, String reason) {
            command.failure = e;
            return reason;
        }
    }

    /** The failure behind the reason an operation returned, jrdma's explanation. */
    RdmaException failure;

    /** With {@code --json}: the operation's result, the document's {@code value}. */
    private Object value;

    /** With {@code --json}: the attribute modifier of ibccconfig's Set. */
    private Long attributeModifier;

    /**
     * ibccquery's and ibccconfig's JSON document.
     *
     * @param attribute         the attribute's IBA name ({@code CongestionInfo}, {@code SwitchPortCongestionSetting}...)
     * @param lid               the destination's LID
     * @param attributeModifier ibccconfig: the modifier of the Set (the block); absent for ibccquery
     * @param value             the attribute as read (ibccquery: its components by their IBA names, as the text shows
     *                          them) or as written (ibccconfig)
     */
    public record Document(String attribute, int lid, Long attributeModifier, Object value) {
    }

    /** Prints the C tool's text (not with {@code --json}). */
    final void print(Object text) {
        if (!jsonRequested()) {
            out().print(text);
        }
    }

    /** The operation's result, the document's {@code value}; {@code modifier} that of a Set, or null. */
    final void result(Object result, Long modifier) {
        value = result;
        attributeModifier = modifier;
    }

    /** The tool's operations, in its usage order. */
    abstract List<Operation> operations();

    @Override
    protected final int execute() {
        if (operands.size() < 2) {
            throw new UsageException(null, "an operation and a destination are needed");
        }
        String name = operands.get(0);
        Operation operation = operations().stream()
                .filter(o -> o.name().toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))
                        || o.alias().toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT)))
                .findFirst().orElseThrow(() -> DiagError.exit("operation '" + name + "' not supported"));
        int lid = destinationLid(operands.get(1), byGuid, "can't resolve destination");
        long key = ccKey == null ? 0 : CNumbers.strtoul(ccKey);
        CcMads cc = new CcMads(engine(), lid, key, madTimeout(), madRetries());
        String error = operation.op().run(new Target(lid, cc, this), operands.subList(2, operands.size()));
        out().flush();
        if (error != null) {
            throw failure != null ? DiagError.exit("operation " + name + ": " + error, failure)
                    : DiagError.exit("operation " + name + ": " + error);
        }
        return jsonRequested() ? jsonDocument(new Document(operation.name(), lid, attributeModifier, value), ExitCodes.OK) : ExitCodes.OK;
    }
}

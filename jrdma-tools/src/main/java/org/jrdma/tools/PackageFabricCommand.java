package org.jrdma.tools;

/**
 * A {@link FabricCommand} declared in a sub-package of {@code org.jrdma.tools} (one per concept,
 * e.g. {@code org.jrdma.tools.fts}): it does its work in {@link #execute()}, which such a package
 * can implement, and shares everything else (options, engine, output, failures reported as the C
 * tools report them) with the commands of this package.
 */
public abstract class PackageFabricCommand extends FabricCommand {
    @Override
    final int run() throws Exception {
        if (json() && !hasJsonDocument()) {
            throw new UsageException("--json: " + spec.name() + " has no JSON document yet (README, \"JSON output\")");
        }
        return execute();
    }

    /** Does the command's work and says how it went: {@link ExitCodes#OK} or another status. */
    protected abstract int execute() throws Exception;

    /** Whether the command writes a JSON document under {@code --json}; one that does not refuses the option. */
    protected boolean hasJsonDocument() {
        return false;
    }

    /** Whether {@code --json} asked for the command's JSON document rather than the C tool's text. */
    protected final boolean jsonRequested() {
        return json();
    }

    /** Writes {@code document} as the command's JSON document and returns {@code status}. */
    protected final int jsonDocument(Object document, int status) {
        return json(document, status);
    }
}

package org.jrdma.tools;

/**
 * An {@link IbtoolCommand} that sends no MADs (it works on files), declared in a sub-package of
 * {@code org.jrdma.tools}: it does its work in {@link #execute()}, which such a package can
 * implement; {@link PackageFabricCommand} is the same for commands that query the fabric.
 */
public abstract class PackageCommand extends IbtoolCommand {
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
}

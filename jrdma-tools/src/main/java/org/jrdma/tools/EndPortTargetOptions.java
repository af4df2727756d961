package org.jrdma.tools;

import picocli.CommandLine.Mixin;

/**
 * The options of python-rdma's commands that send to one end port named by a {@code TARGET}
 * argument ({@code query}, {@code set_guid}), as one picocli mixin: {@code -D}, {@code -G} and
 * {@code -L}, how the target is read ({@link PathTargetOptions}). python-rdma's options for the
 * subnet administrator ({@link PythonRdmaOptions}) are every MAD-sending command's ({@link CommonOptions}).
 */
public final class EndPortTargetOptions {
    @Mixin
    PathTargetOptions kind;

    /**
     * Reads {@code text}, argument number {@code index} (from 1), as the end port the options say.
     *
     * @throws CmdError python-rdma's {@code Invalid command line argument #N 'TEXT' - WHY}
     */
    public PathTarget target(String text, int index) {
        return PathTarget.parse(text, kind.kind(), index);
    }
}

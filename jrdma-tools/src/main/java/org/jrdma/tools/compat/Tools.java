package org.jrdma.tools.compat;

import java.io.PrintWriter;
import java.util.List;

/** Runs an ibtool command in this process as a script runs the diags tool of that name. */
@FunctionalInterface
interface Tools {
    /**
     * Runs {@code ibtool tool args...}: what it prints on standard output is returned, what it
     * prints on standard error goes to {@code err}.
     */
    Output run(String tool, List<String> args, PrintWriter err);

    /**
     * A tool's run.
     *
     * @param status its exit status
     * @param text   its standard output
     */
    record Output(int status, String text) {
    }
}

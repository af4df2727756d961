package org.jrdma.tools.compat;

import java.io.PrintWriter;
import java.util.List;
import org.jrdma.tools.scripts.ToolOutput;

/** Runs an ibtool command in this process as a script runs the diags tool of that name. */
@FunctionalInterface
interface Tools {
    /**
     * Runs {@code ibtool tool args...}: what it prints on standard output is returned, what it
     * prints on standard error goes to {@code err}.
     */
    ToolOutput run(String tool, List<String> args, PrintWriter err);
}

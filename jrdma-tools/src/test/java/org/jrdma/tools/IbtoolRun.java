package org.jrdma.tools;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/**
 * One in-process run of {@code ibtool} with its output captured.
 *
 * @param exitCode the exit status
 * @param out      what it printed on standard output
 * @param err      what it printed on standard error
 */
record IbtoolRun(int exitCode, String out, String err) {
    static IbtoolRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Ibtool.commandLine(args);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new IbtoolRun(code, out.toString(), err.toString());
    }

    /** A topology file with its generation date masked, for comparing two runs. */
    static String withoutDate(String topology) {
        return topology.replaceAll("(?m)^# Topology file: generated on .*$", "# Topology file: generated on <date>");
    }
}

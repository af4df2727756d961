package org.jrdma.examples.demo;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.jrdma.tools.Ibtool;

/**
 * An {@code ibtool} command line run in the demo's JVM, as {@code bin/ibtool} would run it: prints
 * the command, what it printed on standard output and standard error, and its exit status and time.
 *
 * @param status the exit status (infiniband-diags': 0, 255, 2...)
 * @param out what it printed on standard output
 * @param err what it printed on standard error
 */
record InProcessIbtool(int status, String out, String err) {
    static InProcessIbtool run(String... args) {
        System.out.println("$ ibtool " + String.join(" ", args));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        long start = System.nanoTime();
        picocli.CommandLine cl = Ibtool.commandLine(args);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int status = cl.execute(args);
        System.out.print(out);
        System.out.print(err);
        System.out.printf("(ibtool: exit %d, %d ms)%n", status, Duration.ofNanos(System.nanoTime() - start).toMillis());
        return new InProcessIbtool(status, out.toString(), err.toString());
    }
}

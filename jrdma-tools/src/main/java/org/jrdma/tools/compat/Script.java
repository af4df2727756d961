package org.jrdma.tools.compat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.tools.scripts.Shell;
import org.jrdma.tools.scripts.ToolOutput;

/**
 * Where a script's run goes: the tools it runs, its standard output and error, the name it was
 * called by ({@code basename $0}), and the checks it made, as {@code --json} reports them. A
 * fabric-wide script gives each node's checks a {@link #buffered} copy, so the checks of many nodes
 * can run at once and still print in the topology's order.
 */
final class Script {
    final Tools tools;
    final PrintWriter out;
    final PrintWriter err;
    final String prog;
    private final List<Check> checks = new ArrayList<>();
    private final StringWriter outBuffer;
    private final StringWriter errBuffer;

    Script(Tools tools, PrintWriter out, PrintWriter err, String prog) {
        this(tools, out, err, prog, null, null);
    }

    private Script(Tools tools, PrintWriter out, PrintWriter err, String prog, StringWriter outBuffer, StringWriter errBuffer) {
        this.tools = tools;
        this.out = out;
        this.err = err;
        this.prog = prog;
        this.outBuffer = outBuffer;
        this.errBuffer = errBuffer;
    }

    /** A script like this one whose output is kept until {@link #replayInto} prints it. */
    Script buffered() {
        StringWriter outText = new StringWriter();
        StringWriter errText = new StringWriter();
        return new Script(tools, new PrintWriter(outText), new PrintWriter(errText), prog, outText, errText);
    }

    /** Prints what this {@link #buffered} script printed through {@code parent}, and adds its checks to the parent's. */
    void replayInto(Script parent) {
        out.flush();
        err.flush();
        parent.out.print(outBuffer.toString());
        parent.err.print(errBuffer.toString());
        parent.err.flush();
        parent.checks.addAll(checks);
        outBuffer.getBuffer().setLength(0);
        errBuffer.getBuffer().setLength(0);
        checks.clear();
    }

    /** Records a check's result. */
    void record(Check check) {
        checks.add(check);
    }

    /** The checks made so far, in order. */
    List<Check> checks() {
        return List.copyOf(checks);
    }

    /** Runs a tool, its standard error passed through as the script's ({@code `tool args`}). */
    ToolOutput backticks(String tool, List<String> args) {
        ToolOutput output = tools.run(tool, args, err);
        err.flush();
        return output;
    }

    /** Runs a tool with both its outputs discarded ({@code > /dev/null 2>&1}). */
    ToolOutput silently(String tool, List<String> args) {
        return tools.run(tool, args, new PrintWriter(new StringWriter()));
    }

    /** The scripts' {@code red} ({@link Shell#red}). */
    void red(boolean mono, String word) {
        Shell.red(out, mono, word);
    }

    /** The scripts' {@code green} ({@link Shell#green}); only when verbose. */
    void green(boolean mono, boolean verbose, String word) {
        if (verbose) {
            Shell.green(out, mono, word);
        }
    }

    /** The awk programs' {@code blue}: the text in bold blue (awk's {@code printf}), plain with {@code -N}. */
    void blue(boolean mono, String text) {
        out.print(mono ? text : "\033[1;034m" + text + "\033[0;39m");
    }
}

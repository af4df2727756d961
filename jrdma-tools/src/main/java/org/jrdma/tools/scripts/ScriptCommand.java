package org.jrdma.tools.scripts;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.jrdma.tools.CalledName;
import org.jrdma.tools.ExitCodes;
import org.jrdma.tools.ForwardedOptions;
import org.jrdma.tools.Ibtool;
import org.jrdma.tools.SimOptions;
import org.jrdma.tools.json.JsonError;
import org.jrdma.tools.json.JsonOption;
import org.jrdma.tools.json.JsonOutput;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * An infiniband-diags script (perl or sh) as an {@code ibtool} subcommand: the script reads its own
 * command line ({@link Getopts}, as Perl's Getopt::Std, or the shell's {@code $1}), so every argument
 * but ibtool's {@code --sim}/{@code --sim-node} reaches it as typed; where the script runs a diags
 * tool and reads its output ({@code `ibroute -G ...`}) the command runs that ibtool subcommand in this
 * process ({@link #backticks}), attached where it is, its standard error passed through as the
 * script's is. Output, messages and exit statuses are the script's.
 *
 * <p>With {@code --json} (which no script reads) the command runs as it would, its text kept from
 * standard output, and then writes its JSON document there instead: the one it handed to
 * {@link #document(Object)}, or, when it handed none (a usage message, a fatal error), the
 * {@link JsonError} document of what it printed, with the same exit status (README, "JSON output").
 */
abstract class ScriptCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /** {@code --sim}/{@code --sim-node}, handed on to the tools the script runs. */
    @Mixin
    SimOptions sim;

    @Mixin
    JsonOption jsonOption;

    /** python-rdma's options, handed on to the tools the script runs. */
    @Mixin
    ForwardedOptions python;

    /** The script's own arguments, in order. */
    @Unmatched
    List<String> args = new ArrayList<>();

    /** With {@code --json}: the command's result as its document, once it has one. */
    private volatile Object document;

    /** With {@code --json}: the standard output the document goes to, while the text goes to a buffer. */
    private PrintWriter jsonOut;

    /** With {@code --json}: whether the document has been written. */
    private boolean jsonWritten;

    @Override
    public final Integer call() throws Exception {
        if (!json()) {
            try {
                return run();
            } finally {
                out().flush();
                err().flush();
            }
        }
        jsonOut = out();
        StringWriter text = new StringWriter();
        spec.commandLine().setOut(new PrintWriter(text));
        int status;
        String message;
        try {
            status = run();
            message = text.toString();
        } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
            // what the text run reports as ibtool's failure (status 255): here on standard error, and as the error document
            message = e.getMessage() == null ? e.toString() : e.getMessage();
            err().print(prog() + ": " + message + "\n");
            status = ExitCodes.FAILED;
            document = null;
        } finally {
            out().flush();
            err().flush();
            spec.commandLine().setOut(jsonOut);
        }
        writeJson(status, message);
        return status;
    }

    /** Whether {@code --json} asked for the command's JSON document rather than the script's text. */
    final boolean json() {
        return jsonOption != null && jsonOption.requested();
    }

    /** With {@code --json}: {@code value} is the command's result, its JSON document (a record of its documented shape). */
    final void document(Object value) {
        document = value;
    }

    /**
     * Writes the JSON document, once: the command's result, or if it has none the error document
     * of {@code text} (what the script printed: its usage, its fatal error) and {@code status}.
     */
    final synchronized void writeJson(int status, String text) {
        if (jsonWritten) {
            return;
        }
        jsonWritten = true;
        Object written = document != null ? document
                : new JsonError(spec.name(), status, text.strip(), null, List.of()).document();
        JsonOutput.write(jsonOut, written, jsonOption.compact());
    }

    /** Does what the script does and returns its exit status. */
    abstract int run() throws Exception;

    /** The script's name as {@code basename $0} gives it: the name it was called by. */
    final String prog() {
        return CalledName.of(spec);
    }

    final PrintWriter out() {
        return spec.commandLine().getOut();
    }

    final PrintWriter err() {
        return spec.commandLine().getErr();
    }

    /**
     * Runs {@code ibtool tool toolArgs...} in this process, attached where this command is, as the
     * script runs {@code tool} in backticks: what it prints on standard output is returned, what it
     * prints on standard error goes to this command's.
     */
    final ToolOutput backticks(String tool, List<String> toolArgs) {
        return run(tool, toolArgs, err());
    }

    /** Runs {@code ibtool tool toolArgs...} as {@link #backticks}, its standard error discarded ({@code 2>/dev/null}). */
    final ToolOutput silently(String tool, List<String> toolArgs) {
        return run(tool, toolArgs, new PrintWriter(new StringWriter()));
    }

    private ToolOutput run(String tool, List<String> toolArgs, PrintWriter toolErr) {
        List<String> line = new ArrayList<>(List.of(tool));
        line.addAll(sim.forwarded());
        line.addAll(python.words(tool));
        line.addAll(toolArgs);
        String[] argv = line.toArray(String[]::new);
        StringWriter text = new StringWriter();
        CommandLine cl = Ibtool.commandLine(argv);
        cl.setOut(new PrintWriter(text, true));
        cl.setErr(toolErr);
        int status = cl.execute(argv);
        err().flush();
        return new ToolOutput(status, text.toString());
    }

    /** {@code -C ca -P port} as IBswcountlimits' {@code get_ca_name_port_param_string} adds them, when given. */
    static List<String> caPortArgs(String ca, String port) {
        List<String> params = new ArrayList<>();
        if (!ca.isEmpty()) {
            params.addAll(List.of("-C", ca));
        }
        if (!port.isEmpty()) {
            params.addAll(List.of("-P", port));
        }
        return params;
    }
}

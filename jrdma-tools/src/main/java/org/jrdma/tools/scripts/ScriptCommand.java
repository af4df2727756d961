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
import org.jrdma.tools.SharedEngines;
import org.jrdma.tools.ForwardedOptions;
import org.jrdma.tools.SimOptions;
import org.jrdma.tools.json.JsonError;
import org.jrdma.tools.json.JsonOption;
import org.jrdma.tools.json.JsonOutput;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * An infiniband-diags script (perl or sh) as an {@code ibtool} subcommand: the script reads its own
 * command line ({@link Getopts}, as Perl's Getopt::Std, or the shell's {@code $1}), so every argument
 * but ibtool's {@code --sim}/{@code --sim-node} reaches it as typed; where the script runs a diags
 * tool and reads its output ({@code `ibroute -G ...`}) the command runs that ibtool subcommand in this
 * process ({@link #backticks}), attached where it is, its standard error passed through as the
 * script's is. Every tool a run of the script runs shares one MAD engine per port it is attached at
 * ({@link SharedEngines}), as the commands of an {@code ibtool shell} do, so a script that runs
 * many tools (at once, for the fabric-wide ibcheck scripts) opens its port once. Output, messages
 * and exit statuses are the script's.
 *
 * <p>With {@code --json} (which no script reads) the command runs as it would, its text kept from
 * standard output, and then writes its JSON document there instead: the one it handed to
 * {@link #document(Object)}, or, when it handed none (a usage message, a fatal error), the
 * {@link JsonError} document of what it printed, with the same exit status (README, "JSON output").
 */
public abstract class ScriptCommand implements Callable<Integer> {
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
    protected List<String> args = new ArrayList<>();

    /** With {@code --json}: the command's result as its document, once it has one. */
    private volatile Object document;

    /** With {@code --json}: the standard output the document goes to, while the text goes to a buffer. */
    private PrintWriter jsonOut;

    /** With {@code --json}: whether the document has been written. */
    private boolean jsonWritten;

    /** The engines the tools of this run share, while it runs. */
    private SharedEngines engines;

    @Override
    public final Integer call() throws Exception {
        try (SharedEngines shared = new SharedEngines()) {
            engines = shared;
            return json() ? callForJson() : callForText();
        } finally {
            engines = null;
        }
    }

    /** Runs the script, its text on standard output. */
    private int callForText() throws Exception {
        try {
            return run();
        } finally {
            out().flush();
            err().flush();
        }
    }

    /** Runs the script with its text kept from standard output, and writes its JSON document there. */
    private int callForJson() throws Exception {
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
    protected final boolean json() {
        return jsonOption != null && jsonOption.requested();
    }

    /** With {@code --json}: {@code value} is the command's result, its JSON document (a record of its documented shape). */
    protected final void document(Object value) {
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
    protected abstract int run() throws Exception;

    /** The script's name as {@code basename $0} gives it: the name it was called by. */
    protected final String prog() {
        return CalledName.of(spec);
    }

    /** The script's standard output (with {@code --json}, a buffer the document replaces). */
    protected final PrintWriter out() {
        return spec.commandLine().getOut();
    }

    /** The script's standard error. */
    protected final PrintWriter err() {
        return spec.commandLine().getErr();
    }

    /**
     * Runs {@code ibtool tool toolArgs...} in this process, attached where this command is, as the
     * script runs {@code tool} in backticks: what it prints on standard output is returned, what it
     * prints on standard error goes to this command's.
     */
    final ToolOutput backticks(String tool, List<String> toolArgs) {
        return tool(tool, toolArgs, err());
    }

    /** Runs {@code ibtool tool toolArgs...} as {@link #backticks}, its standard error discarded ({@code 2>/dev/null}). */
    final ToolOutput silently(String tool, List<String> toolArgs) {
        return tool(tool, toolArgs, new PrintWriter(new StringWriter()));
    }

    /**
     * Runs {@code ibtool tool toolArgs...} in this process, attached where this command is, its
     * engine shared with the run's other tools: what it prints on standard output is returned, what
     * it prints on standard error goes to {@code toolErr}.
     */
    protected final ToolOutput tool(String tool, List<String> toolArgs, PrintWriter toolErr) {
        List<String> line = new ArrayList<>(List.of(tool));
        line.addAll(sim.forwarded());
        line.addAll(python.words(tool));
        line.addAll(toolArgs);
        StringWriter text = new StringWriter();
        int status = engines.execute(new PrintWriter(text), toolErr, line.toArray(String[]::new));
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

package org.jrdma.tools.compat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.jrdma.tools.CalledName;
import org.jrdma.tools.ForwardedOptions;
import org.jrdma.tools.SharedEngines;
import org.jrdma.tools.SimOptions;
import org.jrdma.tools.json.JsonOutput;
import org.jrdma.tools.scripts.ToolOutput;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * One of infiniband-diags' deprecated {@code ibcheck*} shell scripts as an {@code ibtool} command:
 * the script reads its own command line as the shell's {@code $1} loop does (so every argument but
 * ibtool's {@code --sim}, {@code --sim-node} and {@code --json} reaches it as typed), and where it
 * runs a diags tool ({@code ibaddr}, {@code smpquery}, {@code perfquery}, {@code ibnetdiscover}) or
 * another of these scripts, the command runs that ibtool command in this process ({@link Tools}).
 * Every tool it runs shares one MAD engine on the port it is attached at ({@link SharedEngines}), so
 * the fabric-wide scripts can run the checks of many nodes at once.
 */
abstract class CompatCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /** {@code --sim}/{@code --sim-node}, handed on to the tools the script runs. */
    @Mixin
    SimOptions sim;

    /** python-rdma's options, handed on to the tools the script runs. */
    @Mixin
    ForwardedOptions python;

    @Option(names = "--json", description = "the checks' results as a JSON document (README, \"JSON output\")")
    boolean json;

    @Option(names = "--compact", description = "with --json: the document on one line")
    boolean compact;

    /** The script's own arguments, in order. */
    @Unmatched
    List<String> args = new ArrayList<>();

    @Override
    public final Integer call() {
        try (SharedEngines engines = new SharedEngines()) {
            Tools tools = (tool, toolArgs, toolErr) -> run(engines, tool, toolArgs, toolErr);
            if (json || compact) {
                // the document replaces the script's text; its standard error stays
                Script script = new Script(tools, new PrintWriter(new StringWriter()), err(), prog());
                int status = run(script);
                JsonOutput.write(out(), document(script, status), compact);
                return status;
            }
            return run(new Script(tools, out(), err(), prog()));
        } finally {
            out().flush();
            err().flush();
        }
    }

    /** Does what the script does, printing through {@code script}, and returns its exit status. */
    abstract int run(Script script);

    /** The JSON document of a run: the checks {@code script} recorded and the exit status. */
    abstract Object document(Script script, int status);

    /** The script's name as {@code basename $0} gives it: the name it was called by. */
    private String prog() {
        return CalledName.of(spec);
    }

    private PrintWriter out() {
        return spec.commandLine().getOut();
    }

    private PrintWriter err() {
        return spec.commandLine().getErr();
    }

    /** Runs {@code ibtool tool toolArgs...} in {@code engines}, attached where this command is. */
    private ToolOutput run(SharedEngines engines, String tool, List<String> toolArgs, PrintWriter toolErr) {
        List<String> line = new ArrayList<>(List.of(tool));
        line.addAll(sim.forwarded());
        line.addAll(python.words(tool));
        line.addAll(toolArgs);
        StringWriter text = new StringWriter();
        int status = engines.execute(new PrintWriter(text), toolErr, line.toArray(String[]::new));
        return new ToolOutput(status, text.toString());
    }
}

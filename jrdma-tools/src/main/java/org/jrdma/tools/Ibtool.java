package org.jrdma.tools;

import java.util.concurrent.Callable;
import org.jrdma.RdmaException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code ibtool}: the jrdma command line, one subcommand per infiniband-diags style tool. Without a
 * subcommand it prints the list of subcommands. Exit status: 0 success, 1 a fabric or MAD failure,
 * 2 bad input, 3 an incomplete answer (part of the fabric did not respond).
 */
@Command(name = "ibtool", mixinStandardHelpOptions = true, version = "jrdma ibtool 0.1.0",
        description = "InfiniBand diagnostics and fabric tools built on jrdma.",
        subcommands = {IbnetdiscoverCommand.class, SmpqueryCommand.class, PerfqueryCommand.class, SaqueryCommand.class,
                IbrouteCommand.class, IbtracertCommand.class, NodeListCommand.Hosts.class, NodeListCommand.Switches.class,
                NodeListCommand.Routers.class, NodeListCommand.Nodes.class, IblinkinfoCommand.class,
                SminfoCommand.class, IbaddrCommand.class, SmpdumpCommand.class,
                DecodeMadCommand.class, IbstatCommand.class})
public final class Ibtool implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return ExitCodes.OK;
    }

    /** A command line whose failures map to ibtool's exit statuses with a one-line message. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Ibtool());
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            commandLine.getErr().println(commandLine.getCommandName() + ": " + e.getMessage());
            commandLine.getErr().flush();
            if (e instanceof UsageException) {
                commandLine.usage(commandLine.getErr());
                return ExitCodes.USAGE;
            }
            if (e instanceof RdmaException || e instanceof IllegalArgumentException) {
                return e instanceof IllegalArgumentException ? ExitCodes.USAGE : ExitCodes.FAILED;
            }
            throw e;
        });
        return cl;
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }
}

package org.jrdma.tools;

import java.util.List;
import java.util.concurrent.Callable;
import org.jrdma.tools.cache.IbcacheeditCommand;
import org.jrdma.tools.cc.IbccconfigCommand;
import org.jrdma.tools.cc.IbccqueryCommand;
import org.jrdma.tools.compat.FabricCheckCommand;
import org.jrdma.tools.compat.SingleCheckCommand;
import org.jrdma.tools.fts.DumpFtsCommand;
import org.jrdma.tools.devices.IbvDevicesCommand;
import org.jrdma.tools.devices.RdmaBwCommand;
import org.jrdma.tools.portadmin.InitAllPortsCommand;
import org.jrdma.tools.portadmin.SetGuidCommand;
import org.jrdma.tools.portadmin.SetPortStateCommand;
import org.jrdma.tools.query.QueryCommand;
import org.jrdma.tools.vendor.VendstatCommand;
import org.jrdma.tools.scripts.CheckLftBalanceCommand;
import org.jrdma.tools.scripts.ClearCommand;
import org.jrdma.tools.scripts.DumpTablesCommand;
import org.jrdma.tools.scripts.IbfindnodesusingCommand;
import org.jrdma.tools.scripts.IbdatacountersCommand;
import org.jrdma.tools.scripts.IbdatacountsCommand;
import org.jrdma.tools.scripts.IbidsverifyCommand;
import org.jrdma.tools.scripts.IbstatusCommand;
import org.jrdma.tools.scripts.IbswportwatchCommand;
import org.jrdma.tools.scripts.NodePrintCommand;
import org.jrdma.tools.scripts.SetNodedescCommand;
import org.jrdma.tools.shell.Batch;
import org.jrdma.tools.shell.ShellCommand;
import org.jrdma.tools.traps.IbsendtrapCommand;
import org.jrdma.tools.traps.McmReregTestCommand;
import org.jrdma.tools.topodiff.IbdiscoverCommand;
import org.jrdma.tools.topodiff.SubnetDiffCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ibtool}: the jrdma command line, one subcommand per infiniband-diags style tool. Without a
 * subcommand it prints the list of subcommands. Exit status as infiniband-diags': 0 success, 255 a
 * fabric or MAD failure, 2 bad input, and 3 an incomplete answer (part of the fabric did not respond).
 */
@Command(name = "ibtool", mixinStandardHelpOptions = true, version = "jrdma ibtool 0.1.0",
        description = "InfiniBand diagnostics and fabric tools built on jrdma.",
        subcommands = CommandLine.HelpCommand.class)
public final class Ibtool implements Callable<Integer> {
    /** Every subcommand, in the order the usage message lists them. */
    private static final List<Class<?>> SUBCOMMANDS = List.of(IbnetdiscoverCommand.class, SmpqueryCommand.class,
            PerfqueryCommand.class, SaqueryCommand.class, IbrouteCommand.class, IbtracertCommand.class,
            NodeListCommand.Hosts.class, NodeListCommand.Switches.class, NodeListCommand.Routers.class,
            NodeListCommand.Nodes.class, IblinkinfoCommand.class, SminfoCommand.class, IbaddrCommand.class,
            SmpdumpCommand.class, DecodeMadCommand.class, IbstatCommand.class, IbqueryerrorsCommand.class,
            IbportstateCommand.class, IbpingCommand.class, IbsysstatCommand.class,
            VendstatCommand.class, IbccqueryCommand.class, IbccconfigCommand.class,
            DumpFtsCommand.class, IbcacheeditCommand.class, IbstatusCommand.class,
            IbidsverifyCommand.class,
            IbfindnodesusingCommand.class,
            CheckLftBalanceCommand.class,
            NodePrintCommand.Ca.class,
            NodePrintCommand.Switch.class,
            NodePrintCommand.Router.class,
            DumpTablesCommand.Lfts.class,
            DumpTablesCommand.Mfts.class,
            ClearCommand.Counters.class,
            ClearCommand.Errors.class,
            SetNodedescCommand.class,
            IbdatacountsCommand.class,
            IbdatacountersCommand.class,
            IbswportwatchCommand.class,
            IbsendtrapCommand.class,
            McmReregTestCommand.class,
            SingleCheckCommand.Node.class,
            SingleCheckCommand.Port.class,
            SingleCheckCommand.PortState.class,
            SingleCheckCommand.PortWidth.class,
            SingleCheckCommand.Errs.class,
            FabricCheckCommand.State.class,
            FabricCheckCommand.Width.class,
            FabricCheckCommand.Net.class,
            FabricCheckCommand.Errors.class,
            IbdiscoverCommand.class,
            SubnetDiffCommand.class,
            SetPortStateCommand.class,
            InitAllPortsCommand.class,
            SetGuidCommand.class,
            QueryCommand.class,
            IbvDevicesCommand.class,
            RdmaBwCommand.class,
            ShellCommand.class);

    @Spec
    private CommandSpec spec;

    @Option(names = "--batch", paramLabel = "FILE", description = "run the ibtool commands of FILE, one per line (- for standard input), in this JVM ("
            + "each line prints what ibtool LINE would; the status: the first failing line's, else 0)")
    private String batch;

    @Override
    public Integer call() {
        if (batch != null) {
            return Batch.run(batch, spec.commandLine().getOut(), spec.commandLine().getErr());
        }
        spec.commandLine().usage(spec.commandLine().getOut());
        return ExitCodes.OK;
    }

    /**
     * The command line that runs {@code args}, its failures reported as the C tools report them
     * ({@link DiagError}, {@link DiagUsage}) and mapped to their exit statuses ({@link ExitCodes#MAPPER}). When {@code args} start with a subcommand's name it holds that subcommand
     * alone: picocli builds a command's model by reflection, and building the other fifteen would
     * cost a one-shot process more than most of its commands take; otherwise (no arguments, an
     * option, an unknown name) it holds every subcommand, for the usage message and picocli's errors.
     */
    public static CommandLine commandLine(String... args) {
        CommandLine cl = new CommandLine(new Ibtool());
        for (Class<?> subcommand : subcommandsFor(args)) {
            cl.addSubcommand(subcommand);
        }
        cl.getSubcommands().values().forEach(CommonOptions::addTo);
        for (CommandLine sub : cl.getSubcommands().values()) {
            if (sub.getCommand() instanceof HelpFooter footer) {
                sub.getCommandSpec().usageMessage().sectionMap().put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_FOOTER,
                        help -> footer.helpFooter());
            }
        }
        cl.setDefaultValueProvider(DiagConfig.defaults());
        cl.setExitCodeExceptionMapper(ExitCodes.MAPPER);
        cl.setExecutionStrategy(Ibtool::execute);
        cl.setParameterExceptionHandler((e, arguments) -> {
            int status = DiagUsage.report(e, arguments);
            if (e.getCommandLine().getCommand() instanceof IbtoolCommand command && command.json()) {
                command.jsonError(e.getMessage(), null, List.of(), status);
            }
            return status;
        });
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof CmdError pythonRdma) {
                if (commandLine.getCommand() instanceof IbtoolCommand command && command.json()) {
                    command.jsonError(pythonRdma.getMessage(), null, List.of(), CmdError.STATUS);
                    return CmdError.STATUS;
                }
                return pythonRdma.report(commandLine.getOut());
            }
            if (!ExitCodes.reportable(e)) {
                throw e;
            }
            IbtoolCommand json = commandLine.getCommand() instanceof IbtoolCommand command && command.json() ? command : null;
            if (e instanceof UsageException usage) {
                int status = DiagUsage.report(usage, commandLine);
                if (json != null) {
                    json.jsonError(usage.getMessage(), null, List.of(), status);
                }
                return status;
            }
            DiagError error = DiagError.of(e);
            if (json != null) {
                error.reportJson(json, commandLine.getOut(), commandLine.getErr());
            } else {
                error.report(commandLine.getCommandName(), commandLine.getOut(), commandLine.getErr());
            }
            return error.status();
        });
        return cl;
    }

    /**
     * Runs the parsed command line, answering a subcommand's {@code -h}/{@code --help} and
     * {@code -V}/{@code --version} as its C tool does ({@link DiagUsage#help}); {@code ibtool help
     * <command>} prints picocli's full help instead.
     */
    private static int execute(CommandLine.ParseResult parsed) {
        CommandLine.ParseResult last = parsed;
        while (last.hasSubcommand()) {
            last = last.subcommand();
        }
        if (last != parsed && last.isUsageHelpRequested()) {
            int status = DiagUsage.help(last.commandSpec().commandLine());
            if (status >= 0) {
                return status;
            }
        }
        if (last != parsed && last.isVersionHelpRequested()) {
            return DiagUsage.version(last.commandSpec().commandLine());
        }
        return new CommandLine.RunLast().execute(parsed);
    }

    private static List<Class<?>> subcommandsFor(String[] args) {
        for (Class<?> subcommand : SUBCOMMANDS) {
            Command command = subcommand.getAnnotation(Command.class);
            if (args.length > 0 && (command.name().equals(args[0]) || List.of(command.aliases()).contains(args[0]))) {
                return List.of(subcommand);
            }
        }
        return SUBCOMMANDS;
    }

    public static void main(String[] args) {
        System.exit(commandLine(args).execute(args));
    }
}

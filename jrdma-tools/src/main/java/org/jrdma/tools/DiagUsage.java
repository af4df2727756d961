package org.jrdma.tools;

import java.io.PrintWriter;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The usage message infiniband-diags prints for a command line it cannot read, in its layout
 * ({@code ibdiag_show_usage}): getopt's complaint ({@code smpquery: invalid option -- 'Z'}), a blank
 * line, {@code Usage: <tool> [options] <the C tool's arguments>}, the options, a blank line, all on
 * standard error, then status 2. The shell scripts ibhosts, ibswitches, ibrouters and ibnodes print
 * one {@code Usage:} line and exit 255.
 */
final class DiagUsage {
    /** What each C tool's usage line says after {@code [options]} (its {@code prog_args}). */
    private static final Map<String, String> ARGUMENTS = Map.ofEntries(
            Map.entry("ibnetdiscover", "[topology-file]"),
            Map.entry("smpquery", "<op> <dest dr_path|lid|guid> [op params]"),
            Map.entry("perfquery", " [<lid|guid> [[port(s)] [reset_mask]]]"),
            Map.entry("saquery", "[query-name] [<name> | <lid> | <guid>]"),
            Map.entry("ibroute", "[<dest dr_path|lid|guid> [<startlid> [<endlid>]]]"),
            Map.entry("ibtracert", "<src-addr> <dest-addr>"),
            Map.entry("iblinkinfo", ""),
            Map.entry("sminfo", "<sm_lid|sm_dr_path> [modifier]"),
            Map.entry("ibaddr", "[<lid|dr_path|guid>]"),
            Map.entry("smpdump", "<dlid|dr_path> <attr> [mod]"),
            Map.entry("ibstat", "<ca_name> [portnum]"));
    /** The scripts' one usage line after their name. */
    private static final String SCRIPT_ARGUMENTS = "[-h] [<topology-file> | -y mkey -C ca_name -P ca_port -t timeout_ms]";
    private static final List<String> SCRIPTS = List.of("ibhosts", "ibswitches", "ibrouters", "ibnodes");
    /** The column the C tools start an option's description in. */
    private static final int DESCRIPTION_COLUMN = 24;

    private DiagUsage() {
    }

    /**
     * Reports a command line picocli could not read as the C tool does and returns its status:
     * {@link ExitCodes#USAGE}, or {@link ExitCodes#FAILED} for the scripts.
     */
    static int report(CommandLine.ParameterException e, String[] args) {
        CommandLine commandLine = e.getCommandLine();
        PrintWriter err = commandLine.getErr();
        String tool = commandLine.getCommandName();
        if (SCRIPTS.contains(tool)) {
            err.print("Usage: " + tool + " " + SCRIPT_ARGUMENTS + "\n");
            err.flush();
            return ExitCodes.FAILED;
        }
        String complaint = getoptComplaint(e, List.of(args));
        if (complaint != null) {
            err.print(tool + ": " + complaint + "\n");
        }
        print(commandLine.getCommandSpec(), err);
        return ExitCodes.USAGE;
    }

    /** Prints the usage message in the C tools' layout on {@code err}. */
    static void print(CommandSpec spec, PrintWriter err) {
        String tool = spec.name();
        StringBuilder text = new StringBuilder("\nUsage: ").append(tool).append(" [options] ")
                .append(ARGUMENTS.getOrDefault(tool, positionals(spec))).append("\n\nOptions:\n");
        spec.options().stream().filter(o -> !o.hidden()).forEach(o -> text.append(line(o)).append('\n'));
        text.append('\n');
        err.print(text);
        err.flush();
    }

    /** What getopt_long prints before the usage message, or null when it prints nothing (a missing argument). */
    private static String getoptComplaint(CommandLine.ParameterException e, List<String> args) {
        return switch (e) {
            case CommandLine.UnmatchedArgumentException u when !u.getUnmatched().isEmpty() && u.getUnmatched().getFirst().startsWith("--") ->
                    "unrecognized option '" + u.getUnmatched().getFirst().split("=", 2)[0] + "'";
            case CommandLine.UnmatchedArgumentException u when !u.getUnmatched().isEmpty() && u.getUnmatched().getFirst().startsWith("-")
                    && u.getUnmatched().getFirst().length() > 1 -> "invalid option -- '" + u.getUnmatched().getFirst().charAt(1) + "'";
            case CommandLine.UnmatchedArgumentException _ -> null;
            case CommandLine.MissingParameterException m when m.getMissing().stream().anyMatch(ArgSpec::isOption) -> {
                OptionSpec option = (OptionSpec) m.getMissing().stream().filter(ArgSpec::isOption).findFirst().orElseThrow();
                List<String> names = List.of(option.names());
                String used = args.reversed().stream().filter(names::contains).findFirst().orElse(option.shortestName());
                yield used.startsWith("--") ? "option '" + used + "' requires an argument"
                        : "option requires an argument -- '" + used.substring(1) + "'";
            }
            case CommandLine.MissingParameterException _ -> null;
            default -> e.getMessage();
        };
    }

    /** {@code  --long, -x <arg>}, padded to the description column, then the description. */
    private static String line(OptionSpec option) {
        StringBuilder line = new StringBuilder("  ").append(longName(option));
        Arrays.stream(option.names()).filter(n -> !n.startsWith("--")).findFirst().ifPresent(s -> line.append(", ").append(s));
        if (option.arity().max() > 0) {
            line.append(" <").append(option.paramLabel().toLowerCase(Locale.ROOT)).append('>');
        }
        String description = String.join(" ", option.description());
        if (!description.isEmpty()) {
            line.append(" ".repeat(Math.max(0, DESCRIPTION_COLUMN - line.length()))).append("  ").append(description);
        }
        return line.toString();
    }

    private static String longName(OptionSpec option) {
        return Arrays.stream(option.names()).filter(n -> n.startsWith("--")).findFirst().orElse(option.longestName());
    }

    /** The command's positional parameters as a usage line names them, for a command the C tools do not have. */
    private static String positionals(CommandSpec spec) {
        StringBuilder args = new StringBuilder();
        for (var p : spec.positionalParameters()) {
            String label = "<" + p.paramLabel().toLowerCase(Locale.ROOT) + ">";
            args.append(args.isEmpty() ? "" : " ").append(p.arity().min() == 0 ? "[" + label + "]" : label);
        }
        return args.toString();
    }
}

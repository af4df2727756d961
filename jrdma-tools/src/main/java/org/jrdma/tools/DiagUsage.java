package org.jrdma.tools;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The usage message infiniband-diags prints for a command line it cannot read
 * ({@code ibdiag_show_usage}): getopt's complaint ({@code smpquery: invalid option -- 'Z'}), then the
 * C tool's usage text (a blank line, {@code Usage: <tool> [options] <args>}, the operations or query
 * names where it has them, its options, its examples), all on standard error, then status 2; where
 * getopt has no complaint (a missing operand, a value picocli cannot convert), picocli's reason follows
 * as jrdma's explanation. The
 * text is the C tool's (resources {@code <tool>.usage}, as infiniband-diags 44 prints it) without the
 * lines of the options ibtool does not have yet; ibtool's own options ({@code --sim}, {@code --trace}
 * ...) are listed by {@code --help}. A command the C tools do not have (ibtool itself, decode_mad)
 * gets picocli's usage message. The shell scripts ibhosts, ibswitches, ibrouters and ibnodes print one
 * {@code Usage:} line on standard output and exit 255 (ibnodes, which runs ibhosts then ibswitches,
 * prints both of theirs).
 *
 * <p>{@code -h} and {@code --help} are answered as the C tools answer them: the usage message alone
 * on standard error and status 2 (the scripts: their usage line on standard output, 255). ibtool's
 * own help, with every option it has, is {@code ibtool help <command>}.
 */
final class DiagUsage {
    /** The scripts' one usage line after their name. */
    private static final String SCRIPT_ARGUMENTS = "[-h] [<topology-file> | -y mkey -C ca_name -P ca_port -t timeout_ms]";
    private static final List<String> SCRIPTS = List.of("ibhosts", "ibswitches", "ibrouters", "ibnodes");
    /** The version infiniband-diags' {@code -V} reports is theirs; ibtool reports its own. */
    private static final String VERSION = "jrdma ibtool 0.1.0";
    /** An option line of a C usage text: {@code   --name, -x <arg>   description}; group 1 is the name. */
    private static final Pattern OPTION_LINE = Pattern.compile("^  --([^ ,]+)");
    /** A continuation of the previous option's description: blanks, then text. */
    private static final Pattern CONTINUATION = Pattern.compile("^ {5,}\\S");

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
            return scriptUsage(commandLine);
        }
        String complaint = getoptComplaint(commandLine.getCommandSpec(), List.of(args));
        if (complaint != null) {
            err.print(tool + ": " + complaint + "\n");
        }
        print(commandLine.getCommandSpec(), err);
        if (complaint == null) {
            err.print(tool + ": " + e.getMessage() + "\n");
            err.flush();
        }
        return ExitCodes.USAGE;
    }

    /**
     * Reports an argument the command refused as the C tool does: its own line, if it prints one,
     * the usage message, then the refusal's reason (jrdma's explanation); returns {@link ExitCodes#USAGE}.
     */
    static int report(UsageException e, CommandLine commandLine) {
        PrintWriter err = commandLine.getErr();
        if (e.cLine() != null) {
            err.print(e.cLine() + "\n");
        }
        print(commandLine.getCommandSpec(), err);
        err.print(commandLine.getCommandName() + ": " + e.getMessage() + "\n");
        err.flush();
        return ExitCodes.USAGE;
    }

    /**
     * Answers {@code -h}/{@code --help} on {@code commandLine} as its C tool does and returns the
     * status, or returns -1 when the C tools have no such command (picocli's help then serves).
     */
    static int help(CommandLine commandLine) {
        String tool = commandLine.getCommandName();
        if (SCRIPTS.contains(tool)) {
            return scriptUsage(commandLine);
        }
        if (cText(tool) == null) {
            return -1;
        }
        print(commandLine.getCommandSpec(), commandLine.getErr());
        return ExitCodes.USAGE;
    }

    /**
     * Answers {@code -V}/{@code --version} as the C tools do ({@code <tool> BUILD VERSION: ...} on
     * standard error, status 0), with ibtool's version.
     */
    static int version(CommandLine commandLine) {
        PrintWriter err = commandLine.getErr();
        err.print(commandLine.getCommandName() + " BUILD VERSION: " + VERSION + "\n");
        err.flush();
        return ExitCodes.OK;
    }

    /** A script's usage: its line (ibnodes: ibhosts' then ibswitches') on standard output; status 255. */
    private static int scriptUsage(CommandLine commandLine) {
        String tool = commandLine.getCommandName();
        PrintWriter out = commandLine.getOut();
        for (String script : tool.equals("ibnodes") ? List.of("ibhosts", "ibswitches") : List.of(tool)) {
            out.print("Usage: " + script + " " + SCRIPT_ARGUMENTS + "\n");
        }
        out.flush();
        return ExitCodes.FAILED;
    }

    /** Prints the C tool's usage message, less the options {@code spec} does not have (or picocli's), on {@code err}. */
    private static void print(CommandSpec spec, PrintWriter err) {
        String text = cText(spec.name());
        if (text != null) {
            err.print(withoutMissingOptions(text, spec));
        } else {
            spec.commandLine().usage(err);
        }
        err.flush();
    }

    /** The C tool's usage text, or null for a command the C tools do not have. */
    static String cText(String tool) {
        try (InputStream in = DiagUsage.class.getResourceAsStream(tool + ".usage")) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code text} without the option lines (and their continuations) of options {@code spec} lacks. */
    private static String withoutMissingOptions(String text, CommandSpec spec) {
        StringBuilder kept = new StringBuilder();
        boolean keep = true;
        for (String line : text.split("\n", -1)) {
            Matcher option = OPTION_LINE.matcher(line);
            if (option.find()) {
                keep = spec.findOption("--" + option.group(1)) != null;
            } else if (!CONTINUATION.matcher(line).find()) {
                keep = true;
            }
            if (keep) {
                kept.append(line).append('\n');
            }
        }
        return kept.substring(0, kept.length() - 1);
    }

    /**
     * What getopt_long prints before the usage message, found as getopt finds it, scanning the
     * arguments after the command's name from the left: the first unknown option or option missing
     * its argument; null when it prints nothing (a missing or extra operand).
     */
    private static String getoptComplaint(CommandSpec spec, List<String> args) {
        int i = args.indexOf(spec.name()) + 1;
        for (; i < args.size() && !args.get(i).equals("--"); i++) {
            String arg = args.get(i);
            boolean last = i + 1 == args.size();
            if (arg.startsWith("--")) {
                String name = arg.split("=", 2)[0];
                OptionSpec option = spec.findOption(name);
                if (option == null) {
                    return "unrecognized option '" + name + "'";
                }
                if (takesArgument(option) && !arg.contains("=")) {
                    if (last) {
                        return "option '" + name + "' requires an argument";
                    }
                    i++;
                }
            } else if (arg.startsWith("-") && arg.length() > 1) {
                for (int j = 1; j < arg.length(); j++) {
                    OptionSpec option = spec.findOption(arg.charAt(j));
                    if (option == null) {
                        return "invalid option -- '" + arg.charAt(j) + "'";
                    }
                    if (takesArgument(option)) {
                        if (j + 1 == arg.length()) {
                            if (last) {
                                return "option requires an argument -- '" + arg.charAt(j) + "'";
                            }
                            i++;
                        }
                        break;
                    }
                }
            }
        }
        return null;
    }

    private static boolean takesArgument(OptionSpec option) {
        return option.arity().min() > 0;
    }
}

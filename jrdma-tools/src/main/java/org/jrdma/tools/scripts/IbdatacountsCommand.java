package org.jrdma.tools.scripts;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;

/**
 * infiniband-diags' deprecated {@code ibdatacounts}: a shell script that shows the data counters of
 * one port (or of every port, 255) of the PortCounters attribute as {@code perfquery} reads them: the
 * address is checked with {@code ibaddr -L} ({@code -G}: a port GUID resolved to its LID), the node's
 * description read with {@code smpquery nodedesc}, then perfquery's header line and its
 * {@code PortRcvData} and {@code PortRcvPkts} lines are printed (the script's pattern,
 * {@code (Xmt|Rcv)(Pkts|Data)}, never matches perfquery's {@code PortXmit} names). A failure prints
 * {@code Error on lid L (DESC) port P: FAILED}, status 255; {@code -v} says {@code OK} too. Colours
 * are ANSI escapes unless {@code -N}; {@code -S} suppresses the deprecation warning on standard error.
 *
 * <p>With {@code --json}: {@link PortData}, the port's counters as the text shows them; a failure
 * is the error document of what the text says, status 255.
 */
@Command(name = "ibdatacounts", description = "Show the data counters of a port (deprecated: ibqueryerrors --counters).")
public final class IbdatacountsCommand extends ScriptCommand {
    private static final Pattern NODE_DESCRIPTION = Pattern.compile("^Node Description:\\.*(.*)$");
    private static final Pattern DATA_COUNTER = Pattern.compile("(Xmt|Rcv)(Pkts|Data)");

    /**
     * ibdatacounts' JSON document, and each port check of ibdatacounters'.
     *
     * @param lid             the LID queried
     * @param nodeDescription the node's description ({@code smpquery nodedesc})
     * @param portNum         the port, 255 (AllPortSelect) for all of them
     * @param counters        the data counters the text shows, by their IBA names ({@code portRcvData}, {@code portRcvPkts})
     * @param ok              whether the query succeeded for that port (the text's {@code OK} rather than {@code FAILED})
     */
    public record PortData(String lid, String nodeDescription, String portNum, Map<String, Long> counters, boolean ok) {
    }

    @Override
    protected int run() {
        List<PortData> checks = new ArrayList<>();
        int status = datacounts(this, prog(), args, checks);
        if (status == 0) {
            document(checks.getFirst());
        }
        return status;
    }

    /** The script's options. */
    private static final class Flags {
        final List<String> caInfo = new ArrayList<>();
        boolean guid;
        boolean mono;
        boolean verbose;
        boolean brief;
        boolean suppress;
    }

    /**
     * Runs the script as {@code ibdatacounts args...} through {@code script}'s tools and output, as
     * ibdatacounters' {@code system()} runs it too; the port's counters, once read, are added to {@code checks}.
     */
    static int datacounts(ScriptCommand script, String prog, List<String> args, List<PortData> checks) {
        Flags flags = new Flags();
        int i = 0;
        for (; i < args.size() && !args.get(i).isEmpty(); i++) {
            String arg = args.get(i);
            switch (arg) {
                case "-G" -> flags.guid = true;
                case "-nocolor", "-N" -> flags.mono = true;
                case "-v" -> {
                    flags.verbose = true;
                    flags.brief = false;
                }
                case "-b" -> {
                    flags.brief = true;
                    flags.verbose = false;
                }
                case "-P", "-C", "-t", "-timeout" -> {
                    String value = i + 1 < args.size() ? args.get(i + 1) : "";
                    if (value.startsWith("-") || value.isEmpty()) {
                        return usage(script, prog);
                    }
                    flags.caInfo.addAll(List.of(arg, value));
                    i++;
                }
                case "-S" -> flags.suppress = true;
                default -> {
                    if (arg.startsWith("-")) {
                        return usage(script, prog);
                    }
                }
            }
            if (!arg.startsWith("-")) {
                break; // the address: the options end here
            }
        }
        List<String> operands = args.subList(i, args.size());
        if (operands.isEmpty()) {
            return usage(script, prog);
        }
        String address = operands.getFirst();
        boolean portGiven = operands.size() > 1 && !operands.get(1).isEmpty();
        String portnum = portGiven ? operands.get(1) : "255";
        String portname = portnum.equals("255") ? "all" : portnum;

        String lid;
        List<String> ibaddr = new ArrayList<>(flags.caInfo);
        if (flags.guid) {
            ibaddr.addAll(List.of("-G", "-L", address));
            ToolOutput resolved = script.backticks("ibaddr", ibaddr);
            if (resolved.text().contains("failed")) {
                script.out().print("guid " + address + " address resolution: ");
                red(script, flags, "FAILED");
                return 255;
            }
            lid = Shell.lines(resolved.text()).stream().map(l -> Shell.field(l, 3)).collect(Collectors.joining("\n")).stripTrailing();
        } else {
            ibaddr.addAll(List.of("-L", address));
            if (script.backticks("ibaddr", ibaddr).text().contains("failed")) {
                script.out().print("lid " + address + " address resolution: ");
                red(script, flags, "FAILED");
                return 255;
            }
            lid = address;
        }
        List<String> smpquery = new ArrayList<>(flags.caInfo);
        smpquery.addAll(Shell.words(List.of("nodedesc", lid)));
        String nodename = Shell.lines(script.backticks("smpquery", smpquery).text()).stream().map(l -> {
            Matcher m = NODE_DESCRIPTION.matcher(l);
            return m.matches() ? m.group(1) : l;
        }).collect(Collectors.joining("\n")).replaceFirst("\n+$", "");

        if (!flags.suppress) {
            script.err().print("*** WARNING ***: this command is deprecated; Please use \"ibqueryerrors --counters\"\n\n\n");
            script.err().flush();
        }
        List<String> perfquery = new ArrayList<>(flags.caInfo);
        perfquery.addAll(Shell.words(List.of(lid, portnum)));
        ToolOutput counters = script.backticks("perfquery", perfquery);
        Map<String, Long> values = new LinkedHashMap<>();
        int filtered = filter(script, flags, lid, portnum, counters.text(), values);
        String prefix = "Error on lid " + lid + " (" + nodename + ") port " + portname + ": ";
        checks.add(new PortData(lid, nodename, portnum, values, filtered == 0 && counters.status() == 0));
        if (filtered == 0 && counters.status() == 0) {
            if (flags.verbose) {
                script.out().print(prefix);
                green(script, flags, "OK");
            }
            return 0;
        }
        script.out().print(prefix);
        red(script, flags, "FAILED");
        return 255;
    }

    /**
     * The script's awk filter over perfquery's output: the header, the lines of libibmad's messages,
     * the data counters (also put in {@code values}, by their IBA names); a PortSelect other than the
     * port asked for is an error (status 255).
     */
    private static int filter(ScriptCommand script, Flags flags, String lid, String portnum, String text, Map<String, Long> values) {
        String error = "";
        for (String line : Shell.lines(text)) {
            if (line.startsWith("# Port counters")) {
                script.out().print(line + "\n");
            }
            if (line.startsWith("CounterSelect") || line.contains("AllPortSelect")) {
                continue;
            }
            if (line.startsWith("ib")) {
                script.out().print(line + "\n");
                continue;
            }
            for (String mark : List.of("ibpanic:", "ibwarn:", "iberror:")) {
                if (line.contains(mark)) {
                    script.out().print(line + "\n");
                }
            }
            String[] fields = line.split("[.:]+", -1);
            if (line.startsWith("PortSelect") && !sameNumber(fields.length > 1 ? fields[1] : "", portnum)) {
                error = "error: lid " + lid + " port " + (fields.length > 1 ? fields[1] : "") + " does not match query (" + portnum + ")\n";
                break;
            }
            if (DATA_COUNTER.matcher(fields[0]).find()) {
                String value = fields.length > 1 ? fields[1] : "";
                script.out().print(fields[0] + ":........................." + value + "\n");
                try {
                    values.put(Character.toLowerCase(fields[0].charAt(0)) + fields[0].substring(1), Long.parseUnsignedLong(value.trim()));
                } catch (NumberFormatException e) {
                    // a value perfquery did not print as a number: the text shows it, the document leaves it out
                }
            }
        }
        if (error.isEmpty()) {
            return 0;
        }
        if (!flags.brief) {
            script.out().print(flags.mono ? error : "\033[1;034m" + error + "\033[0;39m");
        }
        return 255;
    }

    /** awk's {@code !=} between a field and the port: numeric when both are numbers. */
    private static boolean sameNumber(String field, String port) {
        try {
            return Double.parseDouble(field.trim()) == Double.parseDouble(port.trim());
        } catch (NumberFormatException e) {
            return field.equals(port);
        }
    }

    /**
     * infiniband-diags' deprecated {@code ibchecknode -S}: whether the node at {@code lid} answers a
     * NodeInfo SubnGet ({@code smpquery nodeinfo}, its output discarded); {@code Node check lid L:
     * FAILED} (status 255) if not, {@code OK} too when verbose.
     */
    static int checknode(ScriptCommand script, List<String> caInfo, boolean mono, boolean verbose, String lid) {
        Flags flags = new Flags();
        flags.mono = mono;
        flags.verbose = verbose;
        List<String> ibaddr = new ArrayList<>(caInfo);
        ibaddr.addAll(List.of("-L", lid));
        if (script.backticks("ibaddr", ibaddr).text().contains("failed")) {
            script.out().print("lid " + lid + " address resolution: ");
            red(script, flags, "FAILED");
            return 255;
        }
        List<String> smpquery = new ArrayList<>(caInfo);
        smpquery.addAll(List.of("nodeinfo", lid));
        if (script.silently("smpquery", smpquery).status() == 0) {
            if (verbose) {
                script.out().print("Node check lid " + lid + ": ");
                green(script, flags, "OK");
            }
            return 0;
        }
        script.out().print("Node check lid " + lid + ": ");
        red(script, flags, "FAILED");
        return 255;
    }

    private static void red(ScriptCommand script, Flags flags, String word) {
        Shell.red(script.out(), flags.mono, word);
    }

    private static void green(ScriptCommand script, Flags flags, String word) {
        if (flags.verbose) {
            Shell.green(script.out(), flags.mono, word);
        }
    }

    private static int usage(ScriptCommand script, String prog) {
        script.out().print("Usage: " + prog + " [-h] [-b] [-v] [-G] [-N | -nocolor] [-C ca_name] [-P ca_port] [-t(imeout) timeout_ms] <lid|guid> [<port>]\n");
        return 255;
    }
}

package org.jrdma.tools.compat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jrdma.tools.ErrorThresholds;
import org.jrdma.tools.PortCounter;
import org.jrdma.tools.scripts.Shell;
import org.jrdma.tools.scripts.ToolOutput;

/**
 * The bodies of infiniband-diags' per-port check scripts, run as the command of that name runs them
 * and as the fabric-wide scripts run them with {@code system()}: {@code ibchecknode} (a NodeInfo
 * SubnGet answered), {@code ibcheckport}, {@code ibcheckportstate}, {@code ibcheckportwidth} (the
 * lines of {@code smpquery portinfo}: PhysLinkState LinkUp, LinkState Active, LinkWidthActive not 1X)
 * and {@code ibcheckerrs} (each PortCounters error counter of {@code perfquery} below its
 * threshold). Each reads its options as its {@code while [ "$1" ]} loop does, resolves the address
 * with {@code ibaddr -L} ({@code -G}: a port GUID to its LID), and ends with
 * {@code <what> check lid L port P: OK} (only with {@code -v}) or {@code FAILED}, status 255.
 */
final class SingleChecks {
    /** ibcheckerrs' default thresholds, in PortCounters order: a counter at or above its threshold is reported. */
    private static final List<Long> DEFAULT_THRESHOLDS = List.of(10L, 10L, 10L, 10L, 100L, 100L, 100L, 100L, 100L, 10L, 10L, 100L);
    private static final Pattern DATA_COUNTER = Pattern.compile("(Xmt|Rcv)(Pkts|Data)");
    private static final Pattern NODE_DESCRIPTION = Pattern.compile("^Node Description:\\.*(.*)$");
    private static final List<String> MARKS = List.of("ibpanic:", "ibwarn:", "iberror:");

    /** The checks, each with the script's usage text after its name. */
    enum Kind {
        NODE("node", "[-h] [-v] [-N | -nocolor] [-G] [-C ca_name] [-P ca_port] [-t(imeout) timeout_ms] <lid|guid>",
                "; Please use \"smpquery nodeinfo\""),
        PORT("port", "[-h] [-v] [-N | -nocolor] [-G] [-C ca_name] [-P ca_port] [-t(imeout) timeout_ms] <lid|guid> <port>", ""),
        PORTSTATE("portstate", PORT.usage, ""),
        PORTWIDTH("portwidth", PORT.usage, ""),
        ERRORS("errors", "[-h] [-b] [-v] [-G] [-T <threshold_file>] [-s(how_thresholds)] [-N \\| -nocolor] [-C ca_name] "
                + "[-P ca_port] [-t(imeout) timeout_ms] <lid|guid> [<port>]", "; Please use \"ibqueryerrors\"");

        final String json;
        final String usage;
        final String replacement;

        Kind(String json, String usage, String replacement) {
            this.json = json;
            this.usage = usage;
            this.replacement = replacement;
        }
    }

    /** The script's options. */
    private static final class Flags {
        final List<String> caInfo = new ArrayList<>();
        final Map<String, Long> thresholds = new LinkedHashMap<>();
        boolean guid;
        boolean mono;
        boolean verbose;
        boolean brief;
        boolean suppress;

        Flags() {
            for (int i = 0; i < PortCounter.ERRORS.size(); i++) {
                thresholds.put(PortCounter.ERRORS.get(i).name(), DEFAULT_THRESHOLDS.get(i));
            }
        }
    }

    private SingleChecks() {
    }

    /** Runs the {@code kind} script as {@code prog args...} and returns its exit status. */
    static int run(Kind kind, Script script, String prog, List<String> args) {
        Flags flags = new Flags();
        int i = 0;
        for (; i < args.size() && !args.get(i).isEmpty(); i++) {
            String arg = args.get(i);
            String value = i + 1 < args.size() ? args.get(i + 1) : "";
            switch (arg) {
                case "-G" -> flags.guid = true;
                case "-nocolor", "-N", "--nocolor" -> flags.mono = true;
                case "-v" -> {
                    flags.verbose = true;
                    flags.brief = false;
                }
                case "-S" -> flags.suppress = true;
                case "-P", "-C", "-t", "-timeout" -> {
                    if (value.startsWith("-") || value.isEmpty()) {
                        return usage(script, kind, prog);
                    }
                    flags.caInfo.addAll(List.of(arg, value));
                    i++;
                }
                case "-b" -> {
                    if (kind != Kind.ERRORS) {
                        return usage(script, kind, prog);
                    }
                    flags.brief = true;
                    flags.verbose = false;
                }
                case "-T" -> {
                    if (kind != Kind.ERRORS) {
                        return usage(script, kind, prog);
                    }
                    Path file = Path.of(value);
                    if (value.isEmpty() || !Files.isReadable(file)) {
                        script.out.print("Can't use threshold file '" + value + "'\n");
                        return usage(script, kind, prog);
                    }
                    List<String> names = PortCounter.ERRORS.stream().map(PortCounter::name).toList();
                    flags.thresholds.putAll(ErrorThresholds.read(file, names).values());
                    i++;
                }
                case "-s", "--show_thresholds" -> {
                    if (kind != Kind.ERRORS) {
                        return usage(script, kind, prog);
                    }
                    flags.thresholds.forEach((name, threshold) -> script.out.print(name + "=" + threshold + "\n"));
                    return 0;
                }
                default -> {
                    if (arg.startsWith("-")) {
                        return usage(script, kind, prog);
                    }
                }
            }
            if (!arg.startsWith("-")) {
                break; // the address: the options end here
            }
        }
        List<String> operands = args.subList(i, args.size());
        boolean enough = switch (kind) {
            case NODE -> !operands.isEmpty() && !operands.getFirst().isEmpty();
            case ERRORS -> !operands.isEmpty();
            default -> operands.size() >= 2;
        };
        if (!enough) {
            return usage(script, kind, prog);
        }
        String address = operands.getFirst();
        String port = switch (kind) {
            case NODE -> null;
            case ERRORS -> operands.size() > 1 && !operands.get(1).isEmpty() ? operands.get(1) : "255";
            default -> operands.get(1);
        };
        if (!flags.suppress) {
            script.err.print("*** WARNING ***: this command is deprecated" + kind.replacement + "\n\n\n");
            script.err.flush();
        }
        String lid = resolve(script, flags, address);
        if (lid == null) {
            String failure = (flags.guid ? "guid " : "lid ") + address + " address resolution: ";
            script.out.print(failure);
            script.red(flags.mono, "FAILED");
            script.record(new Check(kind.json, flags.guid ? null : address, port, false, List.of(failure + "FAILED")));
            return 255;
        }
        return switch (kind) {
            case NODE -> node(script, flags, lid);
            case ERRORS -> errors(script, flags, lid, port);
            default -> port(kind, script, flags, lid, port);
        };
    }

    /** {@code ibaddr -L} of the address (with {@code -G}, of the port GUID): the LID, or null if it printed {@code failed}. */
    private static String resolve(Script script, Flags flags, String address) {
        List<String> ibaddr = new ArrayList<>(flags.caInfo);
        if (flags.guid) {
            ibaddr.addAll(List.of("-G", "-L"));
        } else {
            ibaddr.add("-L");
        }
        ibaddr.addAll(Shell.words(List.of(address)));
        String text = script.backticks("ibaddr", ibaddr).text();
        if (text.contains("failed")) {
            return null;
        }
        if (!flags.guid) {
            return address;
        }
        return Shell.lines(text).stream().map(l -> Shell.field(l, 3)).collect(Collectors.joining("\n")).replaceFirst("\n+$", "");
    }

    /** ibchecknode: whether {@code smpquery nodeinfo} is answered, its output discarded. */
    private static int node(Script script, Flags flags, String lid) {
        List<String> smpquery = new ArrayList<>(flags.caInfo);
        smpquery.add("nodeinfo");
        smpquery.addAll(Shell.words(List.of(lid)));
        boolean ok = script.silently("smpquery", smpquery).status() == 0;
        script.record(new Check(Kind.NODE.json, lid, null, ok, List.of()));
        return verdict(script, flags, "Node check lid " + lid + ": ", ok);
    }

    /** ibcheckport, ibcheckportstate, ibcheckportwidth: the awk checks over {@code smpquery portinfo}. */
    private static int port(Kind kind, Script script, Flags flags, String lid, String port) {
        List<String> operands = Shell.words(List.of(lid, port));
        if (kind == Kind.PORT) {
            // The script asks whether the node is a switch, to skip LID checks that its awk never makes.
            List<String> nodeinfo = new ArrayList<>(flags.caInfo);
            nodeinfo.add("nodeinfo");
            nodeinfo.addAll(operands);
            script.backticks("smpquery", nodeinfo);
        }
        List<String> portinfo = new ArrayList<>(flags.caInfo);
        portinfo.add("portinfo");
        portinfo.addAll(operands);
        ToolOutput text = script.backticks("smpquery", portinfo);
        List<String> findings = new ArrayList<>();
        StringBuilder error = new StringBuilder();
        StringBuilder warning = new StringBuilder();
        String where = "  lid " + lid + " port " + port + "\n";
        for (String line : Shell.lines(text.text())) {
            String value = Shell.dotted(line, 2);
            if (kind != Kind.PORTWIDTH && line.startsWith("PhysLinkState") && !value.equals("LinkUp")) {
                error.append("#error: Physical link state is ").append(value).append(where);
                break;
            }
            if (kind != Kind.PORTWIDTH && line.startsWith("LinkState") && !value.equals("Active")) {
                warning.append("#warn: Logical link state is ").append(value).append(where);
            }
            if (kind == Kind.PORTWIDTH && line.startsWith("LinkWidthSupported") && value.equals("1X")) {
                break;
            }
            if (kind != Kind.PORTSTATE && line.startsWith("LinkWidthActive") && value.equals("1X")) {
                warning.append("#warn: Link configured as 1X").append(where);
            }
            passLibibmadLines(script, line, findings);
        }
        boolean ok = finish(script, flags, error, warning, findings) && text.status() == 0;
        script.record(new Check(kind.json, lid, port, ok, findings));
        return verdict(script, flags, "Port check lid " + lid + " port " + port + ": ", ok);
    }

    /** ibcheckerrs: perfquery's counters against the thresholds. */
    private static int errors(Script script, Flags flags, String lid, String port) {
        String portname = port.equals("255") ? "all" : port;
        List<String> nodedesc = new ArrayList<>(flags.caInfo);
        nodedesc.add("nodedesc");
        nodedesc.addAll(Shell.words(List.of(lid)));
        String nodename = Shell.lines(script.backticks("smpquery", nodedesc).text()).stream().map(l -> {
            var m = NODE_DESCRIPTION.matcher(l);
            return m.matches() ? m.group(1) : l;
        }).collect(Collectors.joining("\n")).replaceFirst("\n+$", "");
        List<String> perfquery = new ArrayList<>(flags.caInfo);
        perfquery.addAll(Shell.words(List.of(lid, port)));
        ToolOutput text = script.backticks("perfquery", perfquery);
        String prefix = "Error check on lid " + lid + " (" + nodename + ") port " + portname + ": ";
        if (String.join(" ", Shell.words(List.of(text.text()))).contains("AllPortSelect not supported")) {
            if (flags.verbose) {
                script.out.print(prefix);
                script.green(flags.mono, true, "AllPortSelect not supported");
            }
            script.record(new Check(Kind.ERRORS.json, lid, port, true, List.of("AllPortSelect not supported")));
            return 0;
        }
        List<String> findings = new ArrayList<>();
        StringBuilder error = new StringBuilder();
        StringBuilder warning = new StringBuilder();
        for (String line : Shell.lines(text.text())) {
            if (line.startsWith("CounterSelect") || line.contains("AllPortSelect")) {
                continue;
            }
            if (passLibibmadLines(script, line, findings)) {
                continue;
            }
            String name = Shell.dotted(line, 1);
            String value = Shell.dotted(line, 2);
            if (line.startsWith("PortSelect") && !Shell.awkEquals(value, port)) {
                error.append("error: lid ").append(lid).append(" port ").append(value).append(" does not match query (").append(port).append(")\n");
                break;
            }
            if (DATA_COUNTER.matcher(name).find()) {
                continue;
            }
            Long threshold = flags.thresholds.get(name);
            if (threshold != null && threshold > 0 && Shell.awkAtLeast(value, threshold)) {
                warning.append("#warn: counter ").append(name).append(" = ").append(value).append(" \t(threshold ").append(threshold)
                        .append(") lid ").append(lid).append(" port ").append(port).append('\n');
            }
        }
        boolean ok = finish(script, flags, error, warning, findings) && text.status() == 0;
        script.record(new Check(Kind.ERRORS.json, lid, port, ok, findings));
        return verdict(script, flags, prefix, ok);
    }

    /**
     * The awk programs' rules for libibmad's lines: a line starting with {@code ib} printed (and
     * nothing else done with it, true), one holding {@code ibpanic:}, {@code ibwarn:} or
     * {@code iberror:} printed once for each.
     */
    private static boolean passLibibmadLines(Script script, String line, List<String> findings) {
        if (line.startsWith("ib")) {
            script.out.print(line + "\n");
            findings.add(line);
            return true;
        }
        for (String mark : MARKS) {
            if (line.contains(mark)) {
                script.out.print(line + "\n");
                findings.add(line);
            }
        }
        return false;
    }

    /** The awk programs' END: the error, else the warnings, in blue (not with {@code -b}); whether there were none. */
    private static boolean finish(Script script, Flags flags, StringBuilder error, StringBuilder warning, List<String> findings) {
        String shown = !error.isEmpty() ? error.toString() : warning.toString();
        if (shown.isEmpty()) {
            return true;
        }
        if (!flags.brief) {
            script.blue(flags.mono, shown);
        }
        findings.addAll(Shell.lines(shown));
        return false;
    }

    /** The script's last lines: {@code prefix} and OK (only when verbose), status 0, or FAILED, status 255. */
    private static int verdict(Script script, Flags flags, String prefix, boolean ok) {
        if (ok) {
            if (flags.verbose) {
                script.out.print(prefix);
                script.green(flags.mono, true, "OK");
            }
            return 0;
        }
        script.out.print(prefix);
        script.red(flags.mono, "FAILED");
        return 255;
    }

    private static int usage(Script script, Kind kind, String prog) {
        script.out.print("Usage: " + prog + " " + kind.usage + "\n");
        return 255;
    }
}

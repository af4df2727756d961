package org.jrdma.tools.scripts;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jrdma.tools.DiscoversSubnet;
import picocli.CommandLine.Command;

/**
 * infiniband-diags' deprecated {@code ibclearcounters} and {@code ibclearerrors}: shell scripts that
 * read the subnet's topology ({@code ibnetdiscover}, or a topology file) and reset the performance
 * counters of every port with {@code perfquery -R}: of each switch all at once ({@code -a}), of each
 * channel adapter or router port one by one; ibclearerrors only the error counters (CounterSelect
 * 0x0fff). What perfquery and ibnetdiscover print goes through, lines of the topology starting with
 * {@code ib} or holding {@code ibwarn:}, {@code ibpanic:}, {@code iberror:} too; then the
 * deprecation warning and {@code ## Summary: N nodes cleared E errors} (E the perfquery runs that
 * failed). The status is that of the topology's reading. Options {@code -C}, {@code -P}, {@code -t}
 * go to both tools, ibclearerrors' {@code -N} to perfquery; a bad argument prints the usage line
 * on standard output, status 255.
 *
 * <p>With {@code --json}: {@link Document}, the summary and each reset.
 */
public abstract sealed class ClearCommand extends ScriptCommand implements DiscoversSubnet permits ClearCommand.Counters, ClearCommand.Errors {

    /**
     * ibclearcounters' and ibclearerrors' JSON document.
     *
     * @param nodes  the nodes of the topology (the summary's {@code N nodes cleared})
     * @param errors the resets that failed (its {@code E errors})
     * @param resets every PortCounters reset, in the topology's order
     */
    public record Document(int nodes, int errors, List<Reset> resets) {
    }

    /**
     * One PortCounters reset ({@code perfquery -R}).
     *
     * @param lid     the LID, as the topology writes it
     * @param portNum the port, 255 (AllPortSelect) for a switch's ports at once
     * @param ok      whether perfquery succeeded
     */
    public record Reset(String lid, String portNum, boolean ok) {
    }

    private final List<Reset> resets = new ArrayList<>();

    /** The usage's text after {@code [-h]}. */
    abstract String usageOptions();

    /** Whether {@code -N}/{@code -nocolor} is an option. */
    abstract boolean takesNoColor();

    /** perfquery's arguments after {@code -R} for a switch ({@code -a} and its LID) or a port. */
    abstract List<String> switchArgs(String lid);

    abstract List<String> portArgs(String lid, String port);

    /** What the warning says to use instead. */
    abstract String replacement();

    @Override
    protected final int run() {
        List<String> caInfo = new ArrayList<>();
        String gflags = "";
        String topologyFile = null;
        for (int i = 0; i < args.size() && !args.get(i).isEmpty(); i++) {
            String arg = args.get(i);
            switch (arg) {
                case "-h" -> {
                    return usage();
                }
                case "-N", "-nocolor" -> {
                    if (!takesNoColor()) {
                        return usage();
                    }
                    gflags = "-N";
                }
                case "-P", "-C", "-t", "-timeout" -> {
                    String value = i + 1 < args.size() ? args.get(i + 1) : "";
                    if (value.startsWith("-") || value.isEmpty()) {
                        return usage();
                    }
                    caInfo.addAll(List.of(arg, value));
                    i++;
                }
                default -> {
                    if (arg.startsWith("-") || topologyFile != null) {
                        return usage();
                    }
                    topologyFile = arg;
                }
            }
        }
        ToolOutput topology = ScriptTopology.read(topologyFile, err(), () -> backticks("ibnetdiscover", caInfo));
        int status = topology.status();
        String text = topology.text();
        List<String> perfqueryOptions = new ArrayList<>(caInfo);
        if (!gflags.isEmpty()) {
            perfqueryOptions.add(gflags);
        }
        perfqueryOptions.add("-R");
        int nodes = 0;
        int failures = 0;
        String nodeType = "";
        for (String line : text.stripTrailing().split("\n", -1)) {
            String[] fields = line.trim().split("[ \t]+");
            if (line.startsWith("Ca") || line.startsWith("Switch") || line.startsWith("Rt")) {
                nodes++;
                nodeType = fields[0];
                if (!nodeType.equals("Switch")) {
                    continue;
                }
                String lid = lidAfter(line, "port 0 lid ");
                failures += perfquery(perfqueryOptions, switchArgs(lid), lid, "255");
            }
            if (line.startsWith("[") && !nodeType.equals("Switch")) {
                String port = fields[0].replaceFirst("\\(.*\\)", "").replaceAll("[\\[\\]]", "");
                String lid = lidAfter(line, " lid ");
                failures += perfquery(perfqueryOptions, portArgs(lid, port), lid, port);
            }
            if (line.startsWith("ib")) {
                out().print(line + "\n");
                continue;
            }
            for (String mark : List.of("ibpanic:", "ibwarn:", "iberror:")) {
                if (line.contains(mark)) {
                    out().print(line + "\n");
                }
            }
        }
        out().print("\n*** WARNING ***: this command is deprecated; Please use \"" + replacement() + "\"\n");
        out().print("\n## Summary: " + nodes + " nodes cleared " + failures + " errors\n");
        document(new Document(nodes, failures, resets));
        return status;
    }

    /** awk's {@code substr($0, index($0, mark) + length(mark))} up to the next blank: the LID after {@code mark}. */
    static String lidAfter(String line, String mark) {
        int at = line.indexOf(mark);
        String rest = line.substring(Math.min(line.length(), at < 0 ? mark.length() - 1 : at + mark.length()));
        int blank = rest.indexOf(' ');
        return blank < 0 ? "" : rest.substring(0, blank);
    }

    /**
     * Runs perfquery as awk's {@code system()} does, its words split at blanks, to reset port
     * {@code port} of {@code lid}; 1 if it failed, else 0.
     */
    private int perfquery(List<String> options, List<String> operands, String lid, String port) {
        List<String> line = new ArrayList<>(options);
        operands.stream().flatMap(o -> Arrays.stream(o.trim().split("\\s+"))).filter(w -> !w.isEmpty()).forEach(line::add);
        ToolOutput run = backticks("perfquery", line);
        out().print(run.text());
        resets.add(new Reset(lid, port, run.status() == 0));
        return run.status() == 0 ? 0 : 1;
    }

    private int usage() {
        out().print("Usage: " + prog() + " [-h] " + usageOptions() + "[<topology-file> | -C ca_name -P ca_port -t(imeout) timeout_ms]\n");
        return 255;
    }

    /** {@code ibclearcounters}: every counter of every port. */
    @Command(name = "ibclearcounters", description = "Reset the performance counters of every port of the subnet (deprecated: ibqueryerrors -K).")
    public static final class Counters extends ClearCommand {
        @Override
        String usageOptions() {
            return "";
        }

        @Override
        boolean takesNoColor() {
            return false;
        }

        @Override
        List<String> switchArgs(String lid) {
            return List.of("-a", lid);
        }

        @Override
        List<String> portArgs(String lid, String port) {
            return List.of(lid, port);
        }

        @Override
        String replacement() {
            return "ibqueryerrors -K";
        }
    }

    /** {@code ibclearerrors}: the error counters (CounterSelect 0x0fff) of every port. */
    @Command(name = "ibclearerrors", description = "Reset the error counters of every port of the subnet (deprecated: ibqueryerrors -k).")
    public static final class Errors extends ClearCommand {
        @Override
        String usageOptions() {
            return "[-N | -nocolor] ";
        }

        @Override
        boolean takesNoColor() {
            return true;
        }

        @Override
        List<String> switchArgs(String lid) {
            return List.of("-a", lid, "255", "0x0fff");
        }

        @Override
        List<String> portArgs(String lid, String port) {
            return List.of(lid, port, "0x0fff");
        }

        @Override
        String replacement() {
            return "ibqueryerrors -k";
        }
    }
}

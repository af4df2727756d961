package org.jrdma.tools.scripts;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;

/**
 * infiniband-diags' {@code check_lft_balance}: reads a dump of every switch's LFT ({@code dump_lfts}
 * output, {@code -l}) and counts, per switch port 1..36, the LIDs routed out of it, leaving out ports
 * that are down and ports that lead straight to one host; a switch whose counts differ by more than
 * one is printed as unbalanced ({@code -v}: every switch; {@code -e}: the script's heuristics for
 * line boards and partly populated switches). Port states come from {@code iblinkinfo -S} on each
 * switch; the script reads them from the ibnetdiscover cache given with {@code -i}
 * ({@code iblinkinfo --load-cache}), which ibtool requires as the script does but reads the fabric
 * instead (the same answer while the fabric has not changed since the cache was written).
 *
 * <p>With {@code --json}: {@link Document}, every switch of the dump (the text shows the unbalanced
 * ones, or with {@code -v} all), each with the ports the text would list.
 */
@Command(name = "check_lft_balance", aliases = "check_lft_balance.pl",
        description = "Check the balance of the unicast forwarding tables over the switch ports.")
public final class CheckLftBalanceCommand extends ScriptCommand {
    private static final Pattern SWITCH_DR = Pattern.compile("Unicast lids .+ of switch DR path slid .+ guid (.+) \\((.+)\\)");
    private static final Pattern SWITCH_LID = Pattern.compile("Unicast lids .+ of switch Lid .+ guid (.+) \\((.+)\\)");
    private static final Pattern HOST_ENTRY = Pattern.compile(".+ (.+) : \\(.+ portguid .+: '(.+)'\\)");
    private static final Pattern PATH_ENTRY = Pattern.compile(".+ (.+) : \\(path #. out of .: portguid .+\\)");
    private static final Pattern LINK = Pattern.compile(
            "[\\d]+[\\s]+[\\d]+\\[.+\\]  ==.+==>[\\s]+[\\d]+[\\s]+[\\d]+\\[.+\\] \"(.+)\".+");
    private static final Pattern PORT_DIGITS = Pattern.compile("0+(.+)");
    /** The ports the script looks at, as dump_lfts writes them. */
    private static final List<String> PORTS = java.util.stream.IntStream.rangeClosed(1, 36).mapToObj("%03d"::formatted).toList();

    private boolean verbose;
    private boolean heuristic;
    private String switchGuid;
    private String switchName;
    private final Map<String, Integer> portCount = new HashMap<>();
    private final List<String> maybeDirectHosts = new ArrayList<>();
    private String host;
    private List<String> hostPorts = new ArrayList<>();
    private int lidsPerPort;
    private int lidsPerPortCalculated;
    private final List<SwitchUsage> switches = new ArrayList<>();

    /**
     * check_lft_balance's JSON document.
     *
     * @param switches every switch of the dump, in its order
     */
    public record Document(List<SwitchUsage> switches) {
    }

    /**
     * One switch's port usage.
     *
     * @param nodeGuid        the switch's GUID, as the dump writes it
     * @param nodeDescription its description
     * @param unbalanced      whether its ports' counts differ by more than one (after {@code -e}'s heuristics)
     * @param ports           the ports counted (not down, not straight to one host), in port order
     */
    public record SwitchUsage(String nodeGuid, String nodeDescription, boolean unbalanced, List<PortUsage> ports) {
    }

    /**
     * How many LIDs a switch port routes.
     *
     * @param portNum the port
     * @param lids    the LFT entries that leave by it
     */
    public record PortUsage(int portNum, int lids) {
    }

    @Override
    protected int run() {
        Getopts opts = Getopts.parse("hl:i:ve", args, err());
        if (!opts.ok() || opts.has('h')) {
            return usage();
        }
        if (!opts.has('l')) {
            err().print("Must specify dump lfts file\n");
            return usage();
        }
        if (!opts.has('i')) {
            err().print("Must specify ibnetdiscover cache\n");
            return usage();
        }
        verbose = opts.has('v');
        heuristic = opts.has('e');
        String lftFile = opts.value('l', "");
        List<String> lines = List.of();
        try {
            lines = Files.readAllLines(Path.of(lftFile));
        } catch (IOException e) {
            err().print("Couldn't open dump lfts file: " + lftFile + ": " + reason(e) + "\n");
        }
        for (String line : lines) {
            if (line.contains("Unicast")) {
                if (!hostPorts.isEmpty()) {
                    processHostPorts();
                }
                if (switchName != null) {
                    outputSwitchPortUsage();
                }
                for (Pattern header : List.of(SWITCH_DR, SWITCH_LID)) {
                    Matcher m = header.matcher(line);
                    if (m.find()) {
                        switchGuid = m.group(1);
                        switchName = m.group(2);
                    }
                }
                maybeDirectHosts.clear();
                portCount.clear();
                hostPorts = new ArrayList<>();
                lidsPerPort = 0;
                lidsPerPortCalculated = 0;
            } else if (line.contains("Channel") || line.contains("Router")) {
                Matcher m = HOST_ENTRY.matcher(line);
                boolean found = m.find();
                String port = found ? m.group(1) : "";
                host = found ? m.group(2) : null;
                portCount.merge(port, 1, Integer::sum);
                if (!hostPorts.isEmpty()) {
                    processHostPorts();
                }
                hostPorts = new ArrayList<>(List.of(port));
                if (lidsPerPort == 0) {
                    lidsPerPort++;
                } else {
                    lidsPerPortCalculated++;
                }
            } else if (line.contains("path")) {
                Matcher m = PATH_ENTRY.matcher(line);
                String port = m.find() ? m.group(1) : "";
                portCount.merge(port, 1, Integer::sum);
                if (lidsPerPortCalculated == 0) {
                    lidsPerPort++;
                }
                hostPorts.add(port);
            } else if (lidsPerPort != 0) {
                lidsPerPortCalculated++;
            }
        }
        if (!hostPorts.isEmpty()) {
            processHostPorts();
        }
        outputSwitchPortUsage();
        document(new Document(switches));
        return 0;
    }

    private int usage() {
        out().print("Usage: " + prog() + " -l lft-output -i ibnetdiscover-cache [-e] [-v]\n"
                + "  Generate lft-output via \"dump_lfts.sh > lft-output\"\n"
                + "  Generate ibnetdiscover-cache via \"ibnetdiscover --cache ibnetdiscover-cache\"\n"
                + "  -e turn on heuristic(s) to look at switch balances deeper\n"
                + "  -v verbose output, output all switches\n");
        return 2;
    }

    /** Perl's {@code $!} text for a file that cannot be opened. */
    private static String reason(IOException e) {
        return switch (e) {
            case NoSuchFileException _ -> "No such file or directory";
            case AccessDeniedException _ -> "Permission denied";
            default -> e.getMessage();
        };
    }

    /** A host whose LIDs all leave by one port may hang straight off that port ({@code process_host_ports}). */
    private void processHostPorts() {
        if (hostPorts.size() == lidsPerPort) {
            double first = Perl.number(hostPorts.getFirst());
            if (hostPorts.stream().allMatch(p -> Perl.number(p) == first)) {
                maybeDirectHosts.add(host);
            }
        }
    }

    private void outputSwitchPortUsage() {
        int minUsage = 999999;
        int maxUsage = 0;
        List<String> outputPorts = new ArrayList<>();
        boolean unbalanced = false;
        int portsOnSwitch = 0;
        List<String> links = List.of(backticks("iblinkinfo", switchGuid == null ? List.of("-S") : List.of("-S", switchGuid))
                .text().split("\n"));
        for (String port : PORTS) {
            int count = portCount.computeIfAbsent(port, _ -> 0);
            if (count == 0 && !isPortUp(links, port)) {
                continue;
            }
            portsOnSwitch++;
            if (isDirectlyConnected(links, port)) {
                continue;
            }
            outputPorts.add(port);
            minUsage = Math.min(minUsage, count);
            maxUsage = Math.max(maxUsage, count);
        }
        if (maxUsage > minUsage + 1) {
            unbalanced = true;
        }
        if (heuristic && unbalanced && portsOnSwitch > 12) {
            // A line board: half its ports go up and are balanced, the others go down to hosts.
            int max = maxUsage;
            List<String> doubleCheck = outputPorts.stream().filter(p -> {
                int c = portCount.get(p);
                return c != max && c != max - 1 && c != 0;
            }).toList();
            int half = portsOnSwitch / 2;
            if (doubleCheck.size() == half || doubleCheck.size() == half + 1 || doubleCheck.size() == half - 1) {
                int min2 = 999999;
                int max2 = 0;
                for (String p : doubleCheck) {
                    min2 = Math.min(min2, portCount.get(p));
                    max2 = Math.max(max2, portCount.get(p));
                }
                if (!(max2 > min2 + 1)) {
                    unbalanced = false;
                }
            }
        }
        if (heuristic && unbalanced && portsOnSwitch > 12) {
            // A switch not fully populated: every port but the busiest ones routes nothing.
            int max = maxUsage;
            boolean allZero = outputPorts.stream().map(portCount::get).filter(c -> c != max && c != max - 1).allMatch(c -> c == 0);
            if (allZero) {
                unbalanced = false;
            }
        }
        if (switchGuid != null) {
            switches.add(new SwitchUsage(switchGuid, switchName, unbalanced,
                    outputPorts.stream().map(p -> new PortUsage(Integer.parseInt(p), portCount.get(p))).toList()));
        }
        if (verbose || unbalanced) {
            String name = switchName == null ? "" : switchName;
            String guid = switchGuid == null ? "" : switchGuid;
            out().print((unbalanced ? "Unbalanced Switch Port Usage: " : "Switch Port Usage: ") + name + ", " + guid + "\n");
            for (String port : outputPorts) {
                out().print("Port " + port + ": " + portCount.get(port) + "\n");
            }
        }
    }

    /** The port's number as iblinkinfo prints it, right-aligned in two columns ({@code " 5"}, {@code "12"}). */
    private static String column(String port) {
        Matcher m = PORT_DIGITS.matcher(port);
        String decimal = m.find() ? m.group(1) : port;
        double value = Perl.number(decimal);
        return value >= 1 && value <= 9 ? " " + decimal : decimal;
    }

    private static boolean isPortUp(List<String> links, String port) {
        Pattern line = Pattern.compile(Pattern.quote(column(port)) + "\\[..\\] ==");
        for (String link : links) {
            if (line.matcher(link).find()) {
                return !link.contains("Down");
            }
        }
        return false;
    }

    /**
     * Whether the port is active and its LIDs are those of one host that may hang off it: the
     * script compares the peer's name with the hosts' names as numbers, so any two names that are
     * not numbers are equal, and a line it cannot read leaves the peer undefined (0), as in Perl.
     */
    private boolean isDirectlyConnected(List<String> links, String port) {
        if (portCount.get(port) != lidsPerPort || maybeDirectHosts.isEmpty()) {
            return false;
        }
        Pattern linePattern = Pattern.compile(Pattern.quote(column(port)) + "\\[..\\] ==");
        String last = "";
        for (String link : links) {
            if (linePattern.matcher(link).find()) {
                last = link;
            }
        }
        if (!last.contains("Active")) {
            return false;
        }
        Matcher m = LINK.matcher(last);
        double peer = Perl.number(m.find() ? m.group(1) : null);
        return maybeDirectHosts.stream().anyMatch(h -> Perl.number(h) == peer);
    }
}

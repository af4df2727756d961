package org.jrdma.tools.scripts;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jrdma.tools.DiscoversSubnet;
import picocli.CommandLine.Command;

/**
 * infiniband-diags' {@code ibfindnodesusing}: the channel adapters whose unicast routes leave a switch
 * by a port, and those whose routes come back over that link: the switch's LFT ({@code ibroute -G})
 * entries for the port, then the LFT of the switch at the link's far end entries for its port, each
 * list compressed ({@link HostList}). The switch is found in the topology cache ({@link
 * TopologyCache}; {@code -R} discovers it anew) by GUID or by description; one that is not there
 * exits 1, a missing argument prints the usage on standard output, status 2.
 *
 * <p>With {@code --json}: {@link Document}.
 */
@Command(name = "ibfindnodesusing", aliases = "ibfindnodesusing.pl",
        description = "Find a list of nodes which are routed through switch:port.")
public final class IbfindnodesusingCommand extends ScriptCommand implements DiscoversSubnet {
    private static final Pattern ROUTED_CA = Pattern.compile("\\w+\\s+(\\d+)\\s+:\\s+\\(Channel Adapter.*:\\s+'(.*)'\\)");
    private static final Pattern SWITCH = Pattern.compile("^Switch.*\"S-(.*)\"\\s+# (.*) port.*");

    /**
     * ibfindnodesusing's JSON document.
     *
     * @param nodeGuid        the switch's node GUID
     * @param portNum         its port
     * @param nodeDescription the switch's description in the cache
     * @param remote          the far end of the port's link, absent when the cache shows none
     * @param routedOut       the channel adapters (their descriptions) whose LFT entry at the switch is the port, in LFT order
     * @param routedBack      those whose LFT entry at the far end is its port
     */
    public record Document(String nodeGuid, String portNum, String nodeDescription, Remote remote, List<String> routedOut,
            List<String> routedBack) {
    }

    /**
     * The far end of a link, as the cache shows it.
     *
     * @param nodeGuid        its node GUID
     * @param portNum         its port
     * @param nodeDescription its description
     */
    public record Remote(String nodeGuid, String portNum, String nodeDescription) {
    }

    private String ca = "";
    private String port = "";

    @Override
    protected int run() throws Exception {
        Getopts opts = Getopts.parse("hRC:P:", args, err());
        if (!opts.ok() || opts.has('h')) {
            return usage();
        }
        ca = opts.value('C', "");
        port = opts.value('P', "");
        String targetSwitch = formatGuid(opts.operand(0));
        String targetPort = opts.operand(1);
        Path cache = TopologyCache.ensure(this, opts.has('R'), ca, port);
        Map<String, Map<String, TopologyCache.LinkEnd>> linkEnds = TopologyCache.linkEnds(cache);
        if (targetPort == null || targetPort.isEmpty()) {
            return usage();
        }
        Pattern byDescription = Pattern.compile(".*" + targetSwitch + "\\s+.*");
        String switchGuid = null;
        String description = null;
        for (String line : TopologyCache.lines(cache)) {
            Matcher m = SWITCH.matcher(line);
            if (m.find() && (("0x" + m.group(1)).equals(targetSwitch) || byDescription.matcher(m.group(2)).find())) {
                switchGuid = "0x" + m.group(1);
                description = m.group(2);
                break;
            }
        }
        if (switchGuid == null) {
            out().print("Switch \"" + targetSwitch + "\" not found\n   Try running with the \"-R\" or \"-P\" option.\n");
            return 1;
        }
        TopologyCache.LinkEnd remote = linkEnds.getOrDefault(switchGuid, Map.of()).get(targetPort);
        String remoteGuid = remote == null ? null : remote.guid();
        String remotePort = remote == null ? null : remote.port();
        String link = switchGuid + " " + targetPort + " (" + description + ")  %s  " + text(remoteGuid) + " " + text(remotePort)
                + " (" + (remote == null ? "" : remote.description()) + ")\n";
        out().print(link.formatted("==>>"));
        List<String> out = hostsRouted(switchGuid, targetPort);
        out().print(hostsLine(out) + "\n\n");
        List<String> back = hostsRouted(remoteGuid, remotePort);
        out().print(link.formatted("<<=="));
        out().print(hostsLine(back) + "\n");
        document(new Document(switchGuid, targetPort, description,
                remote == null ? null : new Remote(remoteGuid, remotePort, remote.description()), named(out), named(back)));
        return 0;
    }

    private int usage() {
        out().print("Usage: " + prog() + " [-R -C <ca_name> -P <ca_port>] <switch_guid|switch_name> <port>\n"
                + "   find a list of nodes which are routed through switch:port\n"
                + "   -R Recalculate ibnetdiscover information\n"
                + "   -C <ca_name> use selected Channel Adaptor name for queries\n"
                + "   -P <ca_port> use selected channel adaptor port for queries\n");
        return 2;
    }

    /**
     * The descriptions of the channel adapters whose LFT entry at switch {@code guid} is {@code port}
     * ({@code get_hosts_routed}), after the undefined first element the script's list starts with.
     */
    private List<String> hostsRouted(String guid, String port) {
        List<String> hosts = new ArrayList<>();
        hosts.add(null);
        if (guid == null || guid.isEmpty()) {
            return hosts;
        }
        List<String> toolArgs = new ArrayList<>(caPortArgs(ca, this.port));
        toolArgs.addAll(List.of("-G", guid));
        for (String line : backticks("ibroute", toolArgs).text().split("\n")) {
            Matcher m = ROUTED_CA.matcher(line);
            if (m.find() && Perl.number(m.group(1)) == Perl.number(port)) {
                hosts.add(m.group(2));
            }
        }
        return hosts;
    }

    /** The hosts of a {@link #hostsRouted} list, without its undefined first element. */
    private static List<String> named(List<String> hosts) {
        return hosts.stream().filter(h -> h != null).toList();
    }

    /** The compressed list as the script prints it: split at its commas, joined by blanks. */
    private static String hostsLine(List<String> hosts) {
        return String.join(" ", Perl.splitCommas(HostList.compress(hosts)));
    }

    private static String text(String value) {
        return value == null ? "" : value;
    }

    /**
     * IBswcountlimits' {@code format_guid}: lower case, then what follows the first {@code 0x} (or
     * the whole text) zero-padded to 16 characters after {@code 0x}, as Perl's {@code %016s} pads.
     */
    static String formatGuid(String guid) {
        String text = guid == null ? "" : lower(guid);
        int hex = text.indexOf("0x");
        String digits = hex >= 0 ? text.substring(hex + 2) : text;
        return "0x" + "0".repeat(Math.max(0, 16 - digits.length())) + digits;
    }

    private static String lower(String text) {
        StringBuilder lowered = new StringBuilder();
        for (char c : text.toCharArray()) {
            lowered.append(c >= 'A' && c <= 'F' ? Character.toLowerCase(c) : c);
        }
        return lowered.toString();
    }
}

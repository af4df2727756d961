package org.jrdma.tools.scripts;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jrdma.tools.DiscoversSubnet;
import picocli.CommandLine.Command;

/**
 * infiniband-diags' deprecated {@code ibprintca}, {@code ibprintswitch} and {@code ibprintrt}: the
 * lines of one node in the topology cache ({@link TopologyCache}; {@code -R} discovers it anew), its
 * header then its ports in port order, the node named by its description or, with {@code -G}, by
 * GUID; {@code -l} lists the nodes of that kind instead ({@code ibhosts}, {@code ibswitches},
 * {@code ibrouters} on the cache) and exits 1. A node not there is the script's {@code die}: its
 * message on standard error, status 255. Each warns first, on standard error, that it is deprecated.
 *
 * <p>The scripts print a node's ports when the next node of their kind begins (ibprintca also at
 * the end of the file) and keep the ports of every node they matched: ibprintswitch and ibprintrt
 * never print the ports of the last switch or router of the file, and two nodes of one name share
 * their port lines. Each command here prints every matched node's own ports, as they evidently mean to.
 *
 * <p>With {@code --json}: {@link Document}, the nodes matched (or with {@code -l} the nodes listed).
 */
public abstract sealed class NodePrintCommand extends ScriptCommand implements DiscoversSubnet
        permits NodePrintCommand.Ca, NodePrintCommand.Switch, NodePrintCommand.Router {
    private static final Pattern PORT = Pattern.compile("^\\[(\\d+)\\].*");

    /**
     * What differs between the three scripts.
     *
     * @param header     a node's first line: group 1 its GUID, group 2 its description
     * @param lister     the node list command {@code -l} runs
     * @param guidLabel  the usage's name of the GUID operand
     * @param nameLabel  the usage's name of the name operand
     * @param kind       the usage's name of the node kind, singular and plural
     * @param notFound   the failure's text before the quoted name
     * @param hint       the failure's lines after {@code Try running with the "-R" option.}
     * @param duplicates the warning's name of the kind, when the name matched more than one node
     */
    record Kind(Pattern header, String lister, String guidLabel, String nameLabel, String kind, String kinds,
            String notFound, String hint, String duplicates) {
    }

    abstract Kind kind();

    /**
     * ibprintca's, ibprintswitch's and ibprintrt's JSON document.
     *
     * @param nodes  the nodes matched, in the cache's order (absent with {@code -l})
     * @param listed with {@code -l}: the lines of the node list (ibhosts, ibswitches, ibrouters on the cache)
     */
    public record Document(List<NodeLines> nodes, List<String> listed) {
    }

    /**
     * A node's lines in the topology cache (ibnetdiscover's output).
     *
     * @param nodeGuid        its GUID, as the header writes it
     * @param nodeDescription its description, as the header writes it
     * @param line            its header line
     * @param ports           its port lines, in port order
     */
    public record NodeLines(String nodeGuid, String nodeDescription, String line, List<PortLine> ports) {
    }

    /**
     * A port line of the cache.
     *
     * @param portNum the port
     * @param line    the line
     */
    public record PortLine(int portNum, String line) {
    }

    @Override
    protected final int run() throws Exception {
        Kind kind = kind();
        err().print("*** WARNING ***: this command is deprecated; Please use \"" + kind.lister() + "\"\n\n");
        err().flush();
        Getopts opts = Getopts.parse("hRlC:P:G", args, err());
        if (!opts.ok() || opts.has('h')) {
            return usage(kind);
        }
        String target = opts.operand(0);
        if (opts.has('G')) {
            target = IbfindnodesusingCommand.formatGuid(target);
        }
        Path cache = TopologyCache.ensure(this, opts.has('R'), opts.value('C', ""), opts.value('P', ""));
        if (opts.has('l')) {
            String listed = backticks(kind.lister(), List.of(cache.toString())).text();
            out().print(listed);
            document(new Document(null, listed.isEmpty() ? List.of() : List.of(listed.split("\n"))));
            return 1;
        }
        if (target == null || target.isEmpty()) {
            return usage(kind);
        }
        Pattern byDescription = Pattern.compile("[\\s\"]" + target + "[\\s\"]");
        int found = 0;
        boolean inNode = false;
        Map<Integer, String> ports = new TreeMap<>();
        StringBuilder text = new StringBuilder();
        List<NodeLines> nodes = new ArrayList<>();
        for (String line : TopologyCache.lines(cache)) {
            boolean nodeLine = line.startsWith("Ca") || line.startsWith("Switch") || line.startsWith("Rt");
            if (nodeLine && inNode) {
                endNode(ports, text, nodes);
                inNode = false;
            }
            Matcher header = kind.header().matcher(line);
            if (header.find() && (("0x" + header.group(1)).equals(target) || byDescription.matcher(header.group(2)).find())) {
                text.append(line).append('\n');
                nodes.add(new NodeLines("0x" + header.group(1), header.group(2), line, List.of()));
                inNode = true;
                found++;
            }
            Matcher port = PORT.matcher(line);
            if (inNode && port.find()) {
                ports.put(Integer.valueOf(port.group(1)), line);
            }
        }
        if (inNode) {
            endNode(ports, text, nodes);
        }
        out().print(text);
        if (found == 0) {
            out().flush();
            err().print(kind.notFound() + "\"" + target + "\" not found\n   Try running with the \"-R\" option.\n" + kind.hint());
            return 255;
        }
        if (found > 1) {
            out().print("\nWARNING: Found " + found + " " + kind.duplicates() + " with the name \"" + target + "\"\n");
        }
        document(new Document(nodes, null));
        return 0;
    }

    /** The node's ports as its text ends: each port line in port order, then the ports are the next node's to collect. */
    private static void endNode(Map<Integer, String> ports, StringBuilder text, List<NodeLines> nodes) {
        ports.values().forEach(p -> text.append(p).append('\n'));
        NodeLines node = nodes.getLast();
        nodes.set(nodes.size() - 1, new NodeLines(node.nodeGuid(), node.nodeDescription(), node.line(),
                ports.entrySet().stream().map(e -> new PortLine(e.getKey(), e.getValue())).toList()));
        ports.clear();
    }

    private int usage(Kind kind) {
        out().print("Usage: " + prog() + " [-R -l] [-G <" + kind.guidLabel() + "> | <" + kind.nameLabel() + ">]\n"
                + "   print only the " + kind.kind() + " specified from the ibnetdiscover output\n"
                + "   -R Recalculate ibnetdiscover information\n"
                + "   -l list " + kind.kinds() + "\n"
                + "   -C <ca_name> use selected channel adaptor name for queries\n"
                + "   -P <ca_port> use selected channel adaptor port for queries\n"
                + "   -G node is specified with GUID\n");
        return 2;
    }

    private static final String DOWN = "   If still not found the node is probably down.\n";

    /** {@code ibprintca}: a channel adapter. */
    @Command(name = "ibprintca", aliases = "ibprintca.pl", description = "Print a channel adapter's lines of the ibnetdiscover output (deprecated: ibhosts).")
    public static final class Ca extends NodePrintCommand {
        private static final Kind KIND = new Kind(Pattern.compile("^Ca.*\"H-(.*)\"\\s+# (.*)"), "ibhosts", "ca_guid", "node_name",
                "ca", "cas", "", DOWN, "CA's");

        @Override
        Kind kind() {
            return KIND;
        }
    }

    /** {@code ibprintswitch}: a switch. */
    @Command(name = "ibprintswitch", aliases = "ibprintswitch.pl", description = "Print a switch's lines of the ibnetdiscover output (deprecated: ibswitches).")
    public static final class Switch extends NodePrintCommand {
        private static final Kind KIND = new Kind(Pattern.compile("^Switch.*\"S-(.*)\"\\s+# (.*) port.*"), "ibswitches", "switch_guid",
                "switch_name", "switch", "switches", "Switch ", "", "switches");

        @Override
        Kind kind() {
            return KIND;
        }
    }

    /** {@code ibprintrt}: a router. */
    @Command(name = "ibprintrt", aliases = "ibprintrt.pl", description = "Print a router's lines of the ibnetdiscover output (deprecated: ibrouters).")
    public static final class Router extends NodePrintCommand {
        private static final Kind KIND = new Kind(Pattern.compile("^Rt.*\"R-(.*)\"\\s+# (.*)"), "ibrouters", "rt_guid", "node_name",
                "rt", "rts", "", DOWN, "Router's");

        @Override
        Kind kind() {
            return KIND;
        }
    }
}

package org.jrdma.tools;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jrdma.subnet.Node;
import org.jrdma.subnet.SubnetDiscovery;
import org.jrdma.subnet.TopologyWriter;
import org.jrdma.tools.json.JsonSubnet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * The node lists of infiniband-diags' {@code ibhosts}, {@code ibswitches}, {@code ibrouters} and
 * {@code ibnodes}. Those are shell scripts that run ibnetdiscover (or read a topology file) and
 * reformat its {@code Ca}, {@code Switch} and {@code Rt} lines with awk; these commands do the same
 * to the topology {@link TopologyWriter} prints for a discovery, or to the given file, line by line
 * as the awk programs do, so a node description that confuses the scripts confuses them alike.
 *
 * <p>The exit status is ibnetdiscover's: 3 when part of the fabric did not answer. {@code ibnodes}
 * discovers once where the script runs ibhosts and ibswitches, each discovering.
 */
abstract class NodeListCommand extends FabricCommand implements DiscoversSubnet {
    private static final Pattern COMMENT = Pattern.compile("#[ \t]*");
    private static final Pattern PORT_0 = Pattern.compile("port 0.*");
    /** The scripts pass on the diagnostics of ibnetdiscover's output, one awk rule (and one copy) each. */
    private static final List<String> DIAGNOSTICS = List.of("ibpanic:", "ibwarn:", "iberror:");

    @Mixin
    SaOption viaSa;

    @Parameters(arity = "0..1", paramLabel = "TOPOLOGY-FILE", description = "read this topology file instead of discovering the fabric")
    Path topologyFile;

    /** The kinds of node this command lists, in the order it prints them. */
    abstract List<Kind> kinds();

    /** A kind of node line of a topology file and how the scripts print it. */
    enum Kind {
        /** ibhosts: {@code Ca} lines. */
        HOSTS("Ca"),
        /** ibswitches: {@code Switch} lines, whose "base port 0"/"enhanced port 0" tail the script takes apart. */
        SWITCHES("Switch"),
        /** ibrouters: {@code Rt} lines. */
        ROUTERS("Rt");

        private final String prefix;

        Kind(String prefix) {
            this.prefix = prefix;
        }

        /** The script's awk program over the whole topology text. */
        String select(String topology) {
            StringBuilder out = new StringBuilder();
            for (String line : topology.split("\n", -1)) {
                if (line.startsWith(prefix)) {
                    out.append(this == SWITCHES ? switchLine(line) : nodeLine(line)).append('\n');
                }
                if (line.startsWith("ib")) {
                    out.append(line).append('\n');
                    continue;
                }
                for (String diagnostic : DIAGNOSTICS) {
                    if (line.contains(diagnostic)) {
                        out.append(line).append('\n');
                    }
                }
            }
            return out.toString();
        }

        /** {@code $1 "\t: 0x" substr($3, 4, 16) " ports " $2 " "}: the type, GUID and port count. */
        private static String head(String line) {
            String[] f = line.strip().split("[ \t\n]+");
            String name = f.length > 2 ? f[2] : "";
            return field(f, 0) + "\t: 0x" + substr(name, 4, 16) + " ports " + field(f, 1) + " ";
        }

        private static String field(String[] fields, int i) {
            return i < fields.length ? fields[i] : "";
        }

        /** What follows the {@code #} and its blanks (the whole line when there is none, as awk's substr(s, 0) gives). */
        private static String afterComment(String line) {
            Matcher m = COMMENT.matcher(line);
            return m.find() ? line.substring(m.end()) : line;
        }

        private static String nodeLine(String line) {
            return head(line) + afterComment(line);
        }

        private static String switchLine(String line) {
            String desc = afterComment(line);
            Matcher port0 = PORT_0.matcher(desc);
            String portInfo;
            if (port0.find()) {
                portInfo = desc.substring(port0.start());
                desc = desc.substring(0, Math.max(0, port0.start() - 1));
            } else {
                portInfo = desc;
                desc = "";
            }
            String type = "base port 0";
            int ti = desc.indexOf(type);
            if (ti < 0) {
                type = "enhanced port 0";
                ti = desc.indexOf(type);
            }
            if (ti < 0) {
                return head(line) + desc + " " + portInfo;
            }
            return head(line) + desc.substring(0, Math.max(0, ti - 1)) + " " + type + " " + portInfo;
        }

        /** awk's {@code substr(s, m, n)}: characters m..m+n-1, counted from 1, clipped to the string. */
        private static String substr(String s, int m, int n) {
            int from = Math.max(m, 1) - 1;
            int to = Math.min(s.length(), m - 1 + n);
            return from < to ? s.substring(from, to) : "";
        }
    }

    /** Its MADs go to the whole fabric: a user at a terminal sees their progress. */
    @Override
    boolean fabricWide() {
        return true;
    }

    @Override
    int run() {
        String topology;
        int status = ExitCodes.OK;
        if (topologyFile != null) {
            if (json()) {
                throw new UsageException("--json describes a discovered subnet: it takes no topology file");
            }
            try {
                topology = Files.readString(topologyFile, StandardCharsets.ISO_8859_1);
            } catch (IOException e) {
                throw new UsageException("cannot read topology file " + topologyFile + ": " + e);
            }
        } else {
            DiscoveryOptions.Result discovery = discover(() -> SubnetDiscovery.run(smp()), viaSa.on(fabric));
            progressDone();
            if (json()) {
                List<Integer> types = kinds().stream().map(kind -> kind.ordinal() + 1).toList(); // NodeInfo NodeType: 1 CA, 2 switch, 3 router
                return json(JsonSubnet.of(discovery.subnet(), node -> types.contains(node.nodeTypeValue()), Node::description,
                        discovery.problems()), reportProblems(discovery.problems()));
            }
            topology = TopologyWriter.write(discovery.subnet(), ZonedDateTime.now());
            status = reportProblems(discovery.problems());
        }
        for (Kind kind : kinds()) {
            out().print(kind.select(topology));
        }
        return status;
    }

    /** {@code ibtool ibhosts}: the channel adapters. */
    @Command(name = "ibhosts", mixinStandardHelpOptions = true, description = "List the channel adapters of the fabric (or of a topology file).")
    static final class Hosts extends NodeListCommand {
        @Override
        List<Kind> kinds() {
            return List.of(Kind.HOSTS);
        }
    }

    /** {@code ibtool ibswitches}: the switches. */
    @Command(name = "ibswitches", mixinStandardHelpOptions = true, description = "List the switches of the fabric (or of a topology file).")
    static final class Switches extends NodeListCommand {
        @Override
        List<Kind> kinds() {
            return List.of(Kind.SWITCHES);
        }
    }

    /** {@code ibtool ibrouters}: the routers. */
    @Command(name = "ibrouters", mixinStandardHelpOptions = true, description = "List the routers of the fabric (or of a topology file).")
    static final class Routers extends NodeListCommand {
        @Override
        List<Kind> kinds() {
            return List.of(Kind.ROUTERS);
        }
    }

    /** {@code ibtool ibnodes}: the channel adapters, then the switches. */
    @Command(name = "ibnodes", mixinStandardHelpOptions = true, description = "List the channel adapters and switches of the fabric (or of a topology file).")
    static final class Nodes extends NodeListCommand {
        @Override
        List<Kind> kinds() {
            return List.of(Kind.HOSTS, Kind.SWITCHES);
        }
    }
}

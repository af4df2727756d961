package org.jrdma.tools;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jrdma.iba.Guid;

/**
 * Applies a {@link NodeNameMap} to a topology file in ibnetdiscover's format, where infiniband-diags'
 * ibnetdiscover applies it: the description of each switch's header line, and the description of
 * the remote node on every port line; channel adapter and router header lines keep the node's own
 * description, as the C tool prints them. Each such line names the node by GUID
 * ({@code "S-0002c90300000a01"}), which selects the map entry.
 */
final class TopologyNames {
    /** {@code Switch <n> "S-<guid>" # "<description>" base|enhanced port 0 lid ...}. */
    private static final Pattern SWITCH = Pattern.compile("^(Switch\t\\d+ \"S-(\\p{XDigit}{16})\"\t\t# \")(.*)(\" (?:base|enhanced) port 0 lid .*)$");
    /** {@code [<port>]... "X-<guid>"[<port>]... # ["lid <l> lmc <m> "]"<description>" lid <l> <width/speed>}. */
    private static final Pattern PORT = Pattern.compile("^(\\[\\d+\\][^\t]*\t\"[SHR]-(\\p{XDigit}{16})\"\\[\\d+\\][^\t]*\t\t# (?:lid \\d+ lmc \\d+ )?\")(.*)(\" lid \\d+ [^\"]*)$");

    private TopologyNames() {
    }

    /** {@code topology} with the names of {@code map} in place of the descriptions it replaces. */
    static String apply(String topology, NodeNameMap map) {
        if (map.isEmpty()) {
            return topology;
        }
        StringBuilder out = new StringBuilder(topology.length());
        for (String line : topology.split("\n", -1)) {
            Matcher m = SWITCH.matcher(line);
            if (!m.matches()) {
                m = PORT.matcher(line);
            }
            out.append(m.matches() ? m.group(1) + map.name(new Guid(Long.parseUnsignedLong(m.group(2), 16)), m.group(3)) + m.group(4) : line)
                    .append('\n');
        }
        out.setLength(out.length() - 1);
        return out.toString();
    }
}

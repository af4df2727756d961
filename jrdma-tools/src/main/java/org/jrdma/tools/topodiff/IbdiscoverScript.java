package org.jrdma.tools.topodiff;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What infiniband-diags' deprecated {@code ibdiscover.pl} does with its three inputs, as a pure
 * function: the administrator's map of node GUIDs to locations ({@code ibdiscover.map}, lines
 * {@code GUID|ports|"Location"|comment}), the links saved by its last run ({@code ibdiscover.topo},
 * lines {@code localPort|localGUID|remotePort|remoteGUID}) and an ibnetdiscover topology file.
 * It annotates the topology file (a header per node GUID line, a line per link to a node whose
 * GUID ibnetdiscover prints as {@code "S-000..."} or {@code "H-000..."}), writes the links it saw
 * for the next run ({@code ibdiscover.topo.new}) and reports every link seen once in all: in the
 * saved links only (gone) or in the topology only (new); every link when there are no saved links.
 *
 * <p>Every line is read as the script's patterns read it, so what they catch is what the script
 * catches: a node header is any line with a lowercase {@code s} or {@code h} before {@code =0x}
 * and hex digits (a switch's {@code sysimgguid=} and {@code switchguid=} lines, each printed as a
 * {@code Switch GUID}; a channel adapter's {@code caguid=} has neither letter, so its links are
 * reported under its {@code sysimgguid}); a link's GUIDs are the digits after {@code -000}. Map
 * fields and saved lines are Perl's {@code split /\|/} of the line, newline included where it is
 * the last field's. The script lists the changes in the order of a Perl hash, which varies from
 * run to run; here they come in the order first seen: the saved links in file order, then the new ones.
 */
final class IbdiscoverScript {
    /** The hex digits of a GUID after {@code =0x} or {@code -000}: {@code [a-f\d]*}. */
    private static final Pattern HEX = Pattern.compile("[a-f\\d]*");
    private static final Pattern PORT = Pattern.compile("\\[(\\d*)]");
    private static final Pattern NUMBER = Pattern.compile("^\\s*([+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?)");

    private IbdiscoverScript() {
    }

    /**
     * A run's results.
     *
     * @param text     what the script prints on standard output
     * @param newTopo  what it writes to {@code ibdiscover.topo.new}
     * @param document the same as {@code ibtool ibdiscover --json}'s document
     */
    record Result(String text, String newTopo, IbdiscoverCommand.Document document) {
    }

    /** A link key's count: in the saved links, and how many times in the topology. */
    private static final class Count {
        boolean saved;
        int current;

        int total() {
            return (saved ? 1 : 0) + current;
        }
    }

    /**
     * Runs the script.
     *
     * @param map      {@code ibdiscover.map}'s text, or null when there is none
     * @param saved    {@code ibdiscover.topo}'s text, or null when there is none
     * @param topology the ibnetdiscover output (the script's standard input)
     */
    static Result run(String map, String saved, String topology) {
        Map<String, String> locations = new HashMap<>();
        for (String line : lines(map)) {
            List<String> fields = split(line);
            locations.put(field(fields, 0), fields.size() > 2 ? fields.get(2) : null);
        }
        Map<String, Count> links = new LinkedHashMap<>();
        boolean haveSaved = false;
        for (String line : lines(saved)) {
            haveSaved = true;
            List<String> fields = split(line);
            String remoteGuid = field(fields, 3);
            if (remoteGuid.endsWith("\n")) {
                remoteGuid = remoteGuid.substring(0, remoteGuid.length() - 1);
            }
            String key = key(field(fields, 1), field(fields, 0), field(fields, 2), remoteGuid);
            links.computeIfAbsent(key, _ -> new Count()).saved = true;
        }
        StringBuilder out = new StringBuilder();
        StringBuilder newTopo = new StringBuilder();
        List<IbdiscoverCommand.NodeLine> nodes = new ArrayList<>();
        List<IbdiscoverCommand.LinkLine> seen = new ArrayList<>();
        String localGuid = "";
        for (String line : lines(topology)) {
            String[] node = node(line);
            String local = node == null ? "" : node[1];
            if (!local.isEmpty()) {
                String kind = node[0].equals("s") ? "Switch" : "Host";
                String location = text(locations.get(local));
                out.append('\n').append(kind).append(" GUID: ").append(local).append("  ").append(location).append('\n');
                nodes.add(new IbdiscoverCommand.NodeLine(kind, local, locations.get(local)));
                localGuid = local;
                continue;
            }
            String[] link = link(line);
            if (link == null) {
                continue;
            }
            String localPort = port(link[0]);
            String remotePort = port(link[3]);
            String remoteGuid = link[2];
            if (remoteGuid.isEmpty() || localPort == null || localPort.isEmpty()) {
                continue;
            }
            newTopo.append(integer(localPort)).append('|').append(localGuid).append('|').append(integer(text(remotePort)))
                    .append('|').append(remoteGuid).append('\n');
            links.computeIfAbsent(key(localGuid, localPort, text(remotePort), remoteGuid), _ -> new Count()).current++;
            String kind = link[1].equals("H") ? "Host" : "Switch";
            String location = text(locations.get(remoteGuid)).isEmpty() ? remoteGuid : locations.get(remoteGuid);
            out.append("Local: ").append(pad(localPort, 2)).append("  Remote: ").append(pad(text(remotePort), 2)).append("  ")
                    .append(pad(kind, 7)).append("  GUID: ").append(remoteGuid).append("  Location: ").append(location).append('\n');
            seen.add(new IbdiscoverCommand.LinkLine(localGuid, integer(localPort), integer(text(remotePort)), kind, remoteGuid,
                    locations.get(remoteGuid)));
        }
        out.append("\nDelta change in topo (change between successive runs)\n\n");
        List<IbdiscoverCommand.Change> changes = new ArrayList<>();
        for (Map.Entry<String, Count> entry : links.entrySet()) {
            Count count = entry.getValue();
            if (count.total() >= 2 && haveSaved) {
                continue;
            }
            List<String> fields = split(entry.getKey());
            String lg = field(fields, 0);
            String rg = field(fields, 3);
            long lp = integer(field(fields, 1));
            long rp = integer(field(fields, 2));
            out.append("Link change:  Local/Remote Port ").append(pad(Long.toString(lp), 2)).append('/').append(pad(Long.toString(rp), 2))
                    .append(" Local/Remote GUID: ").append(lg).append('/').append(rg).append('\n');
            out.append("\tLocations: Local/Remote\n\t\t").append(text(locations.get(lg))).append("\n\t\t")
                    .append(text(locations.get(rg))).append("\n\n");
            changes.add(new IbdiscoverCommand.Change(lg, lp, rp, rg, locations.get(lg), locations.get(rg), count.saved, count.current));
        }
        return new Result(out.toString(), newTopo.toString(), new IbdiscoverCommand.Document(haveSaved, nodes, seen, changes));
    }

    /**
     * The script's node header match, {@code /([sh])([\s\S]*)=0x([a-f\d]*)([\s\S]*)/}: the first
     * {@code s} or {@code h} before the last {@code =0x} (the greedy middle reaches the last one)
     * and the hex digits after it; null when the line has no match. Found by scanning, in time
     * linear in the line, where a backtracking matcher takes quadratic time on long lines.
     *
     * @return the letter and the digits
     */
    private static String[] node(String line) {
        int marker = line.lastIndexOf("=0x");
        for (int k = 0; k < marker; k++) {
            char c = line.charAt(k);
            if (c == 's' || c == 'h') {
                return new String[] {String.valueOf(c), hex(line, marker + 3)};
            }
        }
        return null;
    }

    /**
     * The script's link match, {@code /([\s\S]*)"([SH])\-000([a-f\d]*)"([\s\S]*)\n/}: the last
     * {@code "S-000<hex>"} or {@code "H-000<hex>"} of a line that ends with a newline (the greedy
     * first group reaches the last one), by scanning; null when the line has no match.
     *
     * @return the text before it, the letter, the digits, and the text after it up to the newline
     */
    private static String[] link(String line) {
        if (!line.endsWith("\n")) {
            return null;
        }
        for (int i = line.lastIndexOf('"'); i >= 0; i = i == 0 ? -1 : line.lastIndexOf('"', i - 1)) {
            if (line.startsWith("S-000", i + 1) || line.startsWith("H-000", i + 1)) {
                String digits = hex(line, i + 6);
                int close = i + 6 + digits.length();
                if (close < line.length() && line.charAt(close) == '"') {
                    return new String[] {line.substring(0, i), line.substring(i + 1, i + 2), digits,
                        line.substring(close + 1, line.length() - 1)};
                }
            }
        }
        return null;
    }

    /** The longest run of {@code [a-f\d]} at {@code from}. */
    private static String hex(String line, int from) {
        Matcher m = HEX.matcher(line).region(from, line.length());
        m.lookingAt();
        return m.group();
    }

    /** The key of a link in the script's hash: {@code sprintf("%s|%2s|%2s|%s", localGuid, localPort, remotePort, remoteGuid)}. */
    private static String key(String localGuid, String localPort, String remotePort, String remoteGuid) {
        return localGuid + "|" + pad(localPort, 2) + "|" + pad(remotePort, 2) + "|" + remoteGuid;
    }

    /** The digits of the first {@code [N]} in {@code text} (possibly empty), or null (undef) if it has none. */
    private static String port(String text) {
        Matcher m = PORT.matcher(text);
        return m.find() ? m.group(1) : null;
    }

    /** The lines of {@code text}, each with its newline as Perl's {@code <FH>} reads them; none for null. */
    private static List<String> lines(String text) {
        List<String> lines = new ArrayList<>();
        if (text == null) {
            return lines;
        }
        int start = 0;
        while (start < text.length()) {
            int end = text.indexOf('\n', start);
            end = end < 0 ? text.length() : end + 1;
            lines.add(text.substring(start, end));
            start = end;
        }
        return lines;
    }

    /** Perl's {@code split /\|/, $line}: the fields between bars, trailing empty fields dropped. */
    private static List<String> split(String line) {
        List<String> fields = new ArrayList<>(List.of(line.split("\\|", -1)));
        while (!fields.isEmpty() && fields.getLast().isEmpty()) {
            fields.removeLast();
        }
        return fields;
    }

    /** Field {@code i}, or Perl's undef as text ({@code ""}) when there are fewer. */
    private static String field(List<String> fields, int i) {
        return i < fields.size() ? fields.get(i) : "";
    }

    private static String text(String value) {
        return value == null ? "" : value;
    }

    /** Perl's {@code %Ns}: right-aligned in {@code width} characters. */
    private static String pad(String text, int width) {
        return text.length() >= width ? text : " ".repeat(width - text.length()) + text;
    }

    /** Perl's {@code %d} of a string: its leading number, truncated, else 0. */
    static long integer(String text) {
        Matcher m = NUMBER.matcher(text);
        if (!m.find()) {
            return 0;
        }
        double value = Double.parseDouble(m.group(1));
        return value >= 0x1p63 ? Long.MAX_VALUE : value <= -0x1p63 ? Long.MIN_VALUE : (long) value;
    }
}

package org.jrdma.subnet;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.function.Function;

/**
 * Prints a discovered subnet in the topology file format of infiniband-diags' ibnetdiscover
 * (and ibsim's input): a header, then every switch and every channel adapter with its linked
 * ports, each group in the order libibnetdisc lists them (the reverse of discovery order).
 */
public final class TopologyWriter {
    private TopologyWriter() {
    }

    /** The whole topology file, stamped with {@code generated} as the C tool stamps it with ctime(3). */
    public static String write(Subnet subnet, ZonedDateTime generated) {
        return write(subnet, generated, Node::description);
    }

    /**
     * The whole topology file, with {@code displayName} in place of the node description where
     * ibnetdiscover applies its node name map: a switch's header line, and the remote node of every
     * port line (a channel adapter's or router's header keeps its own description).
     */
    public static String write(Subnet subnet, ZonedDateTime generated, Function<Node, String> displayName) {
        StringBuilder out = new StringBuilder();
        out.append("#\n# Topology file: generated on ").append(ctime(generated)).append("\n#\n");
        out.append("# Initiated from node ").append(TopologyLines.hex16(subnet.from().guid().value())).append(" port ")
                .append(TopologyLines.hex16(subnet.from().info().portGuid().value())).append('\n');
        TopologyLines lines = new TopologyLines(out, displayName);
        subnet.switches().reversed().forEach(lines::node);
        subnet.channelAdapters().reversed().forEach(lines::node);
        return out.toString();
    }

    /** ctime(3)'s layout: the day of the month padded to two characters with a space. */
    static String ctime(ZonedDateTime t) {
        String day = String.format("%2d", t.getDayOfMonth());
        return t.format(DateTimeFormatter.ofPattern("EEE MMM ", Locale.ROOT)) + day
                + t.format(DateTimeFormatter.ofPattern(" HH:mm:ss yyyy", Locale.ROOT));
    }
}

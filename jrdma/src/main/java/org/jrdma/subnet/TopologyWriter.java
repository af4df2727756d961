package org.jrdma.subnet;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.jrdma.iba.smp.SmpPortInfo;

/**
 * Prints a discovered subnet in the topology file format of infiniband-diags' ibnetdiscover
 * (and ibsim's input): a header, then every switch and every channel adapter with its linked
 * ports, each group in the order libibnetdisc lists them (the reverse of discovery order).
 */
public final class TopologyWriter {
    /** IBA PortInfo CapabilityMask bit 14: the port supports extended link speeds (FDR and up). */
    private static final long CAP_HAS_EXT_SPEEDS = 1L << 14;

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
        out.append("# Initiated from node ").append(hex16(subnet.from().guid().value())).append(" port ")
                .append(hex16(subnet.from().info().portGuid().value())).append('\n');
        for (Node sw : reversed(subnet.switches())) {
            writeSwitch(out, sw, displayName);
        }
        for (Node ca : reversed(subnet.channelAdapters())) {
            writeCa(out, ca, displayName);
        }
        return out.toString();
    }

    /** ctime(3)'s layout: the day of the month padded to two characters with a space. */
    static String ctime(ZonedDateTime t) {
        String day = String.format("%2d", t.getDayOfMonth());
        return t.format(DateTimeFormatter.ofPattern("EEE MMM ", Locale.ROOT)) + day
                + t.format(DateTimeFormatter.ofPattern(" HH:mm:ss yyyy", Locale.ROOT));
    }

    private static List<Node> reversed(List<Node> nodes) {
        return nodes.reversed();
    }

    private static void writeIds(StringBuilder out, Node node) {
        var info = node.info();
        out.append("\nvendid=0x").append(Integer.toHexString(info.vendorId()))
                .append("\ndevid=0x").append(Integer.toHexString(info.deviceId())).append('\n');
        long sysimg = info.systemImageGuid().value();
        if (sysimg != 0) {
            out.append("sysimgguid=0x").append(Long.toHexString(sysimg)).append('\n');
        }
    }

    private static void writeSwitch(StringBuilder out, Node sw, Function<Node, String> displayName) {
        writeIds(out, sw);
        out.append("switchguid=0x").append(Long.toHexString(sw.guid().value())).append('(')
                .append(Long.toHexString(sw.info().portGuid().value())).append(")\n");
        Port port0 = sw.managementPort();
        boolean enhanced = sw.switchInfo() != null && sw.switchInfo().enhancedPort0() != 0;
        out.append("Switch\t").append(sw.numPorts()).append(' ').append(name(sw)).append("\t\t# \"").append(displayName.apply(sw))
                .append("\" ").append(enhanced ? "enhanced" : "base").append(" port 0 lid ").append(sw.lid())
                .append(" lmc ").append(port0 == null ? 0 : port0.rawInfo().lmc()).append('\n');
        long capMask = port0 == null ? 0 : port0.rawInfo().capabilityMask();
        for (Port p : sw.ports()) {
            if (p.number() == 0 || p.remote() == null) {
                continue;
            }
            Port r = p.remote();
            out.append('[').append(p.number()).append(']');
            out.append('\t').append(name(r.node())).append('[').append(r.number()).append(']');
            if (!r.node().isSwitch()) {
                out.append('(').append(Long.toHexString(r.guid().value())).append(") ");
            }
            out.append("\t\t# \"").append(displayName.apply(r.node())).append("\" lid ").append(remoteLid(r)).append(' ')
                    .append(widthSpeed(p.rawInfo(), port0 == null ? 0 : capMask, port0 != null)).append('\n');
        }
    }

    private static void writeCa(StringBuilder out, Node ca, Function<Node, String> displayName) {
        writeIds(out, ca);
        boolean router = ca.nodeTypeValue() == 3;
        out.append(router ? "rt" : "ca").append("guid=0x").append(Long.toHexString(ca.guid().value())).append('\n');
        out.append(router ? "Rt" : "Ca").append('\t').append(ca.numPorts()).append(' ').append(name(ca))
                .append("\t\t# \"").append(ca.description()).append("\"\n");
        for (Port p : ca.ports()) {
            if (p.number() == 0 || p.remote() == null) {
                continue;
            }
            Port r = p.remote();
            out.append('[').append(p.number()).append("](").append(Long.toHexString(p.guid().value())).append(") ");
            out.append('\t').append(name(r.node())).append('[').append(r.number()).append(']');
            if (!r.node().isSwitch()) {
                out.append(" (").append(Long.toHexString(r.guid().value())).append(") ");
            }
            SmpPortInfo pi = p.rawInfo();
            out.append("\t\t# lid ").append(pi.lid()).append(" lmc ").append(pi.lmc()).append(" \"").append(displayName.apply(r.node()))
                    .append("\" lid ").append(remoteLid(r)).append(' ').append(widthSpeed(pi, pi.capabilityMask(), true)).append('\n');
        }
    }

    private static int remoteLid(Port r) {
        return r.node().isSwitch() ? r.node().lid() : r.rawInfo().lid();
    }

    /** {@code "S-<guid>"}/{@code "H-<guid>"}/{@code "R-<guid>"}, quoted. */
    private static String name(Node n) {
        char kind = switch (n.nodeTypeValue()) {
            case 1 -> 'H';
            case 2 -> 'S';
            case 3 -> 'R';
            default -> '?';
        };
        return "\"" + kind + "-" + hex16(n.guid().value()) + "\"";
    }

    /** 16 lower-case hex digits, zero padded. */
    private static String hex16(long v) {
        String h = Long.toHexString(v);
        return "0".repeat(16 - h.length()) + h;
    }

    /** The link's width and speed as ibnetdiscover prints them: {@code 4xSDR}, {@code 4xEDR}. */
    static String widthSpeed(SmpPortInfo pi, long capMask, boolean known) {
        int width = pi.linkWidthActive();
        int speed = known ? pi.linkSpeedActive() : 0;
        int ext = known && (capMask & CAP_HAS_EXT_SPEEDS) != 0 ? pi.linkSpeedExtActive() : 0;
        return width(width) + (speed != 4 && ext == 0 ? speed(speed) : extSpeed(ext, speed));
    }

    private static String width(int w) {
        return switch (w) {
            case 1 -> "1x";
            case 2 -> "4x";
            case 4 -> "8x";
            case 8 -> "12x";
            case 16 -> "2x";
            default -> "??";
        };
    }

    private static String speed(int s) {
        return switch (s) {
            case 1 -> "SDR";
            case 2 -> "DDR";
            case 4 -> "QDR";
            default -> "???";
        };
    }

    private static String extSpeed(int ext, int speed) {
        return switch (ext) {
            case 0 -> speed(speed);
            case 1 -> "FDR";
            case 2 -> "EDR";
            case 4 -> "HDR";
            case 8 -> "NDR";
            default -> "???";
        };
    }
}

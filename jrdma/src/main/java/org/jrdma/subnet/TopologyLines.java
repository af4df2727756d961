package org.jrdma.subnet;

import java.util.function.Function;
import org.jrdma.iba.smp.SmpPortInfo;

/**
 * The lines infiniband-diags' ibnetdiscover prints for one node and its links, in its topology
 * file and in its {@code --diff} output, where a prefix ({@code "< "}, {@code "> "}) marks the
 * lines of the old or the new fabric: a node's header (its NodeInfo IDs, its GUID line and its
 * detail line), and one line per linked port.
 */
final class TopologyLines {
    /** IBA PortInfo CapabilityMask bit 14: the port supports extended link speeds (FDR and up). */
    private static final long CAP_HAS_EXT_SPEEDS = 1L << 14;

    private final StringBuilder out;
    private final Function<Node, String> displayName;

    /**
     * @param out         where the lines go
     * @param displayName the name printed in place of a node's description where ibnetdiscover
     *                    applies its node name map: a switch's detail line and the remote node of
     *                    every port line (a channel adapter's or router's detail keeps its own description)
     */
    TopologyLines(StringBuilder out, Function<Node, String> displayName) {
        this.out = out;
        this.displayName = displayName;
    }

    /** The node's header and a line for every linked port but port 0, in port order: its block of the topology file. */
    void node(Node node) {
        header(node, "", "");
        for (Port p : node.ports()) {
            if (p.number() != 0 && p.remote() != null) {
                port(p, "");
            }
        }
    }

    /**
     * The node's header: the IDs ({@code vendid}, {@code devid}, {@code sysimgguid}) and the GUID
     * line, each after {@code idPrefix}, then the detail line after {@code detailPrefix}.
     */
    void header(Node node, String idPrefix, String detailPrefix) {
        var info = node.info();
        out.append('\n').append(idPrefix).append("vendid=0x").append(Integer.toHexString(info.vendorId())).append('\n')
                .append(idPrefix).append("devid=0x").append(Integer.toHexString(info.deviceId())).append('\n');
        long sysimg = info.systemImageGuid().value();
        if (sysimg != 0) {
            out.append(idPrefix).append("sysimgguid=0x").append(Long.toHexString(sysimg)).append('\n');
        }
        out.append(idPrefix);
        if (node.isSwitch()) {
            out.append("switchguid=0x").append(Long.toHexString(node.guid().value())).append('(')
                    .append(Long.toHexString(info.portGuid().value())).append(")\n");
        } else {
            out.append(node.nodeTypeValue() == 3 ? "rt" : "ca").append("guid=0x").append(Long.toHexString(node.guid().value())).append('\n');
        }
        detail(node, detailPrefix);
        out.append('\n');
    }

    /**
     * The node's detail line after {@code prefix}, without its line end: {@code Switch 8 "S-..." # "name"
     * base port 0 lid 1 lmc 0}, or {@code Ca 2 "H-..." # "description"}.
     */
    void detail(Node node, String prefix) {
        out.append(prefix);
        if (node.isSwitch()) {
            boolean enhanced = node.switchInfo() != null && node.switchInfo().enhancedPort0() != 0;
            out.append("Switch\t").append(node.numPorts()).append(' ');
            name(node);
            out.append("\t\t# \"").append(displayName.apply(node)).append("\" ").append(enhanced ? "enhanced" : "base").append(" port 0 lid ")
                    .append(node.lid()).append(" lmc ").append(node.managementLmc());
        } else {
            out.append(node.nodeTypeValue() == 3 ? "Rt" : "Ca").append('\t').append(node.numPorts()).append(' ');
            name(node);
            out.append("\t\t# \"").append(node.description()).append('"');
        }
    }

    /** The line of a linked port after {@code prefix}: its number, the remote end, the LIDs, the link's width and speed. */
    void port(Port p, String prefix) {
        Port r = p.remote();
        out.append(prefix).append('[').append(p.number()).append(']');
        if (p.node().isSwitch()) {
            Port port0 = p.node().managementPort();
            out.append('\t');
            name(r.node());
            out.append('[').append(r.number()).append(']');
            if (!r.node().isSwitch()) {
                out.append('(').append(Long.toHexString(r.guid().value())).append(") ");
            }
            out.append("\t\t# \"").append(displayName.apply(r.node())).append("\" lid ").append(remoteLid(r)).append(' ')
                    .append(widthSpeed(p.rawInfo(), port0 == null ? 0 : port0.rawInfo().capabilityMask(), port0 != null));
        } else {
            out.append('(').append(Long.toHexString(p.guid().value())).append(") ");
            out.append('\t');
            name(r.node());
            out.append('[').append(r.number()).append(']');
            if (!r.node().isSwitch()) {
                out.append(" (").append(Long.toHexString(r.guid().value())).append(") ");
            }
            SmpPortInfo pi = p.rawInfo();
            out.append("\t\t# lid ").append(pi.lid()).append(" lmc ").append(pi.lmc()).append(" \"").append(displayName.apply(r.node()))
                    .append("\" lid ").append(remoteLid(r)).append(' ').append(widthSpeed(pi, pi.capabilityMask(), true));
        }
        out.append('\n');
    }

    private static int remoteLid(Port r) {
        return r.node().isSwitch() ? r.node().lid() : r.rawInfo().lid();
    }

    /** Appends {@code "S-<guid>"}/{@code "H-<guid>"}/{@code "R-<guid>"}, quoted. */
    private void name(Node n) {
        char kind = switch (n.nodeTypeValue()) {
            case 1 -> 'H';
            case 2 -> 'S';
            case 3 -> 'R';
            default -> '?';
        };
        out.append('"').append(kind).append('-');
        long v = n.guid().value();
        for (int shift = 60; shift >= 0; shift -= 4) {
            out.append(Character.forDigit((int) (v >>> shift) & 0xF, 16));
        }
        out.append('"');
    }

    /** 16 lower-case hex digits, zero padded. */
    static String hex16(long v) {
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

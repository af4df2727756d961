package org.jrdma.tools;

import org.jrdma.iba.diag.PortId;
import org.jrdma.iba.smp.SmpMlnxExtendedPortInfo;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.mad.SmpTarget;
import org.jrdma.path.IBDRPath;

/**
 * What ibportstate does after querying an active switch port: it reads the port at the other end
 * of the link by directed route through that port (from the switch's LID, a route of one hop whose
 * DrSLID is the local port's LID), shows it under {@code Peer PortInfo:}, and warns
 * ({@code ibwarn: [pid] validate_width: ...}) when the link runs at a narrower width or a lower
 * speed than both ends enable.
 *
 * @param command        the ibportstate run, for its MADs and its output
 * @param local          the switch port's PortInfo
 * @param localExt       its MlnxExtendedPortInfo (zeros where the node has none)
 * @param extendedSpeeds whether the switch supports the extended speeds
 */
record IbportstatePeer(IbportstateCommand command, SmpPortInfo local, SmpMlnxExtendedPortInfo localExt, boolean extendedSpeeds) {
    private static final int PERMISSIVE_LID = 0xFFFF;
    private static final int FDR10 = 1;

    /** Reads and shows the peer of port {@code port} of the switch at {@code d}, then compares the two ends. */
    void run(Destination d, int port) {
        IBDRPath path;
        String dest;
        if (d.target() instanceof SmpTarget.DirectedRoute route) {
            if (route.hops() == SmpTarget.MAX_HOPS) { // the route through the port would have 64 hops
                throw DiagError.exit("Too many hops");
            }
            dest = PortId.directRoute(route + "," + port).toString();
            path = IBDRPath.builder(null).drPath(ports(route.then(port))).mKey(command.fabric.mKey).build();
        } else {
            int lid = ((SmpTarget.Lid) d.target()).lid();
            int self = command.localPort().lid();
            dest = "Lid " + lid + " DR path slid " + self + "; dlid " + PERMISSIVE_LID + "; 0," + port;
            path = IBDRPath.builder(null).dlid(lid).drSlid(self).drDlid(PERMISSIVE_LID).drPath(0, port)
                    .mKey(command.fabric.mKey).build();
        }
        SmpNodeInfo peerNode = command.nodeInfo(path, dest);
        boolean peerSwitch = peerNode.nodeType() == 2;
        int peerPort = peerNode.localPortNum();
        if (!command.json()) {
            command.print("Peer PortInfo:\n");
        }
        command.jsonPut("peerPortNum", peerPort);
        boolean[] peerExtendedSpeeds = new boolean[1];
        SmpPortInfo peer = command.portInfo(path, peerPort, peerSwitch, peerExtendedSpeeds);
        SmpMlnxExtendedPortInfo peerExt = localExt;
        boolean peerHasExt = IbportstateCommand.mlnxExtendedPortInfo(peerNode);
        if (peerHasExt) {
            peerExt = command.mlnxExtended(path, peerPort);
        }
        command.show("peerPortInfo", IbportstateFormat.port(dest, peerPort, peer, peerExtendedSpeeds[0], !peerSwitch || peerPort == 0,
                command.options()), peer);
        if (peerHasExt) {
            command.show("peerMlnxExtendedPortInfo", IbportstateFormat.mlnxExtended(dest, peerPort, peerExt), peerExt);
        }
        validateWidth(width(local.linkWidthEnabled(), local.linkWidthSupported()),
                width(peer.linkWidthEnabled(), peer.linkWidthSupported()), local.linkWidthActive());
        validateSpeed(speed(local.linkSpeedEnabled(), local.linkSpeedSupported()),
                speed(peer.linkSpeedEnabled(), peer.linkSpeedSupported()), local.linkSpeedActive());
        if (extendedSpeeds && peerExtendedSpeeds[0]) {
            validateExtendedSpeed(extendedSpeed(local.linkSpeedExtEnabled(), local.linkSpeedExtSupported()),
                    extendedSpeed(peer.linkSpeedExtEnabled(), peer.linkSpeedExtSupported()), local.linkSpeedExtActive());
        } else if ((localExt.linkSpeedEnabled() & FDR10) != 0 && (peerExt.linkSpeedEnabled() & FDR10) != 0
                && (localExt.linkSpeedActive() & FDR10) == 0) {
            warn("main", "Peer ports operating at active speed " + local.linkSpeedActive() + " rather than FDR10");
        }
    }

    private static int[] ports(SmpTarget.DirectedRoute route) {
        int[] hops = route.ports();
        int[] withZero = new int[hops.length + 1];
        System.arraycopy(hops, 0, withZero, 1, hops.length);
        return withZero;
    }

    /** {@code get_link_width}: the enabled widths, or the supported ones when enabled is 255 (all supported). */
    private static int width(int enabled, int supported) {
        return enabled == 255 ? supported : enabled;
    }

    /** {@code get_link_speed}: the enabled speeds, or the supported ones when enabled is 15. */
    private static int speed(int enabled, int supported) {
        return enabled == 15 ? supported : enabled;
    }

    /** {@code get_link_speed_ext}: the enabled extended speeds, or the supported ones when enabled is 31. */
    private static int extendedSpeed(int enabled, int supported) {
        return enabled == 31 ? supported : enabled;
    }

    private void validateWidth(int width, int peerWidth, int active) {
        int both = width & peerWidth;
        int[][] rules = {{0x8, 8}, {0x4, 4}, {0x2, 2}, {0x10, 16}, {0x1, 1}};
        String[] names = {"12x", "8x", "4x", "2x", "1x"};
        for (int i = 0; i < rules.length; i++) {
            if ((both & rules[i][0]) != 0) {
                if (active != rules[i][1]) {
                    warn("validate_width", "Peer ports operating at active width " + active + " rather than " + rules[i][1]
                            + " (" + names[i] + ")");
                }
                return;
            }
        }
    }

    private void validateSpeed(int speed, int peerSpeed, int active) {
        int both = speed & peerSpeed;
        int[] bits = {4, 2, 1};
        String[] names = {"10.0 Gbps", "5.0 Gbps", "2.5 Gbps"};
        for (int i = 0; i < bits.length; i++) {
            if ((both & bits[i]) != 0) {
                if (active != bits[i]) {
                    warn("validate_speed", "Peer ports operating at active speed " + active + " rather than " + bits[i]
                            + " (" + names[i] + ")");
                }
                return;
            }
        }
    }

    private void validateExtendedSpeed(int speed, int peerSpeed, int active) {
        int both = speed & peerSpeed;
        int[] bits = {8, 4, 2, 1};
        String[] names = {"106.25 Gbps", "53.125 Gbps", "25.78125 Gbps", "14.0625 Gbps"};
        for (int i = 0; i < bits.length; i++) {
            if ((both & bits[i]) != 0) {
                if (active != bits[i]) {
                    warn("validate_extended_speed", "Peer ports operating at active extended speed " + active + " rather than "
                            + bits[i] + " (" + names[i] + ")");
                }
                return;
            }
        }
    }

    private void warn(String function, String text) {
        command.err().print(DiagError.ibwarn(function, text) + "\n");
        command.err().flush();
    }
}

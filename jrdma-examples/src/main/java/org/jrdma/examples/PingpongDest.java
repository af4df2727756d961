package org.jrdma.examples;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.jrdma.iba.Gid;

/**
 * One side's address in libibverbs' {@code rc_pingpong} and {@code ud_pingpong}
 * ({@code struct pingpong_dest}) and its form on the TCP side channel: the text
 * {@code LLLL:QQQQQQ:PPPPPP:GGGG...} ({@code "%04x:%06x:%06x:"} then the GID's 16 bytes as 32
 * hexadecimal digits) NUL-terminated in a fixed 52-byte message.
 *
 * @param lid the port's LID (0 on RoCE)
 * @param qpn the queue pair number
 * @param psn the first packet sequence number it sends
 * @param gid the GID it sends from; all zero when none was chosen ({@code -g} absent)
 */
record PingpongDest(int lid, int qpn, int psn, Gid gid) {
    /** {@code sizeof "0000:000000:000000:00000000000000000000000000000000"}, the NUL included. */
    static final int WIRE_SIZE = 52;

    /** This address as the 52-byte message. */
    byte[] toWire() {
        String text = String.format("%04x:%06x:%06x:%s", lid, qpn, psn, HexFormat.of().formatHex(gid.toBytes()));
        byte[] wire = new byte[WIRE_SIZE];
        byte[] ascii = text.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(ascii, 0, wire, 0, Math.min(ascii.length, WIRE_SIZE - 1));
        return wire;
    }

    /**
     * Reads a 52-byte message as {@code sscanf(msg, "%x:%x:%x:%s")} and {@code wire_gid_to_gid}
     * do.
     *
     * @throws IllegalArgumentException if it is not of that form
     */
    static PingpongDest fromWire(byte[] wire) {
        int end = 0;
        while (end < wire.length && wire[end] != 0) {
            end++;
        }
        String[] fields = new String(wire, 0, end, StandardCharsets.US_ASCII).split(":");
        if (fields.length != 4 || fields[3].length() != 2 * Gid.BYTES) {
            throw new IllegalArgumentException("not an rc_pingpong address: "
                    + new String(wire, 0, end, StandardCharsets.US_ASCII));
        }
        return new PingpongDest(Integer.parseInt(fields[0], 16), Integer.parseInt(fields[1], 16),
                Integer.parseInt(fields[2], 16), Gid.fromBytes(HexFormat.of().parseHex(fields[3]), 0));
    }

    /** The line {@code ibv_rc_pingpong} prints for it, after {@code "  local address:  "} or {@code "  remote address: "}. */
    String describe() {
        return describe(", ");
    }

    /**
     * The line with {@code beforeGid} between PSN and GID: {@code ibv_ud_pingpong} prints
     * {@code ": "} there in its local address line.
     */
    String describe(String beforeGid) {
        return String.format("LID 0x%04x, QPN 0x%06x, PSN 0x%06x%sGID %s", lid, qpn, psn, beforeGid, gid);
    }
}

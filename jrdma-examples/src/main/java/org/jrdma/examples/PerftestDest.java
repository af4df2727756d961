package org.jrdma.examples;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.StringJoiner;
import org.jrdma.iba.Gid;

/**
 * One side's queue pair and buffer in perftest ({@code struct pingpong_dest}) and their text form
 * on its TCP side channel ({@code ethernet_write_keys}): {@code "%04x:%04x:%06x:%06x:%08x:%016llx:"}
 * for LID, outstanding reads, QPN, PSN, RKey and VAddr, then, when a GID is used, its 16 bytes as
 * {@code "%02x:"} each, then the SRQ number {@code "%08x"} (followed by {@code ':'} after a GID),
 * NUL-terminated in a message of fixed size.
 *
 * @param lid      the port's LID (0 on RoCE)
 * @param outReads outstanding RDMA reads (1 for write tests)
 * @param qpn      the queue pair number
 * @param psn      the first packet sequence number it sends
 * @param rkey     the remote key of its buffer
 * @param vaddr    the address the other side writes to
 * @param gid      the GID it sends from, or null when no GID index is used (InfiniBand without {@code -x})
 * @param srqn     the SRQ number (0: no SRQ)
 */
record PerftestDest(int lid, int outReads, int qpn, int psn, int rkey, long vaddr, Gid gid, int srqn) {
    /** {@code KEY_MSG_SIZE_GID}: the message with a GID, the NUL included. */
    static final int SIZE_WITH_GID = 108;
    /** {@code KEY_MSG_SIZE}: the message without a GID, the NUL included. */
    static final int SIZE_WITHOUT_GID = 59;
    /** {@code sizeof(struct pingpong_dest)} on x86-64, the rdma_cm side channel's form. */
    static final int STRUCT_SIZE = 56;

    /** The size of the message, with or without a GID. */
    static int wireSize(boolean withGid) {
        return withGid ? SIZE_WITH_GID : SIZE_WITHOUT_GID;
    }

    /** This side as its message; with a GID when {@link #gid} is not null. */
    byte[] toWire() {
        StringBuilder text = new StringBuilder(String.format("%04x:%04x:%06x:%06x:%08x:%016x:", lid, outReads, qpn,
                psn, rkey, vaddr));
        if (gid != null) {
            for (byte b : gid.toBytes()) {
                text.append(String.format("%02x:", b & 0xff));
            }
            text.append(String.format("%08x:", srqn));
        } else {
            text.append(String.format("%08x", srqn));
        }
        byte[] wire = new byte[wireSize(gid != null)];
        byte[] ascii = text.toString().getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(ascii, 0, wire, 0, Math.min(ascii.length, wire.length - 1));
        return wire;
    }

    /**
     * This side as perftest's rdma_cm side channel sends it ({@code rdma_write_keys}): the
     * {@code struct pingpong_dest} of x86-64, each integer big-endian: LID, outstanding reads,
     * QPN, PSN and RKey (4 bytes each), 4 bytes of padding, VAddr (8), the GID (16, zeros when
     * none), SRQ number and GID index (4 each; 0).
     */
    byte[] toStruct() {
        ByteBuffer b = ByteBuffer.allocate(STRUCT_SIZE);
        b.putInt(lid).putInt(outReads).putInt(qpn).putInt(psn).putInt(rkey).putInt(0).putLong(vaddr);
        b.put(gid != null ? gid.toBytes() : new byte[Gid.BYTES]);
        b.putInt(srqn).putInt(0);
        return b.array();
    }

    /** Reads {@link #toStruct()}'s form as {@code rdma_read_keys} does (the SRQ number is not read: 0). */
    static PerftestDest fromStruct(byte[] struct) {
        ByteBuffer b = ByteBuffer.wrap(struct);
        int lid = b.getInt();
        int outReads = b.getInt();
        int qpn = b.getInt();
        int psn = b.getInt();
        int rkey = b.getInt();
        b.getInt();
        long vaddr = b.getLong();
        return new PerftestDest(lid, outReads, qpn, psn, rkey, vaddr, Gid.fromBytes(struct, 32), 0);
    }

    /**
     * Reads a message as {@code ethernet_read_keys} does.
     *
     * @throws IllegalArgumentException if it is not of that form
     */
    static PerftestDest fromWire(byte[] wire, boolean withGid) {
        int end = 0;
        while (end < wire.length && wire[end] != 0) {
            end++;
        }
        String text = new String(wire, 0, end, StandardCharsets.US_ASCII);
        String[] f = text.split(":");
        if (f.length != (withGid ? 23 : 7)) {
            throw new IllegalArgumentException("Couldn't parse line <" + text + ">");
        }
        Gid gid = null;
        if (withGid) {
            byte[] raw = new byte[Gid.BYTES];
            for (int i = 0; i < Gid.BYTES; i++) {
                raw[i] = (byte) Integer.parseInt(f[6 + i], 16);
            }
            gid = Gid.fromBytes(raw, 0);
        }
        return new PerftestDest(Integer.parseInt(f[0], 16), Integer.parseInt(f[1], 16), Integer.parseInt(f[2], 16),
                Integer.parseInt(f[3], 16), Integer.parseUnsignedInt(f[4], 16), Long.parseUnsignedLong(f[5], 16),
                gid, Integer.parseUnsignedInt(f[withGid ? 22 : 6], 16));
    }

    /**
     * What {@code ctx_print_pingpong_data} prints for a write test: the address line after
     * {@code " local"} or {@code " remote"}, and the GID in decimal bytes when there is one.
     */
    String describe(String side) {
        return describe(side, true);
    }

    /**
     * What {@code ctx_print_pingpong_data} prints: the address line after {@code " local"} or
     * {@code " remote"}, with the RKey and VAddr for an RDMA test ({@code rdma}) but not for a
     * send test, and the GID in decimal bytes when there is one.
     */
    String describe(String side, boolean rdma) {
        String line = " " + side + " address: LID " + CFormat.alternateHex(lid, 4) + " QPN "
                + CFormat.alternateHex(qpn, 6) + " PSN " + CFormat.alternateHex(psn, 6);
        if (rdma) {
            line += " RKey " + CFormat.alternateHex(Integer.toUnsignedLong(rkey), 8) + " VAddr "
                    + CFormat.alternateHex(vaddr, 16);
        }
        if (gid == null) {
            return line;
        }
        StringJoiner bytes = new StringJoiner(":", " GID: ", "");
        for (byte b : gid.toBytes()) {
            bytes.add(String.format("%02d", b & 0xff));
        }
        return line + System.lineSeparator() + bytes;
    }
}

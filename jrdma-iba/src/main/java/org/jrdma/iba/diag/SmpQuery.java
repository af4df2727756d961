package org.jrdma.iba.diag;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.jrdma.iba.smp.SmpGuidInfo;
import org.jrdma.iba.smp.SmpNodeDescription;
import org.jrdma.iba.smp.SmpNodeInfo;
import org.jrdma.iba.smp.SmpPKeyTable;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.iba.smp.SmpSlToVlMappingTable;
import org.jrdma.iba.smp.SmpSwitchInfo;
import org.jrdma.iba.smp.SmpVlArbitrationTable;

/**
 * What {@code smpquery} (infiniband-diags 44) prints, byte for byte, given the attributes it
 * reads. The single-attribute operations print a {@link Table}; the table operations (pkeys,
 * guids, sl2vl, vlarb) read several blocks, and the methods here say how many and lay them out
 * with the {@link Grid}s of {@link Tables}.
 */
public final class SmpQuery {
    /** P_Keys in a P_KeyTable block. */
    public static final int P_KEYS_PER_BLOCK = 32;
    /** GUIDs in a GUIDInfo block. */
    public static final int GUIDS_PER_BLOCK = 8;
    /** Entries in a VLArbitrationTable block. */
    public static final int VL_ARBITRATION_ENTRIES_PER_BLOCK = 32;

    private SmpQuery() {
    }

    // --- nodeinfo, nodedesc, portinfo, switchinfo ----------------------------------------------

    /** {@code smpquery nodeinfo}: the header and {@link Tables#NODE_INFO}. */
    public static String nodeInfo(PortId dest, SmpNodeInfo info) {
        return nodeInfoHeader(dest) + Tables.NODE_INFO.print(info);
    }

    /** {@code # Node info: Lid 3}, with its newline. */
    public static String nodeInfoHeader(PortId dest) {
        return "# Node info: " + dest + "\n";
    }

    /** {@code smpquery nodedesc}: {@code Node Description:......sw1} (no header). */
    public static String nodeDescription(SmpNodeDescription description) {
        return Tables.NODE_DESCRIPTION.print(description);
    }

    /** {@code smpquery portinfo <dest> <port>}: the header and {@link Tables#PORT_INFO}. */
    public static String portInfo(PortId dest, int port, SmpPortInfo info, DiagOptions options) {
        return portInfoHeader(dest, port) + Tables.PORT_INFO.print(info, options);
    }

    /** {@code # Port info: Lid 3 port 1}, with its newline. */
    public static String portInfoHeader(PortId dest, int port) {
        return "# Port info: " + dest + " port " + port + "\n";
    }

    /** {@code smpquery switchinfo}: the header and {@link Tables#SWITCH_INFO}. */
    public static String switchInfo(PortId dest, SmpSwitchInfo info) {
        return switchInfoHeader(dest) + Tables.SWITCH_INFO.print(info);
    }

    /** {@code # Switch info: Lid 1}, with its newline. */
    public static String switchInfoHeader(PortId dest) {
        return "# Switch info: " + dest + "\n";
    }

    // --- pkeys -----------------------------------------------------------------------------------

    /**
     * How many P_KeyTable blocks smpquery reads for a port whose table holds {@code capacity}
     * P_Keys (NodeInfo:PartitionCap, or SwitchInfo:PartitionEnforcementCap for a switch's
     * external ports).
     */
    public static int pKeyBlocks(int capacity) {
        return (capacity + P_KEYS_PER_BLOCK - 1) / P_KEYS_PER_BLOCK;
    }

    /**
     * {@code smpquery pkeys <dest> <port>}: eight P_Keys a line, the last block cut to the
     * capacity rounded up to eight, then {@code N pkeys capacity for this port}.
     *
     * @param blocks   blocks 0, 1, ... ({@link #pKeyBlocks(int)} of them)
     * @param capacity the number of P_Keys the port holds
     */
    public static String pKeys(List<SmpPKeyTable> blocks, int capacity) {
        checkBlocks(blocks, pKeyBlocks(capacity), "P_KeyTable");
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < blocks.size(); i++) {
            int shown = i + 1 == blocks.size() ? ((capacity + 7 - i * P_KEYS_PER_BLOCK) / 8) * 8 : P_KEYS_PER_BLOCK;
            for (int j = 0; j < shown; j += 8) {
                out.append(Tables.P_KEYS.line(blocks.get(i), j, 8, DiagOptions.defaults(), i * P_KEYS_PER_BLOCK + j))
                        .append('\n');
            }
        }
        return out.append(capacity).append(" pkeys capacity for this port\n").toString();
    }

    // --- guids -----------------------------------------------------------------------------------

    /** How many GUIDInfo blocks smpquery reads for a port of PortInfo:GUIDCap {@code capacity}. */
    public static int guidBlocks(int capacity) {
        return (capacity + GUIDS_PER_BLOCK - 1) / GUIDS_PER_BLOCK;
    }

    /**
     * {@code smpquery GI <dest>}: two GUIDs a line, the last block cut to the capacity rounded up
     * to two, then {@code N guids capacity for this port}.
     *
     * @param blocks   blocks 0, 1, ... ({@link #guidBlocks(int)} of them)
     * @param capacity PortInfo:GUIDCap of the port the query reached
     */
    public static String guids(List<SmpGuidInfo> blocks, int capacity) {
        checkBlocks(blocks, guidBlocks(capacity), "GUIDInfo");
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < blocks.size(); i++) {
            int shown = i + 1 == blocks.size() ? ((capacity + 1 - i * GUIDS_PER_BLOCK) / 2) * 2 : GUIDS_PER_BLOCK;
            for (int j = 0; j < shown; j += 2) {
                out.append(Tables.GUIDS.line(blocks.get(i), j, 2, DiagOptions.defaults(), i * GUIDS_PER_BLOCK + j))
                        .append('\n');
            }
        }
        return out.append(capacity).append(" guids capacity for this port\n").toString();
    }

    // --- sl2vl -----------------------------------------------------------------------------------

    /** One SLtoVLMappingTable smpquery read, with the ports it asked for (attribute modifier {@code in << 8 | out}). */
    public record SlToVlRow(int inPort, int outPort, SmpSlToVlMappingTable table) {
        public SlToVlRow {
            Objects.requireNonNull(table, "table");
        }
    }

    /**
     * {@code smpquery sl2vl <dest> [<port>]}: the header, the SL ruler, and a line per table read
     * (a channel adapter: in 0, out 0; a switch: each input port 0..NumPorts to the given output
     * port).
     */
    public static String slToVl(PortId dest, List<SlToVlRow> rows) {
        StringBuilder out = new StringBuilder("# SL2VL table: ").append(dest).append('\n');
        out.append("#                 SL: |");
        for (int sl = 0; sl < 16; sl++) {
            out.append(String.format(Locale.ROOT, "%2d|", sl));
        }
        out.append('\n');
        for (SlToVlRow row : rows) {
            out.append(String.format(Locale.ROOT, "ports: in %2d, out %2d: ", row.inPort(), row.outPort()))
                    .append(Tables.SL_TO_VL.line(row.table(), 0, 16, DiagOptions.defaults())).append('\n');
        }
        return out.toString();
    }

    // --- vlarb -----------------------------------------------------------------------------------

    /**
     * The VLArbitrationTable blocks smpquery reads for a table of {@code capacity} entries
     * (PortInfo:VLArbitrationLowCap or HighCap): one block, or two above 32 entries.
     */
    public static int vlArbitrationBlocks(int capacity) {
        return capacity <= 0 ? 0 : capacity > VL_ARBITRATION_ENTRIES_PER_BLOCK ? 2 : 1;
    }

    /**
     * {@code smpquery vlarb <dest> [<port>]}: the header and the low- then high-priority tables,
     * each block as a VL line and a weight line of its entries (at most 32 a block).
     *
     * @param low  the low-priority blocks (attribute modifier parts 1 and 2), {@link #vlArbitrationBlocks} of them
     * @param high the high-priority blocks (parts 3 and 4)
     */
    public static String vlArbitration(PortId dest, int port, int lowCap, int highCap,
            List<SmpVlArbitrationTable> low, List<SmpVlArbitrationTable> high) {
        checkBlocks(low, vlArbitrationBlocks(lowCap), "low-priority VLArbitrationTable");
        checkBlocks(high, vlArbitrationBlocks(highCap), "high-priority VLArbitrationTable");
        StringBuilder out = new StringBuilder("# VLArbitration tables: ").append(dest).append(" port ").append(port)
                .append(" LowCap ").append(lowCap).append(" HighCap ").append(highCap).append('\n');
        vlArbitrationTable(out, "Low", lowCap, low);
        vlArbitrationTable(out, "High", highCap, high);
        return out.toString();
    }

    /**
     * What {@code smpquery vlarb} prints for port 0 of a switch without an enhanced port 0
     * (SwitchInfo:EnhancedPort0 = 0), which has no VL arbitration tables.
     */
    public static String noVlArbitration(PortId dest) {
        return "# No VLArbitration tables (BSP0): " + dest + " port 0\n";
    }

    private static void vlArbitrationTable(StringBuilder out, String priority, int capacity,
            List<SmpVlArbitrationTable> blocks) {
        if (capacity <= 0) {
            return;
        }
        out.append("# ").append(priority).append(" priority VL Arbitration Table:");
        int left = capacity;
        for (SmpVlArbitrationTable block : blocks) {
            int entries = Math.min(left, VL_ARBITRATION_ENTRIES_PER_BLOCK);
            out.append('\n').append(Tables.VL_ARBITRATION_VLS.line(block, 0, entries, DiagOptions.defaults()))
                    .append('\n').append(Tables.VL_ARBITRATION_WEIGHTS.line(block, 0, entries, DiagOptions.defaults()))
                    .append('\n');
            left -= entries;
        }
    }

    private static void checkBlocks(List<?> blocks, int expected, String what) {
        if (blocks.size() != expected) {
            throw new IllegalArgumentException("smpquery reads " + expected + " " + what + " block(s) here, not "
                    + blocks.size());
        }
    }
}

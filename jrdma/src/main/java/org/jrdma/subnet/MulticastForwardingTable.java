package org.jrdma.subnet;

import java.util.Arrays;
import java.util.BitSet;
import java.util.SortedMap;
import java.util.TreeMap;
import org.jrdma.iba.Lid;

/**
 * A switch's multicast forwarding table (IBA 14.2.5.12): for every multicast LID from 0xC000 up
 * to the table's top, the set of ports a packet to it leaves through (port 0 being the switch
 * itself). It is read in blocks of 32 MLIDs, each in {@code ceil((NumPorts + 1) / 16)} port-mask
 * positions of 16 ports.
 */
public final class MulticastForwardingTable {
    /** MLIDs per MulticastForwardingTable block. */
    public static final int MLIDS_PER_BLOCK = 32;
    /** Ports per port mask (one position of a block). */
    public static final int PORTS_PER_MASK = 16;

    private final int numPorts;
    /** The 16-bit port masks, {@code positions} per MLID from 0xC000. */
    private final char[] masks;
    private final int positions;

    /**
     * @param numPorts the switch's number of ports
     * @param masks    the port masks of MLIDs 0xC000.., {@code positions(numPorts)} per MLID (copied)
     */
    MulticastForwardingTable(int numPorts, char[] masks) {
        this.numPorts = numPorts;
        this.positions = positions(numPorts);
        if (masks.length % positions != 0) {
            throw new IllegalArgumentException(masks.length + " port masks are not a whole number of MLIDs of " + positions);
        }
        this.masks = masks.clone();
    }

    /** The number of port-mask positions of a switch with {@code numPorts} ports: one per 16 ports, port 0 included. */
    static int positions(int numPorts) {
        return numPorts / PORTS_PER_MASK + 1;
    }

    /** The highest MLID the table holds ({@code 0xBFFF} for an empty table). */
    public int top() {
        return Lid.MULTICAST_FIRST + masks.length / positions - 1;
    }

    /**
     * The ports packets to {@code mlid} leave through (bit {@code p} for port {@code p}); empty
     * when the MLID is above {@link #top()} or has no ports.
     *
     * @throws IllegalArgumentException if {@code mlid} is not a multicast LID
     */
    public BitSet ports(int mlid) {
        if (mlid < Lid.MULTICAST_FIRST || mlid > Lid.MULTICAST_LAST) {
            throw new IllegalArgumentException(String.format("LID 0x%x is not in the multicast range 0xC000..0xFFFE", mlid));
        }
        BitSet ports = new BitSet(numPorts + 1);
        int entry = mlid - Lid.MULTICAST_FIRST;
        if (entry > top() - Lid.MULTICAST_FIRST) {
            return ports;
        }
        for (int position = 0; position < positions; position++) {
            int mask = masks[entry * positions + position];
            for (int bit = 0; bit < PORTS_PER_MASK; bit++) {
                if ((mask & 1 << bit) != 0) {
                    ports.set(position * PORTS_PER_MASK + bit);
                }
            }
        }
        return ports;
    }

    /** The port mask of {@code mlid} at {@code position} (ports 16*position .. 16*position+15), as the SMP carries it. */
    public int portMask(int mlid, int position) {
        if (position < 0 || position >= positions) {
            throw new IllegalArgumentException("position " + position + " outside 0.." + (positions - 1));
        }
        int entry = mlid - Lid.MULTICAST_FIRST;
        return entry < 0 || entry > top() - Lid.MULTICAST_FIRST ? 0 : masks[entry * positions + position];
    }

    /** Every MLID with at least one port, with its ports, in ascending order. */
    public SortedMap<Integer, BitSet> entries() {
        SortedMap<Integer, BitSet> entries = new TreeMap<>();
        for (int mlid = Lid.MULTICAST_FIRST; mlid <= top(); mlid++) {
            BitSet ports = ports(mlid);
            if (!ports.isEmpty()) {
                entries.put(mlid, ports);
            }
        }
        return entries;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MulticastForwardingTable t && numPorts == t.numPorts && Arrays.equals(masks, t.masks);
    }

    @Override
    public int hashCode() {
        return 31 * numPorts + Arrays.hashCode(masks);
    }

    @Override
    public String toString() {
        return String.format("MulticastForwardingTable(top 0x%x, %d ports)", top(), numPorts);
    }
}

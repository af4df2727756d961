package org.jrdma.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.jrdma.iba.Gid;
import org.junit.jupiter.api.Test;

/**
 * The rdma_cm side channel's form of a destination ({@code struct pingpong_dest} in network byte
 * order, as perftest's {@code rdma_write_keys} sends it), and {@code -R} on {@link WriteBw}'s command line.
 */
class PerftestDestTest {
    private static final Gid GID = Gid.fromBytes(new byte[] {(byte) 0xfe, (byte) 0x80, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5,
        6, 7, 8}, 0);

    @Test
    void structHasPerftestsLayoutInNetworkOrder() {
        PerftestDest dest = new PerftestDest(0x12, 1, 0x11, 0xabcdef, 0x43a, 0x7f92d0354000L, GID, 0);
        byte[] struct = dest.toStruct();
        assertEquals(56, struct.length);
        ByteBuffer b = ByteBuffer.wrap(struct);
        assertEquals(0x12, b.getInt(0), "lid");
        assertEquals(1, b.getInt(4), "out_reads");
        assertEquals(0x11, b.getInt(8), "qpn");
        assertEquals(0xabcdef, b.getInt(12), "psn");
        assertEquals(0x43a, b.getInt(16), "rkey");
        assertEquals(0x7f92d0354000L, b.getLong(24), "vaddr after 4 bytes of padding");
        byte[] gid = new byte[Gid.BYTES];
        b.get(32, gid);
        assertArrayEquals(GID.toBytes(), gid, "gid");
        assertEquals(dest, PerftestDest.fromStruct(struct));
    }

    @Test
    void noDestinationIsAllZeros() {
        assertArrayEquals(new byte[56], PerftestCm.NO_DEST.toStruct());
    }

    @Test
    void writeBwTakesRdmaCm() throws UsageException {
        assertTrue(BwSettings.parse(new String[] {"-R", "-d", "rxe0", "10.0.0.1"}).rdmaCm());
        assertTrue(!BwSettings.parse(new String[] {"-d", "rxe0"}).rdmaCm());
    }
}

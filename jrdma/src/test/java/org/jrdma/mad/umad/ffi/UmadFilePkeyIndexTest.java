package org.jrdma.mad.umad.ffi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import org.jrdma.iba.Iba;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@link UmadFile#write} puts before a MAD, read back from a FIFO as the bytes the kernel
 * would take: with the header {@code IB_USER_MAD_ENABLE_PKEY} turns on, the address's P_Key index
 * in {@code pkey_index} (offset 56, host order, as libibumad's {@code umad_set_pkey} stores it) and
 * the MAD after 64 bytes; with the legacy header, no P_Key index and the MAD after 56 bytes.
 * The P_Key index cannot be observed on this machine's peers: ibsim and libumad2sim have no P_Key,
 * and rxe0 has no QP0, so the C tools do not open it.
 */
class UmadFilePkeyIndexTest {
    private static final int AGENT = 7;
    private static final int TIMEOUT_MS = 250;
    private static final int LID = 0x1234;
    private static final int SL = 3;
    private static final int PKEY_INDEX = 5;

    @Test
    void theHeaderCarriesTheAddressPkeyIndex(@TempDir Path dir) throws IOException, InterruptedException {
        byte[] mad = mad();
        byte[] written = writeAndRead(dir, true, mad);
        ByteBuffer header = ByteBuffer.wrap(written).order(ByteOrder.nativeOrder());
        assertEquals(UmadFile.HEADER_SIZE + mad.length, written.length);
        assertEquals(64, UmadFile.HEADER_SIZE);
        assertEquals(AGENT, header.getInt(0), "agent_id");
        assertEquals(TIMEOUT_MS, header.getInt(8), "timeout_ms");
        assertEquals(mad.length, header.getInt(16), "length");
        assertEquals(1, header.order(ByteOrder.BIG_ENDIAN).getInt(20), "qpn");
        assertEquals(Iba.IB_DEFAULT_QP1_QKEY, header.getInt(24), "qkey");
        assertEquals(LID, header.getShort(28) & 0xFFFF, "lid");
        assertEquals(SL, written[30], "sl");
        assertEquals(PKEY_INDEX, header.order(ByteOrder.nativeOrder()).getShort(56), "pkey_index");
        assertArrayEquals(mad, Arrays.copyOfRange(written, UmadFile.HEADER_SIZE, written.length));
    }

    @Test
    void theLegacyHeaderHasNoPkeyIndex(@TempDir Path dir) throws IOException, InterruptedException {
        byte[] mad = mad();
        byte[] written = writeAndRead(dir, false, mad);
        assertEquals(56, UmadFile.LEGACY_HEADER_SIZE);
        assertEquals(UmadFile.LEGACY_HEADER_SIZE + mad.length, written.length);
        assertArrayEquals(mad, Arrays.copyOfRange(written, UmadFile.LEGACY_HEADER_SIZE, written.length));
    }

    /** Writes {@code mad} to a GMP address at P_Key index 5 through a UmadFile on a FIFO, and returns the bytes the FIFO holds. */
    private static byte[] writeAndRead(Path dir, boolean pkeyHeader, byte[] mad) throws IOException, InterruptedException {
        Path fifo = dir.resolve("umad");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assertEquals(0, mkfifo.waitFor(), "mkfifo");
        try (UmadFile file = pkeyHeader ? UmadFile.openWithPkeyIndex(fifo) : UmadFile.open(fifo);
                FileInputStream in = new FileInputStream(fifo.toFile())) {
            file.write(AGENT, TIMEOUT_MS, mad, new UmadFile.Address(LID, 1, Iba.IB_DEFAULT_QP1_QKEY, SL, PKEY_INDEX, null));
            int size = (pkeyHeader ? UmadFile.HEADER_SIZE : UmadFile.LEGACY_HEADER_SIZE) + mad.length;
            byte[] bytes = in.readNBytes(size);
            assertEquals(0, in.available(), "one write, one header and MAD");
            return bytes;
        }
    }

    private static byte[] mad() {
        byte[] mad = new byte[256];
        for (int i = 0; i < mad.length; i++) {
            mad[i] = (byte) (i * 7 + 1);
        }
        mad[0] = 1;
        mad[1] = 0x04; // PerfMgt
        return mad;
    }
}

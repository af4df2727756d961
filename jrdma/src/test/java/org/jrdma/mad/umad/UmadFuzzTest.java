package org.jrdma.mad.umad;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.jrdma.RdmaException;
import org.jrdma.mad.ReceivedMad;
import org.jrdma.mad.umad.ffi.UmadFile;

/**
 * Coverage-guided fuzz target (Jazzer) for umad reads: what a {@code read(2)} of
 * {@code /dev/infiniband/umadN} returned, the {@code ib_user_mad} header (agent ID, status, the
 * address: QP, Q_Key, LID, SL, path bits, GRH fields, P_Key index) and the MAD, any length from
 * empty to an RMPP-reassembled transfer, parsed as {@link UmadFile#packet} does and handed over
 * as {@link UmadTransport#receive} does. The first byte picks the header: its low bit set for the
 * legacy 56-byte one, else the 64-byte one. The only exception allowed out is {@link RdmaException}.
 */
class UmadFuzzTest {
    /** {@code sizeof(struct ib_user_mad_hdr)} with {@code pkey_index}. */
    private static final int HEADER_SIZE = 64;
    /** The legacy header, which ends before {@code pkey_index}. */
    private static final int LEGACY_HEADER_SIZE = 56;

    @FuzzTest(maxDuration = "10s")
    void read(byte[] input) {
        if (input.length == 0) {
            return;
        }
        int header = (input[0] & 1) != 0 ? LEGACY_HEADER_SIZE : HEADER_SIZE;
        int n = input.length - 1;
        try (Arena arena = Arena.ofConfined()) {
            // The read buffer holds at least a header and a MAD, and grows for a longer MAD.
            MemorySegment buffer = arena.allocate(Math.max(n, HEADER_SIZE + 256));
            MemorySegment.copy(MemorySegment.ofArray(input), 1, buffer, 0, n);
            UmadFile.Packet p = UmadFile.packet(buffer, n, header);
            assertEquals(n - header, p.mad().length);
            ReceivedMad mad = UmadTransport.received(p, "umad0 (fuzzing)");
            assertTrue(mad.length() >= 24 && mad.length() <= mad.mad().length, "length " + mad.length());
            assertEquals(p.status() != 0, mad.dropped());
        } catch (RdmaException expected) {
            // shorter than a header, or than a MAD header
        }
    }
}

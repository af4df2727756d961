package org.jrdma.verbs.ffi;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

/** Shared by the staging areas: {@code struct ibv_sge} writes and {@code bad_wr} decoding. */
final class Sges {
    private static final VarHandle ADDR = Structs.handle(Structs.IBV_SGE, "addr");
    private static final VarHandle LENGTH = Structs.handle(Structs.IBV_SGE, "length");
    private static final VarHandle LKEY = Structs.handle(Structs.IBV_SGE, "lkey");

    private Sges() {
    }

    /** Writes the {@code struct ibv_sge} at {@code offset} of {@code sges}. */
    static void set(MemorySegment sges, long offset, long addr, int length, int lkey) {
        ADDR.set(sges, offset, addr);
        LENGTH.set(sges, offset, length);
        LKEY.set(sges, offset, lkey);
    }

    /**
     * The index, in the array {@code wrs} of {@code wrSize}-byte requests, of the request
     * {@code *badWr} points at; 0 when the provider left it outside the {@code count} posted.
     */
    static int badIndex(MemorySegment badWr, MemorySegment wrs, long wrSize, int count) {
        long offset = badWr.get(JAVA_LONG, 0) - wrs.address();
        return offset >= 0 && offset < count * wrSize && offset % wrSize == 0 ? (int) (offset / wrSize) : 0;
    }
}

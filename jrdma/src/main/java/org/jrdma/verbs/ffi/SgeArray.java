package org.jrdma.verbs.ffi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

/** An array of {@code struct ibv_sge} in native memory, for {@code ibv_wr_set_sge_list}. */
public final class SgeArray {
    private static final long SIZE = Structs.IBV_SGE.byteSize();
    private static final VarHandle ADDR = Structs.handle(Structs.IBV_SGE, "addr");
    private static final VarHandle LENGTH = Structs.handle(Structs.IBV_SGE, "length");
    private static final VarHandle LKEY = Structs.handle(Structs.IBV_SGE, "lkey");

    private final MemorySegment sges;

    /** {@code capacity} zeroed elements allocated in {@code arena}. */
    public SgeArray(Arena arena, int capacity) {
        this.sges = arena.allocate(Structs.IBV_SGE, capacity);
    }

    /** Sets element {@code i}. */
    public void set(int i, long addr, int length, int lkey) {
        long at = i * SIZE;
        ADDR.set(sges, at, addr);
        LENGTH.set(sges, at, length);
        LKEY.set(sges, at, lkey);
    }

    /** How many elements there are. */
    public int capacity() {
        return (int) (sges.byteSize() / SIZE);
    }

    /** The array. */
    public MemorySegment segment() {
        return sges;
    }
}

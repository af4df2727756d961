package org.jrdma.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;
import org.jrdma.verbs.ffi.SgeArray;

/**
 * A reusable native list of scatter/gather elements, {@code struct ibv_sge[]}, for
 * {@link QpEx#sgeList}: filled once (or changed in place) and given to any number of requests.
 * It lives in the arena given; {@link QpEx#sgeList} reads it while building the request only.
 */
public final class SgeList {
    private final SgeArray array;

    /** A list of {@code capacity} elements in {@code arena}. */
    public SgeList(Arena arena, int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("an SGE list holds at least 1 element, not " + capacity);
        }
        this.array = new SgeArray(Objects.requireNonNull(arena, "arena"), capacity);
    }

    /** Sets element {@code i} to {@code sge}. */
    public SgeList set(int i, Sge sge) {
        Objects.checkIndex(i, array.capacity());
        array.set(i, sge.addr(), sge.length(), sge.lkey());
        return this;
    }

    /** How many elements the list holds. */
    public int capacity() {
        return array.capacity();
    }

    int checkCount(int count) {
        if (count < 1 || count > array.capacity()) {
            throw new IllegalArgumentException("count must be 1 to " + array.capacity() + ", not " + count);
        }
        return count;
    }

    MemorySegment segment() {
        return array.segment();
    }
}

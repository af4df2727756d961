package org.jrdma.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;
import org.jrdma.verbs.ffi.StructsEx;

/**
 * A reusable native list of buffers, {@code struct ibv_data_buf[]}, for
 * {@link QpEx#inlineDataList}: the pieces of one inline send, gathered and copied into the send
 * queue while the request is built. Filled once (or changed in place) and given to any number of
 * requests; it lives in the arena given, and holds the addresses of the buffers, not their bytes.
 */
public final class DataBufList {
    private static final long STRIDE = StructsEx.IBV_DATA_BUF.byteSize();
    private final MemorySegment bufs;
    private final int capacity;

    /** A list of {@code capacity} buffers in {@code arena}. */
    public DataBufList(Arena arena, int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a buffer list holds at least 1 buffer, not " + capacity);
        }
        this.bufs = Objects.requireNonNull(arena, "arena").allocate(StructsEx.IBV_DATA_BUF, capacity);
        this.capacity = capacity;
    }

    /**
     * Sets buffer {@code i} to {@code data}, native memory the caller keeps alive until the
     * requests that name it are built.
     */
    public DataBufList set(int i, MemorySegment data) {
        Objects.checkIndex(i, capacity);
        if (!data.isNative()) {
            throw new IllegalArgumentException("inline data must be native memory, not " + data);
        }
        bufs.set(ValueLayout.JAVA_LONG, i * STRIDE, data.address());
        bufs.set(ValueLayout.JAVA_LONG, i * STRIDE + ValueLayout.ADDRESS.byteSize(), data.byteSize());
        return this;
    }

    /** How many buffers the list holds. */
    public int capacity() {
        return capacity;
    }

    int checkCount(int count) {
        if (count < 1 || count > capacity) {
            throw new IllegalArgumentException("count must be 1 to " + capacity + ", not " + count);
        }
        return count;
    }

    MemorySegment segment() {
        return bufs;
    }
}

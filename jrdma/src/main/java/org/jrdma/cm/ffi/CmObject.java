package org.jrdma.cm.ffi;

import java.lang.foreign.Arena;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemorySegment;

/**
 * A librdmacm object ({@code struct rdma_event_channel}, {@code struct rdma_cm_id}) owned by Java,
 * as libibverbs objects are in {@code org.jrdma.verbs.ffi}: its pointer as a segment bound to a
 * shared {@link Arena}, so that once {@link #close()} has closed the arena a late call fails with
 * {@link IllegalStateException} instead of touching freed memory, and a close while a call runs
 * in another thread fails instead of freeing memory under it.
 */
@SuppressWarnings("restricted")
public abstract sealed class CmObject permits CmEventChannel, CmId {
    /** Owns {@link #ptr}'s lifetime. */
    final Arena arena = Arena.ofShared();
    /** The C object, readable through the layout given at construction. */
    final MemorySegment ptr;
    private final String what;

    CmObject(MemorySegment raw, GroupLayout layout, String what) {
        this.ptr = raw.reinterpret(layout.byteSize(), arena, null);
        this.what = what;
    }

    /** The C pointer, for events to be matched with this object. */
    public final long address() {
        return ptr.address();
    }

    /**
     * Makes the object unusable from Java, then destroys it in librdmacm. Called once.
     *
     * @throws IllegalStateException when a call on the object is running in another thread; the
     *                               object is then left as it was
     * @throws org.jrdma.SysException when librdmacm fails to destroy it; it is unusable anyway
     */
    public final void close() {
        MemorySegment raw = MemorySegment.ofAddress(ptr.address());
        try {
            arena.close();
        } catch (IllegalStateException busy) {
            throw new IllegalStateException(what + " is in use by a call in another thread; not closed", busy);
        }
        destroy(raw);
    }

    /** Frees the C object at {@code raw}, whose arena is already closed. */
    abstract void destroy(MemorySegment raw);
}

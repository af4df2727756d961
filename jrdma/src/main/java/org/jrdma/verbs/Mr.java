package org.jrdma.verbs;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import org.jrdma.verbs.ffi.IbvMr;
import org.jrdma.verbs.ffi.IbvMrEx;

/**
 * A memory region, {@code struct ibv_mr} ({@code ibv_reg_mr}; IBA 10.6): memory the device may
 * access, locally through {@link #lkey()} and remotely through {@link #rkey()} at
 * {@link #addr()}. python-rdma's {@code rdma.ibverbs.MR}, from {@link Pd#mr}; its
 * {@link #sge()} makes scatter/gather elements over it.
 */
public final class Mr extends Resource {
    private final Pd pd;
    private final IbvMr handle;
    private final MemorySegment memory;
    /** Where the device sees {@link #memory}: its address, or the I/O virtual address of {@code ibv_reg_mr_iova}. */
    private final long iova;

    private Mr(Pd pd, IbvMr handle, MemorySegment memory) {
        this(pd, handle, memory, memory.address());
    }

    private Mr(Pd pd, IbvMr handle, MemorySegment memory, long iova) {
        this.pd = pd;
        this.handle = handle;
        this.memory = memory;
        this.iova = iova;
    }

    /** {@code ibv_reg_mr_iova} in {@code pd}, registered as its dependent. */
    static Mr registerIova(Pd pd, MemorySegment memory, long iova, int access) {
        Mr mr = new Mr(pd, IbvMrEx.registerIova(pd.handle(), memory, iova, access), memory, iova);
        mr.register(pd);
        return mr;
    }

    /** {@code ibv_reg_mr} in {@code pd}, registered as its dependent. */
    static Mr register(Pd pd, MemorySegment memory, int access) {
        Mr mr = new Mr(pd, IbvMr.register(pd.handle(), memory, access), memory);
        mr.register(pd);
        return mr;
    }

    /** The protection domain of this region. */
    public Pd pd() {
        return pd;
    }

    /** The registered memory. */
    public MemorySegment memory() {
        return memory;
    }

    /**
     * The start address, as a remote side names it in RDMA and atomic requests and local
     * scatter/gather elements name it: the memory's address, or the I/O virtual address it was
     * registered at ({@link Pd#mrIova}).
     */
    public long addr() {
        return iova;
    }

    /** The length in bytes. */
    public long length() {
        return memory.byteSize();
    }

    /** The local key, for scatter/gather elements. */
    public int lkey() {
        checkOpen();
        return handle.lkey();
    }

    /** The remote key, for a remote side's RDMA and atomic requests. */
    public int rkey() {
        checkOpen();
        return handle.rkey();
    }

    /**
     * A scatter/gather element over the whole region.
     *
     * @throws IllegalArgumentException if the region is 4 GiB or longer
     */
    public Sge sge() {
        return sge(0, length());
    }

    /**
     * A scatter/gather element over {@code length} bytes from {@code offset} (python-rdma's
     * {@code mr.sge(length, off)}).
     *
     * @throws IndexOutOfBoundsException if the range is not inside the region
     * @throws IllegalArgumentException  if {@code length} does not fit in 32 bits
     */
    public Sge sge(long offset, long length) {
        Objects.checkFromIndexSize(offset, length, length());
        if (length > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("an SGE covers at most 4 GiB - 1, not " + length);
        }
        return new Sge(addr() + offset, (int) length, lkey());
    }

    /** The native object, for the extended verbs ({@link QpEx}, {@link Mw}). */
    IbvMr handle() {
        return handle;
    }

    @Override
    String describe() {
        return String.format("MR 0x%x+%d on %s", addr(), length(), pd.context().deviceName());
    }

    @Override
    void release() {
        handle.close();
    }
}

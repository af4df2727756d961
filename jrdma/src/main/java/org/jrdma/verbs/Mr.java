package org.jrdma.verbs;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import org.jrdma.SysException;
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
    /** The memory of this process registered, or {@link MemorySegment#NULL} for a dma-buf or an imported region. */
    private final MemorySegment memory;
    /** Where the device sees the region: its address, or the I/O virtual address of {@code ibv_reg_mr_iova}. */
    private final long iova;
    private final long length;

    private Mr(Pd pd, IbvMr handle, MemorySegment memory) {
        this(pd, handle, memory, memory.address(), memory.byteSize());
    }

    private Mr(Pd pd, IbvMr handle, MemorySegment memory, long iova, long length) {
        this.pd = pd;
        this.handle = handle;
        this.memory = memory;
        this.iova = iova;
        this.length = length;
    }

    /** {@code ibv_reg_mr_iova} in {@code pd}, registered as its dependent. */
    static Mr registerIova(Pd pd, MemorySegment memory, long iova, int access) {
        Mr mr = new Mr(pd, IbvMrEx.registerIova(pd.handle(), memory, iova, access), memory, iova, memory.byteSize());
        mr.register(pd);
        return mr;
    }

    /** {@code ibv_reg_dmabuf_mr} in {@code pd}, registered as its dependent. */
    static Mr registerDmabuf(Pd pd, long offset, long length, long iova, int fd, int access) {
        IbvMr handle;
        try {
            handle = IbvMrEx.registerDmabuf(pd.handle(), offset, length, iova, fd, access);
        } catch (SysException e) {
            throw UnsupportedVerbException.translate(e, "ibv_reg_dmabuf_mr (dma-buf regions)");
        }
        Mr mr = new Mr(pd, handle, MemorySegment.NULL, iova, length);
        mr.register(pd);
        return mr;
    }

    /** {@code ibv_import_mr} into the imported domain {@code pd}, registered as its dependent. */
    static Mr importMr(Pd pd, int mrHandle) {
        IbvMr handle;
        try {
            handle = IbvMr.importMr(pd.handle(), mrHandle);
        } catch (SysException e) {
            throw UnsupportedVerbException.translate(e, "ibv_import_mr (sharing between processes)");
        }
        Mr mr = new Mr(pd, handle, MemorySegment.NULL, handle.addr(), handle.length());
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

    /**
     * The registered memory; {@link MemorySegment#NULL} (empty) for a region of memory this
     * process did not give ({@link Pd#mrDmabuf}, {@link Pd#importMr}).
     */
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
        return length;
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

    /**
     * Gives the region new access rights ({@code ibv_rereg_mr} with
     * {@code IBV_REREG_MR_CHANGE_ACCESS}): the same memory in the same domain, with new keys
     * ({@link #lkey()}, {@link #rkey()}). No work request may use the region meanwhile.
     *
     * @throws UnsupportedVerbException if the provider cannot re-register
     */
    public void reregAccess(int access) {
        if ((access & ~Access.ALL) != 0) {
            throw new IllegalArgumentException(String.format("unknown access flags 0x%x", access & ~Access.ALL));
        }
        checkOpen();
        try {
            handle.reregAccess(access);
        } catch (SysException e) {
            throw UnsupportedVerbException.translate(e, "ibv_rereg_mr (re-registration)");
        }
    }

    /**
     * The kernel's number for the region ({@code mr->handle}), which another process that
     * imported this device and domain gives to {@link Pd#importMr}.
     */
    public int kernelHandle() {
        checkOpen();
        return handle.kernelHandle();
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

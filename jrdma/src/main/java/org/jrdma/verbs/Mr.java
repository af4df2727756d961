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
    /** {@code IBV_REREG_MR_CHANGE_TRANSLATION}: {@link #rereg} registers other memory. */
    public static final int REREG_CHANGE_TRANSLATION = 1;
    /** {@code IBV_REREG_MR_CHANGE_PD}: {@link #rereg} moves the region to another protection domain. */
    public static final int REREG_CHANGE_PD = 1 << 1;
    /** {@code IBV_REREG_MR_CHANGE_ACCESS}: {@link #rereg} gives the region new access rights. */
    public static final int REREG_CHANGE_ACCESS = 1 << 2;

    private final IbvMr handle;
    /** Changed only by {@link #rereg}, as the fields below. */
    private volatile Pd pd;
    /** The memory of this process registered, or {@link MemorySegment#NULL} for a dma-buf or an imported region. */
    private volatile MemorySegment memory;
    /** Where the device sees the region: its address, or the I/O virtual address of {@code ibv_reg_mr_iova}. */
    private volatile long iova;
    private volatile long length;

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
        rereg(REREG_CHANGE_ACCESS, null, null, access);
    }

    /**
     * Re-registers the region ({@code ibv_rereg_mr}) as {@code flags} says, the others kept:
     * {@link #REREG_CHANGE_TRANSLATION} registers {@code memory} instead (native memory of this
     * process; {@link #memory()}, {@link #addr()} and {@link #length()} then follow it),
     * {@link #REREG_CHANGE_PD} moves the region into {@code pd} (of the same context; the region
     * then closes with it rather than with the old one), {@link #REREG_CHANGE_ACCESS} gives it
     * {@code access}. Arguments a flag does not ask for are ignored (give null). New keys follow
     * ({@link #lkey()}, {@link #rkey()}). No work request may use the region meanwhile. What
     * libibverbs refuses itself (unknown flags, empty memory, access rights without
     * {@code REREG_CHANGE_ACCESS}) fails as in C, {@code EINVAL} with the code
     * {@code IBV_REREG_MR_ERR_INPUT} in the message.
     *
     * @throws IllegalArgumentException if {@code memory} is not native, {@code pd} belongs to another
     *                                  context, or {@code access} has unknown flags
     * @throws NullPointerException     if a flag's argument is null
     * @throws IllegalStateException    if the region or {@code pd} is closed
     * @throws UnsupportedVerbException if the provider cannot re-register
     * @throws SysException             what libibverbs or the kernel reports otherwise
     */
    public void rereg(int flags, Pd pd, MemorySegment memory, int access) {
        if ((access & ~Access.ALL) != 0) {
            throw new IllegalArgumentException(String.format("unknown access flags 0x%x", access & ~Access.ALL));
        }
        Pd newPd = (flags & REREG_CHANGE_PD) != 0 ? Objects.requireNonNull(pd, "pd") : null;
        MemorySegment newMemory = (flags & REREG_CHANGE_TRANSLATION) != 0 ? Objects.requireNonNull(memory, "memory")
                : null;
        if (newMemory != null && !newMemory.isNative()) {
            throw new IllegalArgumentException("a memory region must be native memory, not " + newMemory);
        }
        checkOpen();
        Pd oldPd = this.pd;
        boolean moves = newPd != null && newPd != oldPd;
        if (moves) {
            newPd.checkOpen();
            if (newPd.context() != oldPd.context()) {
                throw new IllegalArgumentException(newPd + " belongs to another context than " + this);
            }
            addOwner(newPd);
        }
        try {
            handle.rereg(flags, newPd == null ? null : newPd.handle(), newMemory, access);
        } catch (SysException e) {
            if (moves) {
                dropOwner(newPd);
            }
            throw UnsupportedVerbException.translate(e, "ibv_rereg_mr (re-registration)");
        } catch (RuntimeException e) {
            if (moves) {
                dropOwner(newPd);
            }
            throw e;
        }
        if (moves) {
            this.pd = newPd;
            dropOwner(oldPd);
        }
        if (newMemory != null) {
            this.memory = newMemory;
            this.iova = newMemory.address();
            this.length = newMemory.byteSize();
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

package org.jrdma.verbs;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jrdma.devices.EndPort;
import org.jrdma.path.IBPath;
import org.jrdma.SysException;
import org.jrdma.verbs.ffi.IbvMrEx;
import org.jrdma.verbs.ffi.IbvPd;
import org.jrdma.verbs.ffi.IbvSrq;

/**
 * A protection domain, {@code struct ibv_pd} ({@code ibv_alloc_pd}; IBA 10.2.3): the memory
 * regions, queue pairs, shared receive queues and address handles made from it may be used
 * together. python-rdma's {@code rdma.ibverbs.PD}, from {@link Context#pd()}. Closing it closes
 * them all. The address handles of the paths used most recently ({@link #ah(IBPath)}) are cached
 * here.
 */
public final class Pd extends Resource {
    /** How many address handles {@link #ah(IBPath)} keeps unless {@link #ahCacheCapacity(int)} says otherwise. */
    public static final int DEFAULT_AH_CACHE_CAPACITY = 1024;

    private final Context context;
    private final IbvPd handle;
    /** The address handles {@link #ah(IBPath)} made, by path, least recently used first; guarded by itself. */
    private final Map<IBPath, Ah> ahs = new LinkedHashMap<>(16, 0.75f, true);
    private int ahCacheCapacity = DEFAULT_AH_CACHE_CAPACITY;

    private Pd(Context context, IbvPd handle) {
        this.context = context;
        this.handle = handle;
    }

    /** {@code ibv_import_pd} of the domain numbered {@code pdHandle}, registered as a dependent of {@code context}. */
    static Pd importPd(Context context, int pdHandle) {
        IbvPd handle;
        try {
            handle = IbvPd.importPd(context.handle(), pdHandle);
        } catch (SysException e) {
            throw UnsupportedVerbException.translate(e, "ibv_import_pd (sharing between processes)");
        }
        Pd pd = new Pd(context, handle);
        pd.register(context);
        return pd;
    }

    /**
     * A parent domain over this one ({@code ibv_alloc_parent_domain}, without a thread domain or
     * custom allocators): a domain usable wherever this one is, through which a provider lets
     * objects share its resources; closed before this one.
     *
     * @throws UnsupportedVerbException if the provider has no parent domains
     */
    public Pd parentDomain() {
        checkOpen();
        IbvPd parent;
        try {
            parent = IbvPd.allocParentDomain(handle);
        } catch (SysException e) {
            throw UnsupportedVerbException.translate(e, "ibv_alloc_parent_domain (parent domains)");
        }
        Pd pd = new Pd(context, parent);
        pd.register(this);
        return pd;
    }

    /**
     * The region numbered {@code mrHandle} ({@link Mr#kernelHandle()} in the process that made
     * it) of this domain, imported ({@code ibv_import_mr}) into this domain, which must itself be
     * imported ({@link Context#importPd}); closing it unimports it.
     *
     * @throws UnsupportedVerbException if the provider cannot import
     */
    public Mr importMr(int mrHandle) {
        checkOpen();
        return Mr.importMr(this, mrHandle);
    }

    /**
     * Registers {@code length} bytes from {@code offset} of the dma-buf {@code fd} (memory another
     * device or driver exports) with {@link Access} rights {@code access}, seen by the device at
     * {@code iova} ({@code ibv_reg_dmabuf_mr}).
     *
     * @throws UnsupportedVerbException if the provider cannot register dma-bufs
     */
    public Mr mrDmabuf(long offset, long length, long iova, int fd, int access) {
        if ((access & ~Access.ALL) != 0) {
            throw new IllegalArgumentException(String.format("unknown access flags 0x%x", access & ~Access.ALL));
        }
        checkOpen();
        return Mr.registerDmabuf(this, offset, length, iova, fd, access);
    }

    /**
     * The kernel's number for the domain ({@code pd->handle}), which another process that imported
     * this device gives to {@link Context#importPd}.
     */
    public int kernelHandle() {
        checkOpen();
        return handle.kernelHandle();
    }

    /** {@code ibv_alloc_pd}, registered as a dependent of {@code context}. */
    static Pd alloc(Context context) {
        Pd pd = new Pd(context, IbvPd.alloc(context.handle()));
        pd.register(context);
        return pd;
    }

    /** The context this domain belongs to. */
    public Context context() {
        return context;
    }

    /**
     * Registers {@code memory} ({@code ibv_reg_mr}) with {@link Access} rights {@code access}.
     * The region keeps {@code memory} reachable; the caller keeps it alive (its arena open)
     * until the region is closed.
     *
     * @throws IllegalArgumentException if {@code memory} is not native, is empty, is read-only
     *                                  while {@code access} lets the device write, or
     *                                  {@code access} has a bit verbs.h does not define
     */
    public Mr mr(MemorySegment memory, int access) {
        Objects.requireNonNull(memory, "memory");
        if (!memory.isNative()) {
            throw new IllegalArgumentException("only native memory can be registered, not " + memory);
        }
        if (memory.byteSize() == 0) {
            throw new IllegalArgumentException("an empty segment cannot be registered");
        }
        if ((access & ~Access.ALL) != 0) {
            throw new IllegalArgumentException(String.format("unknown access flags 0x%x", access & ~Access.ALL));
        }
        if (memory.isReadOnly() && (access & Access.WRITES) != 0) {
            throw new IllegalArgumentException("read-only memory cannot be registered with write access");
        }
        checkOpen();
        return Mr.register(this, memory, access);
    }

    /**
     * Registers the remaining bytes of a direct buffer, from its position to its limit, as
     * {@link #mr(MemorySegment, int)} does.
     *
     * @throws IllegalArgumentException if {@code buffer} is not direct
     */
    public Mr mr(ByteBuffer buffer, int access) {
        if (!buffer.isDirect()) {
            throw new IllegalArgumentException("only a direct buffer can be registered");
        }
        return mr(MemorySegment.ofBuffer(buffer), access);
    }

    /** A new queue pair ({@code ibv_create_qp}) as {@code init} describes it. */
    public Qp qp(QpInitAttr init) {
        Objects.requireNonNull(init, "init");
        checkOpen();
        return Qp.create(this, init);
    }

    /**
     * A new queue pair of {@code type} with {@code maxSendWr} send requests completing on
     * {@code sendCq} and {@code maxRecvWr} receive requests completing on {@code recvCq}, one
     * scatter/gather element each: python-rdma's {@code pd.qp(type, depth, cq, depth, cq)}.
     */
    public Qp qp(QpType type, int maxSendWr, Cq sendCq, int maxRecvWr, Cq recvCq) {
        return qp(new QpInitAttr(type, sendCq, recvCq).cap(new QpCap(maxSendWr, maxRecvWr, 1, 1, 0)));
    }

    /**
     * A new extended queue pair ({@code ibv_create_qp_ex}) as {@code init} describes it, whose
     * work request builder may use the operations {@code sendOps} ({@link SendOps}).
     *
     * @throws UnsupportedVerbException if the provider has no extended QPs, or not with these operations
     */
    public QpEx qpEx(QpInitAttr init, long sendOps) {
        Objects.requireNonNull(init, "init");
        checkOpen();
        return QpEx.create(this, init, sendOps);
    }

    /**
     * A new memory window of type {@link Mw#TYPE_1} or {@link Mw#TYPE_2} ({@code ibv_alloc_mw}).
     *
     * @throws UnsupportedVerbException if the device has no memory windows
     *                                  ({@code IBV_DEVICE_MEM_WINDOW}, or the type's
     *                                  {@code IBV_DEVICE_MEM_WINDOW_TYPE_2A/2B})
     */
    public Mw mw(int type) {
        checkOpen();
        DeviceAttrEx caps = context.queryDeviceEx();
        UnsupportedVerbException.require(caps.has(DeviceAttrEx.MEM_WINDOW), "ibv_alloc_mw", "IBV_DEVICE_MEM_WINDOW");
        if (type == Mw.TYPE_2) {
            UnsupportedVerbException.require(caps.has(DeviceAttrEx.MEM_WINDOW_TYPE_2A)
                    || caps.has(DeviceAttrEx.MEM_WINDOW_TYPE_2B), "ibv_alloc_mw", "IBV_DEVICE_MEM_WINDOW_TYPE_2A/2B");
        }
        return Mw.alloc(this, type);
    }

    /**
     * Registers {@code memory} ({@code ibv_reg_mr_iova}) so that the device sees it at I/O virtual
     * address {@code iova}: remote sides and local scatter/gather elements name it there
     * ({@link Mr#addr()} is {@code iova}), wherever it is in this process. Checked as
     * {@link #mr(MemorySegment, int)} checks.
     */
    public Mr mrIova(MemorySegment memory, long iova, int access) {
        Objects.requireNonNull(memory, "memory");
        if (!memory.isNative() || memory.byteSize() == 0) {
            throw new IllegalArgumentException("only non-empty native memory can be registered, not " + memory);
        }
        if ((access & ~Access.ALL) != 0) {
            throw new IllegalArgumentException(String.format("unknown access flags 0x%x", access & ~Access.ALL));
        }
        if (memory.isReadOnly() && (access & Access.WRITES) != 0) {
            throw new IllegalArgumentException("read-only memory cannot be registered with write access");
        }
        checkOpen();
        return Mr.registerIova(this, memory, iova, access);
    }

    /**
     * Registers {@code memory} for on-demand paging ({@code ibv_reg_mr} with
     * {@link Access#ON_DEMAND} added to {@code access}): the device faults pages in as it touches
     * them instead of pinning them all now.
     *
     * @throws UnsupportedVerbException if the device has no on-demand paging ({@code IBV_ODP_SUPPORT})
     */
    public Mr mrOnDemand(MemorySegment memory, int access) {
        checkOpen();
        UnsupportedVerbException.require((context.queryDeviceEx().odpCaps().generalCaps() & DeviceAttrEx.ODP_SUPPORT) != 0,
                "ibv_reg_mr", "IBV_ODP_SUPPORT (IBV_ACCESS_ON_DEMAND)");
        try {
            return mr(memory, access | Access.ON_DEMAND);
        } catch (SysException e) {
            throw UnsupportedVerbException.translate(e, "IBV_ODP_SUPPORT (IBV_ACCESS_ON_DEMAND)");
        }
    }

    /**
     * Advises the device about {@code length} bytes at {@code offset} of on-demand region
     * {@code mr} ({@code ibv_advise_mr}): {@code advice} 0 prefetches for reading
     * ({@code IBV_ADVISE_MR_ADVICE_PREFETCH}), 1 for writing, 2 prefetches without faulting;
     * {@code flags} 1 ({@code IBV_ADVISE_MR_FLAG_FLUSH}) waits for it.
     *
     * @throws UnsupportedVerbException if the provider has no {@code advise_mr}
     */
    public void adviseMr(int advice, int flags, Mr mr, long offset, int length) {
        checkOpen();
        mr.checkOpen();
        try {
            IbvMrEx.advise(handle, advice, flags, mr.addr() + offset, length, mr.lkey());
        } catch (SysException e) {
            throw UnsupportedVerbException.translate(e, "ibv_advise_mr (on-demand paging prefetch)");
        }
    }

    /** A new shared receive queue ({@code ibv_create_srq}); {@code attr.srqLimit()} arms its limit. */
    public Srq srq(SrqAttr attr) {
        Objects.requireNonNull(attr, "attr");
        checkOpen();
        return Srq.create(this, attr);
    }

    /**
     * A new basic shared receive queue made by the provider's {@code ibv_create_srq_ex} with
     * {@code IBV_SRQ_INIT_ATTR_CQ} ({@code IBV_SRQT_BASIC}, {@code cq} of this domain's context).
     *
     * @throws UnsupportedVerbException if the provider has no {@code create_srq_ex}
     */
    public Srq srq(SrqAttr attr, Cq cq) {
        Objects.requireNonNull(attr, "attr");
        checkCq(cq);
        checkOpen();
        return Srq.createEx(this, IbvSrq.SRQT_BASIC, cq, null, 0, attr);
    }

    /**
     * A new tag-matching shared receive queue ({@code ibv_create_srq_ex} of {@code IBV_SRQT_TM},
     * with {@code cq} and {@code tm_cap.max_num_tags} {@code maxNumTags}, at least 1).
     *
     * @throws UnsupportedVerbException if the device has no tag matching
     */
    public Srq srqTagMatching(SrqAttr attr, Cq cq, int maxNumTags) {
        Objects.requireNonNull(attr, "attr");
        checkCq(cq);
        if (maxNumTags < 1) {
            throw new IllegalArgumentException("a tag-matching SRQ has at least 1 tag, not " + maxNumTags);
        }
        checkOpen();
        return Srq.createEx(this, IbvSrq.SRQT_TM, cq, null, maxNumTags, attr);
    }

    /** Checks that {@code cq} is open and of this domain's context, as {@code ibv_create_srq_ex} requires. */
    void checkCq(Cq cq) {
        Objects.requireNonNull(cq, "cq");
        cq.checkOpen();
        if (cq.context() != context()) {
            throw new IllegalArgumentException(cq + " belongs to another context than " + this);
        }
    }

    /** A new address handle ({@code ibv_create_ah}) for UD sends to {@code attr}; not cached. */
    public Ah ah(AhAttr attr) {
        Objects.requireNonNull(attr, "attr");
        checkOpen();
        return Ah.create(this, attr, null);
    }

    /**
     * The address handle of {@code path} ({@code ibv_create_ah} with {@link AhAttr#fromPath}),
     * made once and cached in this domain: python-rdma's {@code pd.ah(path)}, which caches the
     * AH so that callers need not keep their own. A path is immutable, so the cache is keyed by
     * it (equal paths share a handle) and never goes stale.
     *
     * <p>The cache is bounded: it keeps the handles of the {@link #ahCacheCapacity()} paths
     * looked up most recently ({@value #DEFAULT_AH_CACHE_CAPACITY} by default), and a lookup of
     * one path more closes the handle of the path looked up least recently. A handle from here
     * therefore stays valid until that many other paths have been looked up after it, and a send
     * posted with it must have completed by then (the device reads the handle until it does). A
     * sender with sends in flight to more destinations raises the capacity, or makes handles of
     * its own with {@link #ah(AhAttr)}, which the cache never closes. Closing the domain closes
     * the cached handles; closing one drops it from the cache, and the next call makes a new one.
     *
     * @throws IllegalArgumentException if the path's end port is on another device
     * @throws IllegalStateException    if the path has no end port, or a GRH but no SGID
     * @throws org.jrdma.SysException   if {@code ibv_create_ah} fails, or {@code ibv_destroy_ah}
     *                                  of an evicted handle (the new handle is cached all the same)
     */
    public Ah ah(IBPath path) {
        Objects.requireNonNull(path, "path");
        checkOpen();
        Ah cached = cached(path);
        if (cached != null) {
            return cached;
        }
        EndPort endPort = path.endPort().orElseThrow(
                () -> new IllegalStateException("an address handle needs the path's end port; none in " + path));
        if (!endPort.deviceName().equals(context.deviceName())) {
            throw new IllegalArgumentException("the path's end port " + endPort + " is not on "
                    + context.deviceName() + ", the device of this PD");
        }
        AhAttr attr = AhAttr.fromPath(path);
        Ah ah;
        List<Ah> evicted;
        synchronized (ahs) {
            ah = cached(path);
            if (ah != null) {
                return ah;
            }
            ah = Ah.create(this, attr, path);
            ahs.put(path, ah);
            evicted = evict();
        }
        closeEvicted(evicted);
        return ah;
    }

    /**
     * Closes the cached address handle of {@code path}, if there is one: python-rdma's
     * {@code path.drop_cache()}, here on the domain that holds the cache (a path is immutable). The
     * next {@link #ah(IBPath)} of the path makes a new handle.
     *
     * @return whether a handle was dropped
     * @throws IllegalStateException  if the handle is in use by a call in another thread
     * @throws org.jrdma.SysException if {@code ibv_destroy_ah} fails
     */
    public boolean dropCache(IBPath path) {
        Objects.requireNonNull(path, "path");
        Ah ah;
        synchronized (ahs) {
            ah = ahs.remove(path);
        }
        if (ah == null || ah.isClosed()) {
            return false;
        }
        ah.close();
        return true;
    }

    /**
     * The queue pair numbered {@code qpNum} made in this domain, or null: python-rdma's
     * {@code pd.from_qp_num(num)}.
     */
    public Qp fromQpNum(int qpNum) {
        Qp qp = context.qp(qpNum);
        return qp != null && qp.pd() == this ? qp : null;
    }

    /** How many address handles {@link #ah(IBPath)} keeps. */
    public int ahCacheCapacity() {
        synchronized (ahs) {
            return ahCacheCapacity;
        }
    }

    /**
     * Sets how many address handles {@link #ah(IBPath)} keeps, closing those of the paths used
     * least recently beyond it.
     *
     * @throws IllegalArgumentException if {@code capacity} is not positive
     * @throws org.jrdma.SysException   if {@code ibv_destroy_ah} of an evicted handle fails
     */
    public Pd ahCacheCapacity(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("an address handle cache holds at least 1 handle, not " + capacity);
        }
        List<Ah> evicted;
        synchronized (ahs) {
            ahCacheCapacity = capacity;
            evicted = evict();
        }
        closeEvicted(evicted);
        return this;
    }

    /** The open cached handle of {@code path}, now the most recently used, or null. */
    private Ah cached(IBPath path) {
        synchronized (ahs) {
            Ah ah = ahs.get(path);
            return ah != null && !ah.isClosed() ? ah : null;
        }
    }

    /** Takes the least recently used handles beyond the capacity out of the cache. */
    private List<Ah> evict() {
        List<Ah> evicted = new ArrayList<>(1);
        Iterator<Ah> eldest = ahs.values().iterator();
        while (ahs.size() > ahCacheCapacity) {
            evicted.add(eldest.next());
            eldest.remove();
        }
        return evicted;
    }

    /**
     * Closes handles taken out of the cache, outside its lock (closing one calls back into
     * {@link #uncache}). One in use by a call in another thread stays open, and is closed with
     * the domain.
     */
    private static void closeEvicted(List<Ah> evicted) {
        RuntimeException failure = null;
        for (Ah ah : evicted) {
            try {
                ah.close();
            } catch (IllegalStateException inUse) {
                // Still a dependent of the domain, which closes it.
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Drops {@code ah}, made for {@code path} and now closed, from the cache. */
    void uncache(IBPath path, Ah ah) {
        synchronized (ahs) {
            ahs.remove(path, ah);
        }
    }

    /** The native object, for the objects made in this domain. */
    IbvPd handle() {
        return handle;
    }

    @Override
    String describe() {
        return "PD on " + context.deviceName();
    }

    @Override
    void release() {
        handle.close();
    }
}

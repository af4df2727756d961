package org.jrdma.verbs.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import org.jrdma.SysException;
import org.jrdma.ffi.Errors;

/**
 * {@code struct ibv_mw}: a memory window ({@code ibv_alloc_mw}, {@code ibv_bind_mw},
 * {@code ibv_dealloc_mw}, all inlines of verbs.h calling {@code context->ops.alloc_mw},
 * {@code ops.bind_mw} and {@code ops.dealloc_mw}).
 */
public final class IbvMw extends NativeObject {
    private static final MethodHandle ALLOC_MW = Ibv.pointerCapturingErrno(
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT));
    private static final MethodHandle BIND_MW = Ibv.pointer(FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle DEALLOC_MW = Ibv.pointer(FunctionDescriptor.of(JAVA_INT, ADDRESS));
    private static final VarHandle OPS_ALLOC_MW = Structs.handle(Structs.IBV_CONTEXT, "ops.alloc_mw");
    private static final VarHandle OPS_BIND_MW = Structs.handle(Structs.IBV_CONTEXT, "ops.bind_mw");
    private static final VarHandle OPS_DEALLOC_MW = Structs.handle(Structs.IBV_CONTEXT, "ops.dealloc_mw");
    private static final VarHandle RKEY = Structs.handle(StructsEx.IBV_MW, "rkey");
    private static final VarHandle TYPE = Structs.handle(StructsEx.IBV_MW, "type");
    private static final VarHandle BIND_WR_ID = Structs.handle(StructsEx.IBV_MW_BIND, "wr_id");
    private static final VarHandle BIND_SEND_FLAGS = Structs.handle(StructsEx.IBV_MW_BIND, "send_flags");
    private static final VarHandle BIND_MR = Structs.handle(StructsEx.IBV_MW_BIND, "bind_info.mr");
    private static final VarHandle BIND_ADDR = Structs.handle(StructsEx.IBV_MW_BIND, "bind_info.addr");
    private static final VarHandle BIND_LENGTH = Structs.handle(StructsEx.IBV_MW_BIND, "bind_info.length");
    private static final VarHandle BIND_ACCESS = Structs.handle(StructsEx.IBV_MW_BIND, "bind_info.mw_access_flags");

    private final MemorySegment bindMw;
    private final MemorySegment deallocMw;

    private IbvMw(MemorySegment raw, IbvPd pd) {
        super(raw, StructsEx.IBV_MW, "memory window", pd.isConfined());
        this.bindMw = (MemorySegment) OPS_BIND_MW.get(pd.context.ptr, 0L);
        this.deallocMw = (MemorySegment) OPS_DEALLOC_MW.get(pd.context.ptr, 0L);
    }

    /**
     * verbs.h's {@code ibv_alloc_mw(pd, type)}, {@code type} 1 or 2 ({@code enum ibv_mw_type}).
     *
     * @throws SysException {@code EOPNOTSUPP} when the provider has no {@code alloc_mw}, or what it reports
     */
    public static IbvMw alloc(IbvPd pd, int type) {
        MemorySegment function = (MemorySegment) OPS_ALLOC_MW.get(pd.context.ptr, 0L);
        if (function.address() == 0) {
            throw new SysException("ibv_alloc_mw", IbvContextEx.EOPNOTSUPP);
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errors.callState(arena);
            MemorySegment raw = (MemorySegment) ALLOC_MW.invokeExact(function, state, pd.ptr, type);
            return new IbvMw(Errors.nonNull("ibv_alloc_mw", raw, state), pd);
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    /** {@code mw->rkey}: the key remote sides use, changed by each bind. */
    public int rkey() {
        return (int) RKEY.get(ptr, 0L);
    }

    /** Sets {@code mw->rkey}, after a bind built by {@link IbvQpEx#bindMw}. */
    void setRkey(int rkey) {
        RKEY.set(ptr, 0L, rkey);
    }

    /** {@code mw->type}: 1 or 2. */
    public int type() {
        return (int) TYPE.get(ptr, 0L);
    }

    /**
     * verbs.h's {@code ibv_bind_mw(qp, mw, &bind)} for a type 1 window: posts a bind work request
     * with {@code wrId} and {@code sendFlags} on {@code qp}, to {@code length} bytes at {@code addr}
     * of {@code mr} (null, 0, 0 unbinds) with {@code access}. Checks what the inline checks first.
     *
     * @return the window's new rkey
     */
    public int bind(IbvQp qp, long wrId, int sendFlags, IbvMr mr, long addr, long length, int access) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment bind = arena.allocate(StructsEx.IBV_MW_BIND);
            BIND_WR_ID.set(bind, 0L, wrId);
            BIND_SEND_FLAGS.set(bind, 0L, sendFlags);
            BIND_MR.set(bind, 0L, mr == null ? MemorySegment.NULL : mr.ptr);
            BIND_ADDR.set(bind, 0L, addr);
            BIND_LENGTH.set(bind, 0L, length);
            BIND_ACCESS.set(bind, 0L, access);
            Errors.zero("ibv_bind_mw", (int) BIND_MW.invokeExact(bindMw, qp.ptr, ptr, bind));
            return rkey();
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }

    @Override
    void destroy(MemorySegment raw) {
        try {
            Errors.zero("ibv_dealloc_mw", (int) DEALLOC_MW.invokeExact(deallocMw, raw));
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }
}

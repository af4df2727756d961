package org.jrdma.verbs.ffi;

import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.VarHandle;
import org.jrdma.SysException;

/**
 * The one place where a failed libibverbs call becomes a {@link SysException} naming the call,
 * the error number and its text. libibverbs reports failure in three ways, one method each:
 * <ol>
 *   <li>{@link #nonNull}: a pointer result of {@code NULL}, the reason in {@code errno}
 *       ({@code ibv_open_device}, {@code ibv_alloc_pd}, {@code ibv_create_qp}, ...);</li>
 *   <li>{@link #notMinusOne}: an {@code int} result of -1, the reason in {@code errno}
 *       ({@code ibv_get_cq_event}, {@code ibv_get_async_event}, {@code ibv_query_gid}, ...);</li>
 *   <li>{@link #zero}: an {@code int} result that is the error number itself, 0 for success;
 *       providers return it positive or negative ({@code ibv_modify_qp}, {@code ibv_dealloc_pd},
 *       {@code ibv_post_send}, ...).</li>
 * </ol>
 * {@code errno} is read from the call state a downcall captured with
 * {@code Linker.Option.captureCallState("errno")}, never from a later call.
 */
final class Errors {
    /** The captured call state: {@code errno} among others. */
    static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    private Errors() {
    }

    /** A zeroed call-state segment for one errno-capturing downcall. */
    static MemorySegment callState(Arena arena) {
        return arena.allocate(CALL_STATE);
    }

    /** The {@code errno} a downcall captured in {@code callState}. */
    static int errno(MemorySegment callState) {
        return (int) ERRNO.get(callState, 0L);
    }

    /**
     * Convention 1: returns {@code result} unless it is {@code NULL}.
     *
     * @throws SysException with the captured errno when {@code result} is {@code NULL}
     */
    static MemorySegment nonNull(String call, MemorySegment result, MemorySegment callState) {
        if (result.address() == 0) {
            throw new SysException(call, errno(callState));
        }
        return result;
    }

    /**
     * Convention 2: returns {@code result} unless it is -1.
     *
     * @throws SysException with the captured errno when {@code result} is -1
     */
    static int notMinusOne(String call, int result, MemorySegment callState) {
        if (result == -1) {
            throw new SysException(call, errno(callState));
        }
        return result;
    }

    /**
     * Convention 3: returns normally when {@code result} is 0.
     *
     * @throws SysException with error number {@code |result|} otherwise
     */
    static void zero(String call, int result) {
        if (result != 0) {
            throw new SysException(call, result);
        }
    }

    /** {@code t} unchanged when unchecked, else wrapped: downcalls declare {@code Throwable}. */
    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException("unexpected checked exception from a downcall", t);
    }
}

package org.jrdma.ffi;

import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.VarHandle;
import org.jrdma.SysException;

/**
 * The one place where a failed C call (libc, libibverbs, libibumad) becomes a
 * {@link SysException}: {@code "<call>(..) failed with error(N): <strerror>"}, the call a plain
 * function name, the error number kept as {@link SysException#errno()}, and what the call was
 * applied to (a path, an ioctl request) appended as {@code ", <detail>"}. C reports failure in
 * three ways, one method each:
 * <ol>
 *   <li>{@link #nonNull}: a pointer result of {@code NULL}, the reason in {@code errno}
 *       ({@code ibv_open_device}, {@code ibv_alloc_pd}, {@code ibv_create_qp}, ...);</li>
 *   <li>{@link #notMinusOne}: an integer result of -1, the reason in {@code errno}
 *       ({@code open}, {@code read}, {@code poll}, {@code ibv_get_cq_event}, {@code ibv_query_gid}, ...);</li>
 *   <li>{@link #zero}: an {@code int} result that is the error number itself, 0 for success;
 *       providers return it positive or negative ({@code ibv_modify_qp}, {@code ibv_dealloc_pd},
 *       {@code ibv_post_send}, a negative {@code ibv_poll_cq}, ...).</li>
 * </ol>
 * {@code errno} is read from the call state a downcall captured with {@link #CAPTURE_ERRNO},
 * never from a later call.
 *
 * <p>Every method here throws: the checks when the call failed (returning the result when it did
 * not), and {@link #rethrow} always, for the {@code catch (Throwable t)} that
 * {@code invokeExact} requires.
 */
public final class Errors {
    /** The linker option that has a downcall leave {@code errno} in its call-state segment. */
    public static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");
    /** The captured call state: {@code errno} among others. */
    public static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    private Errors() {
    }

    /** A zeroed call-state segment; a caller making many calls keeps one per thread. */
    public static MemorySegment callState(Arena arena) {
        return arena.allocate(CALL_STATE);
    }

    /** The {@code errno} a downcall captured in {@code callState}. */
    public static int errno(MemorySegment callState) {
        return (int) ERRNO.get(callState, 0L);
    }

    /**
     * Convention 1: returns {@code result} unless it is {@code NULL}.
     *
     * @throws SysException with the captured errno when {@code result} is {@code NULL}
     */
    public static MemorySegment nonNull(String call, MemorySegment result, MemorySegment callState) {
        if (result.address() == 0) {
            throw new SysException(call, errno(callState));
        }
        return result;
    }

    /**
     * Convention 1, the message naming what the call was applied to: returns {@code result}
     * unless it is {@code NULL}.
     *
     * @param detail as for {@link #notMinusOne(String, int, MemorySegment, String)}
     * @throws SysException with the captured errno and {@code ", " + detail} at the end of its
     *                      message when {@code result} is {@code NULL}
     */
    public static MemorySegment nonNull(String call, MemorySegment result, MemorySegment callState, String detail) {
        if (result.address() == 0) {
            throw new SysException(call, errno(callState), null, ", " + detail);
        }
        return result;
    }

    /**
     * Convention 2: returns {@code result} unless it is -1.
     *
     * @throws SysException with the captured errno when {@code result} is -1
     */
    public static int notMinusOne(String call, int result, MemorySegment callState) {
        if (result == -1) {
            throw new SysException(call, errno(callState));
        }
        return result;
    }

    /**
     * Convention 2 for an {@code ssize_t} result ({@code read}, {@code write}, {@code send},
     * {@code recv}): returns {@code result} unless it is -1.
     *
     * @throws SysException with the captured errno when {@code result} is -1
     */
    public static long notMinusOne(String call, long result, MemorySegment callState) {
        if (result == -1) {
            throw new SysException(call, errno(callState));
        }
        return result;
    }

    /**
     * Convention 2, the message naming what the call was applied to: returns {@code result}
     * unless it is -1.
     *
     * @param detail for example {@code path "/dev/infiniband/umad0"}; text from outside goes in
     *               quoted by {@link org.jrdma.iba.UntrustedText#quote}
     * @throws SysException with the captured errno and {@code ", " + detail} at the end of its
     *                      message when {@code result} is -1
     */
    public static int notMinusOne(String call, int result, MemorySegment callState, String detail) {
        if (result == -1) {
            throw new SysException(call, errno(callState), null, ", " + detail);
        }
        return result;
    }

    /**
     * Convention 3: returns normally when {@code result} is 0.
     *
     * @throws SysException with error number {@code |result|} otherwise
     */
    public static void zero(String call, int result) {
        if (result != 0) {
            throw new SysException(call, result);
        }
    }

    /**
     * Throws {@code t}: unchanged when it is unchecked, else wrapped in an
     * {@link IllegalStateException} (a downcall declares {@code Throwable} but throws no checked
     * exception). Never returns; declared to return so that a call site reads
     * {@code throw Errors.rethrow(t)} and the compiler knows the block ends there.
     */
    public static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException("unexpected checked exception from a downcall", t);
    }
}

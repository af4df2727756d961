package org.jrdma.verbs.ffi;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.FunctionDescriptor;
import java.lang.invoke.MethodHandle;
import org.jrdma.ffi.Errors;

/** {@code ibv_fork_init} and {@code ibv_is_fork_initialized}: whether a child made by fork(2) leaves registered memory intact. */
public final class IbvFork {
    private static final MethodHandle FORK_INIT = Ibv.function("ibv_fork_init", FunctionDescriptor.of(JAVA_INT), false);
    private static final MethodHandle IS_FORK_INITIALIZED = Ibv.function("ibv_is_fork_initialized",
            FunctionDescriptor.of(JAVA_INT), false);

    private IbvFork() {
    }

    /** {@code ibv_fork_init()}, then {@code ibv_is_fork_initialized()}: an {@code enum ibv_fork_status}. */
    public static int forkInit() {
        try {
            Errors.zero("ibv_fork_init", (int) FORK_INIT.invokeExact());
            return (int) IS_FORK_INITIALIZED.invokeExact();
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }
}

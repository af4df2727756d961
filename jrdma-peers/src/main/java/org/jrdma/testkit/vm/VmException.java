package org.jrdma.testkit.vm;

import java.io.Serial;

/**
 * The soft-RoCE VM itself failed: something it needs is missing, it did not boot, setting up
 * {@code rxe0} failed, or it did not finish in time. The message says what happened and carries
 * the tail of the VM console. A command that merely exits non-zero is not a {@code VmException};
 * see {@link VmResult#exitCode()}.
 */
public final class VmException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what went wrong, with the console tail when there is one
     */
    public VmException(String message) {
        super(message);
    }

    /**
     * Creates the exception with a cause.
     *
     * @param message what went wrong
     * @param cause   the underlying failure
     */
    public VmException(String message, Throwable cause) {
        super(message, cause);
    }
}

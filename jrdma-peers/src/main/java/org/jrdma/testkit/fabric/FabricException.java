package org.jrdma.testkit.fabric;

/**
 * A simulated fabric could not be started, did not come up in time, or a tool run on it failed.
 * The message carries the tail of the relevant log so the cause is visible in a test report.
 */
public final class FabricException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public FabricException(String message) {
        super(message);
    }

    public FabricException(String message, Throwable cause) {
        super(message, cause);
    }
}

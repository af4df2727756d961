package org.jrdma.testkit.junit;

import org.junit.jupiter.api.Assumptions;

/**
 * The rule for tests that need a real peer (an ibsim fabric, OpenSM, the soft-RoCE VM): when the
 * peer is missing, the test fails under CI ({@code CI=true}) and is skipped with a loud reason
 * everywhere else. A missing peer is never replaced by a mock. Whether a program is installed is
 * {@link org.jrdma.testkit.Executables#isInstalled}.
 */
public final class Peers {
    private Peers() {
    }

    /** True when running under CI, where every peer must be present. */
    public static boolean inCi() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }

    /**
     * Checks that a peer is available.
     *
     * @param available whether the peer can be used
     * @param what      what is missing and how to get it, for the failure or skip message
     * @throws AssertionError under CI when the peer is missing
     */
    public static void require(boolean available, String what) {
        if (available) {
            return;
        }
        String message = "real test peer missing: " + what;
        if (inCi()) {
            throw new AssertionError(message + " (CI=true: every peer must be present)");
        }
        System.err.println("*** SKIPPED: " + message);
        Assumptions.assumeTrue(available, message);
    }
}

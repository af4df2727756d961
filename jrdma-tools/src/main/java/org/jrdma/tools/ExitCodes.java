package org.jrdma.tools;

/** The exit statuses of ibtool commands. */
final class ExitCodes {
    /** Success. */
    static final int OK = 0;
    /** The fabric or a MAD failed (timeout, error status, device missing). */
    static final int FAILED = 1;
    /** Bad command-line input. */
    static final int USAGE = 2;
    /** The command completed but some of the fabric did not answer. */
    static final int INCOMPLETE = 3;

    private ExitCodes() {
    }
}

package org.jrdma.tools;

/** Bad command-line input: reported with the command's usage and exit status 2. */
final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message);
    }
}

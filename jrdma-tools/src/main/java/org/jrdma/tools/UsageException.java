package org.jrdma.tools;

/**
 * Bad command-line input: reported with the command's usage and exit status 2. Where the C tool
 * prints a line of its own before its usage message ({@code invalid diff check key: bogus}), that
 * line comes first; the message, jrdma's explanation, follows the usage.
 */
public final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String cLine;

    UsageException(String message) {
        this(null, message);
    }

    /** Bad input of which the C tool says {@code cLine} (null for nothing) before its usage. */
    public UsageException(String cLine, String message) {
        super(message);
        this.cLine = cLine;
    }

    /** What the C tool prints before its usage message, or null. */
    String cLine() {
        return cLine;
    }
}

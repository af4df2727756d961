package org.jrdma.tools;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.jrdma.RdmaException;
import picocli.CommandLine;

/**
 * The exit statuses of ibtool commands, those of infiniband-diags, and which failure ends with which
 * ({@link #MAPPER}). Bad input is what the user typed: a command line picocli cannot read ({@link
 * CommandLine.ParameterException}) or an argument the command refuses ({@link UsageException}); the C
 * tools exit 2 after their usage message. Everything else that goes wrong — a MAD that fails or times
 * out, a reply that cannot be decoded ({@link org.jrdma.iba.wire.MalformedMadException}, although it
 * is an {@link IllegalArgumentException}), a device or file that cannot be used — is a failure, which
 * the C tools end with {@code exit(-1)}, status 255, unless the command says otherwise ({@link DiagError}).
 */
public final class ExitCodes {
    /** Success. */
    public static final int OK = 0;
    /** The fabric or a MAD failed (timeout, error status, malformed reply, device missing): the C tools' {@code exit(-1)}. */
    public static final int FAILED = 255;
    /** Bad command-line input, as the C tools' usage message ends. */
    public static final int USAGE = 2;
    /** The command completed but some of the fabric did not answer. */
    public static final int INCOMPLETE = 3;

    /** The status a command's failure ends with: {@link #USAGE} for bad input, a {@link DiagError}'s own, else {@link #FAILED}. */
    static final CommandLine.IExitCodeExceptionMapper MAPPER = failure -> switch (failure) {
        case CommandLine.ParameterException _, UsageException _ -> USAGE;
        case DiagError error -> error.status();
        default -> FAILED;
    };

    private ExitCodes() {
    }

    /**
     * Whether {@code failure} is one a command reports as the C tools do, its message: bad input and
     * the failures of the fabric, of the MADs, of a device or a file. Anything else is a defect of
     * ibtool and keeps its stack trace.
     */
    static boolean reportable(Throwable failure) {
        return failure instanceof UsageException || failure instanceof DiagError || failure instanceof RdmaException
                || failure instanceof IllegalArgumentException || failure instanceof IOException
                || failure instanceof UncheckedIOException;
    }
}

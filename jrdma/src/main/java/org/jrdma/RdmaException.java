package org.jrdma;

import org.jrdma.mad.MadClassException;
import org.jrdma.mad.MadException;
import org.jrdma.mad.MadTimeoutException;
import org.jrdma.mad.SaPathNotFoundException;
/**
 * The root of every exception jrdma raises, python-rdma's {@code rdma.RDMAError}. Unchecked: a
 * subclass says what failed, and a caller catches the narrowest it can act on.
 *
 * <ul>
 *   <li>{@link SysException}: a native call (libc, libibverbs, libibumad) failed with an errno;
 *       {@link org.jrdma.verbs.WrException} when it was posting a list of work requests;</li>
 *   <li>{@link org.jrdma.mad.MadException}: a management datagram exchange failed;
 *       {@link org.jrdma.mad.MadTimeoutException} when no reply came,
 *       {@link org.jrdma.mad.MadClassException} when the reply carried a class-specific error
 *       status, {@link org.jrdma.mad.SaPathNotFoundException} when the subnet administrator has
 *       no path record for the query;</li>
 *   <li>{@link org.jrdma.verbs.WcException}: a work completion came back with an error status;</li>
 *   <li>{@link org.jrdma.verbs.AsyncException}: the device reported an asynchronous error event.</li>
 * </ul>
 * Wrong arguments are not reported this way but with {@link IllegalArgumentException}, and use
 * of a closed resource with {@link IllegalStateException}.
 */
public class RdmaException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** An exception with {@code message}. */
    public RdmaException(String message) {
        super(message);
    }

    /** An exception with {@code message}, caused by {@code cause}. */
    public RdmaException(String message, Throwable cause) {
        super(message, cause);
    }
}

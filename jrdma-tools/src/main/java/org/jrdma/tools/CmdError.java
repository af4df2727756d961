package org.jrdma.tools;

import java.io.PrintWriter;
import org.jrdma.RdmaException;

/**
 * python-rdma's {@code CmdError}: how its own ibtool commands ({@code query}, {@code set_port_state},
 * {@code init_all_ports}, {@code set_guid}, which infiniband-diags does not have) end when a command
 * line names something that is not there or an RPC fails: {@code E: <message>} on standard output
 * ({@link Ibtool#commandLine} reports it so when a command throws it)
 * and exit status {@value #STATUS}, where the infiniband-diags commands print {@code iberror} and
 * exit 255 ({@link DiagError}).
 */
public final class CmdError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** python-rdma's ibtool's exit status after a failed command. */
    public static final int STATUS = 100;

    /** A failure saying {@code message}. */
    public CmdError(String message) {
        super(message);
    }

    /** A failed RPC or device call: its message, the failure kept as the cause. */
    public CmdError(RdmaException failure) {
        super(failure.getMessage(), failure);
    }

    /** Prints {@code E: <message>} on {@code out}, as python-rdma's ibtool does, and returns {@link #STATUS}. */
    public int report(PrintWriter out) {
        out.println("E: " + getMessage());
        return STATUS;
    }
}

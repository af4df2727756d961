package org.jrdma.tools;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import org.jrdma.iba.Mad;
import org.jrdma.iba.mad.SmpDirectedFormat;
import org.jrdma.mad.MadException;
import org.jrdma.mad.MadTimeoutException;
import org.jrdma.path.IBPath;

/**
 * A command's failure as the infiniband-diags tool of the same name reports it, byte for byte: the
 * lines it writes on standard error first ({@code ibwarn: [pid] function: ...}, libibmad's
 * {@code IBWARN}), the line it writes on standard output ({@code <tool>: iberror: failed: ...},
 * {@code IBEXIT}), and its exit status (255, the C tools' {@code exit(-1)}). jrdma's own explanation,
 * the message of the cause, follows on standard error and never replaces the C text.
 *
 * <p>A MAD that got no answer (a {@link MadTimeoutException} in the causes) adds the warning libibmad
 * prints for it, {@code mad_rpc: _do_madrpc failed; dport (Lid 40)} or {@code (DR path slid 65535;
 * dlid 65535; 0,99)}; a MAD answered with an error status adds none, as in libibmad.
 */
public final class DiagError extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private static final String MAD_RPC_FAILED = "_do_madrpc failed; dport (";

    private final String failed;
    private final transient List<String> stderr;
    private final int status;

    private DiagError(String failed, List<String> stderr, int status, Throwable cause) {
        super(failed != null ? failed : String.join("; ", stderr), cause);
        this.failed = failed;
        this.stderr = stderr;
        this.status = status;
    }

    /**
     * {@code IBEXIT(text)}: {@code <tool>: iberror: failed: <text>} on standard output, status 255.
     * The text is printed as given; the C tools' texts that end with {@code \n} print an empty line.
     */
    public static DiagError exit(String text) {
        return new DiagError(text, new ArrayList<>(), ExitCodes.FAILED, null);
    }

    /** {@code IBEXIT(text)} after the query {@code cause} failed, with libibmad's warning if no answer came. */
    public static DiagError exit(String text, Throwable cause) {
        DiagError error = new DiagError(text, new ArrayList<>(), ExitCodes.FAILED, cause);
        error.stderr.addAll(madRpcWarnings(cause));
        return error;
    }

    /**
     * {@code IBPANIC(text)}: {@code ibpanic: [pid] <function>: <text>: <strerror>} on standard error
     * and status 255, nothing on standard output.
     */
    static DiagError panic(String function, String text, String strerror, Throwable cause) {
        return new DiagError(null, new ArrayList<>(List.of(ibpanic(function, text, strerror))), ExitCodes.FAILED, cause);
    }

    /** A failure told on standard error alone ({@code fprintf(stderr, ...); exit(status)}). */
    public static DiagError stderr(String line, int status, Throwable cause) {
        List<String> lines = new ArrayList<>(madRpcWarnings(cause));
        lines.add(line);
        return new DiagError(null, lines, status, cause);
    }

    /**
     * Any failure the command did not describe the C way: its own message as the {@code iberror}
     * text, with libibmad's warning if a MAD got no answer.
     */
    static DiagError of(Throwable failure) {
        if (failure instanceof DiagError error) {
            return error;
        }
        DiagError error = new DiagError(failure.getMessage(), new ArrayList<>(), ExitCodes.FAILED, null);
        error.stderr.addAll(madRpcWarnings(failure));
        return error;
    }

    /** The same failure with another {@code iberror} text (a tool that words it otherwise), its lines and cause kept. */
    DiagError retext(String text) {
        DiagError error = new DiagError(text, new ArrayList<>(stderr), status, getCause());
        error.setStackTrace(getStackTrace());
        return error;
    }

    /** Adds {@code ibwarn: [pid] <function>: <text>}, printed after the warnings already there. */
    DiagError warn(String function, String text) {
        stderr.add(ibwarn(function, text));
        return this;
    }

    /** Adds a line printed as is on standard error, before the lines already there. */
    DiagError prepend(String line) {
        stderr.addFirst(line);
        return this;
    }

    /** Adds a line printed as is on standard error, after the warnings already there. */
    DiagError stderrLine(String line) {
        stderr.add(line);
        return this;
    }

    /** The exit status. */
    int status() {
        return status;
    }

    /** The {@code iberror: failed:} text, or the standard error lines' text when the C tool prints none. */
    String failedText() {
        return getMessage();
    }

    /** The lines the C tool writes on standard error. */
    List<String> stderrLines() {
        return List.copyOf(stderr);
    }

    /**
     * With {@code --json}: the C tool's standard error lines, then the failure as a JSON document on
     * standard output in place of the {@code iberror} line, then jrdma's explanation on standard error.
     */
    void reportJson(IbtoolCommand command, PrintWriter out, PrintWriter err) {
        stderr.forEach(line -> err.print(line + "\n"));
        String detail = getCause() != null ? getCause().getMessage() : null;
        command.jsonError(failedText(), detail, stderrLines(), status);
        if (detail != null) {
            err.print(command.spec.name() + ": " + detail + "\n");
        }
        out.flush();
        err.flush();
    }

    /**
     * Prints the failure: the C tool's standard error lines, its {@code iberror} line on standard
     * output, then the cause's message (jrdma's explanation) on standard error.
     */
    void report(String tool, PrintWriter out, PrintWriter err) {
        stderr.forEach(line -> err.print(line + "\n"));
        if (failed != null) {
            out.print(tool + ": iberror: failed: " + failed + "\n");
        }
        if (getCause() != null && getCause().getMessage() != null) {
            err.print(tool + ": " + getCause().getMessage() + "\n");
        }
        out.flush();
        err.flush();
    }

    /** {@code ibwarn: [pid] <function>: <text>}, libibmad's {@code IBWARN}. */
    public static String ibwarn(String function, String text) {
        return "ibwarn: [" + pid() + "] " + function + ": " + text;
    }

    /** {@code ibpanic: [pid] <function>: <text>: <strerror>}, libibmad's {@code IBPANIC} ({@code %m} is strerror(errno)). */
    static String ibpanic(String function, String text, String strerror) {
        return "ibpanic: [" + pid() + "] " + function + ": " + text + ": " + strerror;
    }

    private static long pid() {
        return ProcessHandle.current().pid();
    }

    /** libibmad's warning for each MAD in {@code failure}'s causes that got no answer (at most one). */
    private static List<String> madRpcWarnings(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof MadTimeoutException e) {
                return List.of(ibwarn("mad_rpc", MAD_RPC_FAILED + destination(e) + ")"));
            }
        }
        return List.of();
    }

    /**
     * libibmad's {@code portid2str} of where the MAD went: {@code Lid 40}, or for a directed-route
     * SMP {@code DR path slid 65535; dlid 65535; 0,1,7}.
     */
    private static String destination(MadException e) {
        byte[] request = e.request().orElse(null);
        if (request != null && request.length >= SmpDirectedFormat.SIZE && (request[1] & 0xFF) == Mad.CLASS_SUBN_DIRECTED_ROUTE) {
            SmpDirectedFormat smp = new SmpDirectedFormat(request, 0);
            StringJoiner route = new StringJoiner(",");
            route.add("0");
            for (int hop = 1; hop <= smp.hopCount(); hop++) {
                route.add(Integer.toString(smp.initialPath(hop)));
            }
            return "DR path slid " + smp.drSlid() + "; dlid " + smp.drDlid() + "; " + route;
        }
        return "Lid " + e.path().map(IBPath::dlid).orElse(0);
    }
}

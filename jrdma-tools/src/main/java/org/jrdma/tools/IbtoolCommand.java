package org.jrdma.tools;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.jrdma.RdmaException;
import org.jrdma.iba.Guid;
import org.jrdma.iba.Lid;
import org.jrdma.tools.json.JsonError;
import org.jrdma.tools.json.JsonOption;
import org.jrdma.tools.json.JsonOutput;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * What every {@code ibtool} subcommand shares: its standard output and error, the checks of its
 * arguments, and its end: {@link #run()} returns an exit status ({@link ExitCodes}) or throws, and
 * {@link Ibtool#commandLine} reports what it throws as the C tool would ({@link DiagError}) and ends
 * with the C tool's status. Output is
 * flushed however the command ends, so what it printed before a failure is not lost.
 *
 * <p>Every command has {@code --json} ({@link JsonOption}): a command that sees {@link #json()} hands
 * its result to {@link #json(Object, int)} instead of printing text, and a failure becomes a
 * {@link JsonError} document on standard output, with the same exit status (README, "JSON output").
 */
public abstract class IbtoolCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    JsonOption jsonOption;

    /** Runs the command; the resources it opened are released and its output flushed, however it ends. */
    @Override
    @SuppressWarnings("try") // the resource is the release itself, run however run() ends
    public final Integer call() throws Exception {
        try (AutoCloseable resources = this::release) {
            return run();
        } finally {
            out().flush();
            err().flush();
        }
    }

    /** Does the command's work and says how it went: {@link ExitCodes#OK} or {@link ExitCodes#INCOMPLETE}. */
    abstract int run() throws Exception;

    /** Releases what {@link #run()} opened; nothing here. */
    void release() {
    }

    /** Standard output. */
    protected final PrintWriter out() {
        return spec.commandLine().getOut();
    }

    /** Standard error. */
    protected final PrintWriter err() {
        return spec.commandLine().getErr();
    }

    /** Whether {@code --json} asked for the result as a JSON document rather than the C tool's text. */
    final boolean json() {
        return jsonOption != null && jsonOption.requested();
    }

    /**
     * Writes {@code document} (a record of the command's documented shape) as the command's JSON
     * output and returns {@code status}, the exit status the text would have ended with.
     */
    final int json(Object document, int status) {
        JsonOutput.write(out(), document, jsonOption.compact());
        return status;
    }

    /** Writes a failure as the command's JSON document ({@code {"error": ...}}) on standard output. */
    final void jsonError(String message, String detail, List<String> warnings, int status) {
        JsonOutput.write(out(), new JsonError(spec.name(), status, message, detail, warnings).document(), jsonOption.compact());
    }

    /** Prints {@code message} on standard error after the command's name, as the C tools warn. */
    protected final void warn(String message) {
        err().println(spec.name() + ": " + message);
        err().flush();
    }

    /**
     * Reports the parts of the fabric that did not answer, one warning each, and returns the exit
     * status of an answer with such gaps: {@link ExitCodes#INCOMPLETE}, or {@link ExitCodes#OK} if
     * there are none.
     */
    protected final int reportProblems(List<String> problems) {
        problems.forEach(this::warn);
        return problems.isEmpty() ? ExitCodes.OK : ExitCodes.INCOMPLETE;
    }

    /**
     * Checks a numeric argument.
     *
     * @param what how the usage message names the argument, e.g. {@code --state} or {@code PORTNUM}
     * @throws UsageException {@code "<what> <value> outside <min>..<max>"}
     */
    static void checkRange(long value, long min, long max, String what) {
        if (value < min || value > max) {
            throw new UsageException(what + " " + value + " outside " + min + ".." + max);
        }
    }

    /**
     * Reads a LID argument, decimal or 0x-hex, as {@link Lid#parse} does.
     *
     * @throws UsageException {@code "bad LID \"<text>\": <why>"}
     */
    static int parseLid(String text) {
        try {
            return Lid.parse(text);
        } catch (IllegalArgumentException e) {
            throw new UsageException("bad LID \"" + text + "\": " + e.getMessage());
        }
    }

    /**
     * Reads a port or node GUID argument, {@code 0x...} or {@code xxxx:xxxx:xxxx:xxxx}, as
     * {@link Guid#parse} does.
     *
     * @throws UsageException saying why it is not a GUID
     */
    static Guid parseGuid(String text) {
        try {
            return Guid.parse(text);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    /**
     * The result of a query whose failure the C tool reports with {@code IBEXIT(what)}: on failure,
     * a {@link DiagError} with that text, the failure as its cause (jrdma's explanation).
     */
    static <T> T explained(String what, Supplier<T> query) {
        try {
            return query.get();
        } catch (RdmaException e) {
            throw DiagError.exit(what, e);
        }
    }
}

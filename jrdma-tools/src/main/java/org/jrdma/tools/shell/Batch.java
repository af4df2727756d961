package org.jrdma.tools.shell;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import org.jrdma.tools.SharedEngines;

/**
 * {@code ibtool --batch FILE}: one {@code ibtool} command per line of FILE ({@code -} for standard
 * input), all in this JVM, the port of each opened once for all the lines that name it the same
 * way ({@link SharedEngines}). Each line's standard output and error are what {@code ibtool LINE}
 * would print, in line order. Every line runs, whatever the ones before it returned; a line that
 * ends with a status other than 0 is followed on standard error by
 * {@code ibtool: batch line N: exit status S}. The batch ends with 0 when every line ended with 0,
 * else with the status of the first line that did not. Blank lines and {@code #} comments are
 * skipped; a line with an unclosed quote fails with status 2, as does {@code shell} or
 * {@code --batch} inside a batch.
 */
public final class Batch {
    /** Where the batch's lines come from when FILE is this: standard input. */
    public static final String STDIN = "-";
    /** The batch's status when a file cannot be read, as the C tools end on a failure. */
    private static final int UNREADABLE = 255;

    private Batch() {
    }

    /** Runs the commands of {@code file} and returns the batch's exit status. */
    public static int run(String file, PrintWriter out, PrintWriter err) {
        try (BufferedReader lines = file.equals(STDIN)
                ? new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))
                : Files.newBufferedReader(Path.of(file), StandardCharsets.UTF_8)) {
            return run(lines, out, err);
        } catch (NoSuchFileException e) {
            err.println("ibtool: --batch: " + file + ": no such file");
        } catch (IOException | UncheckedIOException e) {
            err.println("ibtool: --batch: " + file + ": " + e.getMessage());
        }
        err.flush();
        return UNREADABLE;
    }

    /** Runs one command per line of {@code lines} and returns the batch's exit status. */
    static int run(BufferedReader lines, PrintWriter out, PrintWriter err) throws IOException {
        int status = 0;
        int number = 0;
        try (SharedEngines engines = new SharedEngines()) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                number++;
                int lineStatus = runLine(engines, line, out, err);
                if (lineStatus != 0) {
                    err.println("ibtool: batch line " + number + ": exit status " + lineStatus);
                    err.flush();
                    if (status == 0) {
                        status = lineStatus;
                    }
                }
            }
        }
        return status;
    }

    /** Runs one line in {@code engines}' session: its status, 0 for a blank line or a comment. */
    static int runLine(SharedEngines engines, String line, PrintWriter out, PrintWriter err) {
        List<String> words;
        try {
            words = CommandLines.words(line);
        } catch (IllegalArgumentException e) {
            err.println("ibtool: " + e.getMessage());
            err.flush();
            return CommandLines.BAD_LINE;
        }
        if (words.isEmpty()) {
            return 0;
        }
        if (CommandLines.nested(words)) {
            err.println("ibtool: " + words.getFirst() + ": a shell or a batch cannot run inside another");
            err.flush();
            return CommandLines.BAD_LINE;
        }
        return engines.execute(out, err, words.toArray(String[]::new));
    }
}

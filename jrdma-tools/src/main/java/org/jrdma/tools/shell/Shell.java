package org.jrdma.tools.shell;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;
import org.jrdma.tools.SharedEngines;

/**
 * The read-run loop of {@code ibtool shell}: each line read from the terminal (with line editing,
 * tab completion of command names and options, and the history of earlier sessions) runs as
 * {@code ibtool LINE} would, in this JVM, the port of each command opened once for all the
 * commands that name it the same way ({@link SharedEngines}). Commands print on the terminal
 * (standard output) and on the shell's standard error; after a command that did not end with 0 the
 * shell prints {@code [exit status S]}. {@code exit}, {@code quit} or end of input (Ctrl-D) leave
 * it; Ctrl-C abandons the line being typed.
 */
public final class Shell {
    /** The line that leaves the shell (as does {@code quit}). */
    static final String EXIT = "exit";
    private static final String PROMPT = "ibtool> ";

    private final Terminal terminal;
    private final Path history;
    private final PrintWriter err;

    /**
     * A shell on {@code terminal} whose history is kept in {@code history} (its folder created if
     * missing), the commands' standard error going to {@code err}.
     */
    public Shell(Terminal terminal, Path history, PrintWriter err) {
        this.terminal = terminal;
        this.history = history;
        this.err = err;
    }

    /** Where the history is kept by default: {@code ~/.jrdma/ibtool_history}. */
    public static Path defaultHistory() {
        return Path.of(System.getProperty("user.home"), ".jrdma", "ibtool_history");
    }

    /** Reads and runs lines until {@code exit} or end of input; returns the status of the last command run. */
    public int run() {
        try {
            Files.createDirectories(history.toAbsolutePath().getParent());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the folder of the shell history " + history, e);
        }
        LineReader reader = LineReaderBuilder.builder().terminal(terminal).appName("ibtool")
                .parser(CommandLines.parser()).completer(new IbtoolCompleter())
                .variable(LineReader.HISTORY_FILE, history).build();
        PrintWriter out = terminal.writer();
        int status = 0;
        try (SharedEngines engines = new SharedEngines()) {
            while (true) {
                String line;
                try {
                    line = reader.readLine(PROMPT);
                } catch (UserInterruptException e) {
                    continue;
                } catch (EndOfFileException e) {
                    break;
                }
                String trimmed = line.strip();
                if (trimmed.equals(EXIT) || trimmed.equals("quit")) {
                    break;
                }
                status = Batch.runLine(engines, line, out, err);
                if (status != 0) {
                    out.println("[exit status " + status + "]");
                }
                out.flush();
            }
        } finally {
            saveHistory(reader);
        }
        return status;
    }

    private void saveHistory(LineReader reader) {
        try {
            reader.getHistory().save();
        } catch (IOException e) {
            err.println("ibtool shell: cannot save the history in " + history + ": " + e.getMessage());
            err.flush();
        }
    }
}

package org.jrdma.tools.shell;

import java.io.IOException;
import java.util.concurrent.Callable;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code ibtool shell}: many {@code ibtool} commands in one JVM ({@link Shell}), read from the
 * terminal, or from standard input when it is not one (a dumb terminal: no line editing, no
 * warning); history in {@code ~/.jrdma/ibtool_history}.
 */
@Command(name = ShellCommand.NAME, mixinStandardHelpOptions = true,
        description = {"Run ibtool commands one per line in this JVM, with line editing, completion (Tab) and history "
                + "(~/.jrdma/ibtool_history); a command opens its port once for all the commands after it that name it "
                + "the same way.", "exit, quit or end of input leave it."})
public final class ShellCommand implements Callable<Integer> {
    /** The command's name. */
    static final String NAME = "shell";

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        try (Terminal terminal = TerminalBuilder.builder().name("ibtool").system(true).dumb(true).build()) {
            return new Shell(terminal, Shell.defaultHistory(), spec.commandLine().getErr()).run();
        }
    }
}

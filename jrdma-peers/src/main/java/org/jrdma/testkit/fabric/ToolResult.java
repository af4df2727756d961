package org.jrdma.testkit.fabric;

import java.util.List;

/**
 * What a command run against a simulated fabric produced.
 *
 * @param command  the command line that ran
 * @param exitCode its exit status ({@code 124} when it was stopped for running too long)
 * @param stdout   everything it wrote to standard output
 * @param stderr   everything it wrote to standard error (libumad2sim's {@code ibwarn} lines land here)
 */
public record ToolResult(List<String> command, int exitCode, String stdout, String stderr) {
    /** Exit status used when the command was stopped at its time limit, as coreutils' timeout does. */
    public static final int TIMED_OUT = 124;

    public ToolResult {
        command = List.copyOf(command);
    }

    /** Whether the command exited with status 0. */
    public boolean succeeded() {
        return exitCode == 0;
    }

    /**
     * Returns this result when the command succeeded.
     *
     * @throws FabricException naming the command, its status and its output otherwise
     */
    public ToolResult orThrow() {
        if (!succeeded()) {
            throw new FabricException(String.join(" ", command) + " exited with status " + exitCode
                    + (exitCode == TIMED_OUT ? " (timed out)" : "") + "\n--- stdout ---\n" + stdout
                    + "\n--- stderr ---\n" + stderr);
        }
        return this;
    }
}

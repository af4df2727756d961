package org.jrdma.testkit.vm;

import java.time.Duration;
import java.util.Objects;

/**
 * What a command run inside the soft-RoCE VM did: its exit status, its standard output and error
 * (merged, as written inside the VM), and how long the whole run took, boot included.
 *
 * @param exitCode the command's exit status
 * @param output   the command's standard output and standard error, interleaved
 * @param elapsed  wall-clock time of the whole run: boot, setup, command and power-off
 */
public record VmResult(int exitCode, String output, Duration elapsed) {
    /** Checks that no component is null. */
    public VmResult {
        Objects.requireNonNull(output, "output");
        Objects.requireNonNull(elapsed, "elapsed");
    }
}

package org.jrdma.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jrdma.testkit.junit.NativeCommand;
import org.jrdma.testkit.junit.Peers;

/**
 * The Prometheus project's own parser and linter of the text exposition format,
 * {@code promtool check metrics}, run on what the monitor serves: what a Prometheus server would
 * scrape. {@code bin/test} and {@code bin/setup} unpack it from Debian's prometheus package into
 * {@code .jrdma/tools/promtool} at the project's root.
 */
final class Promtool {
    private Promtool() {
    }

    /** Fails unless promtool parses {@code exposition} and finds nothing to lint in it. */
    static void assertAccepts(String exposition) throws IOException, InterruptedException {
        Path promtool = Path.of(System.getProperty("user.dir")).getParent().resolve(".jrdma/tools/promtool");
        Peers.require(Files.isExecutable(promtool), "promtool (bin/test and bin/setup unpack it at " + promtool + ")");
        NativeCommand.Output check = NativeCommand.run(promtool.getParent(), List.of(promtool.toString(), "check", "metrics"),
                exposition);
        assertEquals(0, check.exitCode(), "promtool check metrics:\n" + check.stdout() + check.stderr());
    }
}

package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.jrdma.testkit.fabric.Fabric;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The error paths of ibtool's commands against the infiniband-diags tools on one simulated fabric:
 * the same standard output ({@code <tool>: iberror: failed: ...}), the same exit status (255), and
 * standard error beginning with the C tool's ({@code ibwarn: [pid] ...}, pids masked). Usage errors
 * compare getopt's complaint, the {@code Usage:} line and status 2; the option list after it is
 * ibtool's own.
 */
@SimulatedFabric(topology = "two-switch")
class DiagErrorsTest {
    /** Failures compared in full (smpquery, perfquery and saquery's are in {@link QueryCommandsTest}). */
    private static final List<String> FAILURES = List.of("ibroute 3", "ibroute -M 3", "ibroute 40", "ibroute -D 0,99",
            "sminfo 40", "sminfo 3", "sminfo -D 0,99", "ibaddr 40", "ibaddr -D 0,99", "ibtracert 3 40", "ibtracert 40 3",
            "ibnetdiscover --load-cache /nonexistent/jrdma.cache");
    /** Command lines the C tools cannot read. */
    private static final List<String> USAGE = List.of("smpquery -Z nodeinfo 3", "smpquery nodeinfo", "smpquery", "perfquery -Z",
            "sminfo --foo", "ibaddr -Z", "ibroute", "ibtracert 3", "smpdump 3", "ibnetdiscover -Z", "saquery -Z", "iblinkinfo -Z",
            "perfquery -t", "smpquery --timeout");

    @TestFactory
    Stream<DynamicTest> failuresAreTheCTools(Fabric fabric) {
        return FAILURES.stream().map(line -> DynamicTest.dynamicTest(line, () -> {
            String[] words = line.split(" ");
            AgainstC.runAt(fabric, "node01 HCA-1", words[0], Arrays.copyOfRange(words, 1, words.length)).assertSame();
        }));
    }

    @TestFactory
    Stream<DynamicTest> usageErrorsAreTheCTools(Fabric fabric) {
        return USAGE.stream().map(line -> DynamicTest.dynamicTest(line, () -> {
            String[] words = line.split(" ");
            AgainstC run = AgainstC.runAt(fabric, "node01 HCA-1", words[0], Arrays.copyOfRange(words, 1, words.length));
            assertEquals(2, run.c().exitCode(), run.c().stderr());
            assertEquals(2, run.ours().exitCode(), run.ours().err());
            assertEquals("", run.ours().out());
            assertEquals(head(run.c().stderr()), head(run.ours().err()));
        }));
    }

    /** The usage message up to its {@code Usage:} line and the blank line after it. */
    private static String head(String stderr) {
        int usage = stderr.indexOf("Usage: ");
        return usage < 0 ? stderr : stderr.substring(0, stderr.indexOf('\n', usage) + 1);
    }
}

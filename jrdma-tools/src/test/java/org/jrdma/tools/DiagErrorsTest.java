package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.jrdma.testkit.fabric.Fabric;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The error paths of ibtool's commands against the infiniband-diags tools on one simulated fabric:
 * the same standard output ({@code <tool>: iberror: failed: ...}), the same exit status (255), and
 * standard error beginning with the C tool's ({@code ibwarn: [pid] ...}, pids masked). Usage errors
 * compare status 2 and the whole usage message: the C tool's, less the lines of options ibtool does
 * not have yet.
 */
@SimulatedFabric(topology = "two-switch")
class DiagErrorsTest {
    /** Failures compared in full (smpquery, perfquery and saquery's are in {@link QueryCommandsTest}). */
    private static final List<String> FAILURES = List.of("ibroute 3", "ibroute -M 3", "ibroute 40", "ibroute -D 0,99",
            "sminfo 40", "sminfo 3", "sminfo -D 0,99", "ibaddr 40", "ibaddr -D 0,99", "ibtracert 3 40", "ibtracert 40 3",
            "ibnetdiscover --load-cache /nonexistent/jrdma.cache", "ibtracert 4 0xc000", "ibtracert 0 4", "perfquery -x 0",
            "ibaddr 0x10000", "ibroute 0", "smpquery nodeinfo abc", "sminfo abc", "smpquery pkeys 3 5");
    /** Command lines the C tools cannot read. */
    private static final List<String> USAGE = List.of("smpquery -Z nodeinfo 3", "smpquery nodeinfo", "smpquery", "perfquery -Z",
            "sminfo --foo", "ibaddr -Z", "ibroute", "ibtracert 3", "smpdump 3", "ibnetdiscover -Z", "saquery -Z", "iblinkinfo -Z",
            "perfquery -t", "smpquery --timeout", "smpquery -Z", "ibroute -Z", "smpdump -Z", "ibtracert -Z", "ibstat -Z",
            "perfquery --bogus 3", "ibqueryerrors -Z", "ibqueryerrors --bogus", "ibqueryerrors -s", "saquery -L", "saquery -l",
            "saquery -G", "saquery -O", "saquery -O 0", "saquery -U", "saquery --src-to-dst 3", "saquery --sgid-to-dgid fe80::1",
            "saquery --sgid-to-dgid zz-fe80::1", "saquery PR --sgid zz", "saquery MCMR --mgid ::g",
            "ibportstate -Z 3 1", "ibportstate 3", "ibportstate");
    /** Requests for help, which the C tools answer with their usage message and status 2. */
    private static final List<String> HELP = List.of("perfquery -h", "smpquery --help", "ibstat -h", "saquery -h",
            "ibnetdiscover -h", "ibqueryerrors -h", "iblinkinfo --help", "ibroute -h", "sminfo -h", "smpdump -h", "ibaddr -h",
            "ibtracert -h", "ibportstate -h");
    /** The scripts' usage: one line per script on standard output, status 255. */
    private static final List<String> SCRIPT_USAGE = List.of("ibhosts -h", "ibswitches -Z", "ibrouters --help", "ibnodes -h",
            "ibnodes -Z");

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
            assertIsTheCUsage(words[0], run.c().stderr(), run.ours().err());
        }));
    }

    @TestFactory
    Stream<DynamicTest> helpIsTheCTools(Fabric fabric) {
        return HELP.stream().map(line -> DynamicTest.dynamicTest(line, () -> {
            String[] words = line.split(" ");
            AgainstC run = AgainstC.runAt(fabric, "node01 HCA-1", words[0], Arrays.copyOfRange(words, 1, words.length));
            assertEquals(2, run.c().exitCode(), run.c().stderr());
            assertEquals(2, run.ours().exitCode(), run.ours().err());
            assertEquals(run.c().stdout(), run.ours().out());
            assertIsTheCUsage(words[0], run.c().stderr(), run.ours().err());
        }));
    }

    @TestFactory
    Stream<DynamicTest> scriptUsageIsTheScripts(Fabric fabric) {
        return SCRIPT_USAGE.stream().map(line -> DynamicTest.dynamicTest(line, () -> {
            String[] words = line.split(" ");
            AgainstC run = AgainstC.runAt(fabric, "node01 HCA-1", words[0], Arrays.copyOfRange(words, 1, words.length));
            assertEquals(255, run.c().exitCode(), run.c().stderr());
            assertEquals(run.c().exitCode(), run.ours().exitCode(), run.ours().err());
            assertEquals(run.c().stdout(), run.ours().out());
            assertEquals(run.c().stderr(), run.ours().err());
        }));
    }

    @Test
    void versionIsReportedAsTheCToolsReportIt(Fabric fabric) {
        AgainstC run = AgainstC.runAt(fabric, "node01 HCA-1", "perfquery", "-V");
        assertEquals(0, run.c().exitCode());
        assertEquals(0, run.ours().exitCode());
        assertEquals(run.c().stdout(), run.ours().out());
        assertEquals("perfquery BUILD VERSION: jrdma ibtool 0.1.0\n", run.ours().err());
        assertTrue(run.c().stderr().startsWith("perfquery BUILD VERSION: "), run.c().stderr());
    }

    @Test
    void ibtoolHelpPrintsEveryOptionOfTheCommand() {
        IbtoolRun run = IbtoolRun.of("help", "perfquery");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("--sim"), run.out());
        assertTrue(run.out().contains("Usage: ibtool perfquery"), run.out());
    }

    /**
     * ibtool's usage message is the C tool's without the option lines of options ibtool lacks: every
     * other line, in order, and no line the C text does not have, but for jrdma's explanation at the
     * end ({@code <tool>: ...}).
     */
    private static void assertIsTheCUsage(String tool, String c, String ours) {
        List<String> cLines = List.of(c.split("\n", -1));
        List<String> ourLines = new ArrayList<>(List.of(ours.split("\n", -1)));
        String context = "--- C ---\n" + c + "--- ibtool ---\n" + ours;
        int last = ourLines.size() - 2;
        if (last >= 0 && ourLines.get(last).startsWith(tool + ": ") && !cLines.contains(ourLines.get(last))) {
            ourLines.remove(last);
        }
        int i = 0;
        for (String cLine : cLines) {
            if (i < ourLines.size() && ourLines.get(i).equals(cLine)) {
                i++;
            } else {
                assertTrue(cLine.startsWith("  --") || cLine.startsWith("       "), "C line missing: " + cLine + "\n" + context);
            }
        }
        assertEquals(ourLines.size(), i, "a line the C text does not have: " + (i < ourLines.size() ? ourLines.get(i) : "") + "\n" + context);
    }
}

package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@code ibtool help COMMAND}, python-rdma's per-command help: picocli's full help of the command,
 * with the sections python-rdma's {@code *_help} functions add (the valid methods and attributes
 * of {@code query}, the query names of {@code saquery}); {@code -h} stays the C tool's usage.
 */
class HelpCommandTest {
    @Test
    void queryHelpListsTheMethodsAndTheAttributesTheyMayAskFor() {
        IbtoolRun run = IbtoolRun.of("help", "query");
        assertEquals(0, run.exitCode(), run.err());
        String out = run.out();
        int methods = out.indexOf("Valid METHOD:\n");
        int attributes = out.indexOf("Valid ATTRIBUTE:\n");
        assertTrue(methods > 0 && attributes > methods, out);
        assertTrue(out.substring(methods, attributes).contains("    SubnAdmGetTable\n"), out);
        String listed = out.substring(attributes);
        for (String name : new String[] {"SmpNodeInfo", "SmpPortInfo", "PmPortCounters", "SaPathRecord", "MadClassPortInfo"}) {
            assertTrue(listed.contains("    " + name + "\n"), name + " in\n" + listed);
        }
        assertFalse(listed.contains("    SmpNodeInfo\n    SmpNodeInfo\n"), listed);
    }

    @Test
    void saqueryHelpListsTheQueryNamesAndTheUsageStaysTheCTools() {
        IbtoolRun run = IbtoolRun.of("help", "saquery");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("Supported query names (and aliases):\n"), run.out());
        assertTrue(run.out().contains("  PathRecord (PR) \n") && run.out().contains("  SMInfoRecord (SMIR) [lid]\n"), run.out());
        IbtoolRun usage = IbtoolRun.of("saquery", "-h");
        assertEquals(1, usage.err().split("Supported query names", -1).length - 1, usage.err());
    }
}

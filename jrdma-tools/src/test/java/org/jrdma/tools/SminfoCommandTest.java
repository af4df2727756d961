package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.UnaryOperator;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code ibtool sminfo} against infiniband-diags' sminfo on the same fat tree, where OpenSM runs
 * at spine1 (LID 1, GUID 0x0002c90300000a01): identical standard output and exit status, attached
 * at the SM's switch and at an HCA.
 */
@SimulatedFabric(topology = "fat-tree")
class SminfoCommandTest {
    /** OpenSM counts its sweeps in ActCount, so it grows between the two runs. */
    private static final UnaryOperator<String> ACTIVITY = s -> s.replaceAll("activity count \\d+", "activity count <n>");

    @ParameterizedTest
    @ValueSource(strings = {"", "1", "-L 1", "0x1", "-D 0", "-G 0x0002c90300000a01", "-t 500 1"})
    void printsWhatTheCToolPrints(String args, Fabric fabric) {
        String[] argv = args.isEmpty() ? new String[0] : args.split(" ");
        AgainstC.run(fabric, "sminfo", argv).assertSame(ACTIVITY);
        AgainstC.runAt(fabric, "node05 HCA-1", "sminfo", argv).assertSame(ACTIVITY);
    }

    @Test
    void aPortWithoutAnSmFailsAsTheCToolDoes(Fabric fabric) {
        AgainstC run = AgainstC.run(fabric, "sminfo", "-t", "200", "4").assertSame();
        assertEquals("query", run.cError());
    }

    @Test
    void aControlThatTheSmIgnoresFailsAsTheCToolDoes(Fabric fabric) {
        // SubnSet(SMInfo) with modifier 2 (acknowledge): OpenSM does not answer a control it did not expect.
        AgainstC.run(fabric, "sminfo", "-t", "200", "-s", "2", "-p", "3", "1", "2").assertSame();
        IbtoolRun after = IbtoolRun.of("sminfo", "--sim", fabric.socketName());
        assertTrue(after.out().contains("state 3 SMINFO_MASTER"), after.out());
    }

    @Test
    void badInputExitsWithStatusTwoAndSaysWhy() {
        IbtoolRun state = IbtoolRun.of("sminfo", "--sim", "x", "-s", "4", "1", "2");
        assertEquals(2, state.exitCode());
        assertTrue(state.err().contains("--state 4 outside 0..3"), state.err());

        IbtoolRun modifier = IbtoolRun.of("sminfo", "--sim", "x", "1", "handover");
        assertEquals(2, modifier.exitCode());
        assertTrue(modifier.err().contains("handover"), modifier.err());

        IbtoolRun route = IbtoolRun.of("sminfo", "--sim", "x", "-D", "1,2");
        assertEquals(255, route.exitCode(), "the C tools' failure for an address they cannot resolve");
        assertTrue(route.err().contains("bad directed route"), route.err());
    }
}

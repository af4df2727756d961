package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code ibtool ibtracert} against infiniband-diags' ibtracert on the same fat tree: identical
 * standard output and exit status, attached at the spine switch and at an HCA (so the walk to
 * the source starts from a switch and from a channel adapter). LIDs: spines 1 and 2, leaves 3, 5,
 * 6, 7, HCAs node01 4, node02 8, node03..node08 9..14.
 */
@SimulatedFabric(topology = "fat-tree")
class IbtracertCommandTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "4 13", "13 4", "1 4", "4 1", "4 4", "2 3", "3 2", "8 9", "-n 4 13", "-n 1 14", "-f 4 13", "0x4 0xd",
        "-G 0x0002c90300001011 0x0002c90300001081", "-G -n 0x0002c90300000a02 0x0002c90300001051"})
    void printsWhatTheCToolPrints(String args, Fabric fabric) {
        AgainstC.run(fabric, "ibtracert", args.split(" ")).assertSame();
        AgainstC.runAt(fabric, "node05 HCA-1", "ibtracert", args.split(" ")).assertSame();
    }

    @Test
    void anUnansweredDestinationFailsAsTheCToolDoes(Fabric fabric) {
        AgainstC run = AgainstC.run(fabric, "ibtracert", "4", "99").assertSame();
        assertEquals("Failed to get route information", run.cError());
        assertTrue(run.ours().err().contains("can't reach to/from ports"), run.ours().err());
    }

    @Test
    void directedRoutesTraceTheSameRouteAsTheLidsTheyLeadTo(Fabric fabric) {
        // The C tool has no -D; from spine1, 0,1,1 is node01 (LID 4) and 0,4,1 is node07 (LID 13).
        String c = fabric.run("ibtracert", "4", "13").orThrow().stdout();
        IbtoolRun ours = IbtoolRun.of("ibtracert", "--sim", fabric.socketName(), "-D", "0,1,1", "0,4,1");
        assertEquals(0, ours.exitCode(), ours.err());
        assertEquals(c, ours.out());
    }

    @Test
    void badInputExitsWithStatusTwoAndSaysWhy() {
        IbtoolRun oneArgument = IbtoolRun.of("ibtracert", "--sim", "x", "4");
        assertEquals(2, oneArgument.exitCode());
        assertTrue(oneArgument.err().startsWith("\nUsage: ibtracert [options] <src-addr> <dest-addr>\n"), oneArgument.err());

        IbtoolRun badLid = IbtoolRun.of("ibtracert", "--sim", "x", "4", "0xc000");
        assertEquals(255, badLid.exitCode());
        assertEquals("ibtracert: iberror: failed: Failed to get route information\n", badLid.out());
        assertTrue(badLid.err().matches("(?s)ibwarn: \\[\\d+\\] get_route: can't resolve destination port 0xc000\n.*unicast LID.*"),
                badLid.err());
    }
}

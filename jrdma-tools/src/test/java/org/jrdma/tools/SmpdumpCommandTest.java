package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.ToolResult;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code ibtool smpdump} against infiniband-diags' smpdump on the same fat tree: identical
 * standard output and exit status for LID-routed and directed-route SubnGets of NodeInfo,
 * NodeDescription, SwitchInfo, PortInfo and LinearForwardingTable, attached at the spine switch
 * and at an HCA.
 */
@SimulatedFabric(topology = "fat-tree")
class SmpdumpCommandTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "-D 0 0x11", "-D 0,1 0x15 1", "1 0x15 1", "4 0x11", "4 17", "-s -D 0 0x10", "-s 4 16", "-L 3 0x12",
        "-D 0 0x19 0", "-D 0,1 0x19", "3 0x19 0x0", "-D 0,2,6 0x15 6", "-D -s 0,3 0x10"})
    void printsWhatTheCToolPrintsFromTheSpine(String args, Fabric fabric) {
        AgainstC.run(fabric, "smpdump", args.split(" ")).assertSame();
    }

    @ParameterizedTest
    @ValueSource(strings = {"-D 0 0x11", "-D 0 0x15", "-D 0,1 0x15 1", "-D 0,1,6 0x11", "1 0x15 1", "-s -D 0,1 0x10", "13 0x11"})
    void printsWhatTheCToolPrintsFromAnHca(String args, Fabric fabric) {
        AgainstC.runAt(fabric, "node05 HCA-1", "smpdump", args.split(" ")).assertSame();
    }

    @Test
    void aGuidIsResolvedToTheLidTheCToolIsGiven(Fabric fabric) {
        // -G is an addition: node01's port GUID is LID 4.
        String c = fabric.run("smpdump", "4", "0x15").orThrow().stdout();
        IbtoolRun ours = IbtoolRun.of("smpdump", "--sim", fabric.socketName(), "-G", "0x0002c90300001011", "0x15");
        assertEquals(0, ours.exitCode(), ours.err());
        assertEquals(c, ours.out());
    }

    @Test
    void anUnansweredSmpFailsWhereTheCToolPrintsItsOwnRequest(Fabric fabric) {
        ToolResult c = fabric.run("smpdump", "-t", "200", "99", "0x11");
        assertEquals(0, c.exitCode());
        assertEquals("0000 0000 0000 0000 0000 0000 0000 0000\n".repeat(4), c.stdout());

        IbtoolRun ours = IbtoolRun.of("smpdump", "--sim", fabric.socketName(), "-t", "200", "99", "0x11");
        assertEquals(255, ours.exitCode());
        assertEquals("", ours.out());
        assertTrue(ours.err().matches("(?s)ibpanic: \\[\\d+\\] main: recv error: Connection timed out\n.*to LID 99.*"), ours.err());
    }

    @Test
    void badInputExitsWithStatusTwoAndSaysWhy() {
        IbtoolRun attribute = IbtoolRun.of("smpdump", "--sim", "x", "4", "0x10000");
        assertEquals(2, attribute.exitCode());
        assertTrue(attribute.err().contains("ATTR \"0x10000\" is not a number in 0..0xffff"), attribute.err());

        IbtoolRun modifier = IbtoolRun.of("smpdump", "--sim", "x", "4", "0x15", "port1");
        assertEquals(2, modifier.exitCode());
        assertTrue(modifier.err().contains("MOD \"port1\""), modifier.err());

        IbtoolRun missing = IbtoolRun.of("smpdump", "--sim", "x", "4");
        assertEquals(2, missing.exitCode());
        assertTrue(missing.err().startsWith("\nUsage: smpdump [options] <dlid|dr_path> <attr> [mod]\n"), missing.err());
    }
}

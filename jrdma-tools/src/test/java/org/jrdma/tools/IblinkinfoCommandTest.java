package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code ibtool iblinkinfo} against infiniband-diags' iblinkinfo on the same fat tree, attached at
 * the spine switch and at an HCA: identical standard output and exit status, in every output mode
 * and for one switch chosen by GUID or directed route.
 */
@SimulatedFabric(topology = "fat-tree")
class IblinkinfoCommandTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "", "-l", "-d", "-p", "-l -p", "-d -l", "--switches-only", "--cas-only", "--cas-only -l",
        "-D 0,1", "-D 0,2,6 -d", "-D 0,4 -l", "--switches-only -D 0,3"})
    void printsWhatTheCToolPrints(String args, Fabric fabric) {
        String[] argv = args.isEmpty() ? new String[0] : args.split(" ");
        AgainstC.run(fabric, "iblinkinfo", argv).assertSame();
        AgainstC.runAt(fabric, "node05 HCA-1", "iblinkinfo", argv).assertSame();
    }

    @ParameterizedTest
    @ValueSource(strings = {"-G", "-S", "--port-guid", "--switch"})
    void aSwitchChosenByGuidPrintsAsTheCToolPrintsItChosenByRoute(String option, Fabric fabric) {
        // The C tool's -G scan starts by LID and hangs under ibsim on a switch; its -D 0,1 reaches leaf1 (0x...0a11).
        String c = fabric.run("iblinkinfo", "-D", "0,1").orThrow().stdout();
        IbtoolRun ours = IbtoolRun.of("iblinkinfo", "--sim", fabric.socketName(), option, "0x0002c90300000a11");
        assertEquals(0, ours.exitCode(), ours.err());
        assertEquals(c, ours.out());
    }

    @Test
    void printsTheLinksOfAChannelAdapterTheCToolsOneHopScanCannotSee(Fabric fabric) {
        // The C tool prints node01's port as "Port not available" here (see IblinkinfoCommand).
        IbtoolRun run = IbtoolRun.of("iblinkinfo", "--sim", fabric.socketName(), "-G", "0x0002c90300001011");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("""
                CA: node01 HCA-1:
                      0x0002c90300001011      4    1[  ] ==( 4X           2.5 Gbps Active/  LinkUp)==>       3    1[  ] "leaf1" \
                (Could be 12X Could be 10.0 Gbps)
                """, run.out());
    }

    @Test
    void anUnknownPortFailsAndADeadRouteFailsAsTheCToolDoes(Fabric fabric) {
        // The C tool warns, scans the whole fabric, says so on standard error and exits 0.
        AgainstC unknown = AgainstC.run(fabric, "iblinkinfo", "-G", "0x1234").assertSame();
        assertEquals(0, unknown.ours().exitCode());
        assertTrue(unknown.ours().err().contains("Failed to find port: 0x1234\n"), unknown.ours().err());

        // spine1's port 5 is down: the C tool says "Failed to get local Node Info" and exits 1.
        AgainstC dead = AgainstC.run(fabric, "iblinkinfo", "-D", "0,5").assertSame();
        assertTrue(dead.c().stderr().contains("Failed to get local Node Info"), dead.c().stderr());
        assertTrue(dead.ours().err().contains("Failed to get local Node Info"), dead.ours().err());
    }

    @Test
    void badInputExitsWithStatusTwoAndSaysWhy() {
        IbtoolRun both = IbtoolRun.of("iblinkinfo", "--sim", "x", "--switches-only", "--cas-only");
        assertEquals(2, both.exitCode());
        assertTrue(both.err().contains("exclude each other"), both.err());

        IbtoolRun badGuid = IbtoolRun.of("iblinkinfo", "--sim", "x", "-G", "node01");
        assertEquals(2, badGuid.exitCode());
        assertTrue(badGuid.err().contains("\"node01\""), badGuid.err());
    }
}

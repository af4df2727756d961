package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.jrdma.iba.smp.SmpMulticastForwardingTable;
import org.jrdma.mad.MadEngine;
import org.jrdma.mad.SmpClient;
import org.jrdma.mad.SmpTarget;
import org.jrdma.mad.sim.IbsimTransport;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.Topology;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code ibtool ibroute} against infiniband-diags' ibroute on the same fat tree (attached at the
 * spine switch {@code spine1}, LID 1; leaf1 is LID 3, node01's HCA LID 4), OpenSM having filled
 * the forwarding tables: identical standard output and exit status for every argument list.
 */
@SimulatedFabric(topology = "fat-tree")
class IbrouteCommandTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "1", "3", "-L 3", "0x3", "-D 0", "-D 0,1", "-D 0,2,6", "-G 0x0002c90300000a11",
        "-n 3", "-a 3", "-a -n 1", "3 5 10", "3 0x9", "1 0 3", "3 12 100",
        "-M 1", "-M -n 1", "-M -a 1 0xc000 0xc002", "-M -a -n 3 0xc010 0xc011", "-M -D 0,1"})
    void printsWhatTheCToolPrints(String args, Fabric fabric) {
        AgainstC.run(fabric, "ibroute", args.split(" ")).assertSame();
    }

    @Test
    void multicastEntriesOnASwitchOfMoreThanSixteenPortsPrintAsTheCToolPrintsThem() {
        // Leaves of 22 ports (20 HCAs, 2 spines) need two port-mask chunks and the tens row of the header.
        try (Fabric fabric = Fabric.start(Topology.fatTree(2, 2, 20));
                MadEngine engine = new MadEngine(IbsimTransport.attach(fabric.socketName(), null), 4)) {
            SmpClient smp = new SmpClient(engine, Duration.ofSeconds(1), 2, 0);
            SmpTarget leaf1 = SmpTarget.local().then(1);
            // MLID 0xC000: ports 1, 2 and 21 (chunk 0 bits 1, 2; chunk 1 bit 5); MLID 0xC021 (block 1): port 17.
            smp.set(new SmpMulticastForwardingTable().portMaskBlock(0, 0x0006), leaf1, 0);
            smp.set(new SmpMulticastForwardingTable().portMaskBlock(0, 0x0020), leaf1, 1L << 28);
            smp.set(new SmpMulticastForwardingTable().portMaskBlock(1, 0x0002), leaf1, 1 | 1L << 28);
            for (String args : List.of("-M -n -D 0,1", "-M -a -D 0,1 0xc000 0xc003", "-M -a -n -D 0,1 0xc01f 0xc022", "-D 0,1",
                    "-a -D 0,2 0 20")) {
                AgainstC.run(fabric, "ibroute", args.split(" ")).assertSame();
            }
            String table = AgainstC.run(fabric, "ibroute", "-M", "-D", "0,1").assertSame().ours().out();
            assertTrue(table.contains("            0                   1                   2     \n"), table);
            assertTrue(table.contains("0xc000      " + marks(22, 1, 2, 21) + "\n"), table);
            assertTrue(table.contains("0xc021      " + marks(22, 17) + "\n"), table);
            assertTrue(table.endsWith("2 valid mlids dumped \n"), table);
        }
    }

    /** ibroute's port columns: "x " for each port in the set, two blanks for the others, ports 0..nports. */
    private static String marks(int nports, int... ports) {
        StringBuilder line = new StringBuilder();
        for (int port = 0; port <= nports; port++) {
            int p = port;
            line.append(Arrays.stream(ports).anyMatch(q -> q == p) ? "x " : "  ");
        }
        return line.toString();
    }

    @Test
    void aChannelAdapterIsNotASwitch(Fabric fabric) {
        AgainstC run = AgainstC.run(fabric, "ibroute", "4").assertSame();
        assertEquals("dump tables: not a switch", run.cError());
        assertEquals(255, run.ours().exitCode());
    }

    @Test
    void anUnansweredLidFailsAsTheCToolDoes(Fabric fabric) {
        AgainstC run = AgainstC.run(fabric, "ibroute", "99").assertSame();
        assertEquals(255, run.ours().exitCode());
        assertEquals("dump tables: node info failed: valid addr?", run.cError());
    }

    @Test
    void badInputExitsWithStatusTwoAndSaysWhy() {
        IbtoolRun noSwitch = IbtoolRun.of("ibroute", "--sim", "x");
        assertEquals(2, noSwitch.exitCode());
        assertTrue(noSwitch.err().startsWith("\nUsage: ibroute [options] "), noSwitch.err());

        // An address the C tools cannot use: "can't resolve destination port" on standard output, 255.
        IbtoolRun badLid = IbtoolRun.of("ibroute", "--sim", "x", "0");
        assertEquals(255, badLid.exitCode());
        assertEquals("ibroute: iberror: failed: can't resolve destination port 0\n", badLid.out());

        IbtoolRun badRoute = IbtoolRun.of("ibroute", "--sim", "x", "-D", "0,x");
        assertEquals(255, badRoute.exitCode());
        assertTrue(badRoute.err().contains("bad directed route \"0,x\""), badRoute.err());

        IbtoolRun badRange = IbtoolRun.of("ibroute", "--sim", "x", "1", "ten");
        assertEquals(2, badRange.exitCode());
        assertTrue(badRange.err().contains("\"ten\""), badRange.err());

        IbtoolRun badGuid = IbtoolRun.of("ibroute", "--sim", "x", "-G", "12");
        assertEquals(255, badGuid.exitCode());
        assertTrue(badGuid.err().contains("\"12\""), badGuid.err());
    }
}

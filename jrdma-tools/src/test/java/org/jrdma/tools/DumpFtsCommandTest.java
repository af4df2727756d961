package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.jrdma.iba.smp.SmpMulticastForwardingTable;
import org.jrdma.mad.MadEngine;
import org.jrdma.mad.SmpClient;
import org.jrdma.mad.SmpTarget;
import org.jrdma.mad.sim.IbsimTransport;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code ibtool dump_fts} against infiniband-diags' dump_fts on the same fat tree (attached at
 * spine1), OpenSM having filled the unicast tables and the test a few multicast entries of
 * leaf1 (0,1) and spine2 (0,1,6): identical standard output, standard error and exit status for
 * every argument list, usage errors and {@code -h}/{@code -V} included.
 */
@SimulatedFabric(topology = "fat-tree")
class DumpFtsCommandTest {

    @ParameterizedTest
    @ValueSource(strings = {"", "-n", "-a", "-a -n", "3", "3 5", "0x3 0x9", "010 012", "0 64", "64", "5 3", "x y z",
        "-M", "-M -n", "-M -a 0xc000 0xc003", "-M -a -n 0xc01f 0xc022", "-M 0xc000 0xc021", "-M 5 0xc001", "-n -M -a 0 0xc001"})
    void printsWhatTheCToolPrints(String args, Fabric fabric) {
        setMulticastEntries(fabric);
        AgainstC.run(fabric, "dump_fts", args.isEmpty() ? new String[0] : args.split(" ")).assertSame();
    }

    @Test
    void theDestinationsAreNamedFromTheDiscoveredSubnet(Fabric fabric) {
        String out = AgainstC.run(fabric, "dump_fts").assertSame().ours().out();
        assertTrue(out.startsWith("Unicast lids [0x0-0xe] of switch DR path slid 0; dlid 0; 0,1,6 guid 0x0002c90300000a02 (spine2):\n"), out);
        assertTrue(out.contains("0x0004 001 : (Channel Adapter portguid 0x0002c90300001011: 'node01 HCA-1')\n"), out);
        assertTrue(out.endsWith("14 valid lids dumped \n"), out);
    }

    @Test
    void multicastEntriesPrintAsTheCToolPrintsThem(Fabric fabric) {
        setMulticastEntries(fabric);
        String out = AgainstC.run(fabric, "dump_fts", "-M").assertSame().ours().out();
        assertTrue(out.contains("0xc000      x x     x         \n"), out);
        assertTrue(out.contains("0xc021            x           \n"), out);
    }

    @Test
    void nodesAreNamedByTheNodeNameMap(Fabric fabric, @TempDir Path dir) throws IOException {
        Path map = Files.writeString(dir.resolve("map"), "0x0002c90300000a11 \"LEAF-ONE\"\n0x0002c90300001010 \"host one\"\n");
        String out = AgainstC.run(fabric, "dump_fts", "--node-name-map", map.toString()).assertSame().ours().out();
        assertTrue(out.contains("guid 0x0002c90300000a11 (LEAF-ONE):\n"), out);
        assertTrue(out.contains(": (Channel Adapter portguid 0x0002c90300001011: 'host one')\n"), out);
        AgainstC.run(fabric, "dump_fts", "-M", "-a", "--node-name-map", map.toString(), "0xc000", "0xc001").assertSame();
    }

    @Test
    void aBlockThatIsNotAnsweredIsReportedAndTheDumpGoesOn(Fabric fabric) {
        fabric.error("leaf4", 5, 100, 0x19);
        try {
            AgainstC run = AgainstC.run(fabric, "dump_fts", "-t", "100", "0", "5").assertSame();
            assertTrue(run.ours().err().contains("SubnGet(LFT) failed on switch 'leaf4' DR path slid 0; dlid 0; 0,4"), run.ours().err());
        } finally {
            fabric.error("leaf4", 5, 0, 0x19);
        }
    }

    @Test
    void badOptionsHelpAndVersionAnswerAsTheCToolDoes(Fabric fabric) {
        AgainstC.run(fabric, "dump_fts", "-G", "1").assertUsageError();
        AgainstC.run(fabric, "dump_fts", "--node-name-map").assertUsageError();
        AgainstC.run(fabric, "dump_fts", "-h").assertUsageError();
        IbtoolRun version = IbtoolRun.of("dump_fts", "-V");
        assertEquals(0, version.exitCode());
        assertEquals("dump_fts BUILD VERSION: jrdma ibtool 0.1.0\n", version.err());
    }

    /** MLID 0xC000 to ports 0, 1 and 4 of leaf1 and MLID 0xC021 to port 3 of spine2, set once (SubnSet(MulticastForwardingTable)). */
    private static void setMulticastEntries(Fabric fabric) {
        try (MadEngine engine = new MadEngine(IbsimTransport.attach(fabric.socketName(), null), 4)) {
            SmpClient smp = new SmpClient(engine, Duration.ofSeconds(1), 2, 0);
            smp.set(new SmpMulticastForwardingTable().portMaskBlock(0, 0x0013), SmpTarget.local().then(1), 0);
            smp.set(new SmpMulticastForwardingTable().portMaskBlock(1, 0x0008), SmpTarget.local().then(1).then(6), 1);
        }
    }
}

package org.jrdma.testkit.junit;

import static org.jrdma.testkit.junit.SimulatedFabricTest.count;
import static org.jrdma.testkit.junit.SimulatedFabricTest.field;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.FabricException;
import org.jrdma.testkit.fabric.ToolResult;
import org.junit.jupiter.api.Test;

/**
 * Each fault {@link Fabric} injects through ibsim's console takes effect for real, as the C
 * diagnostics see it. Every test gets a fresh fabric, since faults outlive the test that made them.
 */
class FabricFaultsTest {
    private static final String NODE01 = "node01 HCA-1";
    /** node03's port 1 as sminfo prints it, without leading zeros. */
    private static final String STANDBY_GUID = "sm guid 0x2c90300001031,";

    @Test
    @SimulatedFabric(topology = "single-switch")
    void unlinkTakesTheLinkDownAndRelinkBringsItBack(Fabric fabric) {
        assertEquals(2, hcas(fabric));

        fabric.unlink("sw1", 1);

        String port = fabric.run("smpquery", "-D", "portinfo", "0", "1").orThrow().stdout();
        assertEquals("Down", field(port, "LinkState"));
        assertEquals("Polling", field(port, "PhysLinkState"));
        assertEquals(1, hcas(fabric), "ibnetdiscover no longer reaches node01");

        fabric.relink("sw1", 1);

        port = fabric.run("smpquery", "-D", "portinfo", "0", "1").orThrow().stdout();
        assertEquals("LinkUp", field(port, "PhysLinkState"));
        assertNotEquals("Down", field(port, "LinkState"));
        assertEquals(2, hcas(fabric));
    }

    @Test
    @SimulatedFabric(topology = "single-switch")
    void unlinkingANodeUnplugsAllItsCables(Fabric fabric) {
        fabric.unlink("sw1");

        assertEquals(0, hcas(fabric));

        fabric.relink("sw1");

        assertEquals(2, hcas(fabric));
    }

    @Test
    @SimulatedFabric(topology = "single-switch")
    void performanceSetSetsTheCounterPerfqueryReads(Fabric fabric) {
        String lid = field(fabric.run("smpquery", "-D", "portinfo", "0", "0").orThrow().stdout(), "Lid");

        assertEquals(7, fabric.performanceSet("sw1", 2, "PortCounters", "SymbolErrorCounter", 7));
        assertEquals(1234567, fabric.performanceSet("sw1", 2, "PortCountersExtended", "PortXmitData", 1234567));

        String counters = fabric.run("perfquery", lid, "2").orThrow().stdout();
        assertEquals("7", field(counters, "SymbolErrorCounter"));
        assertEquals("0", field(fabric.run("perfquery", lid, "1").orThrow().stdout(), "SymbolErrorCounter"));
        assertEquals("1234567", field(fabric.run("perfquery", "-x", lid, "2").orThrow().stdout(), "PortXmitData"));
    }

    @Test
    @SimulatedFabric(topology = "single-switch")
    void performanceSetStopsAtTheCountersWidth(Fabric fabric) {
        assertEquals(0xFFFF, fabric.performanceSet("sw1", 1, "PortCounters", "SymbolErrorCounter", 70_000));

        FabricException e = assertThrows(FabricException.class,
                () -> fabric.performanceSet("sw1", 1, "PortCounters", "NoSuchCounter", 1));
        assertTrue(e.getMessage().contains("NoSuchCounter cannot be found"), e.getMessage());
    }

    @Test
    @SimulatedFabric(topology = "single-switch")
    void baselidChangesTheLidPortInfoReports(Fabric fabric) {
        fabric.baselid(NODE01, 1, 0x77);

        assertEquals("119", field(fabric.run("smpquery", "-D", "portinfo", "0,1", "1").orThrow().stdout(), "Lid"));

        fabric.baselid("sw1", 0, 0x99);

        assertEquals("153", field(fabric.run("smpquery", "-D", "portinfo", "0", "0").orThrow().stdout(), "Lid"));
    }

    @Test
    @SimulatedFabric(topology = "single-switch")
    void guidChangesTheGuidsNodeInfoReports(Fabric fabric) {
        fabric.guid("sw1", 0x0002c90300abcdefL);
        fabric.guid(NODE01, 0x0002c90300fedcb0L);

        String sw = fabric.run("smpquery", "-D", "nodeinfo", "0").orThrow().stdout();
        assertEquals("0x0002c90300abcdef", field(sw, "Guid"));
        assertEquals("0x0002c90300abcdef", field(sw, "PortGuid"));
        String ca = fabric.run("smpquery", "-D", "nodeinfo", "0,1").orThrow().stdout();
        assertEquals("0x0002c90300fedcb0", field(ca, "Guid"));
        assertEquals("0x0002c90300fedcb1", field(ca, "PortGuid"));
    }

    @Test
    @SimulatedFabric(topology = "single-switch")
    void errorAtRate100DropsEveryMadThroughThePortUntilHealed(Fabric fabric) {
        fabric.error(NODE01, 1, 100);

        ToolResult lost = query(fabric, "nodeinfo", "0,1");
        assertFalse(lost.succeeded(), lost.stdout());
        assertTrue(lost.stderr().contains("timeout") || lost.stderr().contains("failed"), lost.stderr());
        assertTrue(query(fabric, "nodeinfo", "0,2").succeeded(), "node02 is not affected");

        fabric.error(NODE01, 1, 0);

        assertTrue(query(fabric, "nodeinfo", "0,1").succeeded());
    }

    @Test
    @SimulatedFabric(topology = "single-switch")
    void errorForOneAttributeDropsOnlyThatAttribute(Fabric fabric) {
        fabric.error(NODE01, 1, 100, 0x15); // PortInfo

        assertFalse(query(fabric, "portinfo", "0,1").succeeded());
        assertTrue(query(fabric, "nodeinfo", "0,1").succeeded());
    }

    @Test
    @SimulatedFabric(topology = "single-switch")
    void errorOnASwitchsPort0SilencesTheSwitch(Fabric fabric) {
        fabric.error("sw1", 0, 100);

        assertFalse(query(fabric, "nodeinfo", "0").succeeded());
    }

    @Test
    @SimulatedFabric(topology = "single-switch")
    void restartedSubnetManagerAnswersAgainAndAStoppedOneDoesNot(Fabric fabric) {
        ProcessHandle first = fabric.processes().getLast();

        fabric.restartSubnetManager();

        assertFalse(first.isAlive());
        assertEquals(2, fabric.processes().size());
        assertTrue(fabric.run("saquery", "NR", "1").succeeded());

        fabric.stopSubnetManager();

        assertEquals(1, fabric.processes().size());
        ToolResult away = fabric.runAt(null, Duration.ofSeconds(30), List.of("saquery", "NR", "1"));
        assertFalse(away.succeeded(), away.stdout());
        assertThrows(IllegalStateException.class, fabric::stopSubnetManager);

        fabric.startSubnetManager();

        assertTrue(fabric.run("saquery", "NR", "1").succeeded());
        assertThrows(IllegalStateException.class, fabric::startSubnetManager);
    }

    @Test
    @SimulatedFabric(topology = "two-switch")
    void aStandbySubnetManagerTakesOverWhenTheMasterStops(Fabric fabric) throws InterruptedException {
        fabric.startStandbySubnetManager("node03 HCA-1");
        assertEquals(3, fabric.processes().size());

        fabric.stopSubnetManager();

        // The standby takes over after two unanswered SMInfo polls, a second apart, and a sweep.
        Instant deadline = Instant.now().plusSeconds(60);
        ToolResult sm;
        while (true) {
            sm = fabric.runAt("node02 HCA-1", Duration.ofSeconds(10), List.of("sminfo"));
            if (sm.stdout().contains(STANDBY_GUID) || Instant.now().isAfter(deadline)) {
                break;
            }
            Thread.sleep(500);
        }
        assertTrue(sm.stdout().contains(STANDBY_GUID) && sm.stdout().contains("SMINFO_MASTER"), sm.stdout() + sm.stderr());
        assertTrue(fabric.runAt("node02 HCA-1", "saquery", "NR", "1").succeeded());
    }

    @Test
    @SimulatedFabric(topology = "single-switch", subnetManager = false)
    void argumentsAreCheckedBeforeIbsimSeesThem(Fabric fabric) {
        assertThrows(IllegalArgumentException.class, () -> fabric.unlink("no-such-node"));
        assertThrows(IllegalArgumentException.class, () -> fabric.unlink("sw1", 9));
        assertThrows(IllegalArgumentException.class, () -> fabric.unlink("sw1", 0));
        assertThrows(IllegalArgumentException.class, () -> fabric.error("sw1", 1, 101));
        assertThrows(IllegalArgumentException.class, () -> fabric.error("sw1", 1, -1));
        assertThrows(IllegalArgumentException.class, () -> fabric.error(NODE01, 0, 10));
        assertThrows(IllegalArgumentException.class, () -> fabric.baselid(NODE01, 1, 0xC000));
        assertThrows(IllegalArgumentException.class, () -> fabric.performanceSet("sw1", 1, "PortCounters", "X=1\nQuit", 1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> fabric.relink("sw9"));
        assertTrue(e.getMessage().contains("sw9"), e.getMessage());
        assertThrows(IllegalStateException.class, fabric::restartSubnetManager);
    }

    @Test
    @SimulatedFabric(topology = "single-switch", subnetManager = false)
    void whatIbsimRefusesFailsWithIbsimsReason(Fabric fabric) {
        FabricException e = assertThrows(FabricException.class, () -> fabric.relink("sw1", 1));
        assertTrue(e.getMessage().contains("no previous link stored"), e.getMessage());

        fabric.unlink("sw1", 1);
        e = assertThrows(FabricException.class, () -> fabric.unlink("sw1", 1));
        assertTrue(e.getMessage().contains("is not linked"), e.getMessage());
        fabric.relink("sw1", 1); // the console is still in step after a refusal
        assertTrue(query(fabric, "nodeinfo", "0,1").succeeded());
    }

    private static ToolResult query(Fabric fabric, String attribute, String path) {
        return fabric.runAt(null, Duration.ofSeconds(30), List.of("smpquery", "-D", attribute, path));
    }

    /** The channel adapters {@code ibnetdiscover} reaches from the first node. */
    private static int hcas(Fabric fabric) {
        return count(fabric.run("ibnetdiscover").orThrow().stdout(), "(?m)^Ca\\t");
    }
}

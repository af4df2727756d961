package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;

/**
 * ibportstate's Sets that change a port, made by one tool and read back with both (from sw1, the
 * fabric's first node, where both attach by default): ibtool
 * disables a switch port and the C tool sees it disabled, the C tool enables it again and ibtool
 * sees it polling; ibtool changes a CA port's operational VLs and smpquery reads them.
 */
@SimulatedFabric(topology = "two-switch")
class IbportstateStateChangeTest {
    private static final String DISABLED = "PhysLinkState:...................Disabled\n";
    private static final String POLLING = "PhysLinkState:...................Polling\n";

    @Test
    void aPortIbtoolDisablesIsDisabledForBothToolsAndComesBackWhenTheCToolEnablesIt(Fabric fabric) {
        IbtoolRun disable = IbtoolRun.of("ibportstate", "--sim", fabric.socketName(), "-D", "0,7", "2", "disable");
        assertEquals(0, disable.exitCode(), disable.err());
        assertTrue(disable.out().contains("Disable may be irreversible\n\nAfter PortInfo set:\n"), disable.out());
        String c = fabric.run("ibportstate", "-D", "0,7", "2").stdout();
        assertTrue(c.contains(DISABLED), c);
        AgainstC.run(fabric, "ibportstate", "-D", "0,7", "2").assertSame();

        assertEquals(0, fabric.run("ibportstate", "-D", "0,7", "2", "enable").exitCode());
        IbtoolRun after = IbtoolRun.of("ibportstate", "--sim", fabric.socketName(), "-D", "0,7", "2");
        assertTrue(after.out().contains(POLLING), after.out());
        AgainstC.run(fabric, "ibportstate", "-D", "0,7", "2").assertSame();
    }

    @Test
    void operationalVlsIbtoolSetsAreWhatSmpqueryReads(Fabric fabric) {
        IbtoolRun set = IbtoolRun.of("ibportstate", "--sim", fabric.socketName(), "6", "1", "vls", "2");
        assertEquals(0, set.exitCode(), set.err());
        assertTrue(fabric.run("smpquery", "portinfo", "6", "1").stdout().contains("OperVLs:.........................VL0-1\n"));
        assertEquals(0, fabric.run("ibportstate", "6", "1", "vls", "4").exitCode());
        IbtoolRun read = IbtoolRun.of("smpquery", "--sim", fabric.socketName(), "portinfo", "6", "1");
        assertTrue(read.out().contains("OperVLs:.........................VL0-7\n"), read.out());
    }
}

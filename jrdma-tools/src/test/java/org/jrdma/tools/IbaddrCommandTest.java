package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code ibtool ibaddr} against infiniband-diags' ibaddr on the same fat tree: identical standard
 * output and exit status, attached at the spine switch and at an HCA, for the local port and for
 * ports named by LID, directed route and GUID.
 */
@SimulatedFabric(topology = "fat-tree")
class IbaddrCommandTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "", "-g", "-l", "-L", "-g -l", "-g -L", "4", "0x4", "1", "13 1", "3 5", "-g 4", "-l 4", "-L 4",
        "-D 0", "-D 0,1", "-D 0,1,2 -L", "-G 0x0002c90300001011", "-G 0x0002c90300000a14 -g"})
    void printsWhatTheCToolPrints(String args, Fabric fabric) {
        String[] argv = args.isEmpty() ? new String[0] : args.split(" ");
        AgainstC.run(fabric, "ibaddr", argv).assertSame();
        AgainstC.runAt(fabric, "node05 HCA-1", "ibaddr", argv).assertSame();
    }

    @Test
    void anUnansweredLidFailsAsTheCToolDoes(Fabric fabric) {
        AgainstC run = AgainstC.run(fabric, "ibaddr", "-t", "200", "99").assertSame();
        assertEquals("can't resolve requested address", run.cError());
    }

    @Test
    void badAddressesFailAsTheCToolFails() {
        IbtoolRun lid = IbtoolRun.of("ibaddr", "--sim", "x", "0x10000");
        assertEquals(255, lid.exitCode());
        assertEquals("ibaddr: iberror: failed: can't resolve destination port 0x10000\n", lid.out());
        assertTrue(lid.err().contains("\"0x10000\""), "jrdma's explanation: " + lid.err());

        IbtoolRun portNumber = IbtoolRun.of("ibaddr", "--sim", "x", "4", "300");
        assertEquals(255, portNumber.exitCode());
        assertEquals("ibaddr: iberror: failed: can't resolve requested address\n", portNumber.out());
        assertTrue(portNumber.err().contains("PORTNUM 300 outside 0..254"), portNumber.err());
    }
}

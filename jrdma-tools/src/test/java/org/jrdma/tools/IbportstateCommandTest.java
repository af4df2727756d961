package org.jrdma.tools;

import java.util.List;
import java.util.stream.Stream;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code ibtool ibportstate} against infiniband-diags' ibportstate on one simulated fabric
 * ({@link AgainstC}): queries of CA and switch ports by LID, directed route and GUID (a switch port's
 * peer included, which ibsim does not answer through a LID-then-directed route), the Sets that leave
 * the port as it was (so that both runs start from the same state), and the failures: bad values,
 * bad operations, unknown LIDs, dead routes, ports the node does not have. Sets that change the
 * port are in {@link IbportstateStateChangeTest}.
 */
@SimulatedFabric(topology = "two-switch")
class IbportstateCommandTest {
    private static final List<String> CASES = List.of(
            "3 1", "1 0", "2 0", "-D 0 1", "-K 3 1", "-D 0,1 7", "-D 0,1 1", "-D 0,1,7 2", "1 7", "-L 3 1", "6 1 query",
            "-G 0x0002c90300001031 1", "-s 1 -G 0x0002c90300001041 1",
            // Sets that write back what the port has
            "3 1 speed 1", "3 1 fdr10 1", "3 1 width 2", "3 1 lmc 0", "3 1 vls 4", "-D 0 1 mtu 4", "3 1 mkeylease 4089",
            "-K 3 1 mkey 0", "1 0 mkeyprot 0", "3 1 on", "3 1 query speed 1", "-D 0,1 0 smlid 1 lid 1",
            // failures
            "3 1 speed 99", "3 1 bogus", "3 1 query enable", "3 1 lid", "40 1", "abc 1", "-D 0,99 1", "3 9", "1 9",
            "3 1 mkey xyz", "1 3 mkey 1", "3 1 espeed 40", "3 1 width 32", "3 1 vls 0", "3 1 mtu 6", "3 1 lid 0xc000",
            "3 1 smlid 0", "3 1 lmc 8", "3 1 mkeylease 70000", "3 1 mkeyprot 4", "3 1 fdr10 2", "-G 0x0002c903000010ff 1",
            "-G xyz 1");

    @TestFactory
    Stream<DynamicTest> sameOutputAsTheCTool(Fabric fabric) {
        return CASES.stream().map(line -> DynamicTest.dynamicTest(line,
                () -> AgainstC.runAt(fabric, "node01 HCA-1", "ibportstate", line.split(" ")).assertSame()));
    }

    /** From a switch, whose own port 0 is the local port: by LID, by directed route, a peer's failure. */
    @TestFactory
    Stream<DynamicTest> sameOutputAtASwitch(Fabric fabric) {
        return Stream.of("0 1", "0 7", "1 1", "-D 0,7 0").map(line -> DynamicTest.dynamicTest(line,
                () -> AgainstC.runAt(fabric, "sw1", "ibportstate", line.split(" ")).assertSame()));
    }
}

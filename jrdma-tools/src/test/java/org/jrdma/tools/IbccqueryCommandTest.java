package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code ibtool ibccquery} against infiniband-diags' ibccquery on the same fat tree (attached at
 * spine1, LID 1; LID 4 is node01's HCA). ibsim has no congestion control agent: it hands a CC MAD
 * to the SMP handler of the same attribute number (0x21 & 0xf is the LID-routed SMP class), whose
 * answer echoes the request with that handler's status, so CongestionInfo, CongestionKeyInfo,
 * SwitchCongestionSetting, SwitchPortCongestionSetting, CACongestionSetting and the
 * CongestionControlTable answer zeros, Timestamp a status error, and ClassPortInfo and
 * CongestionLog no answer: every one printed, or failing, as the C tool's does.
 */
@SimulatedFabric(topology = "fat-tree")
class IbccqueryCommandTest {

    @ParameterizedTest
    @ValueSource(strings = {"CP 1", "CI 1", "ci 4", "CongestionInfo 1", "CK 1", "-c 5 CK 2", "CL 1", "SS 1", "SP 1", "SP 1 3", "SP 1 30",
        "SwitchPortCongestionSetting 2 8", "SP 4", "CS 1", "CS 4", "CT 1", "TI 1", "TI 4", "foo 1", "CI x", "CI 0", "-t 200 CI 1"})
    void answersAsTheCToolDoes(String args, Fabric fabric) {
        AgainstC.run(fabric, "ibccquery", args.split(" ")).assertSame();
    }

    @Test
    void everySwitchPortIsListed(Fabric fabric) {
        String out = AgainstC.run(fabric, "ibccquery", "SP", "1").assertSame().ours().out();
        assertTrue(out.startsWith("# SwitchPortCongestionSetting: Lid 1\nPort:............................0\nValid:...........................0\n"),
                out);
        assertTrue(out.contains("Port:............................8\n"), out);
    }

    @Test
    void aPortPastTheSwitchsLastIsRefused(Fabric fabric) {
        AgainstC run = AgainstC.run(fabric, "ibccquery", "SP", "1", "30").assertSame();
        assertEquals("# SwitchPortCongestionSetting: Lid 1\nibccquery: iberror: failed: operation SP: invalid port number specified\n",
                run.ours().out());
    }

    @Test
    void badOptionsHelpAndVersionAnswerAsTheCToolDoes(Fabric fabric) {
        for (String[] args : new String[][] {{"CI"}, {}, {"-Q", "CI", "1"}, {"-c"}, {"-h"}}) {
            AgainstC.run(fabric, "ibccquery", args).assertUsageError();
        }
        IbtoolRun version = IbtoolRun.of("ibccquery", "-V");
        assertEquals(0, version.exitCode());
        assertEquals("ibccquery BUILD VERSION: jrdma ibtool 0.1.0\n", version.err());
    }
}

package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code ibtool vendstat} against infiniband-diags' vendstat on the same fat tree (attached at
 * spine1). ibsim serves no Mellanox vendor class: each query fails as the C tool's fails, with
 * the same lines on standard error, {@code -N}/{@code -w} with {@code classportinfo query} (255),
 * {@code -i}, {@code -c}, {@code -R} and {@code -W} with their failure lines and status 0; and the
 * argument checks, usage errors, {@code -h} and {@code -V} answer as the C tool's do.
 */
@SimulatedFabric(topology = "fat-tree")
class VendstatCommandTest {

    @ParameterizedTest
    @ValueSource(strings = {"-N 1", "-w 4", "-N -w 2", "-N", "1", "-i 1 2", "-i", "-c 0,1 1 3", "-c 2,8 6 12", "-R 0x100 2",
        "-R 0x100,0xff -R 5 2", "-W 0x10,5 2", "-W 0x10,5,7 -R 3 1", "-N x", "-i 0"})
    void answersAsTheCToolDoes(String args, Fabric fabric) {
        AgainstC.run(fabric, "vendstat", args.split(" ")).assertSame();
    }

    @Test
    void theQueriesThatFailAreToldOnStandardError(Fabric fabric) {
        AgainstC run = AgainstC.run(fabric, "vendstat", "-i", "1", "2").assertSame();
        assertEquals(0, run.ours().exitCode());
        assertTrue(run.ours().err().contains("vendstat: method 1, attribute 144 failure\ncounter group info query failure\n"), run.ours().err());
        AgainstC classPortInfo = AgainstC.run(fabric, "vendstat", "-N", "1").assertSame();
        assertEquals("vendstat: iberror: failed: classportinfo query\n", classPortInfo.ours().out());
    }

    @Test
    void badArgumentsHelpAndVersionAnswerAsTheCToolDoes(Fabric fabric) {
        for (String[] args : new String[][] {{"-c", "3", "1"}, {"-R", "zz", "1"}, {"-W", "5", "1"}, {"-Q", "1"}, {"-c"}, {"-h"}}) {
            AgainstC.run(fabric, "vendstat", args).assertUsageError();
        }
        IbtoolRun version = IbtoolRun.of("vendstat", "-V");
        assertEquals(0, version.exitCode());
        assertEquals("vendstat BUILD VERSION: jrdma ibtool 0.1.0\n", version.err());
    }
}

package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code ibtool ibhosts}, {@code ibswitches}, {@code ibrouters} and {@code ibnodes} against
 * infiniband-diags' scripts of the same names: on the fat tree (discovered from a switch and from
 * an HCA), and on a hand-written topology file whose odd lines exercise the scripts' awk rules.
 */
@SimulatedFabric(topology = "fat-tree")
class NodeListCommandTest {
    /** Lines the scripts' awk programs treat specially: enhanced port 0, no port 0 tail, "port 0" in a description, diagnostics. */
    private static final String ODD_TOPOLOGY = """
            switchguid=0x2c90300000a01(2c90300000a01)
            Switch\t24 "S-0002c90300000a01"\t\t# "core" enhanced port 0 lid 1 lmc 0
            [1]\t"H-0002c90300001010"[1](2c90300001011) \t\t# "node01 HCA-1" lid 4 4xSDR
            Switch\t8 "S-0002c90300000a02"\t\t# "edge port 0 rack 3" base port 0 lid 2 lmc 1
            Switch\t8 "S-0002c90300000a03"\t\t# "no tail at all"
            Switch  36   "S-0002c90300000a04"   #"spaced"   base port 0 lid 9 lmc 0
            Ca\t2 "H-0002c90300001010"\t\t# "node01 HCA-1"
            Ca\t1 "H-0002c90300001020"\t# "ibwarn: in a description"
            Rt\t1 "R-0002c90300002010"\t\t# "router one"
            ibwarn: [123] a warning ibnetdiscover printed
            something iberror: failed: and ibpanic: on one line
            Ca 1 "H-short"
            """;

    @ParameterizedTest
    @ValueSource(strings = {"ibhosts", "ibswitches", "ibrouters", "ibnodes"})
    void printsWhatTheScriptPrints(String tool, Fabric fabric) {
        AgainstC.run(fabric, tool).assertSame();
        AgainstC.runAt(fabric, "node05 HCA-1", tool).assertSame();
    }

    @ParameterizedTest
    @ValueSource(strings = {"ibhosts", "ibswitches", "ibrouters", "ibnodes"})
    void readsATopologyFileAsTheScriptDoes(String tool, Fabric fabric, @TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("odd.topo"), ODD_TOPOLOGY);
        AgainstC run = AgainstC.run(fabric, tool, file.toString()).assertSame();
        assertTrue(!run.ours().out().isEmpty(), "the odd topology has lines for every script");
    }

    @ParameterizedTest
    @ValueSource(strings = {"ibhosts", "ibswitches", "ibrouters", "ibnodes"})
    void aMissingTopologyFileIsBadInput(String tool, @TempDir Path dir) {
        IbtoolRun run = IbtoolRun.of(tool, dir.resolve("none.topo").toString());
        assertEquals(2, run.exitCode());
        assertTrue(run.err().contains("cannot read topology file"), run.err());
    }
}

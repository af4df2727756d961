package org.jrdma.testkit.junit;

import static org.jrdma.testkit.junit.SimulatedFabricTest.field;
import static org.jrdma.testkit.junit.SimulatedFabricTest.count;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.FabricException;
import org.jrdma.testkit.fabric.ToolResult;
import org.jrdma.testkit.fabric.Topology;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Starting, running side by side, failing and stopping simulated fabrics. */
class FabricLifecycleTest {

    @BeforeEach
    void requireIbsim() {
        Peers.require(Fabric.isAvailable(), Fabric.unavailabilityCause().orElse(""));
    }

    @Test
    void closeStopsEveryProcessAndDeletesTheWorkingFolder() {
        Fabric fabric = Fabric.start(Topology.bundled("single-switch"));
        List<ProcessHandle> processes = fabric.processes();
        assertEquals(2, processes.size(), "ibsim and OpenSM");
        assertTrue(processes.stream().allMatch(ProcessHandle::isAlive));

        fabric.close();

        assertTrue(processes.stream().noneMatch(ProcessHandle::isAlive));
        assertFalse(Files.exists(fabric.workDir()));
        fabric.close(); // idempotent
        assertThrows(IllegalStateException.class, () -> fabric.run("smpquery", "-D", "nodeinfo", "0"));
    }

    /**
     * ibsim prints "Network simulator ready" before it binds its control socket; a client that
     * connected on seeing the line was once refused in CI. The window is microseconds, so this
     * guards the contract (the socket is bound when start returns) rather than replaying the race.
     */
    @Test
    void startReturnsOnlyOnceIbsimsControlSocketIsBound() throws Exception {
        Fabric.Options noSm = Fabric.Options.defaults().withSubnetManager(false);
        for (int i = 0; i < 5; i++) {
            try (Fabric fabric = Fabric.start(Topology.bundled("single-switch"), noSm)) {
                // /proc/net/unix shows an abstract name with a leading @, and its NUL padding as @s.
                String ctl = "@" + fabric.socketName() + ":ctl";
                assertTrue(Files.readAllLines(Path.of("/proc/net/unix")).stream()
                        .anyMatch(line -> line.matches(".* " + Pattern.quote(ctl) + "@*")), ctl + " is not bound");
            }
        }
    }

    @Test
    void twoFabricsRunSideBySideWithoutSeeingEachOther() {
        Fabric.Options noSm = Fabric.Options.defaults().withSubnetManager(false);
        try (Fabric small = Fabric.start(Topology.bundled("single-switch"), noSm);
                Fabric tree = Fabric.start(Topology.bundled("fat-tree"), noSm)) {
            assertNotEquals(small.socketName(), tree.socketName());
            assertEquals("sw1", field(small.run("smpquery", "-D", "nodedesc", "0").orThrow().stdout(), "Node Description"));
            assertEquals("spine1", field(tree.run("smpquery", "-D", "nodedesc", "0").orThrow().stdout(), "Node Description"));
        }
    }

    @Test
    void withoutASubnetManagerDirectedRoutesWorkButTheSaDoesNot() {
        try (Fabric fabric = Fabric.start(Topology.bundled("single-switch"), Fabric.Options.defaults().withSubnetManager(false))) {
            assertEquals(1, fabric.processes().size());
            assertTrue(fabric.run("smpquery", "-D", "nodeinfo", "0").succeeded());
            ToolResult sa = fabric.runAt(null, Duration.ofSeconds(30), List.of("saquery", "NR", "1"));
            assertFalse(sa.succeeded(), sa.stdout());
        }
    }

    @Test
    void aFatTreeComesUpCompletely() {
        try (Fabric fabric = Fabric.start(Topology.bundled("fat-tree"))) {
            String out = fabric.run("ibnetdiscover").orThrow().stdout();
            assertEquals(6, count(out, "(?m)^Switch\\t8 "));
            assertEquals(8, count(out, "(?m)^Ca\\t1 "));
        }
    }

    @Test
    void aTopologyIbsimRejectsFailsLoudlyWithIbsimsReason() {
        // Both ends of a link must agree on its enabled width; ibsim refuses the mismatch.
        Topology bad = Topology.parse("mismatched-width", """
                switchguid=0x0000000000000a01
                Switch\t2 "sw"
                [1]\t"ca"[1]\tw=4

                caguid=0x0000000000001000
                Ca\t1 "ca"
                [1]\t"sw"[1]\tw=1
                """, null);

        FabricException e = assertThrows(FabricException.class, () -> Fabric.start(bad));

        assertTrue(e.getMessage().contains("ibsim exited"), e.getMessage());
        assertTrue(e.getMessage().contains("mismatched enabled width"), e.getMessage());
    }

    @Test
    void startupThatTakesTooLongFailsInsteadOfHanging() {
        Fabric.Options impatient = new Fabric.Options(true, Duration.ofMillis(1), Duration.ofMinutes(1));
        long start = System.nanoTime();

        FabricException e = assertThrows(FabricException.class, () -> Fabric.start(Topology.bundled("fat-tree"), impatient));

        assertTrue(e.getMessage().contains("not ready within"), e.getMessage());
        assertTrue(System.nanoTime() - start < Duration.ofSeconds(20).toNanos());
    }
}

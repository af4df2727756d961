package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.fabric.ToolResult;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;

/**
 * {@code ibtool ibsysstat} against infiniband-diags' ibsysstat on one simulated fabric, both ways
 * round: ibtool serving ({@code -S}, a process of its own at node03, LID 5, bounded in time) gives
 * the C client and ibtool's the same ping, host and CPU answers; against the C server (node02,
 * LID 4) both clients fail alike, libumad2sim not handing ibsim's requests to a C agent. Failures
 * and bad command lines are compared as well.
 */
@SimulatedFabric(topology = "two-switch")
class IbsysstatCommandTest {
    private static final String CLIENT = "node01 HCA-1";

    @Test
    void bothClientsGetTheIbtoolServersAnswers(Fabric fabric) throws InterruptedException {
        CompletableFuture<IbtoolRun> server = IbtoolProcess.startAt(fabric, "node03 HCA-1", Duration.ofSeconds(45),
                "ibsysstat", "-S", "--sim", fabric.socketName(), "--sim-node", "node03 HCA-1");
        awaitServer(fabric, server);
        for (String line : List.of("5", "5 ping", "5 host", "5 cpu", "-o 0x1234 5 host", "-G 0x0002c90300001031 host",
                "-L 5 cpu")) {
            AgainstC.runAt(fabric, CLIENT, "ibsysstat", line.split(" ")).assertSame();
        }
        IbtoolRun host = IbtoolRun.of("ibsysstat", "--sim", fabric.socketName(), "--sim-node", CLIENT, "5", "host");
        assertEquals(HostName.hostAndDomain(216) + "\n", host.out());
        IbtoolRun cpu = IbtoolRun.of("ibsysstat", "--sim", fabric.socketName(), "--sim-node", CLIENT, "5", "cpu");
        assertTrue(cpu.out().startsWith("cpu 0: model "), cpu.out());
        assertTrue(!server.isDone() || server.join().exitCode() == ToolResult.TIMED_OUT, "the server serves until stopped");
    }

    @Test
    void againstTheCServerBothClientsFailAlike(Fabric fabric) {
        CompletableFuture<ToolResult> server = CompletableFuture.supplyAsync(
                () -> fabric.runAt("node02 HCA-1", Duration.ofSeconds(15), List.of("ibsysstat", "-S")),
                runnable -> Thread.ofVirtual().start(runnable));
        AgainstC run = AgainstC.runAt(fabric, CLIENT, "ibsysstat", "4", "host").assertSame();
        assertEquals(255, run.ours().exitCode());
        assertTrue(!server.isDone(), "the C server is still waiting");
    }

    @Test
    void failuresAndUsageAreTheCTools(Fabric fabric) {
        for (String line : List.of("40", "abc", "-G 0x0002c903000010ff", "-G xyz", "6 cpu")) {
            AgainstC.runAt(fabric, CLIENT, "ibsysstat", line.split(" ")).assertSame();
        }
        for (String line : List.of("", "-Z 5", "5 bogus", "-o", "-h")) {
            AgainstC run = AgainstC.runAt(fabric, CLIENT, "ibsysstat", line.isEmpty() ? new String[0] : line.split(" "));
            assertEquals(2, run.c().exitCode(), run.c().stderr());
            assertEquals(2, run.ours().exitCode(), run.ours().err());
            assertEquals("", run.ours().out());
            assertTrue(run.ours().err().startsWith(run.c().stderr().lines().findFirst().orElseThrow()), run.ours().err());
        }
    }

    private static void awaitServer(Fabric fabric, CompletableFuture<IbtoolRun> server) throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(30);
        while (Instant.now().isBefore(deadline)) {
            assertTrue(!server.isDone(), () -> "the server ended: " + server.join());
            IbtoolRun ping = IbtoolRun.of("ibsysstat", "--sim", fabric.socketName(), "--sim-node", CLIENT, "-t", "200", "5");
            if (ping.exitCode() == 0) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the ibtool server did not answer within 30 s");
    }
}

package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.jrdma.testkit.fabric.Fabric;
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
    private static final Duration SERVER_LIFETIME = Duration.ofSeconds(45);

    @Test
    void bothClientsGetTheIbtoolServersAnswers(Fabric fabric) throws InterruptedException {
        Process server = IbtoolProcess.startAt(fabric, "node03 HCA-1", SERVER_LIFETIME,
                IbtoolProcess.ibtool("ibsysstat", "-S", "--sim", fabric.socketName(), "--sim-node", "node03 HCA-1"));
        try {
            awaitServer(fabric, server);
            for (String line : List.of("5", "5 ping", "5 host", "5 cpu", "-o 0x1234 5 host", "-G 0x0002c90300001031 host",
                    "-L 5 cpu")) {
                AgainstC.runAt(fabric, CLIENT, "ibsysstat", line.split(" ")).assertSame();
            }
            IbtoolRun host = IbtoolRun.of("ibsysstat", "--sim", fabric.socketName(), "--sim-node", CLIENT, "5", "host");
            assertEquals(HostName.hostAndDomain(216) + "\n", host.out());
            IbtoolRun cpu = IbtoolRun.of("ibsysstat", "--sim", fabric.socketName(), "--sim-node", CLIENT, "5", "cpu");
            assertTrue(cpu.out().startsWith("cpu 0: model "), cpu.out());
            assertTrue(server.isAlive(), "the server serves until stopped");
        } finally {
            IbtoolProcess.stop(server);
        }
    }

    @Test
    void againstTheCServerBothClientsFailAlike(Fabric fabric) {
        Process server = IbtoolProcess.startAt(fabric, "node02 HCA-1", SERVER_LIFETIME, List.of("ibsysstat", "-S"));
        try {
            AgainstC run = AgainstC.runAt(fabric, CLIENT, "ibsysstat", "4", "host").assertSame();
            assertEquals(255, run.ours().exitCode());
            assertTrue(server.isAlive(), "the C server is still waiting");
        } finally {
            IbtoolProcess.stop(server);
        }
    }

    @Test
    void failuresAndUsageAreTheCTools(Fabric fabric) {
        for (String line : List.of("40", "abc", "-G 0x0002c903000010ff", "-G xyz", "6 cpu")) {
            AgainstC.runAt(fabric, CLIENT, "ibsysstat", line.split(" ")).assertSame();
        }
        for (String line : List.of("", "-Z 5", "5 bogus", "-o", "-h")) {
            AgainstC.runAt(fabric, CLIENT, "ibsysstat", line.isEmpty() ? new String[0] : line.split(" ")).assertUsageError();
        }
    }

    private static void awaitServer(Fabric fabric, Process server) throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(30);
        while (Instant.now().isBefore(deadline)) {
            assertTrue(server.isAlive(), "the server ended");
            IbtoolRun ping = IbtoolRun.of("ibsysstat", "--sim", fabric.socketName(), "--sim-node", CLIENT, "-t", "200", "5");
            if (ping.exitCode() == 0) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the ibtool server did not answer within 30 s");
    }
}

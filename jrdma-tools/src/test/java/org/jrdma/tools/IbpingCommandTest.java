package org.jrdma.tools;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;

/**
 * {@code ibtool ibping} against infiniband-diags' ibping on one simulated fabric, both ways round:
 * ibtool serving ({@code -S}, a process of its own at node03, LID 5, bounded in time) answers the C
 * client and ibtool's alike, with the same output but for the times; against the C server (at
 * node02, LID 4) both clients fail alike, because libumad2sim does not hand ibsim's requests to a
 * C agent (only a client that declared itself its port's SM gets them, which jrdma's ibsim transport
 * does). Failures and bad command lines are compared as well.
 */
@SimulatedFabric(topology = "two-switch")
class IbpingCommandTest {
    private static final String CLIENT = "node01 HCA-1";
    private static final Duration SERVER_LIFETIME = Duration.ofSeconds(45);

    @Test
    void bothClientsGetTheIbtoolServersPong(Fabric fabric) throws InterruptedException {
        Process server = IbtoolProcess.startAt(fabric, "node03 HCA-1", SERVER_LIFETIME,
                IbtoolProcess.ibtool("ibping", "-S", "--sim", fabric.socketName(), "--sim-node", "node03 HCA-1"));
        try {
            awaitServer(fabric, server);
            AgainstC run = AgainstC.runAt(fabric, CLIENT, "ibping", "-c", "2", "5").assertSame(IbpingCommandTest::maskTimes);
            assertTrue(run.ours().out().startsWith("Pong from " + HostName.hostAndDomain(216) + " (Lid 5): time "), run.ours().out());
            assertTrue(run.ours().out().contains("2 packets transmitted, 2 received, 0% packet loss"), run.ours().out());
            for (String line : List.of("-f -c 10 5", "-G -c 1 0x0002c90300001031", "-s 1 -G -c 1 0x0002c90300001031",
                    "-o 0x1234 -c 1 5", "-L -c 1 5")) {
                AgainstC.runAt(fabric, CLIENT, "ibping", line.split(" ")).assertSame(IbpingCommandTest::maskTimes);
            }
            assertTrue(server.isAlive(), "the server serves until stopped");
        } finally {
            IbtoolProcess.stop(server);
        }
    }

    @Test
    void againstTheCServerBothClientsFailAlike(Fabric fabric) {
        Process server = IbtoolProcess.startAt(fabric, "node02 HCA-1", SERVER_LIFETIME, List.of("ibping", "-S"));
        try {
            AgainstC run = AgainstC.runAt(fabric, CLIENT, "ibping", "-c", "2", "4").assertSame(IbpingCommandTest::maskTimes);
            assertTrue(run.ours().out().contains("2 packets transmitted, 0 received, 100% packet loss"), run.ours().out());
            assertTrue(server.isAlive(), "the C server is still waiting");
        } finally {
            IbtoolProcess.stop(server);
        }
    }

    @Test
    void failuresAndUsageAreTheCTools(Fabric fabric) {
        for (String line : List.of("-c 1 40", "abc", "-G -c 1 0x0002c903000010ff", "-G -c 1 xyz", "-f -c 2 6")) {
            AgainstC.runAt(fabric, CLIENT, "ibping", line.split(" ")).assertSame(IbpingCommandTest::maskTimes);
        }
        for (String line : List.of("", "-Z 5", "-c", "-h")) {
            AgainstC.runAt(fabric, CLIENT, "ibping", line.isEmpty() ? new String[0] : line.split(" ")).assertUsageError();
        }
    }

    /** Waits until the server answers a ping (its JVM takes a moment to start). */
    private static void awaitServer(Fabric fabric, Process server) throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(30);
        while (Instant.now().isBefore(deadline)) {
            assertTrue(server.isAlive(), "the server ended");
            IbtoolRun ping = IbtoolRun.of("ibping", "--sim", fabric.socketName(), "--sim-node", CLIENT, "-t", "200", "-f", "-c", "1", "5");
            if (ping.out().contains("1 received")) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the ibtool server did not answer within 30 s");
    }

    /** The round trips and the run's duration, which differ from run to run. */
    static String maskTimes(String out) {
        return out.replaceAll("time \\d+(\\.\\d+)? ms", "time <t> ms").replaceAll("(?m)^rtt min/avg/max = .*$", "rtt min/avg/max = <t>");
    }
}

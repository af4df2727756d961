package org.jrdma.examples;

import static org.jrdma.examples.Examples.concat;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

/**
 * The interoperability runs {@code InteropInVmTest} makes inside the soft-RoCE VM: each
 * {@linkplain Scenario scenario} is a server and a client on {@code rxe0}, the Java example and
 * the C tool, or two Java ones, run with {@link PeerPair}. Prints, for each, a block
 * {@code === SCENARIO name}, {@code --- server exit N} and its output, {@code --- client exit N}
 * and its output, {@code === END name}.
 */
public final class InteropInVm {
    private static final Duration TIMEOUT = Duration.ofMinutes(3);
    /** rxe0's address: rdma_cm ({@code -R}) resolves the server's IP address to the device, so not loopback. */
    private static final String RXE_ADDRESS = "10.0.0.1";

    /**
     * One run.
     *
     * @param name   what it shows
     * @param server the server command
     * @param client the client command, without the server's address
     */
    record Scenario(String name, List<String> server, List<String> client) {
    }

    private InteropInVm() {
    }

    /** Every scenario, each on its own TCP port from 19100. */
    static List<Scenario> scenarios() {
        List<String> rcJava = Examples.java(RcPingpong.class);
        List<String> bwJava = Examples.java(WriteBw.class);
        List<String> rcC = List.of("ibv_rc_pingpong");
        List<String> bwC = List.of("ib_write_bw");
        List<String> flowJava = Examples.java(RcFlow.class);
        List<String> udJava = Examples.java(UdPingpong.class);
        List<String> udC = List.of("ibv_ud_pingpong");
        List<String> rc = List.of("-d", "rxe0", "-g", "0", "-n", "1000");
        List<String> ud = List.of("-d", "rxe0", "-g", "0", "-s", "512", "-n", "100");
        List<String> bw = List.of("-d", "rxe0", "-x", "0", "-F", "-n", "1000");
        List<String> duration = List.of("-d", "rxe0", "-x", "0", "-F", "-D", "2", "--report_gbits", "-s", "4096");
        List<String> latJava = Examples.java(SendLat.class);
        List<String> latC = List.of("ib_send_lat");
        List<String> cm = List.of("-d", "rxe0", "-x", "0", "-F", "-R", "-n", "1000");
        List<String> sendBwJava = Examples.java(SendBw.class);
        List<String> sendBwC = List.of("ib_send_bw");
        List<String> cmQps = List.of("-d", "rxe0", "-x", "0", "-F", "-R", "-n", "200", "-q", "4");
        List<String> cmUd = List.of("-d", "rxe0", "-x", "0", "-F", "-R", "-n", "1000", "-c", "UD");
        return List.of(
                new Scenario("rc_pingpong: Java server (-c checks the data), C client",
                        concat(rcJava, rc, List.of("-c", "-p", "19101")), concat(rcC, rc, List.of("-c", "-p", "19101"))),
                new Scenario("rc_pingpong: C server (-c checks the data), Java client on completion events",
                        concat(rcC, rc, List.of("-c", "-p", "19102")),
                        concat(rcJava, rc, List.of("-c", "-e", "-p", "19102"))),
                new Scenario("ib_write_bw: Java server, C client",
                        concat(bwJava, bw, List.of("-p", "19103")), concat(bwC, bw, List.of("-p", "19103"))),
                new Scenario("ib_write_bw: C server, Java client",
                        concat(bwC, bw, List.of("-p", "19104")), concat(bwJava, bw, List.of("-p", "19104"))),
                new Scenario("ib_write_bw: C server, Java client, 2 s of 4 KiB writes in Gbit/s",
                        concat(bwC, duration, List.of("-p", "19105")), concat(bwJava, duration, List.of("-p", "19105"))),
                new Scenario("rc_flow: Java server, Java client (RDMA write and read, send/recv, atomics)",
                        concat(flowJava, List.of("--server", "-d", "rxe0", "-p", "19106")),
                        concat(flowJava, List.of("-d", "rxe0", "-p", "19106"))),
                new Scenario("ud_pingpong: Java server (-c checks the data), Java client",
                        concat(udJava, ud, List.of("-c", "-p", "19107")), concat(udJava, ud, List.of("-c", "-p", "19107"))),
                new Scenario("ud_pingpong: Java server (-c checks the data), C client",
                        concat(udJava, ud, List.of("-c", "-p", "19108")), concat(udC, ud, List.of("-c", "-p", "19108"))),
                new Scenario("ud_pingpong: C server (-c checks the data), Java client on completion events",
                        concat(udC, ud, List.of("-c", "-p", "19109")),
                        concat(udJava, ud, List.of("-c", "-e", "-p", "19109"))),
                new Scenario("ib_write_bw -R -q 4: Java server, C client",
                        concat(bwJava, cmQps, List.of("-p", "19110")), concat(bwC, cmQps, List.of("-p", "19110"))),
                new Scenario("ib_write_bw -R -q 4: C server, Java client",
                        concat(bwC, cmQps, List.of("-p", "19111")), concat(bwJava, cmQps, List.of("-p", "19111"))),
                new Scenario("ib_send_lat -R: Java server, C client",
                        concat(latJava, cm, List.of("-p", "19112")), concat(latC, cm, List.of("-p", "19112"))),
                new Scenario("ib_send_lat -R: C server, Java client",
                        concat(latC, cm, List.of("-p", "19113")), concat(latJava, cm, List.of("-p", "19113"))),
                new Scenario("ib_send_bw -R -q 4: Java server, C client",
                        concat(sendBwJava, cmQps, List.of("-p", "19114")), concat(sendBwC, cmQps, List.of("-p", "19114"))),
                new Scenario("ib_send_bw -R -q 4: C server, Java client",
                        concat(sendBwC, cmQps, List.of("-p", "19115")), concat(sendBwJava, cmQps, List.of("-p", "19115"))),
                new Scenario("ib_send_lat -R -c UD: Java server, C client",
                        concat(latJava, cmUd, List.of("-p", "19116")), concat(latC, cmUd, List.of("-p", "19116"))),
                new Scenario("ib_send_lat -R -c UD: C server, Java client",
                        concat(latC, cmUd, List.of("-p", "19117")), concat(latJava, cmUd, List.of("-p", "19117"))));
    }

    /**
     * Runs every scenario, or with arguments those whose name contains one, and prints its
     * block; the exit status is the number of failed runs.
     */
    public static void main(String[] args) {
        int failures = 0;
        for (Scenario scenario : scenarios()) {
            if (args.length > 0 && Stream.of(args).noneMatch(scenario.name()::contains)) {
                continue;
            }
            int port = Integer.parseInt(scenario.server().getLast());
            boolean rdmaCm = scenario.server().contains("-R");
            List<String> client = concat(scenario.client(), List.of(rdmaCm ? RXE_ADDRESS : "127.0.0.1"));
            PeerPair.Result result = Examples.runAndPrint(scenario.name(), scenario.server(), client, port, rdmaCm,
                    TIMEOUT);
            failures += result.succeeded() ? 0 : 1;
        }
        System.exit(failures);
    }
}

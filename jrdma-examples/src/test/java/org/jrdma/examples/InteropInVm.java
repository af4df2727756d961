package org.jrdma.examples;

import static org.jrdma.examples.Examples.concat;

import java.time.Duration;
import java.util.ArrayList;
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
        List<String> rc = List.of("-d", "rxe0", "-g", "0", "-n", "300");
        List<String> ud = List.of("-d", "rxe0", "-g", "0", "-s", "512", "-n", "100");
        List<String> bw = List.of("-d", "rxe0", "-x", "0", "-F", "-n", "300");
        List<String> duration = List.of("-d", "rxe0", "-x", "0", "-F", "-D", "2", "--report_gbits", "-s", "4096");
        List<String> latJava = Examples.java(SendLat.class);
        List<String> latC = List.of("ib_send_lat");
        List<String> cm = List.of("-d", "rxe0", "-x", "0", "-F", "-R", "-n", "300");
        List<String> sendBwJava = Examples.java(SendBw.class);
        List<String> sendBwC = List.of("ib_send_bw");
        List<String> cmQps = List.of("-d", "rxe0", "-x", "0", "-F", "-R", "-n", "200", "-q", "4");
        List<String> cmUd = List.of("-d", "rxe0", "-x", "0", "-F", "-R", "-n", "300", "-c", "UD");
        List<Scenario> all = new ArrayList<>();
        all.add(new Scenario("rc_pingpong: Java server (-c checks the data), C client",
                concat(rcJava, rc, List.of("-c", "-p", "19101")), concat(rcC, rc, List.of("-c", "-p", "19101"))));
        all.add(new Scenario("rc_pingpong: C server (-c checks the data), Java client on completion events",
                concat(rcC, rc, List.of("-c", "-p", "19102")),
                concat(rcJava, rc, List.of("-c", "-e", "-p", "19102"))));
        all.addAll(bothWays("ib_write_bw", bwJava, bwC, bw, 19103));
        all.add(new Scenario("ib_write_bw: C server, Java client, 2 s of 4 KiB writes in Gbit/s",
                concat(bwC, duration, List.of("-p", "19105")), concat(bwJava, duration, List.of("-p", "19105"))));
        all.add(new Scenario("rc_flow: Java server, Java client (RDMA write and read, send/recv, atomics)",
                concat(flowJava, List.of("--server", "-d", "rxe0", "-p", "19106")),
                concat(flowJava, List.of("-d", "rxe0", "-p", "19106"))));
        all.add(new Scenario("ud_pingpong: Java server (-c checks the data), Java client",
                concat(udJava, ud, List.of("-c", "-p", "19107")), concat(udJava, ud, List.of("-c", "-p", "19107"))));
        all.add(new Scenario("ud_pingpong: Java server (-c checks the data), C client",
                concat(udJava, ud, List.of("-c", "-p", "19108")), concat(udC, ud, List.of("-c", "-p", "19108"))));
        all.add(new Scenario("ud_pingpong: C server (-c checks the data), Java client on completion events",
                concat(udC, ud, List.of("-c", "-p", "19109")),
                concat(udJava, ud, List.of("-c", "-e", "-p", "19109"))));
        all.addAll(bothWays("ib_write_bw -R -q 4", bwJava, bwC, cmQps, 19110));
        all.addAll(bothWays("ib_send_lat -R", latJava, latC, cm, 19112));
        all.addAll(bothWays("ib_send_bw -R -q 4", sendBwJava, sendBwC, cmQps, 19114));
        all.addAll(bothWays("ib_send_lat -R -c UD", latJava, latC, cmUd, 19116));
        return all;
    }

    /**
     * The two runs of a perftest program: the Java one as server with the C client on
     * {@code port}, then the C server with the Java client on {@code port + 1}.
     */
    private static List<Scenario> bothWays(String tool, List<String> java, List<String> c, List<String> options,
            int port) {
        List<String> first = List.of("-p", Integer.toString(port));
        List<String> second = List.of("-p", Integer.toString(port + 1));
        return List.of(new Scenario(tool + ": Java server, C client", concat(java, options, first), concat(c, options, first)),
                new Scenario(tool + ": C server, Java client", concat(c, options, second), concat(java, options, second)));
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

package org.jrdma.examples;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.examples.cm.EchoClient;
import org.jrdma.examples.cm.EchoServer;
import org.jrdma.examples.cm.Rping;

/**
 * Runs one example program as a server and a client, two processes on this machine, with
 * {@link PeerPair} (the client once the server listens on TCP port {@value #PORT}, each pinned to
 * a CPU), prints both outputs, and exits 0 when both sides succeeded. {@code bin/examples} runs it
 * in the soft-RoCE VM:
 *
 * <pre>
 * Examples rc-flow [ARGS]        RcFlow --server  /  RcFlow 127.0.0.1 (the tutorial's RC flow)
 * Examples ud-pingpong [ARGS]    UdPingpong  /  UdPingpong 127.0.0.1
 * Examples ud-pingpong-c [ARGS]  UdPingpong  /  C ibv_ud_pingpong 127.0.0.1
 * Examples rc-pingpong [ARGS]    RcPingpong  /  C ibv_rc_pingpong 127.0.0.1
 * Examples write-bw [ARGS]       WriteBw  /  C ib_write_bw 127.0.0.1
 * Examples send-bw [ARGS]        SendBw -R  /  C ib_send_bw -R 10.0.0.1
 * Examples send-lat [ARGS]       SendLat -R  /  C ib_send_lat -R 10.0.0.1
 * Examples rc-flow-cm [ARGS]     RcFlow --server -R  /  RcFlow -R 10.0.0.1 (the RC flow over rdma_cm)
 * Examples rping [ARGS]          Rping -s -v  /  Rping -c -v -V -C 10 -a 10.0.0.1
 * Examples rping-c [ARGS]        Rping -s -v  /  C rping -c -v -V -C 10 -a 10.0.0.1
 * Examples echo [ARGS]           EchoServer -C 1  /  EchoClient -v -a 10.0.0.1
 * </pre>
 *
 * ARGS go to both sides, replacing the defaults ({@code -d rxe0 -g 0 -s 512 -n 100 -c} for the UD
 * ping-pong, {@code -d rxe0 -g 0 -n 100} for the RC one, {@code -d rxe0 -x 0 -F -n 1000} for
 * the bandwidth; RcFlow gets {@code -d rxe0} and ARGS); for perftest's sends over rdma_cm they
 * are added to both sides' {@code -d rxe0 -x 0 -F -R -n 1000} (for example {@code -c UD} or
 * {@code -q 4}), the client connecting to rxe0's address; for rping, the echo client and the RC flow
 * over rdma_cm they are added to the client's options (and to rping's server's), which connect
 * with rdma_cm to rxe0's address {@value #RXE_ADDRESS}; do not pass a port.
 */
public final class Examples {
    /** The TCP port of every example's exchange, the C tools' default. */
    static final int PORT = 18515;
    /** rxe0's address in the VM, which rdma_cm resolves to the device. */
    static final String RXE_ADDRESS = "10.0.0.1";
    private static final Duration TIMEOUT = Duration.ofMinutes(10);
    private static final String USAGE =
            "usage: Examples rc-flow|ud-pingpong|ud-pingpong-c|rc-pingpong|write-bw|send-bw|send-lat|rc-flow-cm|rping|rping-c|echo [ARGS]";

    private Examples() {
    }

    public static void main(String[] args) {
        if (args.length == 0) {
            System.err.println(USAGE);
            System.exit(2);
        }
        List<String> given = List.of(args).subList(1, args.length);
        List<String> server;
        List<String> client;
        List<String> host = List.of("127.0.0.1");
        boolean rdmaCm = false;
        switch (args[0]) {
            case "rc-flow" -> {
                server = concat(java(RcFlow.class), List.of("--server", "-d", "rxe0"), given);
                client = concat(java(RcFlow.class), List.of("-d", "rxe0"), given);
            }
            case "ud-pingpong", "ud-pingpong-c" -> {
                List<String> options = given.isEmpty() ? List.of("-d", "rxe0", "-g", "0", "-s", "512", "-n", "100", "-c") : given;
                server = concat(java(UdPingpong.class), options);
                client = concat(args[0].endsWith("-c") ? List.of("ibv_ud_pingpong") : java(UdPingpong.class), options);
            }
            case "rc-pingpong" -> {
                List<String> options = given.isEmpty() ? List.of("-d", "rxe0", "-g", "0", "-n", "100") : given;
                server = concat(java(RcPingpong.class), options);
                client = concat(List.of("ibv_rc_pingpong"), options);
            }
            case "write-bw" -> {
                List<String> options = given.isEmpty() ? List.of("-d", "rxe0", "-x", "0", "-F", "-n", "1000") : given;
                server = concat(java(WriteBw.class), options);
                client = concat(List.of("ib_write_bw"), options);
            }
            case "send-bw", "send-lat" -> {
                List<String> options = concat(List.of("-d", "rxe0", "-x", "0", "-F", "-R", "-n", "1000"), given);
                boolean bw = args[0].equals("send-bw");
                server = concat(java(bw ? SendBw.class : SendLat.class), options);
                client = concat(List.of(bw ? "ib_send_bw" : "ib_send_lat"), options);
                host = List.of(RXE_ADDRESS);
                rdmaCm = true;
            }
            case "rc-flow-cm" -> {
                server = concat(java(RcFlow.class), List.of("--server", "-R"), given);
                client = concat(java(RcFlow.class), List.of("-R"), given);
                host = List.of(RXE_ADDRESS);
                rdmaCm = true;
            }
            case "rping", "rping-c" -> {
                server = concat(java(Rping.class), List.of("-s", "-v"), given, List.of("-p", Integer.toString(PORT)));
                client = concat(args[0].endsWith("-c") ? List.of("rping") : java(Rping.class),
                        List.of("-c", "-v", "-V", "-C", "10", "-a", RXE_ADDRESS), given, List.of("-p", Integer.toString(PORT)));
                host = List.of();
                rdmaCm = true;
            }
            case "echo" -> {
                server = concat(java(EchoServer.class), List.of("-C", "1", "-p", Integer.toString(PORT)));
                client = concat(java(EchoClient.class), List.of("-v", "-a", RXE_ADDRESS), given,
                        List.of("-p", Integer.toString(PORT)));
                host = List.of();
                rdmaCm = true;
            }
            default -> {
                System.err.println(USAGE);
                System.exit(2);
                return;
            }
        }
        PeerPair.Result result = runAndPrint(args[0], server, concat(client, host), PORT, rdmaCm, TIMEOUT);
        System.exit(result.succeeded() ? 0 : 1);
    }

    /**
     * The command that runs {@code main}'s {@code main} with this JVM's {@code java} and class path,
     * interpreted only ({@code -Xint}): these runs show behaviour, not speed (the benchmarks choose
     * their own flags), they are short, and under the VM's emulation compiling is dearer than
     * interpreting them. C2's compilations took about 40 % of a scenario's time (InteropInVm's
     * rc_flow 76 s against 45 s with C1 only), and C1's a quarter of a short run's: {@code ibtool
     * ibv_devices} in the VM took 7.9 and 9.2 s with C1 only, 6.3 and 5.6 s with {@code -Xint}.
     * Measured on the tests (one run each way, session 20): CmExamplesInVm 257 s with C1, 219 s
     * interpreted (seven of its eight Java scenarios faster); InteropInVm 406 and 401 s, its short
     * runs faster, the heavier ones slower (rc_flow 40 s against 51, the UD ping-pongs by 4–5 s).
     */
    static List<String> java(Class<?> main) {
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC", "-Xint", "-cp",
                System.getProperty("java.class.path"), main.getName());
    }

    /**
     * Runs {@code server} and {@code client} as a {@link PeerPair} and prints the block
     * {@code === SCENARIO name}, each side's exit status, command line and output, {@code === END name},
     * then {@code === TOOK <ms> ms: name}, the pair's wall time.
     */
    static PeerPair.Result runAndPrint(String name, List<String> server, List<String> client, int port, Duration timeout) {
        return runAndPrint(name, server, client, port, false, timeout);
    }

    /** As {@link #runAndPrint(String, List, List, int, Duration)}, the server listening with rdma_cm when {@code rdmaCm}. */
    static PeerPair.Result runAndPrint(String name, List<String> server, List<String> client, int port, boolean rdmaCm,
            Duration timeout) {
        long start = System.nanoTime();
        PeerPair.Result result = PeerPair.run(server, client, port, rdmaCm, timeout);
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.println("=== SCENARIO " + name);
        System.out.println("--- server exit " + result.serverExit() + ": " + String.join(" ", server));
        System.out.print(result.serverOutput());
        System.out.println("--- client exit " + result.clientExit() + ": " + String.join(" ", client));
        System.out.print(result.clientOutput());
        System.out.println("=== END " + name);
        System.out.println("=== TOOK " + millis + " ms: " + name);
        return result;
    }

    @SafeVarargs
    static List<String> concat(List<String>... parts) {
        List<String> all = new ArrayList<>();
        for (List<String> part : parts) {
            all.addAll(part);
        }
        return all;
    }
}

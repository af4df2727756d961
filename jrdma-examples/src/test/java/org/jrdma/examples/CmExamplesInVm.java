package org.jrdma.examples;

import static org.jrdma.examples.Examples.concat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jrdma.examples.cm.EchoClient;
import org.jrdma.examples.cm.EchoServer;
import org.jrdma.examples.cm.Rping;

/**
 * The runs {@code CmExamplesInVmTest} makes inside the soft-RoCE VM (with {@code rdma_ucm}): the
 * Java {@link Rping} against C {@code rping} each way round (and C against C, the reference),
 * with {@code -q} and with a persistent Java server; the Java and the C client against a port
 * nobody listens on; {@link EchoServer} with {@link EchoClient}; and {@link RcFlow} over rdma_cm
 * ({@code -R}). Prints a block per {@linkplain Scenario scenario} as {@link InteropInVm} does
 * ({@code --- server exit} / {@code --- client exit}); a single command's block has
 * {@code --- exit N: command} and its output.
 */
public final class CmExamplesInVm {
    private static final Duration TIMEOUT = Duration.ofMinutes(3);
    /** rxe0's address: rdma_cm resolves it to the device. */
    static final String RXE_ADDRESS = "10.0.0.1";
    /** Pings per rping run, and their size. */
    static final String COUNT = "10";
    static final String SIZE = "100";
    /** Messages the echo client sends. */
    static final int ECHOES = 100;
    /** The file the persistent server's two clients leave when both are done. */
    private static final String DONE = "/tmp/rping-persistent.done";

    /**
     * One run: a server and a client (the server listening with rdma_cm on {@code port}), or with
     * {@code server} null a single command.
     */
    record Scenario(String name, int port, List<String> server, List<String> client) {
    }

    private CmExamplesInVm() {
    }

    static List<Scenario> scenarios() {
        List<String> rpingJava = Examples.java(Rping.class);
        List<String> rpingC = List.of("rping");
        List<String> pings = List.of("-v", "-V", "-C", COUNT, "-S", SIZE, "-a", RXE_ADDRESS);
        List<String> serve = List.of("-s", "-v", "-S", SIZE);
        return List.of(
                new Scenario("rping: C server, C client (the reference)", 19201,
                        concat(rpingC, serve, port(19201)), concat(rpingC, List.of("-c"), pings, port(19201))),
                new Scenario("rping: C server, Java client", 19202,
                        concat(rpingC, serve, port(19202)), concat(rpingJava, List.of("-c"), pings, port(19202))),
                new Scenario("rping: Java server, C client", 19203,
                        concat(rpingJava, serve, port(19203)), concat(rpingC, List.of("-c"), pings, port(19203))),
                new Scenario("rping -q: C server, Java client, both with their own QPs", 19204,
                        concat(rpingC, serve, List.of("-q"), port(19204)),
                        concat(rpingJava, List.of("-c", "-q"), pings, port(19204))),
                new Scenario("rping -q: Java server, C client, both with their own QPs", 19205,
                        concat(rpingJava, serve, List.of("-q"), port(19205)),
                        concat(rpingC, List.of("-c", "-q"), pings, port(19205))),
                new Scenario("rping -P: Java persistent server, two C clients at once", 19206,
                        shell(String.join(" ", rpingJava) + " -s -P -v -S " + SIZE + " -p 19206 & java=$!; "
                                + "while [ ! -e " + DONE + " ]; do sleep 0.2; done; sleep 1; kill $java; wait $java; exit 0"),
                        shell("rm -f " + DONE + "; c=\"rping -c " + String.join(" ", pings) + " -p 19206\"; "
                                + "$c & first=$!; $c; second=$?; wait $first; first=$?; touch " + DONE
                                + "; exit $((first | second))")),
                new Scenario("rping: C client, nobody listening", 0, null,
                        concat(rpingC, List.of("-c", "-C", "1"), List.of("-a", RXE_ADDRESS), port(19299))),
                new Scenario("rping: Java client, nobody listening", 0, null,
                        concat(rpingJava, List.of("-c", "-C", "1"), List.of("-a", RXE_ADDRESS), port(19299))),
                new Scenario("echo: EchoServer, EchoClient (messages, RDMA write and read)", 19207,
                        concat(Examples.java(EchoServer.class), List.of("-C", "1"), port(19207)),
                        concat(Examples.java(EchoClient.class), List.of("-v", "-C", Integer.toString(ECHOES), "-a",
                                RXE_ADDRESS), port(19207))),
                new Scenario("echo -z: EchoServer, EchoClient in lent buffers (no copy)", 19209,
                        concat(Examples.java(EchoServer.class), List.of("-C", "1"), port(19209)),
                        concat(Examples.java(EchoClient.class), List.of("-z", "-v", "-C", Integer.toString(ECHOES),
                                "-a", RXE_ADDRESS), port(19209))),
                new Scenario("rc_flow -R: the tutorial's RC flow over rdma_cm, Java server, Java client", 19208,
                        concat(Examples.java(RcFlow.class), List.of("--server", "-R", "-p", "19208")),
                        concat(Examples.java(RcFlow.class), List.of("-R", "-p", "19208", RXE_ADDRESS))));
    }

    private static List<String> port(int port) {
        return List.of("-p", Integer.toString(port));
    }

    private static List<String> shell(String script) {
        return List.of("sh", "-c", script);
    }

    /** Runs every scenario, or those whose name contains an argument; the exit status is the number that failed. */
    public static void main(String[] args) {
        int failures = 0;
        for (Scenario scenario : scenarios()) {
            if (args.length > 0 && Stream.of(args).noneMatch(scenario.name()::contains)) {
                continue;
            }
            if (scenario.server() == null) {
                single(scenario.name(), scenario.client());
                continue;
            }
            PeerPair.Result result = Examples.runAndPrint(scenario.name(), scenario.server(), scenario.client(),
                    scenario.port(), true, TIMEOUT);
            failures += result.succeeded() ? 0 : 1;
        }
        System.exit(failures);
    }

    /** Runs {@code command} alone and prints its block: {@code --- exit N: command} and its output. */
    private static void single(String name, List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int exit = process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS) ? process.exitValue() : -1;
            System.out.println("=== SCENARIO " + name);
            System.out.println("--- exit " + exit + ": " + String.join(" ", command));
            System.out.print(output);
            System.out.println("=== END " + name);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}

package org.jrdma.examples;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A server and a client started as {@link PeerPair} starts them (server on CPU 0, client on CPU
 * 1, the client once the server listens), but kept running and driven line by line: each side's
 * output is read as it comes, and a line written to a side's standard input starts its next
 * timed run ({@link RunGate}). Everything is bounded by one deadline; closing kills what is left.
 */
public final class LivePair implements AutoCloseable {
    private static final byte[] GO = "go\n".getBytes(StandardCharsets.US_ASCII);

    /** One of the two processes, with its output so far and the lines not yet awaited. */
    public static final class Side {
        /** Put in {@link #lines} when the output ends: compared by identity, so no line can be taken for it. */
        @SuppressWarnings("StringOperationCanBeSimplified")
        private static final String END = new String("end of output");

        private final String name;
        private final Process process;
        private final StringBuilder output = new StringBuilder();
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

        private Side(String name, Process process) {
            this.name = name;
            this.process = process;
            Thread.ofVirtual().name(name + " output").start(this::read);
        }

        private void read() {
            try (BufferedReader reader = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    synchronized (output) {
                        output.append(line).append('\n');
                    }
                    lines.add(line);
                }
            } catch (IOException e) {
                synchronized (output) {
                    output.append("(output unreadable: ").append(e.getMessage()).append(")\n");
                }
            }
            lines.add(END);
        }

        /** Everything the process printed so far, standard output and error. */
        String output() {
            synchronized (output) {
                return output.toString();
            }
        }
    }

    private final Side server;
    private final Side client;
    private final long deadline;

    private LivePair(Side server, Side client, long deadline) {
        this.server = server;
        this.client = client;
        this.deadline = deadline;
    }

    /**
     * Starts {@code server}, waits until something listens on TCP {@code port}, then starts
     * {@code client}; all that follows must end within {@code timeout}.
     *
     * @throws IOException when a process cannot be started or the server never listens
     */
    public static LivePair start(List<String> server, List<String> client, int port, Duration timeout) throws IOException {
        return start(server, client, port, false, timeout);
    }

    /**
     * As {@link #start(List, List, int, Duration)}; with {@code rdmaCm} the server listens with
     * the RDMA connection manager instead, as {@link PeerPair#run(List, List, int, boolean, Duration)} waits for it.
     */
    public static LivePair start(List<String> server, List<String> client, int port, boolean rdmaCm, Duration timeout)
            throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Process serverProcess = start(PeerPair.pinned(server, 0));
        Side serverSide = new Side("server", serverProcess);
        try {
            if (!PeerPair.awaitListening(port, rdmaCm, serverProcess, deadline)) {
                throw new IOException("the server never listened on port " + port + ":\n" + serverSide.output());
            }
            return new LivePair(serverSide, new Side("client", start(PeerPair.pinned(client, 1))), deadline);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            PeerPair.kill(serverProcess);
            throw new IOException("interrupted while starting " + server, e);
        } catch (IOException | RuntimeException e) {
            PeerPair.kill(serverProcess);
            throw e;
        }
    }

    private static Process start(List<String> command) throws IOException {
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    /** The server process. */
    public Side server() {
        return server;
    }

    /** The client process. */
    public Side client() {
        return client;
    }

    /**
     * The next line of {@code side}'s output in which {@code pattern} is found, skipping others.
     *
     * @throws IOException when the output ends or the deadline passes first
     */
    public MatchResult awaitLine(Side side, Pattern pattern) throws IOException {
        return awaitLine(side, pattern, deadline);
    }

    /**
     * As {@link #awaitLine(Side, Pattern)}, giving up after {@code within} (or at the pair's
     * deadline, if sooner): for one timed run, so that a run that never ends costs that long and
     * not what is left of the pair's time.
     */
    public MatchResult awaitLine(Side side, Pattern pattern, Duration within) throws IOException {
        return awaitLine(side, pattern, Math.min(deadline, System.nanoTime() + within.toNanos()));
    }

    private MatchResult awaitLine(Side side, Pattern pattern, long until) throws IOException {
        try {
            while (true) {
                String line = side.lines.poll(Math.max(0, until - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (line == null || line == Side.END) {
                    Side other = side == server ? client : server;
                    throw new IOException("the " + side.name + (line == null ? " timed out" : " ended")
                            + " before printing a line matching " + pattern + ":\n" + side.output() + "--- the "
                            + other.name + " meanwhile:\n" + other.output());
                }
                Matcher m = pattern.matcher(line);
                if (m.find()) {
                    return m.toMatchResult();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the " + side.name, e);
        }
    }

    /** Starts {@code side}'s next run: writes a line to its standard input. */
    public void go(Side side) {
        try {
            OutputStream in = side.process.getOutputStream();
            in.write(GO);
            in.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("the " + side.name + " does not take input", e);
        }
    }

    /** Waits for both to exit (the client first) before the deadline; kills what outlasts it. */
    public PeerPair.Result finish() {
        int clientExit = await(client);
        int serverExit = await(server);
        return new PeerPair.Result(serverExit, server.output(), clientExit, client.output());
    }

    private int await(Side side) {
        try {
            if (side.process.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                return side.process.exitValue();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        PeerPair.kill(side.process);
        return -1;
    }

    /** Kills both processes if they still run. */
    @Override
    public void close() {
        PeerPair.kill(client.process);
        PeerPair.kill(server.process);
    }
}

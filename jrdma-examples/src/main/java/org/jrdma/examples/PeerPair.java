package org.jrdma.examples;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Runs a server and a client command as two processes, the way the ping-pong and bandwidth
 * tools are run: the server first, the client once the server listens on its TCP port (read from
 * {@code /proc/net/tcp} and {@code tcp6}, so no connection is spent on probing), both with their
 * output captured, both killed if they outlast the time given.
 *
 * <p>With two CPUs or more and {@code taskset} installed, the server runs on CPU 0 and the client
 * on CPU 1, C and Java alike. In the soft-RoCE VM this is what keeps a JVM working: qemu's
 * multi-threaded TCG does not reliably see code that one virtual CPU patches while another runs
 * it, which HotSpot does as it compiles, and a JVM left to migrate between the two CPUs
 * sometimes dies of SIGILL or SIGSEGV in freshly compiled code; on one CPU it does not.
 */
public final class PeerPair {
    private static final long POLL_MILLIS = 50;
    private static final List<Path> TASKSET = List.of(Path.of("/usr/bin/taskset"), Path.of("/bin/taskset"));

    private PeerPair() {
    }

    /**
     * What the two processes did.
     *
     * @param serverExit   the server's exit status, -1 if it was killed
     * @param serverOutput the server's standard output and error
     * @param clientExit   the client's exit status, -1 if it was killed or never started
     * @param clientOutput the client's standard output and error
     */
    public record Result(int serverExit, String serverOutput, int clientExit, String clientOutput) {
        /** Whether both sides exited with status 0. */
        public boolean succeeded() {
            return serverExit == 0 && clientExit == 0;
        }
    }

    /**
     * Starts {@code server}, waits until something listens on TCP {@code port}, runs
     * {@code client}, and waits for both, at most {@code timeout} in all.
     */
    public static Result run(List<String> server, List<String> client, int port, Duration timeout) {
        return run(server, client, port, false, timeout);
    }

    /**
     * As {@link #run(List, List, int, Duration)}; with {@code rdmaCm} the server listens with the
     * RDMA connection manager instead (perftest's {@code -R}), which {@code rdma resource show cm_id}
     * shows as a LISTEN identifier on {@code port}.
     */
    public static Result run(List<String> server, List<String> client, int port, boolean rdmaCm, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Path serverOut = null;
        Path clientOut = null;
        Process serverProcess = null;
        Process clientProcess = null;
        try {
            serverOut = Files.createTempFile("peer-server-", ".out");
            clientOut = Files.createTempFile("peer-client-", ".out");
            serverProcess = start(pinned(server, 0), serverOut);
            int clientExit = -1;
            if (awaitListening(port, rdmaCm, serverProcess, deadline)) {
                clientProcess = start(pinned(client, 1), clientOut);
                clientExit = await(clientProcess, deadline);
            }
            int serverExit = await(serverProcess, deadline);
            return new Result(serverExit, Files.readString(serverOut), clientExit, Files.readString(clientOut));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + server + " and " + client, e);
        } finally {
            kill(clientProcess);
            kill(serverProcess);
            delete(serverOut);
            delete(clientOut);
        }
    }

    /** {@code command} run on CPU {@code cpu} alone by {@code taskset}, when there are two CPUs and taskset. */
    static List<String> pinned(List<String> command, int cpu) {
        if (onlineCpus() < 2 || TASKSET.stream().noneMatch(Files::isExecutable)) {
            return command;
        }
        List<String> pinned = new ArrayList<>(List.of("taskset", "-c", Integer.toString(cpu)));
        pinned.addAll(command);
        return pinned;
    }

    /**
     * The CPUs the kernel has online, from {@code /sys/devices/system/cpu/online} ("0-1", "0,2-3"):
     * not {@code availableProcessors()}, which counts only the CPUs this process may run on, and
     * in the VM this process is itself pinned to CPU 0.
     */
    static int onlineCpus() {
        try {
            int count = 0;
            for (String range : Files.readString(Path.of("/sys/devices/system/cpu/online")).strip().split(",")) {
                int dash = range.indexOf('-');
                count += dash < 0 ? 1 : Integer.parseInt(range.substring(dash + 1)) - Integer.parseInt(range.substring(0, dash)) + 1;
            }
            return count;
        } catch (IOException | NumberFormatException e) {
            return Runtime.getRuntime().availableProcessors();
        }
    }

    /** Runs {@code command} with its output to {@code output}, its input from {@code /dev/null}. */
    private static Process start(List<String> command, Path output) throws IOException {
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
    }

    /** Waits for the process until the deadline; its exit status, or -1 after killing it. */
    private static int await(Process process, long deadline) throws InterruptedException {
        long left = Math.max(0, deadline - System.nanoTime());
        if (process.waitFor(left, TimeUnit.NANOSECONDS)) {
            return process.exitValue();
        }
        kill(process);
        return -1;
    }

    /**
     * Whether TCP {@code port} (or with {@code rdmaCm} the rdma_cm port) came to be listened on
     * before the server ended or the deadline passed.
     */
    static boolean awaitListening(int port, boolean rdmaCm, Process server, long deadline)
            throws InterruptedException, IOException {
        while (System.nanoTime() < deadline && server.isAlive()) {
            if (rdmaCm ? isListeningRdmaCm(port) : isListening(port)) {
                return true;
            }
            Thread.sleep(POLL_MILLIS);
        }
        return false;
    }

    /** Whether a socket listens on TCP {@code port}, IPv4 or IPv6, by {@code /proc/net}. */
    static boolean isListening(int port) throws IOException {
        String local = String.format(Locale.ROOT, ":%04X", port);
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            Path path = Path.of(table);
            if (!Files.exists(path)) {
                continue;
            }
            for (String line : Files.readAllLines(path)) {
                String[] fields = line.trim().split("\\s+");
                if (fields.length > 3 && fields[1].endsWith(local) && fields[3].equals("0A")) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether an rdma_cm identifier listens on {@code port}, by {@code rdma resource show cm_id}. */
    static boolean isListeningRdmaCm(int port) throws IOException, InterruptedException {
        Process rdma = new ProcessBuilder("rdma", "resource", "show", "cm_id").redirectErrorStream(true).start();
        String out = new String(rdma.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        rdma.waitFor();
        return out.lines().anyMatch(line -> line.contains(" state LISTEN ") && line.contains(":" + port + " "));
    }

    /** Kills {@code process} (if started and alive) and its descendants. */
    static void kill(Process process) {
        if (process != null && process.isAlive()) {
            List<ProcessHandle> children = new ArrayList<>(process.descendants().toList());
            process.destroyForcibly();
            children.forEach(ProcessHandle::destroyForcibly);
        }
    }

    private static void delete(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // a temporary file left behind is harmless
            }
        }
    }
}

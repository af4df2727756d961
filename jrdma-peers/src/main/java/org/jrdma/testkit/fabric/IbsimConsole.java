package org.jrdma.testkit.fabric;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * ibsim's operator console: commands written to its standard input, replies read from its
 * standard output (which is also copied to the fabric's log).
 *
 * <p>ibsim reads the console one byte at a time, runs each line to completion before it reads the
 * next, prints a {@code sim> } prompt after each, and echoes a comment line ({@code #...}) as it
 * is. So every command is framed by two numbered comments: once the second echo is read, ibsim
 * has applied the command, and what it printed between the two echoes is the command's reply. ibsim's failures are replies
 * starting with {@code #} ({@code # nodeid "x" (x) not found}) or saying the command is unknown.
 */
final class IbsimConsole {
    /** ibsim reads a console line into a 128-byte buffer, newline and terminator included. */
    static final int MAX_LINE = 126;
    private static final String PROMPT = "sim> ";

    private final Process process;
    private final OutputStream stdin;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final StringBuilder transcript = new StringBuilder();
    private boolean ended;
    private long sequence;

    /**
     * Starts reading ibsim's standard output, appending it to {@code log}.
     *
     * @param process ibsim, started with its standard input and output as pipes
     */
    IbsimConsole(Process process, Path log) {
        this.process = process;
        this.stdin = process.getOutputStream();
        InputStream stdout = process.getInputStream();
        Thread.ofVirtual().name("ibsim-console-" + process.pid()).start(() -> copy(stdout, log));
    }

    /**
     * Runs one console command and returns its reply once ibsim has applied it.
     *
     * @throws FabricException if ibsim refuses the command, exits, or does not apply it within {@code timeout}
     */
    synchronized String execute(String command, Duration timeout) {
        if (command.length() > MAX_LINE || command.indexOf('\n') >= 0 || command.indexOf('\r') >= 0) {
            throw new IllegalArgumentException("not one ibsim console line of at most " + MAX_LINE + " characters: " + command);
        }
        lock.lock();
        try {
            long n = ++sequence;
            String begin = "# jrdma begins " + n + " #";
            String end = "# jrdma applied " + n + " #";
            write(begin + "\n" + command + "\n" + end + "\n");
            long deadline = System.nanoTime() + timeout.toNanos();
            int from = awaitLocked(begin, deadline, timeout, command) + begin.length();
            int to = awaitLocked(end, deadline, timeout, command);
            String reply = transcript.substring(from, to).replace(PROMPT, "").strip();
            transcript.delete(0, to + end.length());
            if (reply.startsWith("#") || reply.contains("unknown - skipped")) {
                throw new FabricException("ibsim refused \"" + command + "\": " + reply);
            }
            return reply;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until ibsim reads its console, which proves its control socket ({@code <name>:ctl}) is
     * bound. ibsim prints "Network simulator ready" before it binds that socket, so a client that
     * connects as soon as it sees the line can be refused.
     *
     * @throws FabricException if ibsim exits or does not read its console within {@code timeout}
     */
    synchronized void awaitListening(Duration timeout) {
        lock.lock();
        try {
            String marker = "# jrdma listening " + ++sequence + " #";
            write(marker + "\n");
            int at = awaitLocked(marker, System.nanoTime() + timeout.toNanos(), timeout, marker);
            transcript.delete(0, at + marker.length());
        } finally {
            lock.unlock();
        }
    }

    private void write(String lines) {
        try {
            stdin.write(lines.getBytes(StandardCharsets.ISO_8859_1));
            stdin.flush();
        } catch (IOException e) {
            throw new FabricException("cannot write to ibsim's console (ibsim "
                    + (process.isAlive() ? "running" : "exited") + "): " + e.getMessage(), e);
        }
    }

    private int awaitLocked(String marker, long deadline, Duration timeout, String command) {
        try {
            while (true) {
                int at = transcript.indexOf(marker);
                if (at >= 0) {
                    return at;
                }
                if (ended) {
                    throw new FabricException("ibsim exited while running \"" + command + "\""
                            + exitStatus() + "; console said: " + transcript);
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new FabricException("ibsim did not apply \"" + command + "\" within " + timeout
                            + "; console said: " + transcript);
                }
                changed.awaitNanos(left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FabricException("interrupted while waiting for ibsim to apply \"" + command + "\"", e);
        }
    }

    private String exitStatus() {
        try {
            return process.waitFor(1, TimeUnit.SECONDS) ? " with status " + process.exitValue() : "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    private void copy(InputStream stdout, Path log) {
        byte[] buffer = new byte[8192];
        try (stdout; OutputStream out = Files.newOutputStream(log, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
            int n;
            while ((n = stdout.read(buffer)) > 0) {
                out.write(buffer, 0, n);
                out.flush();
                append(new String(buffer, 0, n, StandardCharsets.ISO_8859_1));
            }
        } catch (IOException e) {
            append("\n[reading ibsim's console failed: " + e.getMessage() + "]\n");
        } finally {
            lock.lock();
            try {
                ended = true;
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    private void append(String text) {
        lock.lock();
        try {
            transcript.append(text);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Closes ibsim's standard input; ibsim, which is being stopped, no longer reads it. */
    void close() {
        try {
            stdin.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package org.jrdma.testkit.vm;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The side of the test kit's {@code PassFailChecks} that runs inside the VM: a program's checks, each printed as
 * {@code PASS <name> (<ms> ms)} or {@code FAIL <name>: <reason>} with the stack trace, and the
 * number of failures as its exit status. Check names must not contain {@code ": "}.
 *
 * <p>A check that has not ended within the {@linkplain #VmChecks(Duration) deadline} fails as
 * {@code FAIL <name>: no result within <s> s}, followed by a dump of every thread (virtual ones
 * included), and the program exits at once: a hang shows where it waits, and the VM's own
 * timeout is never the first to see it.
 *
 * <pre>{@code
 * VmChecks checks = new VmChecks();
 * checks.check("opens", () -> VmChecks.equal(1, open(), "count"));
 * checks.exit();
 * }</pre>
 */
public final class VmChecks {
    /** How long a check may run when no deadline is given. */
    public static final Duration DEFAULT_DEADLINE = Duration.ofMinutes(2);
    /** The exit status of a program stopped by a check past its deadline. */
    public static final int HUNG = 101;

    private final Duration deadline;
    private int failures;

    /** A list of checks with none run yet, each given {@link #DEFAULT_DEADLINE}. */
    public VmChecks() {
        this(DEFAULT_DEADLINE);
    }

    /** A list of checks with none run yet, each given {@code deadline} to end. */
    public VmChecks(Duration deadline) {
        if (deadline.isNegative() || deadline.isZero()) {
            throw new IllegalArgumentException("deadline " + deadline);
        }
        this.deadline = deadline;
    }

    /** A check: throws (an assertion or an exception) to fail. */
    public interface Check {
        void run() throws Exception;
    }

    /** Runs {@code check} and prints its PASS or FAIL line. */
    public void check(String name, Check check) {
        long start = System.nanoTime();
        Thread watchdog = Thread.ofPlatform().daemon().name("vm-checks-deadline").start(() -> watch(name));
        try {
            check.run();
            System.out.println("PASS " + name + " (" + (System.nanoTime() - start) / 1_000_000 + " ms)");
        } catch (Throwable t) {
            failures++;
            System.out.println("FAIL " + name + ": " + t);
            t.printStackTrace(System.out);
        } finally {
            watchdog.interrupt();
        }
    }

    /** Sleeps until the deadline, unless interrupted; past it fails the check, dumps the threads and exits. */
    private void watch(String name) {
        try {
            Thread.sleep(deadline);
        } catch (InterruptedException ended) {
            return;
        }
        System.out.println("FAIL " + name + ": no result within " + deadline.toSeconds() + " s");
        System.out.println(threadDump());
        System.out.println("DONE failures=" + (failures + 1));
        System.out.flush();
        Runtime.getRuntime().halt(HUNG);
    }

    /** Every thread's stack, virtual threads included, in the JDK's plain-text thread dump format. */
    static String threadDump() {
        try {
            Path file = Files.createTempFile("vm-checks-threads", ".txt");
            Files.delete(file); // dumpThreads makes the file itself
            try {
                ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                        .dumpThreads(file.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.TEXT_PLAIN);
                return Files.readString(file);
            } finally {
                Files.deleteIfExists(file);
            }
        } catch (IOException | RuntimeException e) {
            return "(no thread dump: " + e + ")";
        }
    }

    /** How many checks failed so far. */
    public int failures() {
        return failures;
    }

    /** Prints {@code DONE failures=N} and exits with N (at most 100). */
    public void exit() {
        System.out.println("DONE failures=" + failures);
        System.exit(Math.min(failures, 100));
    }

    /** Fails with {@code what} unless {@code condition}. */
    public static void require(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError(what);
        }
    }

    /** Fails unless {@code actual} equals {@code expected}. */
    public static void equal(Object expected, Object actual, String what) {
        if (!expected.equals(actual)) {
            throw new AssertionError(what + ": expected " + expected + ", got " + actual);
        }
    }
}

package org.jrdma.testkit.vm;

/**
 * The side of the test kit's {@code PassFailChecks} that runs inside the VM: a program's checks, each printed as
 * {@code PASS <name> (<ms> ms)} or {@code FAIL <name>: <reason>} with the stack trace, and the
 * number of failures as its exit status. Check names must not contain {@code ": "}.
 *
 * <pre>{@code
 * VmChecks checks = new VmChecks();
 * checks.check("opens", () -> VmChecks.equal(1, open(), "count"));
 * checks.exit();
 * }</pre>
 */
public final class VmChecks {
    private int failures;

    /** A list of checks with none run yet. */
    public VmChecks() {
    }

    /** A check: throws (an assertion or an exception) to fail. */
    public interface Check {
        void run() throws Exception;
    }

    /** Runs {@code check} and prints its PASS or FAIL line. */
    public void check(String name, Check check) {
        long start = System.nanoTime();
        try {
            check.run();
            System.out.println("PASS " + name + " (" + (System.nanoTime() - start) / 1_000_000 + " ms)");
        } catch (Throwable t) {
            failures++;
            System.out.println("FAIL " + name + ": " + t);
            t.printStackTrace(System.out);
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

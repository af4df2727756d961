package org.jrdma.ffi;

/**
 * The settling of the JDK's method-handle invokers, for loops that must allocate nothing. Where a
 * downcall handle's {@code invokeExact} is not compiled by C2 (interpreted, or compiled by C1, as
 * a rarely taken path stays for a long time: an event loop's going to sleep and waking), every
 * call counts towards {@code java.lang.invoke}'s {@code CUSTOMIZE_THRESHOLD} (127), and the call
 * that reaches it customizes the handle's invoker: the JDK spins a class for it, 16 to 64 KB
 * allocated at once in whatever thread makes that call. JFR's allocation events caught it in an
 * endpoint group's thread, at its 128th sleep on the completion channel, in a benchmark's timed
 * run. Making each such call {@link #CUSTOMIZE_CALLS} times while a loop is set up moves that
 * one-off out of the loop.
 */
public final class Invokers {
    /**
     * How many calls of a handle make the JDK customize its invoker: {@code CUSTOMIZE_THRESHOLD}
     * (127, and at most 127 if set by the {@code java.lang.invoke.MethodHandle.CUSTOMIZE_THRESHOLD}
     * property) calls count, the next customizes.
     */
    public static final int CUSTOMIZE_CALLS = 128;

    /** A call to repeat; it may throw what a downcall handle's {@code invokeExact} throws. */
    @FunctionalInterface
    public interface Call {
        void run() throws Throwable;
    }

    private Invokers() {
    }

    /** Makes {@code call} {@link #CUSTOMIZE_CALLS} times. */
    public static void customize(Call call) {
        try {
            for (int i = 0; i < CUSTOMIZE_CALLS; i++) {
                call.run();
            }
        } catch (Throwable t) {
            throw Errors.rethrow(t);
        }
    }
}

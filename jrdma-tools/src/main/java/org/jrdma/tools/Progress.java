package org.jrdma.tools;

import java.io.Console;
import java.io.PrintWriter;
import java.util.concurrent.atomic.AtomicLong;
import org.jrdma.mad.MadEngine;
import org.jrdma.mad.MadTracer;
import org.jrdma.mad.ReceivedMad;

/**
 * The progress line of a fabric-wide command (discovery, the counters of every port): how many
 * MADs have been answered and for how long, rewritten in place on standard error every quarter of
 * a second once the work has taken more than a second, and erased when it ends. Shown only to a
 * user at a terminal ({@link Console#isTerminal()}), never when the output goes to a pipe or a file,
 * nor in tests; and not when the MADs are traced ({@code --trace}), whose lines it would break.
 */
final class Progress implements AutoCloseable {
    private static final long QUIET_MILLIS = 1000;
    private static final long TICK_MILLIS = 250;

    private final String command;
    private final PrintWriter err;
    private final MadEngine engine;
    private final AtomicLong answered = new AtomicLong();
    private final long start = System.nanoTime();
    private final Thread ticker;
    private int shown;

    private Progress(String command, MadEngine engine, PrintWriter err) {
        this.command = command;
        this.err = err;
        this.engine = engine;
        engine.tracer(new MadTracer() {
            @Override
            public void received(ReceivedMad mad) {
                answered.incrementAndGet();
            }
        });
        this.ticker = Thread.ofPlatform().daemon().name("ibtool-progress").start(this::tick);
    }

    /**
     * Starts the progress line of {@code command}'s MADs on {@code engine}, or returns null where
     * no line is to be shown (no terminal, or {@code traced}).
     */
    static Progress start(String command, MadEngine engine, PrintWriter err, boolean traced) {
        Console console = System.console();
        if (traced || console == null || !console.isTerminal()) {
            return null;
        }
        return new Progress(command, engine, err);
    }

    private void tick() {
        try {
            Thread.sleep(QUIET_MILLIS);
            while (true) {
                show();
                Thread.sleep(TICK_MILLIS);
            }
        } catch (InterruptedException e) {
            // the work is over
        }
    }

    private synchronized void show() {
        String line = String.format("%s: %,d MADs answered, %.1f s", command, answered.get(), (System.nanoTime() - start) / 1e9);
        err.print("\r" + line + " ".repeat(Math.max(0, shown - line.length())));
        err.flush();
        shown = line.length();
    }

    /** Stops the line and erases it, so that what the command prints next starts a clean line. */
    @Override
    public void close() {
        engine.tracer(null);
        ticker.interrupt();
        try {
            ticker.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            if (shown > 0) {
                err.print("\r" + " ".repeat(shown) + "\r");
                err.flush();
                shown = 0;
            }
        }
    }
}

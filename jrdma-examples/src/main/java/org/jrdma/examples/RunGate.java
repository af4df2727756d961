package org.jrdma.examples;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * The start of each timed run of a Java tool asked for several ({@code --runs}): the tool prints
 * {@code "ready for run K"} and sleeps in a read of standard input until a line comes. This lets
 * {@code org.jrdma.bench.VerbsBenchmark} alternate one warmed-up Java pair with fresh C pairs on the same CPUs,
 * with neither busy-polling while the other is measured. A single run starts at once and reads
 * nothing.
 */
public final class RunGate {
    /** The line a tool prints before it waits; {@code VerbsBenchmark} waits for it. */
    public static final String READY = "ready for run ";

    private final int runs;
    private BufferedReader input;

    /** The gate of a tool making {@code runs} timed runs. */
    RunGate(int runs) {
        this.runs = runs;
    }

    /** How many timed runs the tool makes. */
    int runs() {
        return runs;
    }

    /**
     * Waits for the go of run {@code run} (from 1), when there are several.
     *
     * @throws IOException when standard input ends or fails before the line
     */
    void await(int run) throws IOException {
        if (runs == 1) {
            return;
        }
        System.out.println(READY + run);
        System.out.flush();
        if (input == null) {
            input = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        }
        if (input.readLine() == null) {
            throw new IOException("standard input ended before run " + run + " of " + runs);
        }
    }
}

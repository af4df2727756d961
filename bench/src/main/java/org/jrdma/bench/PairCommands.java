package org.jrdma.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command lines of the benchmarks' Java pairs ({@link VerbsBenchmark}, {@link CmBenchmark}):
 * this JVM's {@code java} with the options every timed Java side gets, and the joining of a
 * command's parts.
 */
final class PairCommands {
    /**
     * The options of every timed Java side: native access, the serial collector (no GC thread
     * competing with the timed one), {@code -Xbatch} (in the emulated VM a compiler thread sharing
     * its CPU with a busy-polling thread hardly gets to compile) and
     * {@code -XX:CompileThresholdScaling=0.1} (the timed loop compiled early in the warm-up).
     */
    static final List<String> DEFAULT_OPTIONS = List.of("--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC", "-Xbatch",
            "-XX:CompileThresholdScaling=0.1");

    private PairCommands() {
    }

    /**
     * This JVM's {@code java}, {@link #DEFAULT_OPTIONS}, then {@code options} (later, so they win),
     * and this JVM's class path.
     */
    static List<String> java(List<String> options) {
        return concat(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()), DEFAULT_OPTIONS, options,
                List.of("-cp", System.getProperty("java.class.path")));
    }

    /** The parts one after the other, as an unmodifiable list. */
    @SafeVarargs
    static List<String> concat(List<String>... parts) {
        List<String> all = new ArrayList<>();
        for (List<String> part : parts) {
            all.addAll(part);
        }
        return List.copyOf(all);
    }
}

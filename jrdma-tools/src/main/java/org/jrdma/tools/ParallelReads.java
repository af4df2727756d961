package org.jrdma.tools;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Function;
import org.jrdma.RdmaException;
import org.jrdma.mad.MadSchedule;

/**
 * Many independent reads at once, as the C tools do them one after the other: each read runs on
 * the {@link MadSchedule}, at most {@code window} started ahead (the engine's own bound limits the
 * MADs on the wire), and its value or its failure comes back in the order the keys were given, so
 * the output does not depend on the order answers arrive in.
 */
public final class ParallelReads {
    private ParallelReads() {
    }

    /**
     * What one read gave.
     *
     * @param value   the value read, or null if it failed
     * @param failure why it failed, or null
     */
    public record Outcome<R>(R value, RdmaException failure) {
        public boolean ok() {
            return failure == null;
        }
    }

    /** Reads {@code read(key)} for every key; a failing read is an outcome, not an exception. */
    public static <K, R> List<Outcome<R>> of(List<K> keys, int window, Function<K, R> read) {
        AtomicReferenceArray<Outcome<R>> outcomes = new AtomicReferenceArray<>(keys.size());
        List<Callable<Void>> works = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            int at = i;
            works.add(() -> {
                Outcome<R> outcome;
                try {
                    outcome = new Outcome<>(read.apply(keys.get(at)), null);
                } catch (RdmaException e) {
                    outcome = new Outcome<>(null, e);
                }
                outcomes.set(at, outcome);
                return null;
            });
        }
        try (MadSchedule schedule = new MadSchedule(window)) {
            schedule.mqueue(works.iterator());
        }
        List<Outcome<R>> inOrder = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            inOrder.add(outcomes.get(i));
        }
        return inOrder;
    }
}

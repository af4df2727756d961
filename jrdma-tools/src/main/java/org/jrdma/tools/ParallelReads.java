package org.jrdma.tools;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.jrdma.RdmaException;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.iba.wire.MadAttribute;
import org.jrdma.mad.GmpClient;
import org.jrdma.mad.MadSchedule;

/**
 * Many independent reads at once, as the C tools do them one after the other: each read runs on
 * the {@link MadSchedule}, at most {@code window} started ahead (the engine's own bound limits the
 * MADs on the wire), and its value or its failure comes back in the order the keys were given, so
 * the output does not depend on the order answers arrive in.
 *
 * <p>{@link #submitted} does the same for reads made of PerfMgt MADs without a thread per read:
 * each MAD is submitted to the engine and its answer handed on by the engine's receiver thread.
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
        return inOrder(outcomes);
    }

    /**
     * PerformanceGet and PerformanceSet (IBA 16.1.3) of one read, as calls that return the answer
     * or throw what {@link GmpClient#performanceGet} throws.
     */
    public interface PerfMgt {
        <T extends IbaStruct & MadAttribute> T performanceGet(T attribute, int lid, long attributeModifier);

        <T extends IbaStruct & MadAttribute> T performanceSet(T attribute, int lid, long attributeModifier);
    }

    /**
     * Reads {@code read(key, perfMgt)} for every key, as {@link #of} does, but with no thread
     * waiting for a MAD: at most {@code window} keys' reads are under way, each with one MAD in
     * flight, submitted to the engine ({@link GmpClient#performanceGetAsync}), and each answer is
     * handed on by the engine's receiver thread. A read is written as blocking code over
     * {@link PerfMgt} and is replayed: it runs from its start until it asks for a MAD not yet
     * answered, which is then submitted, and on the answer it runs again from its start, given the
     * answers it had, in order, until it returns. So {@code read} must be a function of its key and
     * its answers only (its MADs the same, in the same order, on every replay), quick (it runs on
     * the receiver thread), and must not catch what {@link PerfMgt}'s calls throw but
     * {@link RdmaException}s. Each MAD is sent once, in the order the blocking code makes them.
     */
    public static <K, R> List<Outcome<R>> submitted(List<K> keys, int window, GmpClient gmp, BiFunction<K, PerfMgt, R> read) {
        return new Replays<>(keys, window, gmp, read).run();
    }

    private static <R> List<Outcome<R>> inOrder(AtomicReferenceArray<Outcome<R>> outcomes) {
        List<Outcome<R>> inOrder = new ArrayList<>(outcomes.length());
        for (int i = 0; i < outcomes.length(); i++) {
            inOrder.add(outcomes.get(i));
        }
        return inOrder;
    }

    /** The replayed reads of one {@link #submitted} call. */
    private static final class Replays<K, R> {
        /** Thrown out of a replay at its first MAD without an answer yet; never seen by the caller. */
        private static final class Unanswered extends RuntimeException {
            private static final long serialVersionUID = 1L;

            Unanswered() {
                super(null, null, false, false);
            }
        }

        private static final Unanswered UNANSWERED = new Unanswered();

        private final List<K> keys;
        private final int window;
        private final GmpClient gmp;
        private final BiFunction<K, PerfMgt, R> read;
        private final AtomicReferenceArray<Outcome<R>> outcomes;
        private final AtomicInteger next = new AtomicInteger();
        private final CountDownLatch done;
        /** A failure that is no read's outcome (a defect, or the engine stopping), thrown to the caller. */
        private final AtomicReference<RuntimeException> broken = new AtomicReference<>();

        Replays(List<K> keys, int window, GmpClient gmp, BiFunction<K, PerfMgt, R> read) {
            this.keys = keys;
            this.window = window;
            this.gmp = gmp;
            this.read = read;
            this.outcomes = new AtomicReferenceArray<>(keys.size());
            this.done = new CountDownLatch(keys.size());
        }

        List<Outcome<R>> run() {
            for (int i = 0; i < window; i++) {
                startNext();
            }
            try {
                done.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RdmaException("interrupted while reading", e);
            }
            RuntimeException failure = broken.get();
            if (failure != null) {
                throw failure;
            }
            return inOrder(outcomes);
        }

        private void startNext() {
            int at = next.getAndIncrement();
            if (at < keys.size()) {
                new Replay(at).replay();
            }
        }

        /** One key's read: the answers (attribute or failure) of its MADs so far, in order. */
        private final class Replay implements PerfMgt {
            private final int at;
            private final List<Object> answers = new ArrayList<>();
            private int asked;

            Replay(int at) {
                this.at = at;
            }

            /** Runs the read from its start: to its end, or to the MAD it asks for next, submitted. */
            void replay() {
                Outcome<R> outcome;
                asked = 0;
                try {
                    outcome = new Outcome<>(read.apply(keys.get(at), this), null);
                } catch (Unanswered submitted) {
                    return;
                } catch (RdmaException e) {
                    outcome = new Outcome<>(null, e);
                } catch (RuntimeException e) {
                    broken.compareAndSet(null, e);
                    outcome = new Outcome<>(null, null);
                }
                outcomes.set(at, outcome);
                done.countDown();
                startNext();
            }

            @Override
            public <T extends IbaStruct & MadAttribute> T performanceGet(T attribute, int lid, long attributeModifier) {
                return answer(attribute, () -> gmp.performanceGetAsync(attribute, lid, attributeModifier, this::answered));
            }

            @Override
            public <T extends IbaStruct & MadAttribute> T performanceSet(T attribute, int lid, long attributeModifier) {
                return answer(attribute, () -> gmp.performanceSetAsync(attribute, lid, attributeModifier, this::answered));
            }

            /** The answer of this MAD if it came (written into {@code attribute}), else submits it and ends the replay. */
            private <T extends IbaStruct & MadAttribute> T answer(T attribute, Runnable submit) {
                int index = asked++;
                if (index == answers.size()) {
                    submit.run();
                    throw UNANSWERED;
                }
                Object answer = answers.get(index);
                if (answer instanceof RuntimeException e) {
                    throw e;
                }
                if (answer.getClass() != attribute.getClass()) {
                    throw new IllegalStateException("a replayed read asked for " + attribute.ibaName() + " where it had asked for "
                            + ((IbaStruct) answer).ibaName());
                }
                IbaStruct value = (IbaStruct) answer;
                attribute.unpack(value.buffer(), value.offset());
                return attribute;
            }

            private void answered(IbaStruct answer, RuntimeException failure) {
                answers.add(failure != null ? failure : answer);
                replay();
            }
        }
    }
}

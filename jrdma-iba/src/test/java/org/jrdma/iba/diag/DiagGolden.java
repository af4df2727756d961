package org.jrdma.iba.diag;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;

/**
 * Golden comparisons run a few at a time: each case runs C tools on the simulated fabric (tens of
 * milliseconds a process), so they are gathered concurrently (ibsim serves several clients; a
 * handful at once stays well within its client limit) and then reported as one dynamic test each.
 */
final class DiagGolden {
    private static final int CONCURRENT_CASES = 4;

    private DiagGolden() {
    }

    /**
     * One comparison.
     *
     * @param name     what is compared, for the report
     * @param expected what the C tool printed
     * @param actual   what our printer prints for the same bytes
     */
    record Case(String name, Callable<String> expected, Callable<String> actual) {
    }

    /** Both sides of one case, or what failed while getting them. */
    private record Outcome(String expected, String actual, Exception failure) {
    }

    static Stream<DynamicTest> run(List<Case> cases) {
        List<Future<Outcome>> outcomes;
        try (ExecutorService pool = Executors.newFixedThreadPool(CONCURRENT_CASES)) {
            outcomes = cases.stream().map(c -> pool.submit(() -> {
                try {
                    return new Outcome(c.expected().call(), c.actual().call(), null);
                } catch (Exception e) {
                    return new Outcome(null, null, e);
                }
            })).toList();
        }
        return java.util.stream.IntStream.range(0, cases.size()).mapToObj(i -> DynamicTest.dynamicTest(cases.get(i).name(), () -> {
            Outcome o = outcomes.get(i).get();
            if (o.failure() != null) {
                throw o.failure();
            }
            assertEquals(o.expected(), o.actual());
        }));
    }
}

package org.jrdma.bench;

import java.util.Arrays;
import java.util.List;

/**
 * {@link VerbsBenchmark} and then {@link CmBenchmark} in one JVM, so that one boot of the
 * soft-RoCE VM serves both in {@link VerbsBenchmarkInVmTest}: the arguments are the verbs
 * benchmark's, {@code --}, then the rdma_cm one's. Exits with the number of benchmarks that had a
 * failed run.
 */
public final class BenchmarksInVm {
    /** The line printed between the two benchmarks' outputs. */
    static final String CM_START = "=== CmBenchmark";

    private BenchmarksInVm() {
    }

    /** {@code BenchmarksInVm VERBS-ARGS... -- CM-ARGS...}. */
    public static void main(String[] args) {
        int split = List.of(args).indexOf("--");
        if (split < 0) {
            throw new IllegalArgumentException("no -- between the verbs benchmark's arguments and the rdma_cm one's");
        }
        int failed = VerbsBenchmark.run(Arrays.copyOfRange(args, 0, split));
        System.out.println(CM_START);
        failed += CmBenchmark.run(Arrays.copyOfRange(args, split + 1, args.length));
        System.exit(failed);
    }
}

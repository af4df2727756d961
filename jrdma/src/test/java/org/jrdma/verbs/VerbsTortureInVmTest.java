package org.jrdma.verbs;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.jrdma.iba.Gid;
import org.jrdma.testkit.junit.PassFailChecks;
import org.jrdma.testkit.junit.Peers;
import org.jrdma.testkit.vm.SoftRoceVm;
import org.jrdma.testkit.vm.VmResult;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs {@link VerbsTortureInVm} in one boot of the soft-RoCE VM on {@code rxe0}: verbs misused
 * from many threads at once (posting, polling and closing the same objects, through a shared and
 * a confined context), a context closed under blocked event waits, objects dropped without close,
 * and {@code rdma resource show} counting the kernel objects before and after. Each check is
 * reported as a test of its own.
 */
class VerbsTortureInVmTest {
    /**
     * Rounds of each concurrent check, unless its time bound ends them first; CI's replay is short,
     * a campaign raises both ({@code -Djrdma.torture.rounds=100000 -Djrdma.torture.seconds=900}).
     */
    private static final int ROUNDS = Integer.getInteger("jrdma.torture.rounds", 300);
    /** The time bound of each concurrent check, in seconds. */
    private static final int SECONDS = Integer.getInteger("jrdma.torture.seconds", 30);

    /** Every check {@link VerbsTortureInVm} makes, in its order. */
    private static final List<String> CHECKS = List.of(
            "concurrent post, poll and close through a shared context",
            "concurrent post, poll and close through a confined context",
            "context closed under a blocked completion channel wait and async event wait",
            "objects dropped without close are destroyed with their context",
            "no kernel objects left");

    @TestFactory
    Stream<DynamicTest> verbsMisuseOnSoftRoce() {
        Peers.require(SoftRoceVm.isAvailable(), SoftRoceVm.unavailabilityCause());
        VmResult result = SoftRoceVm.create().runJava(Duration.ofMinutes(5).plusSeconds(2L * SECONDS),
                VerbsTortureInVm.class, List.of(Verbs.class, Gid.class), "rxe0", Integer.toString(ROUNDS),
                Integer.toString(SECONDS));
        System.out.println("VerbsTortureInVm in the soft-RoCE VM (" + result.elapsed().toMillis() + " ms):\n" + result.output());
        return PassFailChecks.of(result, CHECKS);
    }
}

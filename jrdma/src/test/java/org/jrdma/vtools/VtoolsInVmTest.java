package org.jrdma.vtools;


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
 * Runs {@link VtoolsInVm} in one boot of the soft-RoCE VM against {@code rxe0}, with real traffic
 * between queue pairs set up from paths, and reports each of its checks as a test of its own.
 */
class VtoolsInVmTest {
    /** Every check {@link VtoolsInVm} makes, in its order. */
    private static final List<String> CHECKS = List.of(
            "get verbs for an end port",
            "fill path",
            "no-CM exchange over TCP and establish",
            "rc send/recv with buffer pools",
            "rc rdma write both ways",
            "cq poller sleeps on the channel and wakes",
            "cq poller timeout",
            "cq poller count and stream",
            "cq poller raises an async error (cq overrun)",
            "ud establish and cached address handles",
            "buffer pool bookkeeping",
            "buffer pool closed by many threads at once",
            "buffer pool whose region cannot be deregistered keeps its memory",
            "steady-state allocation (poller and pool)",
            "no kernel objects left");

    @TestFactory
    Stream<DynamicTest> vtoolsOnSoftRoce() {
        Peers.require(SoftRoceVm.isAvailable(), SoftRoceVm.unavailabilityCause());
        VmResult result = SoftRoceVm.create().runJava(Duration.ofMinutes(5), VtoolsInVm.class, List.of(BufferPool.class, Gid.class));
        System.out.println("VtoolsInVm in the soft-RoCE VM (" + result.elapsed().toMillis() + " ms):\n" + result.output());
        return PassFailChecks.of(result, CHECKS);
    }
}

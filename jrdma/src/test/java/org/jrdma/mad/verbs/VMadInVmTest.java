package org.jrdma.mad.verbs;

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
 * Runs {@link VMadInVm} in one boot of the soft-RoCE VM, with {@code ib_cm} loaded, against
 * {@code rxe0}'s kernel GSI, communication manager and umad, and reports each check as a test.
 */
class VMadInVmTest {
    /** Every check {@link VMadInVm} makes, in its order. */
    private static final List<String> CHECKS = List.of(
            "open on an end port and on a context",
            "sendto and recvfrom with the kernel GSI answering a CommMgt Get from QP1",
            "kernel CM receives a REQ for an unused Service ID and sends its REJ to QP1",
            "SA over verbs with a umad SA agent answering PathRecord Get and GetTable (kernel RMPP)",
            "SaTransactor over verbs answering SubnGet NodeInfo from a NodeRecord",
            "server on the VMad answering a umad client's VendGet by sendReply",
            "timeout when nobody answers",
            "bad paths (no GRH on RoCE, GRH without DGID, SMPs, QP0)",
            "close then use; the QP is gone",
            "get_gmp_mad falls back to a VMad on a port without umad");

    @TestFactory
    Stream<DynamicTest> vmadOnSoftRoce() {
        Peers.require(SoftRoceVm.isAvailable(), SoftRoceVm.unavailabilityCause());
        VmResult result = SoftRoceVm.builder().module("ib_cm").build()
                .runJava(Duration.ofMinutes(5), VMadInVm.class, List.of(VMad.class, Gid.class));
        System.out.println("VMadInVm in the soft-RoCE VM (" + result.elapsed().toMillis() + " ms):\n" + result.output());
        return PassFailChecks.of(result, CHECKS);
    }
}

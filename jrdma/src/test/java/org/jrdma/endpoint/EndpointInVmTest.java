package org.jrdma.endpoint;

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
 * Runs {@link EndpointInVm} in one boot of the soft-RoCE VM with {@code rdma_ucm} loaded, and
 * reports each of its checks as a test of its own.
 */
class EndpointInVmTest {
    /** Every check {@link EndpointInVm} makes, in its order. */
    private static final List<String> CHECKS = List.of(
            "echo in order",
            "credits make a fast sender wait for a slow receiver, no RNR",
            "four endpoints on virtual threads",
            "eight endpoints sharing one completion queue and thread per side",
            "RDMA write and read to a RemoteBuffer handed over in a message",
            "allocation per message in steady state",
            "blocking send and receive in order, nothing allocated per message",
            "callers polling the completion queue (BUSY), in order, nothing allocated per message",
            "callers polling the completion queue, then parking (ADAPTIVE), in order, nothing allocated per message",
            "a blocking sender that leaves messages waiting for credits has them posted by the group (ADAPTIVE)",
            "a blocking sender that leaves messages waiting for credits has them posted by the group (BUSY)",
            "messages written in claimed send buffers and read where they arrived (lent buffers), in order",
            "lent buffers sent or released twice, or on the other endpoint, are refused",
            "a receiver holding every lent buffer stops the sender until it releases them",
            "lent buffers, nothing allocated per message (ADAPTIVE)",
            "the forms that never wait return null when nothing can be lent",
            "one thread drives four connections in turn without waiting (EVENT)",
            "one thread drives four connections in turn without waiting (ADAPTIVE)",
            "blocking send and receive after a disconnect throw ClosedChannelException",
            "close fails pending sends and receives",
            "peer disconnect fails pending receives",
            "an RDMA write the peer refuses fails its future and ends the endpoint",
            "a connect request that is not an endpoint's is rejected, and the server serves the next");

    @TestFactory
    Stream<DynamicTest> endpointsOnSoftRoce() {
        Peers.require(SoftRoceVm.isAvailable(), SoftRoceVm.unavailabilityCause());
        VmResult result = SoftRoceVm.builder().module("rdma_ucm").build()
                .runJava(Duration.ofMinutes(6), EndpointInVm.class, List.of(RdmaEndpoint.class, Gid.class));
        System.out.println("EndpointInVm in the soft-RoCE VM (" + result.elapsed().toMillis() + " ms):\n" + result.output());
        return PassFailChecks.of(result, CHECKS);
    }
}

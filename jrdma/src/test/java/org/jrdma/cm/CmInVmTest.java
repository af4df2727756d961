package org.jrdma.cm;

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
 * Runs {@link CmInVm} in one boot of the soft-RoCE VM with the connection manager's kernel
 * modules ({@code rdma_ucm}, which brings {@code rdma_cm}) loaded, against {@code rxe0} and C
 * {@code rping}, and reports each of its checks as a test of its own.
 */
class CmInVmTest {
    /** Every check {@link CmInVm} makes, in its order. */
    private static final List<String> CHECKS = List.of(
            "availability",
            "resolve address and route (IPv4)",
            "resolve address (IPv6)",
            "address that does not resolve (no route)",
            "address resolution timeout (nobody answers ARP)",
            "connect to a port nobody listens on",
            "reject with private data",
            "accept with private data, send and receive, client disconnects",
            "server disconnects",
            "notify on an established connection (EISCONN)",
            "migrate an identifier to another channel",
            "synchronous identifiers (get_request, accept, connect)",
            "UD over SIDR resolves the remote QPN and Q_Key, then a datagram",
            "multicast join and leave",
            "Java client against C rping -s",
            "C rping -c against Java server",
            "Java client against C ucmatose server (RC)",
            "C ucmatose client against Java server (RC)",
            "Java client against C udaddy server (UD)",
            "C udaddy client against Java server (UD)",
            "C mckey sender to a Java member (multicast)",
            "Java sender to a C mckey member (multicast)",
            "use after close, double close, channel closes its identifiers",
            "no cm_id or QP left");

    @TestFactory
    Stream<DynamicTest> connectionManagerOnSoftRoce() {
        Peers.require(SoftRoceVm.isAvailable(), SoftRoceVm.unavailabilityCause());
        VmResult result = SoftRoceVm.builder().module("rdma_ucm").build()
                .runJava(Duration.ofMinutes(6), CmInVm.class, List.of(RdmaCmId.class, Gid.class));
        System.out.println("CmInVm in the soft-RoCE VM (" + result.elapsed().toMillis() + " ms):\n" + result.output());
        return PassFailChecks.of(result, CHECKS);
    }
}

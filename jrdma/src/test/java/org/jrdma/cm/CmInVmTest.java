package org.jrdma.cm;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.jrdma.iba.Gid;
import org.jrdma.testkit.junit.NativeCommand;
import org.jrdma.testkit.junit.PassFailChecks;
import org.jrdma.testkit.junit.Peers;
import org.jrdma.testkit.vm.SoftRoceVm;
import org.jrdma.testkit.vm.VmResult;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Builds {@code cm_oracle.c} with gcc against librdmacm, then runs {@link CmInVm} in one boot of
 * the soft-RoCE VM with the connection manager's kernel modules ({@code rdma_ucm}, which brings
 * {@code rdma_cm}) loaded, against {@code rxe0}, C {@code rping}, {@code ucmatose},
 * {@code udaddy}, {@code mckey} and that oracle, and reports each of its checks as a test of its
 * own.
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
            "rdma_getaddrinfo answers as in C",
            "rdma_set_option answers as in C",
            "TOS and ACK timeout options reach the route and the queue pair",
            "the route's path record as an IBPath, as C reads it",
            "RDMA_OPTION_IB_PATH from another identifier's IBPath, then a connection",
            "AF_IB (sockaddr_ib) on rxe0 as in C",
            "RDMA_PS_IB connection between Java identifiers",
            "Java RDMA_PS_IB client against C ucmatose -P ib server",
            "C ucmatose -P ib client against a Java RDMA_PS_IB server",
            "CONNECT_RESPONSE and rdma_establish with queue pairs made by verbs",
            "Java send-only member (rdma_join_multicast_ex) to a C mckey member",
            "use after close, double close, channel closes its identifiers",
            "no cm_id or QP left");

    @TempDir
    static Path dir;

    @TestFactory
    Stream<DynamicTest> connectionManagerOnSoftRoce() throws Exception {
        Peers.require(SoftRoceVm.isAvailable(), SoftRoceVm.unavailabilityCause());
        Path source = dir.resolve("cm_oracle.c");
        try (InputStream in = CmInVmTest.class.getResourceAsStream("cm_oracle.c")) {
            Files.copy(in, source);
        }
        Path oracle = NativeCommand.gcc(dir, "cm_oracle", List.of("-Werror", "-O2", source.toString(), "-lrdmacm",
                "-libverbs"), "librdmacm-dev");
        VmResult result = SoftRoceVm.builder().module("rdma_ucm").build()
                .runJava(Duration.ofMinutes(7), CmInVm.class, List.of(RdmaCmId.class, Gid.class), oracle.toString());
        System.out.println("CmInVm in the soft-RoCE VM (" + result.elapsed().toMillis() + " ms):\n" + result.output());
        return PassFailChecks.of(result, CHECKS);
    }
}

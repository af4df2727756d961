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
 * Runs {@link VerbsInVm} in one boot of the soft-RoCE VM against {@code rxe0}, with real traffic
 * between queue pairs of one process, and reports each of its checks as a test of its own.
 */
class VerbsInVmTest {
    /** Every check {@link VerbsInVm} makes, in its order. */
    private static final List<String> CHECKS = List.of(
            "availability",
            "devices",
            "open unknown device",
            "query device",
            "query port",
            "query gid and pkey",
            "errno convention NULL+errno (ibv_create_cq)",
            "errno convention -1+errno (ibv_query_gid)",
            "errno convention returned errno (ibv_modify_qp RESET->RTS)",
            "connect RC loopback",
            "send/recv",
            "send with immediate",
            "rdma write",
            "rdma write with immediate",
            "rdma read",
            "atomic compare and swap",
            "atomic fetch and add",
            "lists of work requests and gather",
            "inline, solicited and fenced sends",
            "post_send bad index from provider",
            "post_send too many sges",
            "completion channel wakeup",
            "direct byte buffer registration",
            "resize cq",
            "uc send and rdma write",
            "concurrent posting from 4 threads",
            "remote access violation (wrong rkey)",
            "rnr retry exceeded",
            "srq and srq limit event",
            "ud with address handle",
            "address handle cache keeps the paths used last",
            "multicast attach/detach",
            "seed context node, query_port and port events",
            "seed qp state, query with init attributes, from_qp_num",
            "seed work completion error detail",
            "seed multicast, ah_attr and drop_cache from paths",
            "seed comp_events, CqPoller sleep and wakeat",
            "steady-state allocation",
            "prepared work requests",
            "misuse of prepared work requests",
            "confined context",
            "use after close",
            "double close and parent closes children",
            "seed real port events refresh the end port",
            "no kernel objects left");

    @TestFactory
    Stream<DynamicTest> verbsOnSoftRoce() {
        Peers.require(SoftRoceVm.isAvailable(), SoftRoceVm.unavailabilityCause());
        VmResult result = SoftRoceVm.create().runJava(Duration.ofMinutes(5), VerbsInVm.class, List.of(Verbs.class, Gid.class), "rxe0");
        System.out.println("VerbsInVm in the soft-RoCE VM (" + result.elapsed().toMillis() + " ms):\n" + result.output());
        return PassFailChecks.of(result, CHECKS);
    }
}

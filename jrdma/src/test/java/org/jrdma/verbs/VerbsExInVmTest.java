package org.jrdma.verbs;

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
 * Builds {@code xverbs_oracle.c} with gcc against libibverbs, then runs it and
 * {@link VerbsExInVm} in one boot of the soft-RoCE VM on {@code rxe0}: the extended verbs (query
 * device ex, GID table, extended CQs and QPs, memory windows) with real traffic and compared with
 * what C does on the same device, and what rxe lacks refused as C sees it refused. Each check is
 * reported as a test of its own.
 */
class VerbsExInVmTest {
    /** Round trips of each ping-pong, C's and Java's. */
    private static final int ROUND_TRIPS = 1000;

    /** Every check {@link VerbsExInVm} makes, in its order. */
    private static final List<String> CHECKS = List.of(
            "fork_init as in C",
            "C ping-pong through ibv_wr_* and ibv_start_poll",
            "query_device_ex matches C",
            "query_rt_values_ex refused as in C",
            "gid table and query_gid_ex match C",
            "cq_ex with completion timestamps refused as in C",
            "xrcd refused as in C",
            "thread domain refused as in C",
            "advise_mr refused as in C",
            "on-demand paging registration refused",
            "connect qp_ex pair on cq_ex",
            "qp_ex ping-pong polled through cq_ex",
            "qp_ex rdma write with imm, rdma read, atomics",
            "qp_ex batch, sge list and inline data",
            "misuse of qp_ex and cq_ex",
            "reg_mr_iova, remote write and local send at the chosen address",
            "steady-state allocation of the qp_ex/cq_ex ping-pong",
            "memory window type 1, bind and remote write",
            "memory window type 2, bind by qp_ex, remote read, send with invalidate",
            "memory window type 2, local invalidate",
            "ud through wr_set_ud_addr, payload by wr_set_inline_data_list, as in C",
            "a poll holds its completions' slots until it ends",
            "tso qp_ex refused as in C",
            "xrc_send qp_ex refused as in C",
            "rereg_mr refused as in C",
            "reg_dmabuf_mr refused as in C",
            "parent domain refused as in C",
            "create_flow refused as in C",
            "create_flow with eth, ipv4, tcp, tag and ipv6, udp, drop specifications refused as in C",
            "basic srq through create_srq_ex with a cq carries traffic, get_srq_num refused as in C",
            "tag-matching srq refused as in C",
            "xrc target qp, open_qp and wr_set_xrc_srqn without a domain refused as in C",
            "rereg_mr of translation and domain refused as in C, bad arguments as in C",
            "import_device, import_pd, import_mr refused as in C",
            "close qp_ex and cq_ex with their context",
            "no kernel objects left");

    @TempDir
    static Path dir;

    @TestFactory
    Stream<DynamicTest> extendedVerbsOnSoftRoce() throws Exception {
        Peers.require(SoftRoceVm.isAvailable(), SoftRoceVm.unavailabilityCause());
        Path source = dir.resolve("xverbs_oracle.c");
        try (InputStream in = VerbsExInVmTest.class.getResourceAsStream("xverbs_oracle.c")) {
            Files.copy(in, source);
        }
        Path oracle = NativeCommand.gcc(dir, "xverbs_oracle", List.of("-Werror", "-O2", source.toString(), "-libverbs"),
                "libibverbs-dev");
        VmResult result = SoftRoceVm.create().runJava(Duration.ofMinutes(8), VerbsExInVm.class,
                List.of(Verbs.class, Gid.class), "rxe0", oracle.toString(), Integer.toString(ROUND_TRIPS));
        System.out.println("VerbsExInVm in the soft-RoCE VM (" + result.elapsed().toMillis() + " ms):\n" + result.output());
        return PassFailChecks.of(result, CHECKS);
    }
}

package org.jrdma.verbs;

import java.lang.foreign.GroupLayout;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.jrdma.testkit.junit.CHeaderOracle;
import org.jrdma.verbs.ffi.IbvFlow;
import org.jrdma.verbs.ffi.IbvQpEx;
import org.jrdma.verbs.ffi.IbvSrq;
import org.jrdma.verbs.ffi.IbvXrcd;
import org.jrdma.verbs.ffi.Structs;
import org.jrdma.verbs.ffi.StructsEx;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checks every hand-written verbs.h layout ({@link Structs#ALL}: the size and alignment of each
 * structure, the offset and size of each named member, nested ones included) and every verbs.h
 * constant jrdma spells in Java (enums and flag bits), plus the texts of
 * {@code ibv_wc_status_str} and {@code ibv_event_type_str}, against one C program compiled with
 * gcc at test time.
 */
class VerbsHeaderTest {
    @TempDir
    static Path dir;

    private static final CHeaderOracle oracle = new CHeaderOracle("infiniband/verbs.h", "errno.h", "fcntl.h");

    @BeforeAll
    static void runOracle() throws Exception {
        for (GroupLayout layout : Stream.concat(Structs.ALL.stream(), StructsEx.ALL.stream()).toList()) {
            oracle.layout(layout);
        }
        oracle.constants("IBV_QPT_", QpType.values());
        oracle.constants("IBV_QPS_", QpState.values());
        oracle.constants("IBV_WC_", WcStatus.values());
        oracle.constants("IBV_WC_", WcOpcode.values());
        oracle.constants("IBV_WR_", WrOpcode.values());
        oracle.constants("IBV_EVENT_", EventType.values());
        oracle.flags("IBV_ACCESS_", Access.class);
        oracle.flags("IBV_SEND_", SendFlags.class);
        oracle.flags("IBV_QP_", QpAttr.class);
        oracle.flags("IBV_WC_", WcBuffer.class);
        oracle.flags("IBV_", PortAttr.class);
        oracle.constants("IBV_FORK_", ForkStatus.values());
        oracle.flags("IBV_WC_EX_WITH_", WcFlagsEx.class);
        oracle.flags("IBV_QP_EX_WITH_", SendOps.class);
        oracle.flags("IBV_MW_", Mw.class);
        oracle.flags("IBV_GID_TYPE_", GidEntry.class);
        oracle.flags("IBV_FLOW_ATTR_", Flow.class);
        oracle.constant("IBV_DEVICE_MEM_WINDOW", (int) DeviceAttrEx.MEM_WINDOW);
        oracle.constant("IBV_DEVICE_XRC", (int) DeviceAttrEx.XRC);
        oracle.constant("IBV_DEVICE_MEM_MGT_EXTENSIONS", (int) DeviceAttrEx.MEM_MGT_EXTENSIONS);
        oracle.constant("IBV_DEVICE_MEM_WINDOW_TYPE_2A", (int) DeviceAttrEx.MEM_WINDOW_TYPE_2A);
        oracle.constant("IBV_DEVICE_MEM_WINDOW_TYPE_2B", (int) DeviceAttrEx.MEM_WINDOW_TYPE_2B);
        oracle.constant("IBV_ODP_SUPPORT", (int) DeviceAttrEx.ODP_SUPPORT);
        oracle.constant("IBV_ODP_SUPPORT_IMPLICIT", (int) DeviceAttrEx.ODP_SUPPORT_IMPLICIT);
        oracle.constant("IBV_QP_INIT_ATTR_PD", IbvQpEx.INIT_ATTR_PD);
        oracle.constant("IBV_QP_INIT_ATTR_XRCD", IbvQpEx.INIT_ATTR_XRCD);
        oracle.constant("IBV_QP_INIT_ATTR_SEND_OPS_FLAGS", IbvQpEx.INIT_ATTR_SEND_OPS_FLAGS);
        oracle.flags("IBV_FLOW_", IbvFlow.class);
        oracle.constant("IBV_SRQT_BASIC", IbvSrq.SRQT_BASIC);
        oracle.constant("IBV_SRQT_XRC", IbvSrq.SRQT_XRC);
        oracle.constant("IBV_SRQT_TM", IbvSrq.SRQT_TM);
        oracle.constant("IBV_SRQ_INIT_ATTR_TYPE", IbvSrq.INIT_ATTR_TYPE);
        oracle.constant("IBV_SRQ_INIT_ATTR_PD", IbvSrq.INIT_ATTR_PD);
        oracle.constant("IBV_SRQ_INIT_ATTR_XRCD", IbvSrq.INIT_ATTR_XRCD);
        oracle.constant("IBV_SRQ_INIT_ATTR_CQ", IbvSrq.INIT_ATTR_CQ);
        oracle.constant("IBV_SRQ_INIT_ATTR_TM", IbvSrq.INIT_ATTR_TM);
        oracle.constant("IBV_QPT_XRC_RECV", IbvXrcd.QPT_XRC_RECV);
        oracle.line("constant IBV_XRCD_INIT_ATTR_FD+OFLAGS", "%lld",
                "(long long) (IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS)",
                Integer.toString(IbvXrcd.INIT_ATTR_FD_AND_OFLAGS));
        oracle.line("constant IBV_QP_OPEN_ATTR_NUM+XRCD+TYPE", "%lld",
                "(long long) (IBV_QP_OPEN_ATTR_NUM | IBV_QP_OPEN_ATTR_XRCD | IBV_QP_OPEN_ATTR_TYPE)",
                Integer.toString(IbvXrcd.OPEN_ATTR_NUM_XRCD_TYPE));
        oracle.constant("IBV_REREG_MR_CHANGE_TRANSLATION", Mr.REREG_CHANGE_TRANSLATION);
        oracle.constant("IBV_REREG_MR_CHANGE_PD", Mr.REREG_CHANGE_PD);
        oracle.constant("IBV_REREG_MR_CHANGE_ACCESS", Mr.REREG_CHANGE_ACCESS);
        oracle.constant("O_CREAT", Context.O_CREAT);
        oracle.constant("O_EXCL", Context.O_EXCL);
        oracle.constant("EOPNOTSUPP", UnsupportedVerbException.EOPNOTSUPP);
        oracle.constant("ENOSYS", UnsupportedVerbException.ENOSYS);
        oracle.constant("IBV_SRQ_MAX_WR", Srq.MAX_WR);
        oracle.constant("IBV_SRQ_LIMIT", Srq.LIMIT);
        for (WcStatus status : WcStatus.values()) {
            oracle.line("ibv_wc_status_str " + status.value(), "%s", "ibv_wc_status_str(" + status.value() + ")",
                    status.text());
        }
        for (EventType type : EventType.values()) {
            oracle.line("ibv_event_type_str " + type.value(), "%s", "ibv_event_type_str(" + type.value() + ")",
                    type.text());
        }
        oracle.run(dir, List.of("-libverbs"), "libibverbs-dev");
    }

    @Test
    void everyLayoutMatchesVerbsH() {
        oracle.assertMatches("size ", "align ", "offset ", "sizeof ");
    }

    @Test
    void everyConstantMatchesVerbsH() {
        oracle.assertMatches("constant ");
    }

    @Test
    void statusAndEventTextsMatchLibibverbs() {
        oracle.assertMatches("ibv_wc_status_str ", "ibv_event_type_str ");
    }
}

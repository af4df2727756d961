package org.jrdma.verbs;

import java.lang.foreign.GroupLayout;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.jrdma.testkit.junit.CHeaderOracle;
import org.jrdma.verbs.ffi.IbvQpEx;
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

    private static final CHeaderOracle oracle = new CHeaderOracle("infiniband/verbs.h", "errno.h");

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

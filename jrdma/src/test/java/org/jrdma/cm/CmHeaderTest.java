package org.jrdma.cm;

import java.lang.foreign.GroupLayout;
import java.nio.file.Path;
import java.util.List;
import org.jrdma.cm.ffi.CmId;
import org.jrdma.cm.ffi.CmStructs;
import org.jrdma.testkit.junit.CHeaderOracle;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checks every hand-written {@code <rdma/rdma_cma.h>} layout ({@link CmStructs#ALL}: size,
 * alignment, and the offset and size of each named member, nested ones included), the port
 * spaces, the address families, the {@code rdma_getaddrinfo} flags, the {@code rdma_set_option}
 * levels and names, the multicast join flags, the path data flags, the event types and their
 * {@code rdma_event_str} texts against
 * one C program compiled with gcc and linked with librdmacm at test time.
 */
class CmHeaderTest {
    @TempDir
    static Path dir;

    private static final CHeaderOracle oracle = new CHeaderOracle("rdma/rdma_cma.h", "netinet/in.h",
            "infiniband/ib.h");

    @BeforeAll
    static void runOracle() throws Exception {
        for (GroupLayout layout : CmStructs.ALL) {
            oracle.layout(layout);
        }
        for (PortSpace ps : PortSpace.values()) {
            oracle.constant("RDMA_PS_" + ps.name(), ps.value());
        }
        for (CmEventType type : CmEventType.values()) {
            oracle.constant(type.text(), type.value());
            oracle.line("rdma_event_str " + type.value(), "%s", "rdma_event_str(" + type.value() + ")", type.text());
        }
        oracle.constant("AF_INET", CmStructs.AF_INET);
        oracle.constant("AF_INET6", CmStructs.AF_INET6);
        oracle.constant("AF_IB", CmStructs.AF_IB);
        oracle.constant("sizeof(struct sockaddr_storage)", CmStructs.SOCKADDR_STORAGE_SIZE);
        oracle.constant("RDMA_UDP_QKEY", RdmaCmId.UDP_QKEY);
        oracle.constant("RAI_PASSIVE", AddrInfo.PASSIVE);
        oracle.constant("RAI_NUMERICHOST", AddrInfo.NUMERIC_HOST);
        oracle.constant("RAI_NOROUTE", AddrInfo.NO_ROUTE);
        oracle.constant("RAI_FAMILY", AddrInfo.FAMILY);
        oracle.constant("RDMA_OPTION_ID", CmId.OPTION_ID);
        oracle.constant("RDMA_OPTION_IB", CmId.OPTION_IB);
        oracle.constant("RDMA_OPTION_ID_TOS", CmId.OPTION_ID_TOS);
        oracle.constant("RDMA_OPTION_ID_REUSEADDR", CmId.OPTION_ID_REUSEADDR);
        oracle.constant("RDMA_OPTION_ID_AFONLY", CmId.OPTION_ID_AFONLY);
        oracle.constant("RDMA_OPTION_ID_ACK_TIMEOUT", CmId.OPTION_ID_ACK_TIMEOUT);
        oracle.constant("RDMA_OPTION_IB_PATH", CmId.OPTION_IB_PATH);
        oracle.constant("RDMA_CM_JOIN_MC_ATTR_ADDRESS", CmId.JOIN_MC_ATTR_ADDRESS);
        oracle.constant("RDMA_CM_JOIN_MC_ATTR_JOIN_FLAGS", CmId.JOIN_MC_ATTR_JOIN_FLAGS);
        oracle.constant("RDMA_MC_JOIN_FLAG_FULLMEMBER", MulticastJoin.FULL_MEMBER.value());
        oracle.constant("RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER", MulticastJoin.SEND_ONLY_FULL_MEMBER.value());
        oracle.constant("IBV_PATH_FLAG_GMP", CmId.PATH_FLAG_GMP);
        oracle.constant("IBV_PATH_FLAG_PRIMARY", CmId.PATH_FLAG_PRIMARY);
        oracle.constant("IBV_PATH_FLAG_BIDIRECTIONAL", CmId.PATH_FLAG_BIDIRECTIONAL);
        oracle.run(dir, List.of("-lrdmacm", "-libverbs"), "librdmacm-dev");
    }

    @Test
    void everyLayoutMatchesRdmaCmaH() {
        oracle.assertMatches("size ", "align ", "offset ", "sizeof ");
    }

    @Test
    void everyConstantMatchesRdmaCmaH() {
        oracle.assertMatches("constant ");
    }

    @Test
    void eventTextsMatchLibrdmacm() {
        oracle.assertMatches("rdma_event_str ");
    }
}

package org.jrdma.cm.ffi;

import static java.lang.foreign.MemoryLayout.paddingLayout;
import static java.lang.foreign.MemoryLayout.sequenceLayout;
import static java.lang.foreign.MemoryLayout.structLayout;
import static java.lang.foreign.MemoryLayout.unionLayout;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.List;
import org.jrdma.verbs.ffi.Structs;

/**
 * The {@code <rdma/rdma_cma.h>} structures jrdma reads or writes, and the socket addresses they
 * hold, written by hand as {@link MemoryLayout}s whose member names are the C member names (x86-64
 * Linux). The anonymous unions of {@code struct rdma_addr} are represented by their
 * {@code sockaddr_storage} members, {@code src_storage} and {@code dst_storage}. Checked against
 * the header by a test compiled with gcc ({@link #ALL}).
 */
public final class CmStructs {
    /** {@code AF_INET}. */
    public static final int AF_INET = 2;
    /** {@code AF_INET6}. */
    public static final int AF_INET6 = 10;
    /** {@code AF_IB}: an InfiniBand address ({@code struct sockaddr_ib}). */
    public static final int AF_IB = 27;
    /** {@code sizeof(struct sockaddr_storage)}. */
    public static final long SOCKADDR_STORAGE_SIZE = 128;

    /** {@code struct sockaddr_in}: an IPv4 address and port, both in network order. */
    public static final GroupLayout SOCKADDR_IN = structLayout(
            JAVA_SHORT.withName("sin_family"),
            be16("sin_port"),
            bytes("sin_addr", 4, 4),
            bytes("sin_zero", 8, 1))
            .withName("sockaddr_in");

    /** {@code struct sockaddr_in6}: an IPv6 address, port, flow information and scope. */
    public static final GroupLayout SOCKADDR_IN6 = structLayout(
            JAVA_SHORT.withName("sin6_family"),
            be16("sin6_port"),
            JAVA_INT.withOrder(ByteOrder.BIG_ENDIAN).withName("sin6_flowinfo"),
            bytes("sin6_addr", 16, 4),
            JAVA_INT.withName("sin6_scope_id"))
            .withName("sockaddr_in6");

    /**
     * {@code struct sockaddr_ib} ({@code <infiniband/ib.h>}, {@code AF_IB}): a GID with a P_Key,
     * flow label and IB CM service ID (and mask) in place of an IP address and port.
     */
    public static final GroupLayout SOCKADDR_IB = structLayout(
            JAVA_SHORT.withName("sib_family"),
            be16("sib_pkey"),
            JAVA_INT.withOrder(ByteOrder.BIG_ENDIAN).withName("sib_flowinfo"),
            bytes("sib_addr", 16, 8),
            be64("sib_sid"),
            be64("sib_sid_mask"),
            JAVA_LONG.withName("sib_scope_id"))
            .withName("sockaddr_ib");

    /** {@code struct rdma_ib_addr}: the GIDs and P_Key an address resolved to. */
    public static final GroupLayout RDMA_IB_ADDR = structLayout(
            Structs.IBV_GID.withName("sgid"),
            Structs.IBV_GID.withName("dgid"),
            be16("pkey"),
            paddingLayout(6))
            .withName("rdma_ib_addr");

    /** {@code struct rdma_addr}: source and destination socket addresses, and the IB addresses. */
    public static final GroupLayout RDMA_ADDR = structLayout(
            bytes("src_storage", SOCKADDR_STORAGE_SIZE, 8),
            bytes("dst_storage", SOCKADDR_STORAGE_SIZE, 8),
            unionLayout(RDMA_IB_ADDR.withName("ibaddr")).withName("addr"))
            .withName("rdma_addr");

    /** {@code struct rdma_route}: the addresses and the path records resolved for them. */
    public static final GroupLayout RDMA_ROUTE = structLayout(
            RDMA_ADDR.withName("addr"),
            ADDRESS.withName("path_rec"),
            JAVA_INT.withName("num_paths"),
            paddingLayout(4))
            .withName("rdma_route");

    /**
     * {@code struct ibv_sa_path_rec} ({@code <infiniband/sa.h>}): a path record as librdmacm
     * reports a resolved route's paths ({@code route.path_rec}), its LIDs and P_Key in network
     * order, the other members host values (IBA 15.2.5.16).
     */
    public static final GroupLayout IBV_SA_PATH_REC = structLayout(
            Structs.IBV_GID.withName("dgid"),
            Structs.IBV_GID.withName("sgid"),
            be16("dlid"),
            be16("slid"),
            JAVA_INT.withName("raw_traffic"),
            JAVA_INT.withOrder(ByteOrder.BIG_ENDIAN).withName("flow_label"),
            JAVA_BYTE.withName("hop_limit"),
            JAVA_BYTE.withName("traffic_class"),
            paddingLayout(2),
            JAVA_INT.withName("reversible"),
            JAVA_BYTE.withName("numb_path"),
            paddingLayout(1),
            be16("pkey"),
            JAVA_BYTE.withName("sl"),
            JAVA_BYTE.withName("mtu_selector"),
            JAVA_BYTE.withName("mtu"),
            JAVA_BYTE.withName("rate_selector"),
            JAVA_BYTE.withName("rate"),
            JAVA_BYTE.withName("packet_life_time_selector"),
            JAVA_BYTE.withName("packet_life_time"),
            JAVA_BYTE.withName("preference"))
            .withName("ibv_sa_path_rec");

    /**
     * {@code struct ibv_path_record} ({@code <infiniband/sa.h>}): a path record in its wire form
     * (IBA 15.2.5.16, from the service ID on), what {@code RDMA_OPTION_IB_PATH} sets.
     */
    public static final GroupLayout IBV_PATH_RECORD = structLayout(
            be64("service_id"),
            Structs.IBV_GID.withName("dgid"),
            Structs.IBV_GID.withName("sgid"),
            be16("dlid"),
            be16("slid"),
            JAVA_INT.withOrder(ByteOrder.BIG_ENDIAN).withName("flowlabel_hoplimit"),
            JAVA_BYTE.withName("tclass"),
            JAVA_BYTE.withName("reversible_numpath"),
            be16("pkey"),
            be16("qosclass_sl"),
            JAVA_BYTE.withName("mtu"),
            JAVA_BYTE.withName("rate"),
            JAVA_BYTE.withName("packetlifetime"),
            JAVA_BYTE.withName("preference"),
            bytes("reserved", 6, 1))
            .withName("ibv_path_record");

    /** {@code struct ibv_path_data}: a path record and which direction(s) it is for ({@code IBV_PATH_FLAG_*}). */
    public static final GroupLayout IBV_PATH_DATA = structLayout(
            JAVA_INT.withName("flags"),
            JAVA_INT.withName("reserved"),
            IBV_PATH_RECORD.withName("path"))
            .withName("ibv_path_data");

    /**
     * {@code struct rdma_addrinfo}: one answer of {@code rdma_getaddrinfo}, or its hints: the
     * addresses, the port space and QP type, and the route and connect data for them.
     */
    public static final GroupLayout RDMA_ADDRINFO = structLayout(
            JAVA_INT.withName("ai_flags"),
            JAVA_INT.withName("ai_family"),
            JAVA_INT.withName("ai_qp_type"),
            JAVA_INT.withName("ai_port_space"),
            JAVA_INT.withName("ai_src_len"),
            JAVA_INT.withName("ai_dst_len"),
            ADDRESS.withName("ai_src_addr"),
            ADDRESS.withName("ai_dst_addr"),
            ADDRESS.withName("ai_src_canonname"),
            ADDRESS.withName("ai_dst_canonname"),
            JAVA_LONG.withName("ai_route_len"),
            ADDRESS.withName("ai_route"),
            JAVA_LONG.withName("ai_connect_len"),
            ADDRESS.withName("ai_connect"),
            ADDRESS.withName("ai_next"))
            .withName("rdma_addrinfo");

    /** {@code struct rdma_cm_join_mc_attr_ex}: the group and the join state of {@code rdma_join_multicast_ex}. */
    public static final GroupLayout RDMA_CM_JOIN_MC_ATTR_EX = structLayout(
            JAVA_INT.withName("comp_mask"),
            JAVA_INT.withName("join_flags"),
            ADDRESS.withName("addr"))
            .withName("rdma_cm_join_mc_attr_ex");

    /** {@code struct rdma_event_channel}: the file descriptor events are read from. */
    public static final GroupLayout RDMA_EVENT_CHANNEL = structLayout(JAVA_INT.withName("fd"))
            .withName("rdma_event_channel");

    /** {@code struct rdma_cm_id}: a connection identifier, the sockets' counterpart. */
    public static final GroupLayout RDMA_CM_ID = structLayout(
            ADDRESS.withName("verbs"),
            ADDRESS.withName("channel"),
            ADDRESS.withName("context"),
            ADDRESS.withName("qp"),
            RDMA_ROUTE.withName("route"),
            JAVA_INT.withName("ps"),
            JAVA_BYTE.withName("port_num"),
            paddingLayout(3),
            ADDRESS.withName("event"),
            ADDRESS.withName("send_cq_channel"),
            ADDRESS.withName("send_cq"),
            ADDRESS.withName("recv_cq_channel"),
            ADDRESS.withName("recv_cq"),
            ADDRESS.withName("srq"),
            ADDRESS.withName("pd"),
            JAVA_INT.withName("qp_type"),
            paddingLayout(4))
            .withName("rdma_cm_id");

    /** {@code struct rdma_conn_param}: what a connection request or reply carries. */
    public static final GroupLayout RDMA_CONN_PARAM = structLayout(
            ADDRESS.withName("private_data"),
            JAVA_BYTE.withName("private_data_len"),
            JAVA_BYTE.withName("responder_resources"),
            JAVA_BYTE.withName("initiator_depth"),
            JAVA_BYTE.withName("flow_control"),
            JAVA_BYTE.withName("retry_count"),
            JAVA_BYTE.withName("rnr_retry_count"),
            JAVA_BYTE.withName("srq"),
            paddingLayout(1),
            JAVA_INT.withName("qp_num"),
            paddingLayout(4))
            .withName("rdma_conn_param");

    /** {@code struct rdma_ud_param}: how to reach a UD peer or multicast group. */
    public static final GroupLayout RDMA_UD_PARAM = structLayout(
            ADDRESS.withName("private_data"),
            JAVA_BYTE.withName("private_data_len"),
            paddingLayout(7),
            Structs.IBV_AH_ATTR.withName("ah_attr"),
            JAVA_INT.withName("qp_num"),
            JAVA_INT.withName("qkey"))
            .withName("rdma_ud_param");

    /** {@code struct rdma_cm_event}: one event of an event channel. */
    public static final GroupLayout RDMA_CM_EVENT = structLayout(
            ADDRESS.withName("id"),
            ADDRESS.withName("listen_id"),
            JAVA_INT.withName("event"),
            JAVA_INT.withName("status"),
            unionLayout(RDMA_CONN_PARAM.withName("conn"), RDMA_UD_PARAM.withName("ud")).withName("param"))
            .withName("rdma_cm_event");

    /** Every layout above, for the layout test. */
    public static final List<GroupLayout> ALL = List.of(SOCKADDR_IN, SOCKADDR_IN6, SOCKADDR_IB, RDMA_IB_ADDR,
            RDMA_ADDR, RDMA_ROUTE, IBV_SA_PATH_REC, IBV_PATH_RECORD, IBV_PATH_DATA, RDMA_ADDRINFO,
            RDMA_CM_JOIN_MC_ATTR_EX, RDMA_EVENT_CHANNEL, RDMA_CM_ID, RDMA_CONN_PARAM, RDMA_UD_PARAM, RDMA_CM_EVENT);

    private CmStructs() {
    }

    /** A handle on the member at the dot-separated {@code path} of {@code layout}, coordinates (segment, offset). */
    static VarHandle handle(GroupLayout layout, String path) {
        return layout.varHandle(elements(path));
    }

    /** The offset of the member at {@code path} in {@code layout}. */
    static long offset(GroupLayout layout, String path) {
        return layout.byteOffset(elements(path));
    }

    private static MemoryLayout.PathElement[] elements(String path) {
        return java.util.Arrays.stream(path.split("\\.")).map(MemoryLayout.PathElement::groupElement)
                .toArray(MemoryLayout.PathElement[]::new);
    }

    private static ValueLayout be16(String name) {
        return JAVA_SHORT.withOrder(ByteOrder.BIG_ENDIAN).withName(name);
    }

    private static ValueLayout be64(String name) {
        return JAVA_LONG.withOrder(ByteOrder.BIG_ENDIAN).withName(name);
    }

    private static MemoryLayout bytes(String name, long count, long alignment) {
        return sequenceLayout(count, JAVA_BYTE).withByteAlignment(alignment).withName(name);
    }
}

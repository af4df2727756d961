package org.jrdma.verbs.ffi;

import static java.lang.foreign.MemoryLayout.paddingLayout;
import static java.lang.foreign.MemoryLayout.sequenceLayout;
import static java.lang.foreign.MemoryLayout.structLayout;
import static java.lang.foreign.MemoryLayout.unionLayout;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.SequenceLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The C structures of {@code <infiniband/verbs.h>} (rdma-core 44, Linux x86-64) that jrdma reads
 * or writes, written by hand as {@link MemoryLayout}s whose member names are the C member names.
 * Big-endian members ({@code __be16/32/64}) carry big-endian layouts, so a read gives the host
 * value. A C member that jrdma never touches is still named, so that the layout test (which
 * compiles a C program printing {@code sizeof}/{@code offsetof} for every named member) checks
 * the whole structure; an anonymous C union is an unnamed layout here.
 */
public final class Structs {
    /** {@code pthread_mutex_t} on x86-64 glibc: 40 opaque bytes, 8-aligned. */
    private static final long MUTEX_BYTES = 40;
    /** {@code pthread_cond_t} on x86-64 glibc: 48 opaque bytes, 8-aligned. */
    private static final long COND_BYTES = 48;

    /** {@code union ibv_gid}: 16 raw bytes, or the subnet prefix and interface ID. */
    public static final GroupLayout IBV_GID = unionLayout(
            bytes("raw", 16, 1),
            structLayout(be64("subnet_prefix"), be64("interface_id")).withName("global"))
            .withName("ibv_gid");

    /** {@code struct ibv_device}: a device found by {@code ibv_get_device_list}. */
    public static final GroupLayout IBV_DEVICE = structLayout(
            structLayout(ptr("_dummy1"), ptr("_dummy2")).withName("_ops"),
            i32("node_type"),
            i32("transport_type"),
            bytes("name", 64, 1),
            bytes("dev_name", 64, 1),
            bytes("dev_path", 256, 1),
            bytes("ibdev_path", 256, 1))
            .withName("ibv_device");

    /** {@code struct ibv_device_attr}: {@code ibv_query_device}. */
    public static final GroupLayout IBV_DEVICE_ATTR = structLayout(
            bytes("fw_ver", 64, 1),
            be64("node_guid"),
            be64("sys_image_guid"),
            u64("max_mr_size"),
            u64("page_size_cap"),
            i32("vendor_id"), i32("vendor_part_id"), i32("hw_ver"),
            i32("max_qp"), i32("max_qp_wr"), i32("device_cap_flags"),
            i32("max_sge"), i32("max_sge_rd"), i32("max_cq"), i32("max_cqe"),
            i32("max_mr"), i32("max_pd"), i32("max_qp_rd_atom"), i32("max_ee_rd_atom"),
            i32("max_res_rd_atom"), i32("max_qp_init_rd_atom"), i32("max_ee_init_rd_atom"),
            i32("atomic_cap"), i32("max_ee"), i32("max_rdd"), i32("max_mw"),
            i32("max_raw_ipv6_qp"), i32("max_raw_ethy_qp"), i32("max_mcast_grp"),
            i32("max_mcast_qp_attach"), i32("max_total_mcast_qp_attach"), i32("max_ah"),
            i32("max_fmr"), i32("max_map_per_fmr"), i32("max_srq"), i32("max_srq_wr"),
            i32("max_srq_sge"),
            u16("max_pkeys"),
            u8("local_ca_ack_delay"),
            u8("phys_port_cnt"),
            paddingLayout(4))
            .withName("ibv_device_attr");

    /** {@code struct ibv_port_attr}: {@code ibv_query_port}, the full (non-compat) structure. */
    public static final GroupLayout IBV_PORT_ATTR = structLayout(
            i32("state"), i32("max_mtu"), i32("active_mtu"), i32("gid_tbl_len"),
            i32("port_cap_flags"), i32("max_msg_sz"), i32("bad_pkey_cntr"), i32("qkey_viol_cntr"),
            u16("pkey_tbl_len"), u16("lid"), u16("sm_lid"),
            u8("lmc"), u8("max_vl_num"), u8("sm_sl"), u8("subnet_timeout"), u8("init_type_reply"),
            u8("active_width"), u8("active_speed"), u8("phys_state"), u8("link_layer"), u8("flags"),
            u16("port_cap_flags2"),
            paddingLayout(2))
            .withName("ibv_port_attr");

    /** {@code struct ibv_context_ops}: the provider's entry points, the data path among them. */
    public static final GroupLayout IBV_CONTEXT_OPS = structLayout(
            ptr("_compat_query_device"), ptr("_compat_query_port"), ptr("_compat_alloc_pd"),
            ptr("_compat_dealloc_pd"), ptr("_compat_reg_mr"), ptr("_compat_rereg_mr"),
            ptr("_compat_dereg_mr"), ptr("alloc_mw"), ptr("bind_mw"), ptr("dealloc_mw"),
            ptr("_compat_create_cq"), ptr("poll_cq"), ptr("req_notify_cq"), ptr("_compat_cq_event"),
            ptr("_compat_resize_cq"), ptr("_compat_destroy_cq"), ptr("_compat_create_srq"),
            ptr("_compat_modify_srq"), ptr("_compat_query_srq"), ptr("_compat_destroy_srq"),
            ptr("post_srq_recv"), ptr("_compat_create_qp"), ptr("_compat_query_qp"),
            ptr("_compat_modify_qp"), ptr("_compat_destroy_qp"), ptr("post_send"), ptr("post_recv"),
            ptr("_compat_create_ah"), ptr("_compat_destroy_ah"), ptr("_compat_attach_mcast"),
            ptr("_compat_detach_mcast"), ptr("_compat_async_event"))
            .withName("ibv_context_ops");

    /** {@code struct ibv_context}: an open device. */
    public static final GroupLayout IBV_CONTEXT = structLayout(
            ptr("device"),
            IBV_CONTEXT_OPS.withName("ops"),
            i32("cmd_fd"), i32("async_fd"), i32("num_comp_vectors"),
            paddingLayout(4),
            bytes("mutex", MUTEX_BYTES, 8),
            ptr("abi_compat"))
            .withName("ibv_context");

    /**
     * {@code struct verbs_context}, which extends an {@code ibv_context} at lower addresses; only
     * its first entry ({@code query_port}) and the two at its end are named, the 37 pointers
     * between are opaque. It "grows up": a newer library adds entries before {@code query_port},
     * so each entry's distance to the end is fixed, and {@code sz} says how far the library's
     * structure extends.
     */
    public static final GroupLayout VERBS_CONTEXT = structLayout(
            ptr("query_port"),
            paddingLayout(37 * 8),
            u64("_ABI_placeholder3"),
            u64("sz"),
            IBV_CONTEXT.withName("context"))
            .withName("verbs_context");

    /** {@code struct ibv_comp_channel}: a completion event channel. */
    public static final GroupLayout IBV_COMP_CHANNEL = structLayout(
            ptr("context"), i32("fd"), i32("refcnt"))
            .withName("ibv_comp_channel");

    /** {@code struct ibv_cq}: a completion queue. */
    public static final GroupLayout IBV_CQ = structLayout(
            ptr("context"), ptr("channel"), ptr("cq_context"),
            i32("handle"), i32("cqe"),
            bytes("mutex", MUTEX_BYTES, 8),
            bytes("cond", COND_BYTES, 8),
            i32("comp_events_completed"), i32("async_events_completed"))
            .withName("ibv_cq");

    /** {@code struct ibv_pd}: a protection domain. */
    public static final GroupLayout IBV_PD = structLayout(
            ptr("context"), i32("handle"), paddingLayout(4))
            .withName("ibv_pd");

    /** {@code struct ibv_mr}: a memory region. */
    public static final GroupLayout IBV_MR = structLayout(
            ptr("context"), ptr("pd"), ptr("addr"), u64("length"),
            i32("handle"), i32("lkey"), i32("rkey"), paddingLayout(4))
            .withName("ibv_mr");

    /** {@code struct ibv_srq}: a shared receive queue. */
    public static final GroupLayout IBV_SRQ = structLayout(
            ptr("context"), ptr("srq_context"), ptr("pd"),
            i32("handle"), paddingLayout(4),
            bytes("mutex", MUTEX_BYTES, 8),
            bytes("cond", COND_BYTES, 8),
            i32("events_completed"), paddingLayout(4))
            .withName("ibv_srq");

    /** {@code struct ibv_qp}: a queue pair. */
    public static final GroupLayout IBV_QP = structLayout(
            ptr("context"), ptr("qp_context"), ptr("pd"), ptr("send_cq"), ptr("recv_cq"), ptr("srq"),
            i32("handle"), i32("qp_num"), i32("state"), i32("qp_type"),
            bytes("mutex", MUTEX_BYTES, 8),
            bytes("cond", COND_BYTES, 8),
            i32("events_completed"), paddingLayout(4))
            .withName("ibv_qp");

    /** {@code struct ibv_ah}: an address handle. */
    public static final GroupLayout IBV_AH = structLayout(
            ptr("context"), ptr("pd"), i32("handle"), paddingLayout(4))
            .withName("ibv_ah");

    /** {@code struct ibv_global_route}: the GRH fields of an address vector. */
    public static final GroupLayout IBV_GLOBAL_ROUTE = structLayout(
            IBV_GID.withName("dgid"),
            i32("flow_label"), u8("sgid_index"), u8("hop_limit"), u8("traffic_class"),
            paddingLayout(1))
            .withName("ibv_global_route");

    /** {@code struct ibv_ah_attr}: an address vector. */
    public static final GroupLayout IBV_AH_ATTR = structLayout(
            IBV_GLOBAL_ROUTE.withName("grh"),
            u16("dlid"), u8("sl"), u8("src_path_bits"), u8("static_rate"), u8("is_global"), u8("port_num"),
            paddingLayout(1))
            .withName("ibv_ah_attr");

    /** {@code struct ibv_qp_cap}: the sizes of a queue pair's work queues. */
    public static final GroupLayout IBV_QP_CAP = structLayout(
            i32("max_send_wr"), i32("max_recv_wr"), i32("max_send_sge"), i32("max_recv_sge"),
            i32("max_inline_data"))
            .withName("ibv_qp_cap");

    /** {@code struct ibv_qp_init_attr}: {@code ibv_create_qp}'s argument. */
    public static final GroupLayout IBV_QP_INIT_ATTR = structLayout(
            ptr("qp_context"), ptr("send_cq"), ptr("recv_cq"), ptr("srq"),
            IBV_QP_CAP.withName("cap"),
            i32("qp_type"), i32("sq_sig_all"),
            paddingLayout(4))
            .withName("ibv_qp_init_attr");

    /** {@code struct ibv_qp_attr}: {@code ibv_modify_qp} and {@code ibv_query_qp}. */
    public static final GroupLayout IBV_QP_ATTR = structLayout(
            i32("qp_state"), i32("cur_qp_state"), i32("path_mtu"), i32("path_mig_state"),
            i32("qkey"), i32("rq_psn"), i32("sq_psn"), i32("dest_qp_num"), i32("qp_access_flags"),
            IBV_QP_CAP.withName("cap"),
            IBV_AH_ATTR.withName("ah_attr"),
            IBV_AH_ATTR.withName("alt_ah_attr"),
            u16("pkey_index"), u16("alt_pkey_index"),
            u8("en_sqd_async_notify"), u8("sq_draining"), u8("max_rd_atomic"), u8("max_dest_rd_atomic"),
            u8("min_rnr_timer"), u8("port_num"), u8("timeout"), u8("retry_cnt"), u8("rnr_retry"),
            u8("alt_port_num"), u8("alt_timeout"),
            paddingLayout(1),
            i32("rate_limit"),
            paddingLayout(4))
            .withName("ibv_qp_attr");

    /** {@code struct ibv_srq_attr}: {@code ibv_modify_srq} and {@code ibv_query_srq}. */
    public static final GroupLayout IBV_SRQ_ATTR = structLayout(
            i32("max_wr"), i32("max_sge"), i32("srq_limit"))
            .withName("ibv_srq_attr");

    /** {@code struct ibv_srq_init_attr}: {@code ibv_create_srq}'s argument. */
    public static final GroupLayout IBV_SRQ_INIT_ATTR = structLayout(
            ptr("srq_context"), IBV_SRQ_ATTR.withName("attr"), paddingLayout(4))
            .withName("ibv_srq_init_attr");

    /** {@code struct ibv_sge}: one scatter/gather element. */
    public static final GroupLayout IBV_SGE = structLayout(
            u64("addr"), i32("length"), i32("lkey"))
            .withName("ibv_sge");

    /** {@code struct ibv_mw_bind_info}: inside a send work request's {@code bind_mw}. */
    private static final GroupLayout IBV_MW_BIND_INFO = structLayout(
            ptr("mr"), u64("addr"), u64("length"), i32("mw_access_flags"), paddingLayout(4))
            .withName("ibv_mw_bind_info");

    /** {@code struct ibv_send_wr}: a send queue work request, with the {@code wr} union. */
    public static final GroupLayout IBV_SEND_WR = structLayout(
            u64("wr_id"), ptr("next"), ptr("sg_list"),
            i32("num_sge"), i32("opcode"), i32("send_flags"),
            unionLayout(be32("imm_data"), i32("invalidate_rkey")),
            unionLayout(
                    structLayout(u64("remote_addr"), i32("rkey"), paddingLayout(4)).withName("rdma"),
                    structLayout(u64("remote_addr"), u64("compare_add"), u64("swap"), i32("rkey"),
                            paddingLayout(4)).withName("atomic"),
                    structLayout(ptr("ah"), i32("remote_qpn"), i32("remote_qkey")).withName("ud"))
                    .withName("wr"),
            unionLayout(structLayout(i32("remote_srqn")).withName("xrc")).withName("qp_type"),
            paddingLayout(4),
            unionLayout(
                    structLayout(ptr("mw"), i32("rkey"), paddingLayout(4),
                            IBV_MW_BIND_INFO.withName("bind_info")).withName("bind_mw"),
                    structLayout(ptr("hdr"), u16("hdr_sz"), u16("mss"), paddingLayout(4)).withName("tso")))
            .withName("ibv_send_wr");

    /** {@code struct ibv_recv_wr}: a receive queue work request. */
    public static final GroupLayout IBV_RECV_WR = structLayout(
            u64("wr_id"), ptr("next"), ptr("sg_list"), i32("num_sge"), paddingLayout(4))
            .withName("ibv_recv_wr");

    /** {@code struct ibv_wc}: a work completion. */
    public static final GroupLayout IBV_WC = structLayout(
            u64("wr_id"), i32("status"), i32("opcode"), i32("vendor_err"), i32("byte_len"),
            unionLayout(be32("imm_data"), i32("invalidated_rkey")),
            i32("qp_num"), i32("src_qp"), i32("wc_flags"),
            u16("pkey_index"), u16("slid"), u8("sl"), u8("dlid_path_bits"),
            paddingLayout(2))
            .withName("ibv_wc");

    /** {@code struct ibv_async_event}: an asynchronous event and the object it concerns. */
    public static final GroupLayout IBV_ASYNC_EVENT = structLayout(
            unionLayout(ptr("cq"), ptr("qp"), ptr("srq"), ptr("wq"), i32("port_num")).withName("element"),
            i32("event_type"),
            paddingLayout(4))
            .withName("ibv_async_event");

    /** Every structure above, for the layout test. */
    public static final List<GroupLayout> ALL = List.of(IBV_GID, IBV_DEVICE, IBV_DEVICE_ATTR,
            IBV_PORT_ATTR, IBV_CONTEXT_OPS, IBV_CONTEXT, VERBS_CONTEXT, IBV_COMP_CHANNEL, IBV_CQ,
            IBV_PD, IBV_MR, IBV_SRQ, IBV_QP, IBV_AH, IBV_GLOBAL_ROUTE, IBV_AH_ATTR, IBV_QP_CAP,
            IBV_QP_INIT_ATTR, IBV_QP_ATTR, IBV_SRQ_ATTR, IBV_SRQ_INIT_ATTR, IBV_SGE,
            IBV_MW_BIND_INFO, IBV_SEND_WR, IBV_RECV_WR, IBV_WC, IBV_ASYNC_EVENT);

    private Structs() {
    }

    /**
     * A handle on the member at {@code path} (dot-separated C member names, such as
     * {@code "wr.rdma.rkey"} or {@code "ops.post_send"}) of {@code layout}, with the coordinates
     * {@code (MemorySegment, long offset)}: the offset is that of the structure in the segment,
     * 0 for a single structure, {@code i * byteSize()} for element {@code i} of an array.
     * An anonymous union is entered by the name of its member.
     */
    static VarHandle handle(GroupLayout layout, String path) {
        return layout.varHandle(elements(layout, path));
    }

    /** The offset of the member at {@code path} (as in {@link #handle}) in {@code layout}. */
    static long offset(GroupLayout layout, String path) {
        return layout.byteOffset(elements(layout, path));
    }

    static MemoryLayout.PathElement[] elements(GroupLayout layout, String path) {
        String[] names = path.split("\\.");
        List<MemoryLayout.PathElement> elements = new ArrayList<>();
        MemoryLayout current = layout;
        for (String name : names) {
            current = step((GroupLayout) current, name, elements);
        }
        return elements.toArray(MemoryLayout.PathElement[]::new);
    }

    /** Appends the path to member {@code name} of {@code group}, through an anonymous union. */
    private static MemoryLayout step(GroupLayout group, String name, List<MemoryLayout.PathElement> out) {
        List<MemoryLayout> members = group.memberLayouts();
        for (int i = 0; i < members.size(); i++) {
            MemoryLayout member = members.get(i);
            if (member.name().filter(name::equals).isPresent()) {
                out.add(MemoryLayout.PathElement.groupElement(name));
                return member;
            }
            if (member.name().isEmpty() && member instanceof GroupLayout anonymous
                    && anonymous.memberLayouts().stream().anyMatch(m -> m.name().filter(name::equals).isPresent())) {
                out.add(MemoryLayout.PathElement.groupElement(i));
                return step(anonymous, name, out);
            }
        }
        throw new IllegalArgumentException(group.name().orElse("?") + " has no member " + name);
    }

    private static ValueLayout u8(String name) {
        return JAVA_BYTE.withName(name);
    }

    private static ValueLayout u16(String name) {
        return JAVA_SHORT.withName(name);
    }

    private static ValueLayout i32(String name) {
        return JAVA_INT.withName(name);
    }

    private static ValueLayout be32(String name) {
        return JAVA_INT.withOrder(ByteOrder.BIG_ENDIAN).withName(name);
    }

    private static ValueLayout u64(String name) {
        return JAVA_LONG.withName(name);
    }

    private static ValueLayout be64(String name) {
        return JAVA_LONG.withOrder(ByteOrder.BIG_ENDIAN).withName(name);
    }

    private static AddressLayout ptr(String name) {
        return ADDRESS.withName(name);
    }

    private static SequenceLayout bytes(String name, long count, long alignment) {
        return sequenceLayout(count, JAVA_BYTE).withByteAlignment(alignment).withName(name);
    }
}

package org.jrdma.verbs.ffi;

import static java.lang.foreign.MemoryLayout.paddingLayout;
import static java.lang.foreign.MemoryLayout.structLayout;
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
import java.util.List;

/**
 * The structures of the extended verbs in {@code <infiniband/verbs.h>} (rdma-core 44, Linux
 * x86-64): {@code ibv_query_device_ex}, {@code ibv_query_rt_values_ex}, {@code ibv_query_gid_ex},
 * extended CQs and QPs (whose provider entry points are function pointers inside the structures),
 * memory windows, XRC domains, thread and parent domains, and the whole {@code struct verbs_context}.
 * Written as {@link Structs} is: C member names, every member named so that the layout test checks
 * it.
 */
public final class StructsEx {
    private static final long MUTEX_BYTES = 40;
    private static final long COND_BYTES = 48;

    /** {@code struct ibv_odp_caps}: on-demand paging support, general and per transport. */
    public static final GroupLayout IBV_ODP_CAPS = structLayout(
            u64("general_caps"),
            structLayout(i32("rc_odp_caps"), i32("uc_odp_caps"), i32("ud_odp_caps"))
                    .withName("per_transport_caps"),
            paddingLayout(4))
            .withName("ibv_odp_caps");

    /** {@code struct ibv_tso_caps}: TCP segmentation offload. */
    public static final GroupLayout IBV_TSO_CAPS = structLayout(i32("max_tso"), i32("supported_qpts"))
            .withName("ibv_tso_caps");

    /** {@code struct ibv_rss_caps}: receive side scaling. */
    public static final GroupLayout IBV_RSS_CAPS = structLayout(
            i32("supported_qpts"), i32("max_rwq_indirection_tables"), i32("max_rwq_indirection_table_size"),
            paddingLayout(4), u64("rx_hash_fields_mask"), u8("rx_hash_function"), paddingLayout(7))
            .withName("ibv_rss_caps");

    /** {@code struct ibv_packet_pacing_caps}: per-QP rate limits, kbps. */
    public static final GroupLayout IBV_PACKET_PACING_CAPS = structLayout(
            i32("qp_rate_limit_min"), i32("qp_rate_limit_max"), i32("supported_qpts"))
            .withName("ibv_packet_pacing_caps");

    /** {@code struct ibv_tm_caps}: tag matching. */
    public static final GroupLayout IBV_TM_CAPS = structLayout(
            i32("max_rndv_hdr_size"), i32("max_num_tags"), i32("flags"), i32("max_ops"), i32("max_sge"))
            .withName("ibv_tm_caps");

    /** {@code struct ibv_cq_moderation_caps}. */
    public static final GroupLayout IBV_CQ_MODERATION_CAPS = structLayout(u16("max_cq_count"), u16("max_cq_period"))
            .withName("ibv_cq_moderation_caps");

    /** {@code struct ibv_pci_atomic_caps}: atomic operand sizes over PCIe. */
    public static final GroupLayout IBV_PCI_ATOMIC_CAPS = structLayout(
            u16("fetch_add"), u16("swap"), u16("compare_swap"))
            .withName("ibv_pci_atomic_caps");

    /** {@code struct ibv_device_attr_ex}: {@code ibv_query_device_ex}. */
    public static final GroupLayout IBV_DEVICE_ATTR_EX = structLayout(
            Structs.IBV_DEVICE_ATTR.withName("orig_attr"),
            i32("comp_mask"), paddingLayout(4),
            IBV_ODP_CAPS.withName("odp_caps"),
            u64("completion_timestamp_mask"),
            u64("hca_core_clock"),
            u64("device_cap_flags_ex"),
            IBV_TSO_CAPS.withName("tso_caps"),
            IBV_RSS_CAPS.withName("rss_caps"),
            i32("max_wq_type_rq"),
            IBV_PACKET_PACING_CAPS.withName("packet_pacing_caps"),
            i32("raw_packet_caps"),
            IBV_TM_CAPS.withName("tm_caps"),
            IBV_CQ_MODERATION_CAPS.withName("cq_mod_caps"),
            paddingLayout(4),
            u64("max_dm_size"),
            IBV_PCI_ATOMIC_CAPS.withName("pci_atomic_caps"),
            paddingLayout(2),
            i32("xrc_odp_caps"),
            i32("phys_port_cnt_ex"))
            .withName("ibv_device_attr_ex");

    /** {@code struct ibv_query_device_ex_input}. */
    public static final GroupLayout IBV_QUERY_DEVICE_EX_INPUT = structLayout(i32("comp_mask"))
            .withName("ibv_query_device_ex_input");

    /** {@code struct timespec} on x86-64. */
    private static final GroupLayout TIMESPEC = structLayout(u64("tv_sec"), u64("tv_nsec")).withName("timespec");

    /** {@code struct ibv_values_ex}: {@code ibv_query_rt_values_ex}. */
    public static final GroupLayout IBV_VALUES_EX = structLayout(
            i32("comp_mask"), paddingLayout(4), TIMESPEC.withName("raw_clock"))
            .withName("ibv_values_ex");

    /** {@code struct ibv_gid_entry}: {@code ibv_query_gid_ex}, {@code ibv_query_gid_table}. */
    public static final GroupLayout IBV_GID_ENTRY = structLayout(
            Structs.IBV_GID.withName("gid"),
            i32("gid_index"), i32("port_num"), i32("gid_type"), i32("ndev_ifindex"))
            .withName("ibv_gid_entry");

    /** {@code struct ibv_cq_init_attr_ex}: {@code ibv_create_cq_ex}. */
    public static final GroupLayout IBV_CQ_INIT_ATTR_EX = structLayout(
            i32("cqe"), paddingLayout(4), ptr("cq_context"), ptr("channel"),
            i32("comp_vector"), paddingLayout(4), u64("wc_flags"), i32("comp_mask"), i32("flags"),
            ptr("parent_domain"))
            .withName("ibv_cq_init_attr_ex");

    /** {@code struct ibv_poll_cq_attr}: {@code ibv_start_poll}'s argument. */
    public static final GroupLayout IBV_POLL_CQ_ATTR = structLayout(i32("comp_mask"))
            .withName("ibv_poll_cq_attr");

    /** {@code struct ibv_cq_ex}: an extended CQ, an {@code ibv_cq} followed by the provider's polling entry points. */
    public static final GroupLayout IBV_CQ_EX = structLayout(
            ptr("context"), ptr("channel"), ptr("cq_context"),
            i32("handle"), i32("cqe"),
            bytes("mutex", MUTEX_BYTES),
            bytes("cond", COND_BYTES),
            i32("comp_events_completed"), i32("async_events_completed"),
            i32("comp_mask"), i32("status"), u64("wr_id"),
            ptr("start_poll"), ptr("next_poll"), ptr("end_poll"), ptr("read_opcode"), ptr("read_vendor_err"),
            ptr("read_byte_len"), ptr("read_imm_data"), ptr("read_qp_num"), ptr("read_src_qp"),
            ptr("read_wc_flags"), ptr("read_slid"), ptr("read_sl"), ptr("read_dlid_path_bits"),
            ptr("read_completion_ts"), ptr("read_cvlan"), ptr("read_flow_tag"), ptr("read_tm_info"),
            ptr("read_completion_wallclock_ns"))
            .withName("ibv_cq_ex");

    /** {@code struct ibv_rx_hash_conf}: RSS hashing of a raw packet QP. */
    public static final GroupLayout IBV_RX_HASH_CONF = structLayout(
            u8("rx_hash_function"), u8("rx_hash_key_len"), paddingLayout(6), ptr("rx_hash_key"),
            u64("rx_hash_fields_mask"))
            .withName("ibv_rx_hash_conf");

    /** {@code struct ibv_qp_init_attr_ex}: {@code ibv_create_qp_ex}; an {@code ibv_qp_init_attr} and more. */
    public static final GroupLayout IBV_QP_INIT_ATTR_EX = structLayout(
            ptr("qp_context"), ptr("send_cq"), ptr("recv_cq"), ptr("srq"),
            Structs.IBV_QP_CAP.withName("cap"),
            i32("qp_type"), i32("sq_sig_all"), i32("comp_mask"),
            ptr("pd"), ptr("xrcd"), i32("create_flags"), u16("max_tso_header"), paddingLayout(2),
            ptr("rwq_ind_tbl"),
            IBV_RX_HASH_CONF.withName("rx_hash_conf"),
            i32("source_qpn"), paddingLayout(4),
            u64("send_ops_flags"))
            .withName("ibv_qp_init_attr_ex");

    /** {@code struct ibv_qp_ex}: an extended QP, an {@code ibv_qp} followed by the work request builder's entry points. */
    public static final GroupLayout IBV_QP_EX = structLayout(
            Structs.IBV_QP.withName("qp_base"),
            u64("comp_mask"), u64("wr_id"), i32("wr_flags"), paddingLayout(4),
            ptr("wr_atomic_cmp_swp"), ptr("wr_atomic_fetch_add"), ptr("wr_bind_mw"), ptr("wr_local_inv"),
            ptr("wr_rdma_read"), ptr("wr_rdma_write"), ptr("wr_rdma_write_imm"),
            ptr("wr_send"), ptr("wr_send_imm"), ptr("wr_send_inv"), ptr("wr_send_tso"),
            ptr("wr_set_ud_addr"), ptr("wr_set_xrc_srqn"),
            ptr("wr_set_inline_data"), ptr("wr_set_inline_data_list"), ptr("wr_set_sge"), ptr("wr_set_sge_list"),
            ptr("wr_start"), ptr("wr_complete"), ptr("wr_abort"), ptr("wr_atomic_write"))
            .withName("ibv_qp_ex");

    /** {@code struct ibv_mw}: a memory window. */
    public static final GroupLayout IBV_MW = structLayout(
            ptr("context"), ptr("pd"), i32("rkey"), i32("handle"), i32("type"), paddingLayout(4))
            .withName("ibv_mw");

    /** {@code struct ibv_mw_bind_info}: what a window is bound to. */
    public static final GroupLayout IBV_MW_BIND_INFO = structLayout(
            ptr("mr"), u64("addr"), u64("length"), i32("mw_access_flags"), paddingLayout(4))
            .withName("ibv_mw_bind_info");

    /** {@code struct ibv_mw_bind}: {@code ibv_bind_mw}'s argument (type 1 windows). */
    public static final GroupLayout IBV_MW_BIND = structLayout(
            u64("wr_id"), i32("send_flags"), paddingLayout(4), IBV_MW_BIND_INFO.withName("bind_info"))
            .withName("ibv_mw_bind");

    /** {@code struct ibv_data_buf}: one buffer of {@code ibv_wr_set_inline_data_list}. */
    public static final GroupLayout IBV_DATA_BUF = structLayout(ptr("addr"), u64("length"))
            .withName("ibv_data_buf");

    /** {@code struct ibv_xrcd_init_attr}: {@code ibv_open_xrcd}. */
    public static final GroupLayout IBV_XRCD_INIT_ATTR = structLayout(i32("comp_mask"), i32("fd"), i32("oflags"))
            .withName("ibv_xrcd_init_attr");

    /** {@code struct ibv_xrcd}: an XRC domain. */
    public static final GroupLayout IBV_XRCD = structLayout(ptr("context")).withName("ibv_xrcd");

    /** {@code struct ibv_tm_cap}: a tag-matching SRQ's limits. */
    private static final GroupLayout IBV_TM_CAP = structLayout(i32("max_num_tags"), i32("max_ops"))
            .withName("ibv_tm_cap");

    /** {@code struct ibv_srq_init_attr_ex}: {@code ibv_create_srq_ex}. */
    public static final GroupLayout IBV_SRQ_INIT_ATTR_EX = structLayout(
            ptr("srq_context"), Structs.IBV_SRQ_ATTR.withName("attr"), i32("comp_mask"), i32("srq_type"),
            paddingLayout(4), ptr("pd"), ptr("xrcd"), ptr("cq"), IBV_TM_CAP.withName("tm_cap"))
            .withName("ibv_srq_init_attr_ex");

    /** {@code struct ibv_qp_open_attr}: {@code ibv_open_qp}. */
    public static final GroupLayout IBV_QP_OPEN_ATTR = structLayout(
            i32("comp_mask"), i32("qp_num"), ptr("xrcd"), ptr("qp_context"), i32("qp_type"), paddingLayout(4))
            .withName("ibv_qp_open_attr");

    /** {@code struct ibv_td_init_attr}: {@code ibv_alloc_td}. */
    public static final GroupLayout IBV_TD_INIT_ATTR = structLayout(i32("comp_mask")).withName("ibv_td_init_attr");

    /** {@code struct ibv_td}: a thread domain. */
    public static final GroupLayout IBV_TD = structLayout(ptr("context")).withName("ibv_td");

    /** {@code struct ibv_parent_domain_init_attr}: {@code ibv_alloc_parent_domain}. */
    public static final GroupLayout IBV_PARENT_DOMAIN_INIT_ATTR = structLayout(
            ptr("pd"), ptr("td"), i32("comp_mask"), paddingLayout(4), ptr("alloc"), ptr("free"), ptr("pd_context"))
            .withName("ibv_parent_domain_init_attr");

    /** {@code struct ibv_flow_attr}: {@code ibv_create_flow}'s rule, its specifications following it. */
    public static final GroupLayout IBV_FLOW_ATTR = structLayout(
            i32("comp_mask"), i32("type"), u16("size"), u16("priority"), u8("num_of_specs"), u8("port"),
            paddingLayout(2), i32("flags"))
            .withName("ibv_flow_attr");

    /** {@code struct ibv_flow_eth_filter}: MAC addresses, ether type and VLAN tag, in network order. */
    private static final GroupLayout IBV_FLOW_ETH_FILTER = structLayout(
            u8s("dst_mac", 6), u8s("src_mac", 6), u16("ether_type"), u16("vlan_tag"))
            .withName("ibv_flow_eth_filter");

    /** {@code struct ibv_flow_spec_eth}. */
    public static final GroupLayout IBV_FLOW_SPEC_ETH = structLayout(
            i32("type"), u16("size"), IBV_FLOW_ETH_FILTER.withName("val"), IBV_FLOW_ETH_FILTER.withName("mask"),
            paddingLayout(2))
            .withName("ibv_flow_spec_eth");

    /** {@code struct ibv_flow_ipv4_filter}: addresses in network order. */
    private static final GroupLayout IBV_FLOW_IPV4_FILTER = structLayout(i32("src_ip"), i32("dst_ip"))
            .withName("ibv_flow_ipv4_filter");

    /** {@code struct ibv_flow_spec_ipv4}. */
    public static final GroupLayout IBV_FLOW_SPEC_IPV4 = structLayout(
            i32("type"), u16("size"), paddingLayout(2), IBV_FLOW_IPV4_FILTER.withName("val"),
            IBV_FLOW_IPV4_FILTER.withName("mask"))
            .withName("ibv_flow_spec_ipv4");

    /** {@code struct ibv_flow_ipv6_filter}: addresses and flow label in network order. */
    private static final GroupLayout IBV_FLOW_IPV6_FILTER = structLayout(
            u8s("src_ip", 16), u8s("dst_ip", 16), i32("flow_label"), u8("next_hdr"), u8("traffic_class"),
            u8("hop_limit"), paddingLayout(1))
            .withName("ibv_flow_ipv6_filter");

    /** {@code struct ibv_flow_spec_ipv6}. */
    public static final GroupLayout IBV_FLOW_SPEC_IPV6 = structLayout(
            i32("type"), u16("size"), paddingLayout(2), IBV_FLOW_IPV6_FILTER.withName("val"),
            IBV_FLOW_IPV6_FILTER.withName("mask"))
            .withName("ibv_flow_spec_ipv6");

    /** {@code struct ibv_flow_tcp_udp_filter}: ports in network order. */
    private static final GroupLayout IBV_FLOW_TCP_UDP_FILTER = structLayout(u16("dst_port"), u16("src_port"))
            .withName("ibv_flow_tcp_udp_filter");

    /** {@code struct ibv_flow_spec_tcp_udp}. */
    public static final GroupLayout IBV_FLOW_SPEC_TCP_UDP = structLayout(
            i32("type"), u16("size"), IBV_FLOW_TCP_UDP_FILTER.withName("val"),
            IBV_FLOW_TCP_UDP_FILTER.withName("mask"), paddingLayout(2))
            .withName("ibv_flow_spec_tcp_udp");

    /** {@code struct ibv_flow_spec_action_tag}: packets the rule matches carry {@code tag_id} to the completion. */
    public static final GroupLayout IBV_FLOW_SPEC_ACTION_TAG = structLayout(
            i32("type"), u16("size"), paddingLayout(2), i32("tag_id"))
            .withName("ibv_flow_spec_action_tag");

    /** {@code struct ibv_flow_spec_action_drop}: packets the rule matches are dropped. */
    public static final GroupLayout IBV_FLOW_SPEC_ACTION_DROP = structLayout(i32("type"), u16("size"), paddingLayout(2))
            .withName("ibv_flow_spec_action_drop");

    /** {@code struct ibv_flow}: a steering rule. */
    public static final GroupLayout IBV_FLOW = structLayout(
            i32("comp_mask"), paddingLayout(4), ptr("context"), i32("handle"), paddingLayout(4))
            .withName("ibv_flow");

    /** {@code struct verbs_context}, every entry named: the extended verbs' provider entry points. */
    public static final GroupLayout VERBS_CONTEXT = structLayout(
            ptr("query_port"), ptr("advise_mr"), ptr("alloc_null_mr"), ptr("read_counters"),
            ptr("attach_counters_point_flow"), ptr("create_counters"), ptr("destroy_counters"), ptr("reg_dm_mr"),
            ptr("alloc_dm"), ptr("free_dm"), ptr("modify_flow_action_esp"), ptr("destroy_flow_action"),
            ptr("create_flow_action_esp"), ptr("modify_qp_rate_limit"), ptr("alloc_parent_domain"),
            ptr("dealloc_td"), ptr("alloc_td"), ptr("modify_cq"), ptr("post_srq_ops"),
            ptr("destroy_rwq_ind_table"), ptr("create_rwq_ind_table"), ptr("destroy_wq"), ptr("modify_wq"),
            ptr("create_wq"), ptr("query_rt_values"), ptr("create_cq_ex"), ptr("priv"), ptr("query_device_ex"),
            ptr("ibv_destroy_flow"), ptr("ABI_placeholder2"), ptr("ibv_create_flow"), ptr("ABI_placeholder1"),
            ptr("open_qp"), ptr("create_qp_ex"), ptr("get_srq_num"), ptr("create_srq_ex"), ptr("open_xrcd"),
            ptr("close_xrcd"), u64("_ABI_placeholder3"), u64("sz"),
            Structs.IBV_CONTEXT.withName("context"))
            .withName("verbs_context");

    /** Every structure above, for the layout test. */
    public static final List<GroupLayout> ALL = List.of(IBV_ODP_CAPS, IBV_TSO_CAPS, IBV_RSS_CAPS,
            IBV_PACKET_PACING_CAPS, IBV_TM_CAPS, IBV_CQ_MODERATION_CAPS, IBV_PCI_ATOMIC_CAPS, IBV_DEVICE_ATTR_EX,
            IBV_QUERY_DEVICE_EX_INPUT, TIMESPEC, IBV_VALUES_EX, IBV_GID_ENTRY, IBV_CQ_INIT_ATTR_EX, IBV_POLL_CQ_ATTR,
            IBV_CQ_EX, IBV_RX_HASH_CONF, IBV_QP_INIT_ATTR_EX, IBV_QP_EX, IBV_MW, IBV_MW_BIND_INFO, IBV_MW_BIND,
            IBV_DATA_BUF, IBV_XRCD_INIT_ATTR, IBV_XRCD, IBV_TM_CAP, IBV_SRQ_INIT_ATTR_EX, IBV_QP_OPEN_ATTR,
            IBV_TD_INIT_ATTR, IBV_TD, IBV_PARENT_DOMAIN_INIT_ATTR, IBV_FLOW_ATTR, IBV_FLOW_ETH_FILTER, IBV_FLOW_SPEC_ETH,
            IBV_FLOW_IPV4_FILTER, IBV_FLOW_SPEC_IPV4, IBV_FLOW_IPV6_FILTER, IBV_FLOW_SPEC_IPV6, IBV_FLOW_TCP_UDP_FILTER,
            IBV_FLOW_SPEC_TCP_UDP, IBV_FLOW_SPEC_ACTION_TAG, IBV_FLOW_SPEC_ACTION_DROP, IBV_FLOW, VERBS_CONTEXT);

    private StructsEx() {
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

    private static ValueLayout u64(String name) {
        return JAVA_LONG.withName(name);
    }

    private static AddressLayout ptr(String name) {
        return ADDRESS.withName(name);
    }

    private static SequenceLayout u8s(String name, long count) {
        return MemoryLayout.sequenceLayout(count, JAVA_BYTE).withName(name);
    }

    private static SequenceLayout bytes(String name, long count) {
        return MemoryLayout.sequenceLayout(count, JAVA_BYTE).withByteAlignment(8).withName(name);
    }
}

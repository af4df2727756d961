package org.jrdma.verbs;

import org.jrdma.verbs.ffi.IbvContextEx;

/**
 * The extended limits and capabilities of a device, {@code struct ibv_device_attr_ex} as
 * {@code ibv_query_device_ex} fills it: what {@code ibv_devinfo -v} prints beyond
 * {@code ibv_query_device}. Unsigned C fields are widened ({@code uint32_t} to {@code long} where
 * its top bit may be set, {@code uint16_t} to {@code int}). A provider without
 * {@code query_device_ex} gives {@link #origAttr()} and zeros, as verbs.h's inline does.
 *
 * @param origAttr                {@code orig_attr}: what {@link Context#queryDevice()} gives
 * @param compMask                {@code comp_mask}: which optional members the provider filled
 * @param odpCaps                 {@code odp_caps}: on-demand paging
 * @param completionTimestampMask {@code completion_timestamp_mask}: the valid bits of a completion
 *                                timestamp, 0 when the device has none
 * @param hcaCoreClock            {@code hca_core_clock}: the device clock, kHz
 * @param deviceCapFlagsEx        {@code device_cap_flags_ex}: {@code enum ibv_device_cap_flags} and
 *                                the extended bits above 32
 * @param tsoCaps                 {@code tso_caps}
 * @param rssCaps                 {@code rss_caps}
 * @param maxWqTypeRq             {@code max_wq_type_rq}: receive work queues
 * @param packetPacingCaps        {@code packet_pacing_caps}
 * @param rawPacketCaps           {@code raw_packet_caps}: {@code enum ibv_raw_packet_caps}
 * @param tmCaps                  {@code tm_caps}: tag matching
 * @param cqModCaps               {@code cq_mod_caps}: completion moderation
 * @param maxDmSize               {@code max_dm_size}: device memory, bytes
 * @param pciAtomicCaps           {@code pci_atomic_caps}
 * @param xrcOdpCaps              {@code xrc_odp_caps}: {@code enum ibv_odp_transport_cap_bits} for XRC
 * @param physPortCntEx           {@code phys_port_cnt_ex}: ports, beyond 255
 */
public record DeviceAttrEx(DeviceAttr origAttr, long compMask, OdpCaps odpCaps, long completionTimestampMask,
        long hcaCoreClock, long deviceCapFlagsEx, TsoCaps tsoCaps, RssCaps rssCaps, long maxWqTypeRq,
        PacketPacingCaps packetPacingCaps, long rawPacketCaps, TmCaps tmCaps, CqModerationCaps cqModCaps,
        long maxDmSize, PciAtomicCaps pciAtomicCaps, long xrcOdpCaps, long physPortCntEx) {
    /** {@code IBV_DEVICE_MEM_WINDOW}: memory windows. */
    public static final long MEM_WINDOW = 1L << 17;
    /** {@code IBV_DEVICE_XRC}: extended reliable connected transport. */
    public static final long XRC = 1L << 20;
    /** {@code IBV_DEVICE_MEM_MGT_EXTENSIONS}: local invalidate, send with invalidate, fast registration. */
    public static final long MEM_MGT_EXTENSIONS = 1L << 21;
    /** {@code IBV_DEVICE_MEM_WINDOW_TYPE_2A}. */
    public static final long MEM_WINDOW_TYPE_2A = 1L << 23;
    /** {@code IBV_DEVICE_MEM_WINDOW_TYPE_2B}. */
    public static final long MEM_WINDOW_TYPE_2B = 1L << 24;
    /** {@code IBV_ODP_SUPPORT}: {@link OdpCaps#generalCaps()} bit, explicit on-demand paging. */
    public static final long ODP_SUPPORT = 1;
    /** {@code IBV_ODP_SUPPORT_IMPLICIT}: implicit on-demand paging (a region over the whole address space). */
    public static final long ODP_SUPPORT_IMPLICIT = 1 << 1;

    /**
     * {@code struct ibv_odp_caps}.
     *
     * @param generalCaps {@code general_caps}: {@link #ODP_SUPPORT}, {@link #ODP_SUPPORT_IMPLICIT}
     * @param rcOdpCaps   {@code per_transport_caps.rc_odp_caps}: {@code enum ibv_odp_transport_cap_bits}
     * @param ucOdpCaps   {@code per_transport_caps.uc_odp_caps}
     * @param udOdpCaps   {@code per_transport_caps.ud_odp_caps}
     */
    public record OdpCaps(long generalCaps, long rcOdpCaps, long ucOdpCaps, long udOdpCaps) {
    }

    /**
     * {@code struct ibv_tso_caps}.
     *
     * @param maxTso        {@code max_tso}: largest segmented payload, bytes
     * @param supportedQpts {@code supported_qpts}: a bit per {@code enum ibv_qp_type}
     */
    public record TsoCaps(long maxTso, long supportedQpts) {
    }

    /**
     * {@code struct ibv_rss_caps}.
     *
     * @param supportedQpts              {@code supported_qpts}
     * @param maxRwqIndirectionTables    {@code max_rwq_indirection_tables}
     * @param maxRwqIndirectionTableSize {@code max_rwq_indirection_table_size}
     * @param rxHashFieldsMask           {@code rx_hash_fields_mask}: {@code enum ibv_rx_hash_fields}
     * @param rxHashFunction             {@code rx_hash_function}: {@code enum ibv_rx_hash_function_flags}
     */
    public record RssCaps(long supportedQpts, long maxRwqIndirectionTables, long maxRwqIndirectionTableSize,
            long rxHashFieldsMask, int rxHashFunction) {
    }

    /**
     * {@code struct ibv_packet_pacing_caps}.
     *
     * @param qpRateLimitMin {@code qp_rate_limit_min}, kbps
     * @param qpRateLimitMax {@code qp_rate_limit_max}, kbps
     * @param supportedQpts  {@code supported_qpts}
     */
    public record PacketPacingCaps(long qpRateLimitMin, long qpRateLimitMax, long supportedQpts) {
    }

    /**
     * {@code struct ibv_tm_caps}.
     *
     * @param maxRndvHdrSize {@code max_rndv_hdr_size}
     * @param maxNumTags     {@code max_num_tags}
     * @param flags          {@code flags}: {@code enum ibv_tm_cap_flags}
     * @param maxOps         {@code max_ops}
     * @param maxSge         {@code max_sge}
     */
    public record TmCaps(long maxRndvHdrSize, long maxNumTags, long flags, long maxOps, long maxSge) {
    }

    /**
     * {@code struct ibv_cq_moderation_caps}.
     *
     * @param maxCqCount  {@code max_cq_count}
     * @param maxCqPeriod {@code max_cq_period}, microseconds
     */
    public record CqModerationCaps(int maxCqCount, int maxCqPeriod) {
    }

    /**
     * {@code struct ibv_pci_atomic_caps}: operand sizes, a bit per size.
     *
     * @param fetchAdd    {@code fetch_add}
     * @param swap        {@code swap}
     * @param compareSwap {@code compare_swap}
     */
    public record PciAtomicCaps(int fetchAdd, int swap, int compareSwap) {
    }

    /** Whether {@link #deviceCapFlagsEx()} has every bit of {@code flag}. */
    public boolean has(long flag) {
        return (deviceCapFlagsEx & flag) == flag;
    }

    /** The record of what the library read. */
    static DeviceAttrEx of(IbvContextEx.DeviceAttrEx a) {
        return new DeviceAttrEx(DeviceAttr.of(a.orig()), a.get("comp_mask"),
                new OdpCaps(a.get("odp_caps.general_caps"), a.get("odp_caps.per_transport_caps.rc_odp_caps"),
                        a.get("odp_caps.per_transport_caps.uc_odp_caps"),
                        a.get("odp_caps.per_transport_caps.ud_odp_caps")),
                a.get("completion_timestamp_mask"), a.get("hca_core_clock"), a.get("device_cap_flags_ex"),
                new TsoCaps(a.get("tso_caps.max_tso"), a.get("tso_caps.supported_qpts")),
                new RssCaps(a.get("rss_caps.supported_qpts"), a.get("rss_caps.max_rwq_indirection_tables"),
                        a.get("rss_caps.max_rwq_indirection_table_size"), a.get("rss_caps.rx_hash_fields_mask"),
                        (int) a.get("rss_caps.rx_hash_function")),
                a.get("max_wq_type_rq"),
                new PacketPacingCaps(a.get("packet_pacing_caps.qp_rate_limit_min"),
                        a.get("packet_pacing_caps.qp_rate_limit_max"), a.get("packet_pacing_caps.supported_qpts")),
                a.get("raw_packet_caps"),
                new TmCaps(a.get("tm_caps.max_rndv_hdr_size"), a.get("tm_caps.max_num_tags"), a.get("tm_caps.flags"),
                        a.get("tm_caps.max_ops"), a.get("tm_caps.max_sge")),
                new CqModerationCaps((int) a.get("cq_mod_caps.max_cq_count"), (int) a.get("cq_mod_caps.max_cq_period")),
                a.get("max_dm_size"),
                new PciAtomicCaps((int) a.get("pci_atomic_caps.fetch_add"), (int) a.get("pci_atomic_caps.swap"),
                        (int) a.get("pci_atomic_caps.compare_swap")),
                a.get("xrc_odp_caps"), a.get("phys_port_cnt_ex"));
    }
}

package org.jrdma.iba.diag;

import static org.jrdma.iba.diag.Formats.GID;
import static org.jrdma.iba.diag.Formats.HEX;
import static org.jrdma.iba.diag.Formats.HEX_MIN;
import static org.jrdma.iba.diag.Formats.HEX_UPPER;
import static org.jrdma.iba.diag.Formats.UINT;
import static org.jrdma.iba.diag.Row.line;
import static org.jrdma.iba.diag.Row.nest;
import static org.jrdma.iba.diag.Row.span;
import static org.jrdma.iba.diag.Row.text;
import static org.jrdma.iba.diag.Row.when;

import java.util.List;
import org.jrdma.iba.smp.SmpVlArbitrationEntry;

/**
 * What smpquery, perfquery and saquery (infiniband-diags 44) print for each structure, line by
 * line: the tool's label, the field of our generated class, the formatter. The labels, their
 * order and the formatters are those of libibmad's field table ({@code fields.c}) and dumpers
 * ({@code dump.c}) and of the tools' own printf formats; the tests compare every table with the
 * C tools on a simulated fabric and with libibmad's dumpers on random bytes.
 */
public final class Tables {
    private Tables() {
    }

    // --- smpquery (libibmad field names, mad_dump_field padding) -------------------------------

    /** {@code smpquery nodeinfo}: libibmad {@code mad_dump_nodeinfo} over {@code SmpNodeInfo}. */
    public static final Table NODE_INFO = Table.ibmad("NodeInfo",
            line("BaseVers", "baseVersion", UINT),
            line("ClassVers", "classVersion", UINT),
            line("NodeType", "nodeType", Formats.NODE_TYPE),
            line("NumPorts", "numPorts", UINT),
            line("SystemGuid", "systemImageGuid", HEX),
            line("Guid", "nodeGuid", HEX),
            line("PortGuid", "portGuid", HEX),
            line("PartCap", "partitionCap", UINT),
            line("DevId", "deviceId", HEX),
            line("Revision", "revision", HEX),
            line("LocalPort", "localPortNum", UINT),
            line("VendorId", "vendorId", HEX));

    /** {@code smpquery nodedesc} over {@code SmpNodeDescription}: one line, dots sized by the text. */
    public static final Table NODE_DESCRIPTION = new Table("NodeDescription", Padding.NODE_DESCRIPTION, "",
            List.of(line("Node Description", "nodeString", Formats.NODE_DESCRIPTION)));

    /**
     * {@code smpquery portinfo} over {@code SmpPortInfo}: infiniband-diags' {@code dump_portinfo},
     * libibmad's PortInfo fields then its CapabilityMask2 and extended-speed fields (rdma-core 44
     * has no XDR fields). The M_Key shows as {@code <not displayed>} unless keys are to be shown.
     */
    public static final Table PORT_INFO = Table.ibmad("PortInfo",
            line("Mkey", "mKey", Formats.secret(HEX)),
            line("GidPrefix", "gidPrefix", HEX),
            line("Lid", "lid", UINT),
            line("SMLid", "masterSmLid", UINT),
            line("CapMask", "capabilityMask", Formats.CAPABILITY_MASK),
            line("DiagCode", "diagCode", HEX),
            line("MkeyLeasePeriod", "mKeyLeasePeriod", UINT),
            line("LocalPort", "localPortNum", UINT),
            line("LinkWidthEnabled", "linkWidthEnabled", Formats.LINK_WIDTH_ENABLED),
            line("LinkWidthSupported", "linkWidthSupported", Formats.LINK_WIDTH_SUPPORTED),
            line("LinkWidthActive", "linkWidthActive", Formats.LINK_WIDTH),
            line("LinkSpeedSupported", "linkSpeedSupported", Formats.LINK_SPEED_SUPPORTED),
            line("LinkState", "portState", Formats.PORT_STATE),
            line("PhysLinkState", "portPhysicalState", Formats.PHYS_PORT_STATE),
            line("LinkDownDefState", "linkDownDefaultState", Formats.LINK_DOWN_DEFAULT_STATE),
            line("ProtectBits", "mKeyProtectBits", UINT),
            line("LMC", "lmc", UINT),
            line("LinkSpeedActive", "linkSpeedActive", Formats.LINK_SPEED),
            line("LinkSpeedEnabled", "linkSpeedEnabled", Formats.LINK_SPEED_ENABLED),
            line("NeighborMTU", "neighborMtu", Formats.MTU),
            line("SMSL", "masterSmSl", UINT),
            line("VLCap", "vlCap", Formats.VL_CAP),
            line("InitType", "initType", HEX),
            line("VLHighLimit", "vlHighLimit", UINT),
            line("VLArbHighCap", "vlArbitrationHighCap", UINT),
            line("VLArbLowCap", "vlArbitrationLowCap", UINT),
            line("InitReply", "initTypeReply", HEX),
            line("MtuCap", "mtuCap", Formats.MTU),
            line("VLStallCount", "vlStallCount", UINT),
            line("HoqLife", "hoqLife", UINT),
            line("OperVLs", "operationalVls", Formats.OPERATIONAL_VLS),
            line("PartEnforceInb", "partitionEnforcementInbound", UINT),
            line("PartEnforceOutb", "partitionEnforcementOutbound", UINT),
            line("FilterRawInb", "filterRawInbound", UINT),
            line("FilterRawOutb", "filterRawOutbound", UINT),
            line("MkeyViolations", "mKeyViolations", UINT),
            line("PkeyViolations", "pKeyViolations", UINT),
            line("QkeyViolations", "qKeyViolations", UINT),
            line("GuidCap", "guidCap", UINT),
            line("ClientReregister", "clientReregister", UINT),
            line("McastPkeyTrapSuppressionEnabled", "multicastPKeyTrapSuppressionEnabled", UINT),
            line("SubnetTimeout", "subnetTimeOut", UINT),
            line("RespTimeVal", "respTimeValue", UINT),
            line("LocalPhysErr", "localPhyErrors", UINT),
            line("OverrunErr", "overrunErrors", UINT),
            line("MaxCreditHint", "maxCreditHint", UINT),
            line("RoundTrip", "linkRoundTripLatency", UINT),
            line("CapabilityMask2", "capabilityMask2", Formats.CAPABILITY_MASK2),
            line("LinkSpeedExtActive", "linkSpeedExtActive", Formats.LINK_SPEED_EXT),
            line("LinkSpeedExtSupported", "linkSpeedExtSupported", Formats.LINK_SPEED_EXT_SUPPORTED),
            line("LinkSpeedExtEnabled", "linkSpeedExtEnabled", Formats.LINK_SPEED_EXT_ENABLED));

    /** {@code smpquery switchinfo}: libibmad {@code mad_dump_switchinfo} over {@code SmpSwitchInfo}. */
    public static final Table SWITCH_INFO = Table.ibmad("SwitchInfo",
            line("LinearFdbCap", "linearFdbCap", UINT),
            line("RandomFdbCap", "randomFdbCap", UINT),
            line("McastFdbCap", "multicastFdbCap", UINT),
            line("LinearFdbTop", "linearFdbTop", UINT),
            line("DefPort", "defaultPort", UINT),
            line("DefMcastPrimPort", "defaultMulticastPrimaryPort", UINT),
            line("DefMcastNotPrimPort", "defaultMulticastNotPrimaryPort", UINT),
            line("LifeTime", "lifeTimeValue", UINT),
            line("StateChange", "portStateChange", UINT),
            line("OptSLtoVLMapping", "optimizedSlToVlMappingProgramming", UINT),
            line("LidsPerPort", "lidsPerPort", UINT),
            line("PartEnforceCap", "partitionEnforcementCap", UINT),
            line("InboundPartEnf", "inboundEnforcementCap", UINT),
            line("OutboundPartEnf", "outboundEnforcementCap", UINT),
            line("FilterRawInbound", "filterRawInboundCap", UINT),
            line("FilterRawOutbound", "filterRawOutboundCap", UINT),
            line("EnhancedPort0", "enhancedPort0", UINT),
            line("MulticastFDBTop", "multicastFdbTop", HEX));

    /** {@code smpquery pkeys}: eight P_Keys of an {@code SmpPKeyTable} a line, {@code "%4u: 0x%04x 0x%04x ..."}. */
    public static final Grid P_KEYS = new Grid("P_KeyTable", "pKeyBlock[{}]", HEX, "%4d: ", " ", "");

    /** {@code smpquery guids} ({@code GI}): two GUIDs of an {@code SmpGuidInfo} a line, {@code "%4u: 0x%016x 0x%016x"}. */
    public static final Grid GUIDS = new Grid("GUIDInfo", "guid{}", HEX, "%4d: ", " ", "");

    /** {@code smpquery sl2vl}: libibmad {@code mad_dump_sltovl} over {@code SmpSlToVlMappingTable}, {@code "|%2u|%2u|...|"}. */
    public static final Grid SL_TO_VL = new Grid("SLtoVLMappingTable", "slToVl[{}]", Formats.decimal(2), "|", "|", "|");

    /** {@code smpquery vlarb}: the VL line of libibmad {@code mad_dump_vlarbitration}, {@code "VL    : |0x%-2X|..."}. */
    public static final Grid VL_ARBITRATION_VLS = new Grid("VLArbitrationTable VL", "vlWeightBlock[{}]",
            Formats.part(SmpVlArbitrationEntry.VL_BIT_OFFSET, SmpVlArbitrationEntry.VL_BIT_LENGTH, Formats.hexUpperLeft(2)),
            "VL    : |", "|", "|");

    /** {@code smpquery vlarb}: the weight line of libibmad {@code mad_dump_vlarbitration}, {@code "WEIGHT: |0x%-2X|..."}. */
    public static final Grid VL_ARBITRATION_WEIGHTS = new Grid("VLArbitrationTable weight", "vlWeightBlock[{}]",
            Formats.part(SmpVlArbitrationEntry.WEIGHT_BIT_OFFSET, SmpVlArbitrationEntry.WEIGHT_BIT_LENGTH,
                    Formats.hexUpperLeft(2)),
            "WEIGHT: |", "|", "|");

    // --- perfquery -----------------------------------------------------------------------------

    /**
     * {@code perfquery}: libibmad {@code mad_dump_perfcounters} over {@code PmPortCounters}, in its
     * order (QP1Dropped before VL15Dropped). libibmad's QP1Dropped field has the bits of
     * VL15Dropped (its {@code IB_PC_QP1_DROP_F} is {@code {160, 16}} in its own word-relative
     * numbering, that is bytes 22-23), so the tools print VL15Dropped's value twice and this table
     * does the same. perfquery prints PortXmitWait as 0 when the port's PerfMgt CapabilityMask does
     * not announce it.
     */
    public static final Table PORT_COUNTERS = Table.ibmad("PortCounters",
            line("PortSelect", "portSelect", UINT),
            line("CounterSelect", "counterSelect", HEX),
            line("SymbolErrorCounter", "symbolErrorCounter", UINT),
            line("LinkErrorRecoveryCounter", "linkErrorRecoveryCounter", UINT),
            line("LinkDownedCounter", "linkDownedCounter", UINT),
            line("PortRcvErrors", "portRcvErrors", UINT),
            line("PortRcvRemotePhysicalErrors", "portRcvRemotePhysicalErrors", UINT),
            line("PortRcvSwitchRelayErrors", "portRcvSwitchRelayErrors", UINT),
            line("PortXmitDiscards", "portXmitDiscards", UINT),
            line("PortXmitConstraintErrors", "portXmitConstraintErrors", UINT),
            line("PortRcvConstraintErrors", "portRcvConstraintErrors", UINT),
            line("CounterSelect2", "counterSelect2", HEX),
            line("LocalLinkIntegrityErrors", "localLinkIntegrityErrors", UINT),
            line("ExcessiveBufferOverrunErrors", "excessiveBufferOverrunErrors", UINT),
            line("QP1Dropped", "vl15Dropped", UINT),
            line("VL15Dropped", "vl15Dropped", UINT),
            line("PortXmitData", "portXmitData", UINT),
            line("PortRcvData", "portRcvData", UINT),
            line("PortXmitPkts", "portXmitPkts", UINT),
            line("PortRcvPkts", "portRcvPkts", UINT),
            line("PortXmitWait", "portXmitWait", Formats.when(
                    o -> (o.pmCapabilityMask() & DiagOptions.PM_XMIT_WAIT_SUPPORTED) != 0, UINT, Formats.constant("0"))));

    /**
     * {@code perfquery -x} over {@code PmPortCountersExtended}: the four data counters always, the
     * unicast and multicast counters when the PerfMgt CapabilityMask has bit 9, the 64-bit error
     * counters when CapabilityMask2 has bit 1 (with all of them, libibmad's
     * {@code mad_dump_perfcounters_ext}).
     */
    public static final Table PORT_COUNTERS_EXTENDED = Table.ibmad("PortCountersExtended",
            line("PortSelect", "portSelect", UINT),
            line("CounterSelect", "counterSelect", HEX),
            line("PortXmitData", "portXmitData", UINT),
            line("PortRcvData", "portRcvData", UINT),
            line("PortXmitPkts", "portXmitPkts", UINT),
            line("PortRcvPkts", "portRcvPkts", UINT),
            when("CapabilityMask bit 9 (extended width)",
                    o -> (o.pmCapabilityMask() & DiagOptions.PM_EXT_WIDTH_SUPPORTED) != 0,
                    line("PortUnicastXmitPkts", "portUnicastXmitPkts", UINT),
                    line("PortUnicastRcvPkts", "portUnicastRcvPkts", UINT),
                    line("PortMulticastXmitPkts", "portMulticastXmitPkts", UINT),
                    line("PortMulticastRcvPkts", "portMulticastRcvPkts", UINT)),
            when("CapabilityMask2 bit 1 (additional extended counters)",
                    o -> (o.pmCapabilityMask2() & DiagOptions.PM_ADDITIONAL_EXT_COUNTERS) != 0,
                    line("CounterSelect2", "counterSelect2", HEX),
                    line("SymbolErrorCounter", "symbolErrorCounter", UINT),
                    line("LinkErrorRecoveryCounter", "linkErrorRecoveryCounter", UINT),
                    line("LinkDownedCounter", "linkDownedCounter", UINT),
                    line("PortRcvErrors", "portRcvErrors", UINT),
                    line("PortRcvRemotePhysicalErrors", "portRcvRemotePhysicalErrors", UINT),
                    line("PortRcvSwitchRelayErrors", "portRcvSwitchRelayErrors", UINT),
                    line("PortXmitDiscards", "portXmitDiscards", UINT),
                    line("PortXmitConstraintErrors", "portXmitConstraintErrors", UINT),
                    line("PortRcvConstraintErrors", "portRcvConstraintErrors", UINT),
                    line("LocalLinkIntegrityErrors", "localLinkIntegrityErrors", UINT),
                    line("ExcessiveBufferOverrunErrors", "excessiveBufferOverrunErrors", UINT),
                    line("VL15Dropped", "vl15Dropped", UINT),
                    line("PortXmitWait", "portXmitWait", UINT),
                    line("QP1Dropped", "qp1Dropped", UINT)));

    // --- saquery (its own printf formats: two tabs, fixed dots, no colon) -----------------------

    /** {@code saquery NR}: saquery's {@code dump_node_record} over {@code SaNodeRecord}. */
    public static final Table NODE_RECORD = Table.saquery("NodeRecord", 24,
            text("NodeRecord dump:"),
            line("lid", "lid", UINT),
            line("reserved", "reserved1", HEX_UPPER),
            line("base_version", "nodeInfo.baseVersion", HEX_UPPER),
            line("class_version", "nodeInfo.classVersion", HEX_UPPER),
            line("node_type", "nodeInfo.nodeType", Formats.SA_NODE_TYPE),
            line("num_ports", "nodeInfo.numPorts", UINT),
            line("sys_guid", "nodeInfo.systemImageGuid", HEX),
            line("node_guid", "nodeInfo.nodeGuid", HEX),
            line("port_guid", "nodeInfo.portGuid", HEX),
            line("partition_cap", "nodeInfo.partitionCap", HEX_UPPER),
            line("device_id", "nodeInfo.deviceId", HEX_UPPER),
            line("revision", "nodeInfo.revision", HEX_UPPER),
            line("port_num", "nodeInfo.localPortNum", UINT),
            line("vendor_id", "nodeInfo.vendorId", HEX_UPPER),
            line("NodeDescription", "nodeDescription.nodeString", Formats.NODE_DESCRIPTION));

    /**
     * {@code saquery PIR}: saquery's {@code dump_one_portinfo_record} over {@code SaPortInfoRecord},
     * the PortInfo printed as smpquery prints it, two tabs in.
     */
    public static final Table PORT_INFO_RECORD = Table.saquery("PortInfoRecord", 24,
            text("PortInfoRecord dump:"),
            text("\tRID"),
            line("EndPortLid", "endportLid", UINT),
            line("PortNum", "portNum", UINT),
            line("Options", "options", HEX_MIN),
            text("\tPortInfo dump:"),
            nest("portInfo.", "\t\t", PORT_INFO));

    /**
     * {@code saquery PR}: saquery's {@code dump_path_record} over {@code SaPathRecord}. Some lines
     * show whole bytes or words across components, as saquery does: hop_flow_raw is RawTraffic,
     * FlowLabel and HopLimit; num_path_revers is Reversible and NumbPath; mtu, rate and pkt_life
     * include their selectors; resv2 is the six bytes after Preference.
     */
    public static final Table PATH_RECORD = Table.saquery("PathRecord", 24,
            text("PathRecord dump:"),
            span("service_id", "serviceId8Msb", 64, HEX),
            line("dgid", "dgid", GID),
            line("sgid", "sgid", GID),
            line("dlid", "dlid", UINT),
            line("slid", "slid", UINT),
            span("hop_flow_raw", "rawTraffic", 32, HEX_UPPER),
            line("tclass", "tClass", HEX_UPPER),
            span("num_path_revers", "reversible", 8, HEX_UPPER),
            line("pkey", "pKey", HEX_UPPER),
            line("qos_class", "qosClass", HEX_UPPER),
            line("sl", "sl", HEX_UPPER),
            span("mtu", "mtuSelector", 8, HEX_UPPER),
            span("rate", "rateSelector", 8, HEX_UPPER),
            span("pkt_life", "packetLifeTimeSelector", 8, HEX_UPPER),
            line("preference", "preference", HEX_UPPER),
            span("resv2", "reversePathPKeyMemberBit", 48, Formats.hexUpper(12)));

    /** {@code saquery LR}: saquery's {@code dump_one_link_record} over {@code SaLinkRecord}. */
    public static final Table LINK_RECORD = Table.saquery("LinkRecord", 27,
            text("LinkRecord dump:"),
            line("FromLID", "fromLid", UINT),
            line("FromPort", "fromPort", UINT),
            line("ToPort", "toPort", UINT),
            line("ToLID", "toLid", UINT));

    /** {@code saquery SMIR}: saquery's {@code dump_sm_info_record} over {@code SaSmInfoRecord} (the SM_Key always shown). */
    public static final Table SM_INFO_RECORD = Table.saquery("SMInfoRecord", 22,
            text("SMInfoRecord dump:"),
            text("\t\tRID"),
            line("LID", "lid", UINT),
            text("\t\tSMInfo dump:"),
            line("GUID", "smInfo.guid", HEX),
            line("SM_Key", "smInfo.smKey", HEX),
            line("ActCount", "smInfo.actCount", UINT),
            line("Priority", "smInfo.priority", UINT),
            line("SMState", "smInfo.smState", UINT));
}

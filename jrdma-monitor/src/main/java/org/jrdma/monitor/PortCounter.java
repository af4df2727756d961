package org.jrdma.monitor;

import java.util.function.ToLongFunction;
import org.jrdma.iba.pm.PmPortCounters;
import org.jrdma.iba.pm.PmPortCountersExtended;

/**
 * A performance counter of a port (IBA 16.1.3.5 PortCounters, 16.1.4.11 PortCountersExtended) as the
 * monitor reads and exports it: its libibmad name (the name ibqueryerrors' thresholds file uses),
 * its metric name after the {@code infiniband_switch_port_}/{@code infiniband_hca_port_} prefix (the
 * names of the Prometheus infiniband_exporter, so its dashboards carry over), how wide it is in
 * PortCounters, and where its value comes from. The 64-bit PortCountersExtended value is taken where
 * the port's agent answers that attribute; PortCounters' narrower one otherwise. Data counters count
 * 4-byte words on the wire and are exported in bytes.
 */
enum PortCounter {
    XMIT_DATA("PortXmitData", "transmit_data_bytes", 32, Kind.DATA, PmPortCounters::portXmitData, PmPortCountersExtended::portXmitData),
    RCV_DATA("PortRcvData", "receive_data_bytes", 32, Kind.DATA, PmPortCounters::portRcvData, PmPortCountersExtended::portRcvData),
    XMIT_PKTS("PortXmitPkts", "transmit_packets", 32, Kind.TRAFFIC, PmPortCounters::portXmitPkts, PmPortCountersExtended::portXmitPkts),
    RCV_PKTS("PortRcvPkts", "receive_packets", 32, Kind.TRAFFIC, PmPortCounters::portRcvPkts, PmPortCountersExtended::portRcvPkts),
    UNICAST_XMIT_PKTS("PortUnicastXmitPkts", "unicast_transmit_packets", 0, Kind.TRAFFIC, null, PmPortCountersExtended::portUnicastXmitPkts),
    UNICAST_RCV_PKTS("PortUnicastRcvPkts", "unicast_receive_packets", 0, Kind.TRAFFIC, null, PmPortCountersExtended::portUnicastRcvPkts),
    MULTICAST_XMIT_PKTS("PortMulticastXmitPkts", "multicast_transmit_packets", 0, Kind.TRAFFIC, null, PmPortCountersExtended::portMulticastXmitPkts),
    MULTICAST_RCV_PKTS("PortMulticastRcvPkts", "multicast_receive_packets", 0, Kind.TRAFFIC, null, PmPortCountersExtended::portMulticastRcvPkts),
    SYMBOL_ERRORS("SymbolErrorCounter", "symbol_error", 16, Kind.ERROR, PmPortCounters::symbolErrorCounter, null),
    LINK_ERROR_RECOVERY("LinkErrorRecoveryCounter", "link_error_recovery", 8, Kind.ERROR, PmPortCounters::linkErrorRecoveryCounter, null),
    LINK_DOWNED("LinkDownedCounter", "link_downed", 8, Kind.ERROR, PmPortCounters::linkDownedCounter, null),
    RCV_ERRORS("PortRcvErrors", "receive_errors", 16, Kind.ERROR, PmPortCounters::portRcvErrors, null),
    RCV_REMOTE_PHYSICAL_ERRORS("PortRcvRemotePhysicalErrors", "receive_remote_physical_errors", 16, Kind.ERROR, PmPortCounters::portRcvRemotePhysicalErrors, null),
    RCV_SWITCH_RELAY_ERRORS("PortRcvSwitchRelayErrors", "receive_switch_relay_errors", 16, Kind.ERROR, PmPortCounters::portRcvSwitchRelayErrors, null),
    XMIT_DISCARDS("PortXmitDiscards", "transmit_discards", 16, Kind.ERROR, PmPortCounters::portXmitDiscards, null),
    XMIT_CONSTRAINT_ERRORS("PortXmitConstraintErrors", "transmit_constraint_errors", 8, Kind.ERROR, PmPortCounters::portXmitConstraintErrors, null),
    RCV_CONSTRAINT_ERRORS("PortRcvConstraintErrors", "receive_constraint_errors", 8, Kind.ERROR, PmPortCounters::portRcvConstraintErrors, null),
    LOCAL_LINK_INTEGRITY_ERRORS("LocalLinkIntegrityErrors", "local_link_integrity_errors", 4, Kind.ERROR, PmPortCounters::localLinkIntegrityErrors, null),
    EXCESSIVE_BUFFER_OVERRUN_ERRORS("ExcessiveBufferOverrunErrors", "excessive_buffer_overrun_errors", 4, Kind.ERROR, PmPortCounters::excessiveBufferOverrunErrors, null),
    VL15_DROPPED("VL15Dropped", "vl15_dropped", 16, Kind.ERROR, PmPortCounters::vl15Dropped, null),
    XMIT_WAIT("PortXmitWait", "transmit_wait", 32, Kind.ERROR, PmPortCounters::portXmitWait, null);

    /** What a counter counts: data words, packets, or errors (which ibqueryerrors' thresholds apply to). */
    enum Kind { DATA, TRAFFIC, ERROR }

    private final String ibmadName;
    private final String metricName;
    private final int width;
    private final Kind kind;
    private final ToLongFunction<PmPortCounters> basic;
    private final ToLongFunction<PmPortCountersExtended> extended;

    PortCounter(String ibmadName, String metricName, int width, Kind kind,
                ToLongFunction<PmPortCounters> basic, ToLongFunction<PmPortCountersExtended> extended) {
        this.ibmadName = ibmadName;
        this.metricName = metricName;
        this.width = width;
        this.kind = kind;
        this.basic = basic;
        this.extended = extended;
    }

    /** The counter's name in libibmad and perfquery's output, and in ibqueryerrors' thresholds file. */
    String ibmadName() {
        return ibmadName;
    }

    /** The metric name after the {@code infiniband_<switch|hca>_port_} prefix, without {@code _total}. */
    String metricName() {
        return metricName;
    }

    Kind kind() {
        return kind;
    }

    /** Bytes per counted unit in the exported value: 4 for data counters (they count words), else 1. */
    long scale() {
        return kind == Kind.DATA ? 4 : 1;
    }

    /**
     * The counter's value from a port's PortCounters and (if its agent answered it, else null)
     * PortCountersExtended, with the width it has there: 64 bits when read from PortCountersExtended.
     * Returns a negative width when neither attribute holds the counter.
     */
    Reading read(PmPortCounters counters, PmPortCountersExtended ext) {
        if (ext != null && extended != null) {
            return new Reading(extended.applyAsLong(ext), 64);
        }
        if (counters != null && basic != null) {
            return new Reading(basic.applyAsLong(counters), width);
        }
        return null;
    }

    /** A value as read and the bit width of the field it was read from. */
    record Reading(long value, int width) {
        /** Whether the counter stopped at its maximum: PortCounters' counters saturate rather than wrap (IBA 16.1.3.5). */
        boolean saturated() {
            return width < 64 && value == (1L << width) - 1;
        }
    }
}

package org.jrdma.tools;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.function.ToLongFunction;
import org.jrdma.iba.pm.PmPortCounters;
import org.jrdma.iba.pm.PmPortCountersExtended;

/**
 * A counter of PortCounters (IBA 16.1.3.5) and its 64-bit twin in PortCountersExtended (16.1.4.11),
 * by the name libibmad gives both, as ibqueryerrors reads and prints them.
 *
 * @param name     libibmad's field name, e.g. {@code SymbolErrorCounter}
 * @param basic    the counter in PortCounters, or null if it has none there
 * @param extended the counter in PortCountersExtended
 * @param data     whether it counts 4-byte words of data (printed in bytes, {@code KB}, ...)
 */
public record PortCounter(String name, ToLongFunction<PmPortCounters> basic, ToLongFunction<PmPortCountersExtended> extended, boolean data) {
    /** The error counters in PortCounters order (CounterSelect2, between them, is no counter). */
    public static final List<PortCounter> ERRORS = List.of(
            new PortCounter("SymbolErrorCounter", PmPortCounters::symbolErrorCounter, PmPortCountersExtended::symbolErrorCounter, false),
            new PortCounter("LinkErrorRecoveryCounter", PmPortCounters::linkErrorRecoveryCounter,
                    PmPortCountersExtended::linkErrorRecoveryCounter, false),
            new PortCounter("LinkDownedCounter", PmPortCounters::linkDownedCounter, PmPortCountersExtended::linkDownedCounter, false),
            new PortCounter("PortRcvErrors", PmPortCounters::portRcvErrors, PmPortCountersExtended::portRcvErrors, false),
            new PortCounter("PortRcvRemotePhysicalErrors", PmPortCounters::portRcvRemotePhysicalErrors,
                    PmPortCountersExtended::portRcvRemotePhysicalErrors, false),
            new PortCounter("PortRcvSwitchRelayErrors", PmPortCounters::portRcvSwitchRelayErrors,
                    PmPortCountersExtended::portRcvSwitchRelayErrors, false),
            new PortCounter("PortXmitDiscards", PmPortCounters::portXmitDiscards, PmPortCountersExtended::portXmitDiscards, false),
            new PortCounter("PortXmitConstraintErrors", PmPortCounters::portXmitConstraintErrors,
                    PmPortCountersExtended::portXmitConstraintErrors, false),
            new PortCounter("PortRcvConstraintErrors", PmPortCounters::portRcvConstraintErrors,
                    PmPortCountersExtended::portRcvConstraintErrors, false),
            new PortCounter("LocalLinkIntegrityErrors", PmPortCounters::localLinkIntegrityErrors,
                    PmPortCountersExtended::localLinkIntegrityErrors, false),
            new PortCounter("ExcessiveBufferOverrunErrors", PmPortCounters::excessiveBufferOverrunErrors,
                    PmPortCountersExtended::excessiveBufferOverrunErrors, false),
            new PortCounter("VL15Dropped", PmPortCounters::vl15Dropped, PmPortCountersExtended::vl15Dropped, false));

    /** PortXmitWait, checked after the others. */
    static final PortCounter XMIT_WAIT = new PortCounter("PortXmitWait", PmPortCounters::portXmitWait,
            PmPortCountersExtended::portXmitWait, false);

    /** The data counters of PortCounters, and the first four of PortCountersExtended. */
    static final List<PortCounter> DATA = List.of(
            new PortCounter("PortXmitData", PmPortCounters::portXmitData, PmPortCountersExtended::portXmitData, true),
            new PortCounter("PortRcvData", PmPortCounters::portRcvData, PmPortCountersExtended::portRcvData, true),
            new PortCounter("PortXmitPkts", PmPortCounters::portXmitPkts, PmPortCountersExtended::portXmitPkts, false),
            new PortCounter("PortRcvPkts", PmPortCounters::portRcvPkts, PmPortCountersExtended::portRcvPkts, false));

    /** The data counters of PortCountersExtended with its unicast and multicast packet counters (IBA's full 64-bit set). */
    static final List<PortCounter> DATA_EXTENDED = List.of(DATA.get(0), DATA.get(1), DATA.get(2), DATA.get(3),
            new PortCounter("PortUnicastXmitPkts", null, PmPortCountersExtended::portUnicastXmitPkts, false),
            new PortCounter("PortUnicastRcvPkts", null, PmPortCountersExtended::portUnicastRcvPkts, false),
            new PortCounter("PortMulticastXmitPkts", null, PmPortCountersExtended::portMulticastXmitPkts, false),
            new PortCounter("PortMulticastRcvPkts", null, PmPortCountersExtended::portMulticastRcvPkts, false));

    /**
     * The names {@code -s} may suppress: every field of PortCounters as libibmad names them
     * ({@code IB_PC_FIRST_F} to {@code IB_PC_LAST_F}), in its order.
     */
    static final List<String> FIELD_NAMES = List.of("PortSelect", "CounterSelect", "SymbolErrorCounter",
            "LinkErrorRecoveryCounter", "LinkDownedCounter", "PortRcvErrors", "PortRcvRemotePhysicalErrors",
            "PortRcvSwitchRelayErrors", "PortXmitDiscards", "PortXmitConstraintErrors", "PortRcvConstraintErrors",
            "CounterSelect2", "LocalLinkIntegrityErrors", "ExcessiveBufferOverrunErrors", "VL15Dropped", "PortXmitData",
            "PortRcvData", "PortXmitPkts", "PortRcvPkts", "PortXmitWait");

    /**
     * A counter's value with a unit, as infiniband-diags' {@code conv_cnt_human_readable} and
     * {@code "%5.3f%s"} print it: words of data times 4 in B, KB, MB..., other counts in plain,
     * K, M... (powers of 1024), computed in single precision as the C tool does.
     */
    static String humanReadable(long value, boolean data) {
        int unit = 0;
        long div = 1;
        for (long rest = Long.divideUnsigned(value, 1024); rest != 0; rest = Long.divideUnsigned(rest, 1024)) {
            unit++;
            div *= 1024;
        }
        float val = unsignedToFloat(value);
        if (data) {
            val *= 4;
            if (val / div > 1024) {
                unit++;
                div *= 1024;
            }
        }
        val /= div;
        String[] units = data ? new String[] {"B", "KB", "MB", "GB", "TB", "PB", "EB"} : new String[] {"", "K", "M", "G", "T", "P", "E"};
        // glibc rounds the exact binary value half to even; Formatter's %f would round its shortest decimal half up.
        String number = new BigDecimal(val).setScale(3, RoundingMode.HALF_EVEN).toPlainString();
        return " ".repeat(Math.max(0, 5 - number.length())) + number + (unit < units.length ? units[unit] : "");
    }

    private static float unsignedToFloat(long value) {
        return value >= 0 ? (float) value : (float) ((value >>> 1) | (value & 1)) * 2f;
    }
}

package org.jrdma.iba.diag;

import java.util.Locale;
import org.jrdma.iba.pm.PmPortCounters;
import org.jrdma.iba.pm.PmPortCountersExtended;

/** What {@code perfquery} (infiniband-diags 44) prints, byte for byte. */
public final class PerfQuery {
    private PerfQuery() {
    }

    /**
     * {@code perfquery <lid> <port>}: the header and {@link Tables#PORT_COUNTERS}.
     *
     * @param options the port's PerfMgt ClassPortInfo capability masks (the header shows the first)
     */
    public static String portCounters(PortId dest, int port, PmPortCounters counters, DiagOptions options) {
        return portCountersHeader(dest, port, options) + Tables.PORT_COUNTERS.print(counters, options);
    }

    /** {@code # Port counters: Lid 2 port 1 (CapMask: 0x1300)}, with its newline. */
    public static String portCountersHeader(PortId dest, int port, DiagOptions options) {
        return "# Port counters: " + dest + " port " + port + " (CapMask: 0x" + hex(options.pmCapabilityMask() & 0xffff, 2)
                + ")\n";
    }

    /** {@code perfquery -x <lid> <port>}: the header and {@link Tables#PORT_COUNTERS_EXTENDED}. */
    public static String portCountersExtended(PortId dest, int port, PmPortCountersExtended counters,
            DiagOptions options) {
        return portCountersExtendedHeader(dest, port, options) + Tables.PORT_COUNTERS_EXTENDED.print(counters, options);
    }

    /** {@code # Port extended counters: Lid 2 port 1 (CapMask: 0x1300 CapMask2: 0x0000000)}, with its newline. */
    public static String portCountersExtendedHeader(PortId dest, int port, DiagOptions options) {
        return "# Port extended counters: " + dest + " port " + port + " (CapMask: 0x"
                + hex(options.pmCapabilityMask() & 0xffff, 2) + " CapMask2: 0x" + hex(options.pmCapabilityMask2() & 0xffff_ffffL, 7) + ")\n";
    }

    private static String hex(long value, int digits) {
        return Formats.zeroPad(Long.toHexString(value).toUpperCase(Locale.ROOT), digits);
    }
}

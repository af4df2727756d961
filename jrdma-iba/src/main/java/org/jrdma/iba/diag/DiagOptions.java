package org.jrdma.iba.diag;

/**
 * What changes how the tools print a structure, beyond its bytes.
 *
 * @param showKeys          infiniband-diags' {@code -K/--show_keys}: print M_Keys instead of
 *                          {@code <not displayed>}
 * @param pmCapabilityMask  the PerfMgt ClassPortInfo:CapabilityMask (host order), which decides
 *                          the PortCounters and PortCountersExtended lines perfquery prints
 * @param pmCapabilityMask2 the PerfMgt ClassPortInfo:CapabilityMask2 (host order, 27 bits)
 */
public record DiagOptions(boolean showKeys, int pmCapabilityMask, int pmCapabilityMask2) {
    /** PerfMgt CapabilityMask bit 9: PortCountersExtended has the unicast and multicast counters. */
    public static final int PM_EXT_WIDTH_SUPPORTED = 1 << 9;
    /** PerfMgt CapabilityMask bit 12: PortCounters:PortXmitWait is supported. */
    public static final int PM_XMIT_WAIT_SUPPORTED = 1 << 12;
    /** PerfMgt CapabilityMask2 bit 1: PortCountersExtended has the additional error counters. */
    public static final int PM_ADDITIONAL_EXT_COUNTERS = 1 << 1;

    /** How the tools print by default: keys hidden; every optional PerfMgt counter supported. */
    public static DiagOptions defaults() {
        return new DiagOptions(false, PM_EXT_WIDTH_SUPPORTED | PM_XMIT_WAIT_SUPPORTED, PM_ADDITIONAL_EXT_COUNTERS);
    }

    /** These options with keys shown or hidden. */
    public DiagOptions withShowKeys(boolean show) {
        return new DiagOptions(show, pmCapabilityMask, pmCapabilityMask2);
    }

    /** These options with the PerfMgt ClassPortInfo capability masks a port reported. */
    public DiagOptions withPmCapabilities(int capabilityMask, int capabilityMask2) {
        return new DiagOptions(showKeys, capabilityMask, capabilityMask2);
    }
}

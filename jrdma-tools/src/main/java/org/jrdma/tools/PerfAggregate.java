package org.jrdma.tools;

import org.jrdma.iba.diag.DiagOptions;
import org.jrdma.iba.pm.PmPortCounters;
import org.jrdma.iba.pm.PmPortCountersExtended;

/**
 * perfquery's sum of several ports' counters ({@code -a} where the port cannot select all ports
 * itself, or on a list of ports): each counter summed and held at its maximum when the sum does not
 * fit its width, as IBA counters saturate ({@code aggregate_perfcounters}); the other fields, as in
 * perfquery, are those of the last port read, and PortSelect 255 (AllPortSelect).
 */
final class PerfAggregate {
    /** PortCounters' counters: IBA bit offset and width (QP1Dropped is libibmad's alias of VL15Dropped). */
    private static final int[][] COUNTERS = {{32, 16}, {48, 8}, {56, 8}, {64, 16}, {80, 16}, {96, 16}, {112, 16}, {128, 8},
        {136, 8}, {152, 4}, {156, 4}, {176, 16}, {192, 32}, {224, 32}, {256, 32}, {288, 32}, {320, 32}};
    /** PortCountersExtended's data counters, always there. */
    private static final int[] EXT_DATA = {64, 128, 192, 256};
    /** Its unicast and multicast packet counters, with PerfMgt CapabilityMask bit 9. */
    private static final int[] EXT_WIDTH = {320, 384, 448, 512};
    /** Its error counters, with CapabilityMask2 bit 1 (after CounterSelect2, the last port's). */
    private static final int[] EXT_ERRORS = {576, 640, 704, 768, 832, 896, 960, 1024, 1088, 1152, 1216, 1280, 1344, 1408};

    private final boolean extended;
    private final DiagOptions options;
    private final long[] sums = new long[COUNTERS.length + EXT_DATA.length + EXT_WIDTH.length + EXT_ERRORS.length];
    private byte[] last;

    PerfAggregate(boolean extended, DiagOptions options) {
        this.extended = extended;
        this.options = options;
    }

    /** Adds one port's PortCounters (or PortCountersExtended) bytes. */
    void add(byte[] counters) {
        last = counters.clone();
        if (!extended) {
            for (int i = 0; i < COUNTERS.length; i++) {
                int width = COUNTERS[i][1];
                long sum = sums[i] + PerfAttribute.bits(counters, COUNTERS[i][0], width);
                sums[i] = width < 64 ? Math.min(sum, (1L << width) - 1) : sum;
            }
            return;
        }
        int i = 0;
        for (int offset : EXT_DATA) {
            sums[i] = add64(sums[i], PerfAttribute.bits(counters, offset, 64));
            i++;
        }
        for (int offset : EXT_WIDTH) {
            if ((options.pmCapabilityMask() & DiagOptions.PM_EXT_WIDTH_SUPPORTED) != 0) {
                sums[i] = add64(sums[i], PerfAttribute.bits(counters, offset, 64));
            }
            i++;
        }
        for (int offset : EXT_ERRORS) {
            if ((options.pmCapabilityMask2() & DiagOptions.PM_ADDITIONAL_EXT_COUNTERS) != 0) {
                sums[i] = add64(sums[i], PerfAttribute.bits(counters, offset, 64));
            }
            i++;
        }
    }

    private static long add64(long sum, long value) {
        long total = sum + value;
        return Long.compareUnsigned(total, sum) < 0 ? -1L : total;
    }

    /** The sums as PortCounters of port 255, the last port's other fields. */
    PmPortCounters counters() {
        byte[] out = last.clone();
        out[1] = (byte) 0xff;
        for (int i = 0; i < COUNTERS.length; i++) {
            setBits(out, COUNTERS[i][0], COUNTERS[i][1], sums[i]);
        }
        return new PmPortCounters().unpack(out, 0);
    }

    /** The sums as PortCountersExtended of port 255. */
    PmPortCountersExtended countersExtended() {
        byte[] out = last.clone();
        out[1] = (byte) 0xff;
        int i = 0;
        for (int[] group : new int[][] {EXT_DATA, EXT_WIDTH, EXT_ERRORS}) {
            for (int offset : group) {
                if (group == EXT_DATA || group == EXT_WIDTH && (options.pmCapabilityMask() & DiagOptions.PM_EXT_WIDTH_SUPPORTED) != 0
                        || group == EXT_ERRORS && (options.pmCapabilityMask2() & DiagOptions.PM_ADDITIONAL_EXT_COUNTERS) != 0) {
                    setBits(out, offset, 64, sums[i]);
                }
                i++;
            }
        }
        return new PmPortCountersExtended().unpack(out, 0);
    }

    private static void setBits(byte[] bytes, int offset, int width, long value) {
        for (int k = 0; k < width; k++) {
            int bit = offset + width - 1 - k;
            int mask = 1 << (7 - bit % 8);
            if (((value >>> k) & 1) != 0) {
                bytes[bit / 8] |= (byte) mask;
            } else {
                bytes[bit / 8] &= (byte) ~mask;
            }
        }
    }
}

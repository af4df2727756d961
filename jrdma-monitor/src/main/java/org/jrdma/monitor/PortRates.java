package org.jrdma.monitor;

import java.util.EnumMap;
import java.util.Map;

/**
 * A port's counters across sweeps: the last values read and the rate of each counter (per second,
 * in exported units) between the last two sweeps. A counter lower than before was cleared (a
 * PerfMgt Set, a reset of the node) or wrapped: a 64-bit counter (or a narrower one read near its
 * top) wrapped, and the rate counts through the wrap; otherwise it was reset, and the rate counts
 * from zero. A counter stuck at its maximum (PortCounters' counters saturate) has no rate.
 */
final class PortRates {
    private Map<PortCounter, PortCounter.Reading> last = Map.of();
    private long lastNanos;
    private final Map<PortCounter, Double> rates = new EnumMap<>(PortCounter.class);
    private long resets;

    /** Takes a sweep's values read at {@code nanos} (System.nanoTime); returns how many counters were found reset. */
    int update(Map<PortCounter, PortCounter.Reading> values, long nanos) {
        int resetsNow = 0;
        rates.clear();
        double seconds = (nanos - lastNanos) / 1e9;
        for (Map.Entry<PortCounter, PortCounter.Reading> e : values.entrySet()) {
            PortCounter.Reading before = last.get(e.getKey());
            PortCounter.Reading now = e.getValue();
            if (before == null || seconds <= 0 || before.width() != now.width() || (before.saturated() && now.saturated())) {
                continue;
            }
            long delta;
            if (Long.compareUnsigned(now.value(), before.value()) >= 0) {
                delta = now.value() - before.value();
            } else if (wrapped(before, now)) {
                delta = now.width() == 64 ? now.value() - before.value() : now.value() + (1L << now.width()) - before.value();
            } else {
                delta = now.value();
                resetsNow++;
            }
            rates.put(e.getKey(), unsigned(delta) * e.getKey().scale() / seconds);
        }
        resets += resetsNow;
        last = values;
        lastNanos = nanos;
        return resetsNow;
    }

    /** Whether a drop from {@code before} to {@code now} is a wrap: from the top quarter of the range to the bottom quarter. */
    private static boolean wrapped(PortCounter.Reading before, PortCounter.Reading now) {
        int shift = now.width() - 2;
        long quarter = now.width() == 64 ? 1L << 62 : 1L << shift;
        long top = now.width() == 64 ? -quarter : 3 * quarter;
        return Long.compareUnsigned(before.value(), top) >= 0 && Long.compareUnsigned(now.value(), quarter) < 0;
    }

    /** A counter value read as unsigned, as a double. */
    static double unsigned(long value) {
        return value >= 0 ? value : (value >>> 1) * 2.0 + (value & 1);
    }

    Map<PortCounter, PortCounter.Reading> last() {
        return last;
    }

    /** The rates between the last two sweeps (empty after the first). */
    Map<PortCounter, Double> rates() {
        return rates;
    }

    /** How many times a counter of this port was found reset. */
    long resets() {
        return resets;
    }
}

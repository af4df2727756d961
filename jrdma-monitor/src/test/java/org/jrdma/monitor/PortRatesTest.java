package org.jrdma.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Rates across sweeps: plain deltas, 64-bit and narrow wraps, resets, saturated counters; and ibqueryerrors' thresholds file. */
class PortRatesTest {
    private static final long SECOND = 1_000_000_000L;

    private static Map<PortCounter, PortCounter.Reading> data(long value, int width) {
        return Map.of(PortCounter.XMIT_DATA, new PortCounter.Reading(value, width));
    }

    @Test
    void rateIsTheDeltaInBytesPerSecond() {
        PortRates rates = new PortRates();
        assertEquals(0, rates.update(data(1000, 64), 0));
        assertEquals(Map.of(), rates.rates(), "no rate after the first sweep");
        assertEquals(0, rates.update(data(3000, 64), 2 * SECOND));
        assertEquals(4000.0, rates.rates().get(PortCounter.XMIT_DATA), "2000 words in 2 s, 4 bytes each");
    }

    @Test
    void a64BitCounterWrapsThroughZero() {
        PortRates rates = new PortRates();
        rates.update(data(-10, 64), 0);                 // 2^64 - 10
        assertEquals(0, rates.update(data(5, 64), SECOND));
        assertEquals(60.0, rates.rates().get(PortCounter.XMIT_DATA), "15 words");
        assertEquals(0, rates.resets());
    }

    @Test
    void aNarrowCounterReadNearItsTopWraps() {
        PortRates rates = new PortRates();
        rates.update(Map.of(PortCounter.XMIT_PKTS, new PortCounter.Reading(0xFFFF_FFF0L, 32)), 0);
        rates.update(Map.of(PortCounter.XMIT_PKTS, new PortCounter.Reading(0x10L, 32)), SECOND);
        assertEquals(32.0, rates.rates().get(PortCounter.XMIT_PKTS));
    }

    @Test
    void aCounterLowerThanBeforeAndNotNearItsTopWasReset() {
        PortRates rates = new PortRates();
        rates.update(data(1_000_000, 64), 0);
        assertEquals(1, rates.update(data(250, 64), SECOND));
        assertEquals(1000.0, rates.rates().get(PortCounter.XMIT_DATA), "counted from zero");
        assertEquals(1, rates.resets());
    }

    @Test
    void aSaturatedCounterHasNoRate() {
        PortRates rates = new PortRates();
        Map<PortCounter, PortCounter.Reading> stuck = Map.of(PortCounter.SYMBOL_ERRORS, new PortCounter.Reading(0xFFFF, 16));
        rates.update(stuck, 0);
        rates.update(stuck, SECOND);
        assertFalse(rates.rates().containsKey(PortCounter.SYMBOL_ERRORS));
    }

    @Test
    void thresholdsAreReadAsIbqueryerrorsReadsThem(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("error_thresholds");
        Files.writeString(file, "# comment\nSymbolErrorCounter=10\nLinkDownedCounter=0x2\nPortRcvErrors=010\nNoSuchCounter=5\n\n");
        ErrorThresholds thresholds = ErrorThresholds.read(file);
        assertEquals(10, thresholds.threshold(PortCounter.SYMBOL_ERRORS));
        assertEquals(2, thresholds.threshold(PortCounter.LINK_DOWNED));
        assertEquals(8, thresholds.threshold(PortCounter.RCV_ERRORS), "octal, as strtoul base 0 reads it");
        assertFalse(thresholds.exceeded(PortCounter.SYMBOL_ERRORS, 10));
        assertEquals(true, thresholds.exceeded(PortCounter.SYMBOL_ERRORS, 11));
        assertEquals(true, thresholds.exceeded(PortCounter.XMIT_DISCARDS, 1), "0 unless the file says otherwise");
        assertFalse(thresholds.exceeded(PortCounter.XMIT_DATA, 1_000_000), "data counters have no threshold");
        assertEquals(0, ErrorThresholds.read(dir.resolve("missing")).threshold(PortCounter.SYMBOL_ERRORS));
    }
}

package org.jrdma.monitor;

import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * How a {@link FabricMonitor} runs.
 *
 * @param listen         where the HTTP server listens (loopback by default)
 * @param interval       the time from the end of one cycle to the start of the next
 * @param discoverEvery  rediscover the topology every this many cycles (1: every cycle)
 * @param timeout        how long to wait for each MAD's answer
 * @param retries        how many times to send a MAD again after a timeout
 * @param maxOutstanding MADs in flight at once
 * @param thresholds     ibqueryerrors' error thresholds
 * @param forgetAfter    how long a node or link that went away stays in the model (shown as down)
 * @param traps          whether to subscribe to the SM's traps and rediscover on each
 */
public record MonitorConfig(InetSocketAddress listen, Duration interval, int discoverEvery, Duration timeout, int retries,
                            int maxOutstanding, ErrorThresholds thresholds, Duration forgetAfter, boolean traps) {
    /** The default port of the HTTP server (that of the Prometheus infiniband_exporter). */
    public static final int DEFAULT_PORT = 9315;

    public MonitorConfig {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("the interval must be positive, not " + interval);
        }
        if (discoverEvery < 1 || retries < 0 || maxOutstanding < 1 || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("discover-every and max-outstanding must be at least 1, retries at least 0, the timeout positive");
        }
    }

    /** The defaults: loopback port {@link #DEFAULT_PORT}, every 10 s, discovery every cycle, 200 ms timeout, 2 retries, 64 MADs in flight, no thresholds file, traps on. */
    public static MonitorConfig defaults() {
        return new MonitorConfig(new InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), DEFAULT_PORT), Duration.ofSeconds(10), 1,
                Duration.ofMillis(200), 2, 64, ErrorThresholds.NONE, Duration.ofHours(24), true);
    }

    /** This configuration with another listen address (port 0: any free port). */
    public MonitorConfig withListen(InetSocketAddress address) {
        return new MonitorConfig(address, interval, discoverEvery, timeout, retries, maxOutstanding, thresholds, forgetAfter, traps);
    }

    /** This configuration with another interval between cycles. */
    public MonitorConfig withInterval(Duration every) {
        return new MonitorConfig(listen, every, discoverEvery, timeout, retries, maxOutstanding, thresholds, forgetAfter, traps);
    }
}

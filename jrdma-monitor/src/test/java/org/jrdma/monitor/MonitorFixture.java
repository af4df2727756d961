package org.jrdma.monitor;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.jrdma.mad.sim.IbsimTransport;
import org.jrdma.testkit.fabric.Fabric;

/**
 * A {@link FabricMonitor} attached at node01 of a simulated fabric, its HTTP server on a free
 * loopback port, cycling only when the test calls {@link #cycle()} (the scheduled cycles are an
 * hour apart), its log kept for assertions.
 */
final class MonitorFixture implements AutoCloseable {
    static final String ATTACH_AT = "node01 HCA-1";
    final FabricMonitor monitor;
    private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    private final HttpClient http = HttpClient.newHttpClient();

    MonitorFixture(Fabric fabric) {
        this(fabric, MonitorConfig.defaults());
    }

    /** A fixture with {@code config}, but the server on a free loopback port and the cycles an hour apart. */
    MonitorFixture(Fabric fabric, MonitorConfig base) {
        MonitorConfig config = base
                .withListen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .withInterval(Duration.ofHours(1));
        monitor = new FabricMonitor(config, IbsimTransport.attach(fabric.socketName(), ATTACH_AT),
                new PrintStream(logBytes, true, StandardCharsets.UTF_8));
        monitor.start();
    }

    void cycle() {
        monitor.cycle();
    }

    String baseUrl() {
        return "http://" + monitor.hostPort();
    }

    String get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = getResponse(path);
        if (response.statusCode() != 200) {
            throw new AssertionError("GET " + path + ": " + response.statusCode());
        }
        return response.body();
    }

    HttpResponse<String> getResponse(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(baseUrl() + path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    PrometheusText.Exposition metrics() throws IOException, InterruptedException {
        return PrometheusText.parse(get("/metrics"));
    }

    /** The metrics once {@code condition} holds of them, polled for up to 15 s (the monitor's own cycles are an hour apart: only a trap brings a change). */
    PrometheusText.Exposition awaitMetrics(java.util.function.Predicate<PrometheusText.Exposition> condition) throws IOException, InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (true) {
            PrometheusText.Exposition metrics = metrics();
            if (condition.test(metrics)) {
                return metrics;
            }
            if (System.nanoTime() > end) {
                throw new AssertionError("the metrics did not change in 15 s; log:\n" + log());
            }
            Thread.sleep(100);
        }
    }

    String log() {
        return logBytes.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        monitor.close();
        http.close();
    }
}

package org.jrdma.examples.demo;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.jrdma.mad.sim.IbsimTransport;
import org.jrdma.monitor.FabricMonitor;
import org.jrdma.monitor.MonitorConfig;
import org.jrdma.testkit.fabric.Fabric;

/**
 * The demo's fabric monitor step: {@code jrdma-monitor} attached at the demo's node discovers the
 * fabric, subscribes to the SM's traps and serves /metrics on a loopback port; a counter set through
 * ibsim's console then shows in the next sweep as the Prometheus line a scraper reads, with its rate.
 */
final class MonitorDemoStep {
    private MonitorDemoStep() {
    }

    static void run(Fabric fabric, String node) {
        System.out.println("Fabric monitor (bin/jrdma-monitor): discovery, counter sweeps, SM traps, Prometheus /metrics, web view");
        MonitorConfig config = MonitorConfig.defaults().withListen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .withInterval(Duration.ofHours(1));
        try (FabricMonitor monitor = new FabricMonitor(config, IbsimTransport.attach(fabric.socketName(), node), System.out);
                HttpClient http = HttpClient.newHttpClient()) {
            monitor.start();
            System.out.println("PerformanceSet through ibsim's console: leaf3 port 1 PortXmitData 250000 (words), then 1250000 one sweep later");
            fabric.performanceSet("leaf3", 1, "PortCountersExtended", "PortXmitData", 250_000);
            monitor.cycle();
            fabric.performanceSet("leaf3", 1, "PortCountersExtended", "PortXmitData", 1_250_000);
            monitor.cycle();
            String metrics = http.send(HttpRequest.newBuilder(URI.create("http://" + monitor.hostPort() + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            System.out.println("$ curl http://" + monitor.hostPort() + "/metrics   (the lines of leaf3 port 1, and the monitor's own)");
            PrintStream out = System.out;
            metrics.lines().filter(l -> !l.startsWith("#") && ((l.contains("{guid=\"0x0002c90300000a13\",port=\"1\",")
                            && (l.startsWith("infiniband_switch_port_transmit_data_bytes") || l.startsWith("infiniband_switch_uplink_info")))
                            || l.startsWith("infiniband_switch_port_error_threshold_exceeded") || l.startsWith("infiniband_monitor_sweeps")
                            || l.startsWith("infiniband_monitor_mads") || l.startsWith("infiniband_monitor_nodes")))
                    .forEach(out::println);
            System.out.println("(the page at http://" + monitor.hostPort() + "/ draws the same fabric from /api/fabric)");
            System.out.println();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

package org.jrdma.monitor;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.prometheus.metrics.exporter.httpserver.MetricsHandler;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.jrdma.monitor.CounterSweep.PortKey;
import org.jrdma.monitor.FabricView.LinkView;
import org.jrdma.monitor.FabricView.NodeView;
import org.jrdma.monitor.FabricView.PortView;

/**
 * The monitor's HTTP server (the JDK's {@code com.sun.net.httpserver}, one virtual thread per
 * request): {@code /metrics} for Prometheus (the Prometheus client's handler: text, OpenMetrics or
 * protobuf as the scraper asks), the JSON API the web page and scripts share, and the page itself.
 *
 * <ul>
 * <li>{@code GET /api/fabric}: every node (with {@code present} false for one that went away) and
 *     link, each link with its {@code health}: {@code down} (went away), {@code errors} (an end
 *     has an error counter beyond its threshold), {@code degraded} (running slower, narrower or at a
 *     lower speed, than it has before), {@code ok}; and the sweep statistics.</li>
 * <li>{@code GET /api/node?guid=0x...}: a node and each port's PortInfo, counters, rates and
 *     counters beyond threshold (404 and an {@code error} for a GUID not in the fabric).</li>
 * <li>{@code GET /api/events}: the recent topology events, oldest first.</li>
 * <li>{@code GET /}: the web page ({@code index.html}), drawing the fabric from {@code /api/fabric}.</li>
 * </ul>
 */
final class MonitorServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpServer server;
    private final ExecutorService executor;
    private final FabricState state;

    private MonitorServer(HttpServer server, ExecutorService executor, FabricState state) {
        this.server = server;
        this.executor = executor;
        this.state = state;
    }

    static MonitorServer start(InetSocketAddress address, FabricState state) {
        HttpServer http;
        try {
            http = HttpServer.create(address, 64);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on " + address, e);
        }
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        http.setExecutor(executor);
        MonitorServer server = new MonitorServer(http, executor, state);
        PrometheusRegistry registry = new PrometheusRegistry();
        registry.register(new FabricMetrics(state));
        http.createContext("/metrics", new MetricsHandler(registry));
        http.createContext("/api/fabric", exchange -> server.json(exchange, server.fabric(), 200));
        http.createContext("/api/node", exchange -> {
            Object node = server.node(query(exchange).get("guid"));
            server.json(exchange, node, node instanceof Map<?, ?> m && m.containsKey("error") ? 404 : 200);
        });
        http.createContext("/api/events", exchange -> server.json(exchange, state.events(), 200));
        http.createContext("/", server::page);
        http.start();
        return server;
    }

    /** {@code host:port} the server listens on. */
    String hostPort() {
        InetSocketAddress a = server.getAddress();
        return a.getAddress().getHostAddress() + ":" + a.getPort();
    }

    private Map<String, Object> fabric() {
        FabricView view = state.view();
        List<Map<String, Object>> nodes = new ArrayList<>();
        view.nodes().values().forEach(n -> nodes.add(node(n, true)));
        state.goneNodes().forEach(g -> nodes.add(node(g.what(), false)));
        Map<String, NodeView> all = new HashMap<>(view.nodes());
        state.goneNodes().forEach(g -> all.putIfAbsent(g.what().guid(), g.what()));
        List<Map<String, Object>> links = new ArrayList<>();
        for (LinkView link : view.links()) {
            links.add(link(link, health(view, link), all));
        }
        state.goneLinks().forEach(g -> links.add(link(g.what(), "down", all)));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("nodes", nodes);
        out.put("links", links);
        out.put("stats", state.stats());
        return out;
    }

    private static Map<String, Object> node(NodeView n, boolean present) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("guid", n.guid());
        m.put("type", n.type());
        m.put("description", n.description());
        m.put("lid", n.lid());
        m.put("present", present);
        return m;
    }

    private static Map<String, Object> link(LinkView link, String health, Map<String, NodeView> nodes) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", link.id());
        m.put("a", link.a());
        m.put("aPort", link.aPort());
        m.put("aName", nodes.containsKey(link.a()) ? nodes.get(link.a()).description() : link.a());
        m.put("b", link.b());
        m.put("bPort", link.bPort());
        m.put("bName", nodes.containsKey(link.b()) ? nodes.get(link.b()).description() : link.b());
        m.put("health", health);
        PortView end = nodes.containsKey(link.a()) ? nodes.get(link.a()).port(link.aPort()) : null;
        m.put("widthLanes", end == null ? 0 : end.widthLanes());
        m.put("speedGbps", end == null ? 0 : end.speedGbps());
        return m;
    }

    private String health(FabricView view, LinkView link) {
        PortView a = view.nodes().get(link.a()).port(link.aPort());
        PortView b = view.nodes().get(link.b()).port(link.bPort());
        if (a == null || b == null || a.state() < 2 || b.state() < 2) {
            return "down";
        }
        FabricState.PortCounters ca = state.counters(new PortKey(link.a(), link.aPort()));
        FabricState.PortCounters cb = state.counters(new PortKey(link.b(), link.bPort()));
        if ((ca != null && !ca.beyondThreshold().isEmpty()) || (cb != null && !cb.beyondThreshold().isEmpty())) {
            return "errors";
        }
        if (state.degraded(link)) {
            return "degraded";
        }
        return "ok";
    }

    private Object node(String guid) {
        NodeView node = guid == null ? null : state.view().nodes().get(guid);
        if (node == null) {
            return Map.of("error", "no node with GUID " + guid);
        }
        List<Map<String, Object>> ports = new ArrayList<>();
        for (PortView port : node.ports()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("port", port);
            FabricState.PortCounters counters = state.counters(new PortKey(guid, port.port()));
            if (counters != null) {
                Map<String, Object> values = new LinkedHashMap<>();
                counters.values().forEach((c, v) -> values.put(c.ibmadName(), v));
                Map<String, Object> rates = new LinkedHashMap<>();
                counters.rates().forEach((c, v) -> rates.put(c.ibmadName(), v));
                m.put("counters", values);
                m.put("rates", rates);
                m.put("beyondThreshold", counters.beyondThreshold().stream().map(PortCounter::ibmadName).toList());
            }
            ports.add(m);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("node", node(node, true));
        out.put("ports", ports);
        return out;
    }

    private void json(HttpExchange exchange, Object body, int status) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(body);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        send(exchange, status, bytes);
    }

    private void page(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        if (!path.equals("/") && !path.equals("/index.html")) {
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
            return;
        }
        try (InputStream in = MonitorServer.class.getResourceAsStream("index.html")) {
            exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
            send(exchange, 200, in.readAllBytes());
        }
    }

    private static void send(HttpExchange exchange, int status, byte[] bytes) throws IOException {
        exchange.sendResponseHeaders(status, bytes.length);
        try (var out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static Map<String, String> query(HttpExchange exchange) {
        Map<String, String> params = new HashMap<>();
        String raw = exchange.getRequestURI().getRawQuery();
        if (raw != null) {
            for (String pair : raw.split("&")) {
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    params.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8), URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
                }
            }
        }
        return params;
    }

    @Override
    public void close() {
        server.stop(0);
        executor.close();
    }
}

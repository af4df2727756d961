/**
 * The jrdma fabric monitor: a live model of an InfiniBand subnet (directed-route discovery, SM
 * traps, cheap refreshes), counter sweeps of every port, Prometheus metrics, a JSON API and a web view.
 */
module org.jrdma.monitor {
    requires transitive org.jrdma;
    requires java.management;
    requires info.picocli;
    requires io.prometheus.metrics.model;
    requires io.prometheus.metrics.exporter.httpserver;
    requires com.fasterxml.jackson.databind;
    requires jdk.httpserver;
    exports org.jrdma.monitor;
    opens org.jrdma.monitor to info.picocli, com.fasterxml.jackson.databind;
}

package io.locus.memcached.stats;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * Serves one proxy's metrics on {@code GET /metrics} with the Prometheus client's HTTP server, on its own port and its
 * own single daemon thread, so a slow scraper never touches the I/O threads. The page is the Prometheus text format,
 * or OpenMetrics when the scraper's {@code Accept} header asks for it; {@code ?name[]=} selects metrics.
 *
 * <p>It shows the proxy's {@link ProxyMetrics}, the {@code stats} lines as counters and gauges
 * ({@link StatsLineMetrics}), and the JVM's own metrics ({@code jvm_*}, {@code process_*}), all in the proxy's own
 * registry.
 */
public final class PrometheusEndpoint implements AutoCloseable {
    private final HTTPServer server;
    private final InetSocketAddress address;

    /**
     * @param lines every {@code stats} line, read on each scrape
     * @throws IllegalStateException naming the address if it cannot be bound
     */
    public PrometheusEndpoint(String host, int port, ProxyMetrics metrics, Supplier<Map<String, String>> lines) {
        metrics.registry().register(new StatsLineMetrics(lines));
        JvmMetrics.builder().register(metrics.registry());
        ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "locus-prometheus");
            t.setDaemon(true);
            return t;
        });
        try {
            server = HTTPServer.builder()
                    .hostname(host)
                    .port(port)
                    .registry(metrics.registry())
                    .executorService(thread)
                    .buildAndStart();
        } catch (IOException e) {
            thread.shutdownNow();
            throw new IllegalStateException(
                    "cannot listen on " + host + ":" + port + " for metrics.prometheus_port: " + e, e);
        }
        address = new InetSocketAddress(host, server.getPort());
    }

    public InetSocketAddress address() {
        return address;
    }

    @Override
    public void close() {
        server.close();
    }
}

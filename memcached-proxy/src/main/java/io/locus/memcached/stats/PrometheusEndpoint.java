package io.locus.memcached.stats;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * Serves the proxy's counters in the Prometheus text format on {@code GET /metrics}, on its own port
 * and its own single daemon thread, so a slow scraper never touches the I/O threads.
 *
 * <p>The page is {@link PrometheusText} of the lines {@code lines} supplies (the whole {@link StatsTable}).
 */
public final class PrometheusEndpoint implements AutoCloseable {
    private final HttpServer server;

    /**
     * @throws IllegalStateException naming the address if it cannot be bound
     */
    public PrometheusEndpoint(String host, int port, Supplier<Map<String, String>> lines) {
        try {
            server = HttpServer.create(new InetSocketAddress(host, port), 16);
        } catch (IOException e) {
            throw new IllegalStateException(
                    "cannot listen on " + host + ":" + port + " for metrics.prometheus_port: " + e, e);
        }
        server.setExecutor(Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "locus-prometheus");
            t.setDaemon(true);
            return t;
        }));
        server.createContext("/metrics", exchange -> serve(exchange, lines));
        server.start();
    }

    public InetSocketAddress address() {
        return server.getAddress();
    }

    private static void serve(HttpExchange exchange, Supplier<Map<String, String>> lines) throws IOException {
        byte[] body = PrometheusText.render(lines.get());
        exchange.getResponseHeaders().set("Content-Type", PrometheusText.contentType());
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }
}

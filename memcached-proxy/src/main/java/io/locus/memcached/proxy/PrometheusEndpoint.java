package io.locus.memcached.proxy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * Serves the proxy's counters in the Prometheus text format (version 0.0.4) on {@code GET /metrics}, on its own port
 * and its own single daemon thread, so a slow scraper never touches the I/O threads.
 *
 * <p>Every numeric {@code stats} line becomes {@code locus_memcached_<name>}; per-tenant lines
 * ({@code locus_tenant:<id>:<field>}, {@code locus_local:<id>:<field>}) become {@code locus_memcached_tenant_<field>}
 * and {@code locus_memcached_local_<field>} with a {@code tenant} label.
 */
final class PrometheusEndpoint implements AutoCloseable {
    private final HttpServer server;

    /**
     * @throws IllegalStateException naming the address if it cannot be bound
     */
    PrometheusEndpoint(String host, int port, Supplier<Map<String, String>> lines) {
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

    InetSocketAddress address() {
        return server.getAddress();
    }

    private static void serve(HttpExchange exchange, Supplier<Map<String, String>> lines) throws IOException {
        byte[] body = render(lines.get()).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    /** The exposition text for {@code stats} lines; non-numeric lines (version) are skipped. */
    static String render(Map<String, String> lines) {
        StringBuilder sb = new StringBuilder();
        java.util.Set<String> typed = new java.util.HashSet<>();
        for (Map.Entry<String, String> e : lines.entrySet()) {
            String value = e.getValue();
            if (!value.matches("-?[0-9]+(\\.[0-9]+)?")) {
                continue;
            }
            String name = e.getKey();
            String metric;
            String labels = "";
            String[] parts = name.split(":");
            if (parts.length == 3) {
                metric = "locus_memcached_" + parts[0].substring("locus_".length()) + "_" + parts[2];
                labels = "{tenant=\"" + parts[1].replace("\\", "\\\\").replace("\"", "\\\"") + "\"}";
            } else if (parts.length == 1) {
                metric = "locus_memcached_" + (name.startsWith("locus_") ? name.substring(6) : name);
            } else {
                continue;
            }
            if (typed.add(metric)) {
                sb.append("# TYPE ").append(metric).append(" gauge\n");
            }
            sb.append(metric).append(labels).append(' ').append(value).append('\n');
        }
        return sb.toString();
    }

    @Override
    public void close() {
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }
}

package io.locus.memcached.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.fixture.Ports;
import io.locus.memcached.fixture.MemcachedConfig;
import io.locus.memcached.fixture.MemcachedServer;
import io.locus.memcached.fixture.MemcachedServers;
import io.locus.memcached.testing.PrometheusPage;
import io.locus.memcached.testing.ProxyUnderTest;
import io.locus.memcached.testing.RawClient;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The proxy's {@code /metrics} page, scraped over HTTP while the proxy serves a real memcached: the counters move by
 * exactly the requests the test sent, the histograms count every request once and end in {@code +Inf} at their
 * count, the JVM's metrics are there, and the page is valid Prometheus text, or OpenMetrics when asked.
 */
public class PrometheusMetricsIT {
    static final Path DIR = Path.of("target", "it", "prometheus-metrics");
    static final int SETS = 30;
    static final int HITS = 20;
    static final int MISSES = 10;

    static MemcachedServers servers;

    @BeforeAll
    static void start() {
        // 0: the full proxy's backend, 1: the pass-through's.
        servers = MemcachedServers.start(2, MemcachedConfig.DEFAULTS, DIR);
    }

    @AfterAll
    static void stop() {
        servers.close();
    }

    private static String yaml(int metricsPort) {
        return "io_threads: 1\nmetrics:\n  prometheus_port: " + metricsPort + "\n"
                + "tenants:\n  - {id: calm, prefixes: [\"calm:\"]}\n";
    }

    @Test
    void fullProxy_countersAndHistogramsMoveByWhatWasSent() throws Exception {
        MemcachedServer backend = servers.get(0);
        try (ProxyUnderTest proxy =
                ProxyUnderTest.withDeadlines(List.of(backend.address()), yaml(Ports.freeLoopbackPort()))) {
            checkCounters(proxy, backend, false);
        }
    }

    @Test
    void passThrough_countersAndHistogramsMoveByWhatWasSent_andEveryRequestReachesTheBackend() throws Exception {
        MemcachedServer backend = servers.get(1);
        try (ProxyUnderTest proxy = new ProxyUnderTest(List.of(backend.address()), yaml(Ports.freeLoopbackPort()))) {
            checkCounters(proxy, backend, true);
        }
    }

    private static void checkCounters(ProxyUnderTest proxy, MemcachedServer backend, boolean passThrough)
            throws Exception {
        PrometheusPage before = PrometheusPage.scrape(proxy.server.prometheusAddress(), null);
        String backendLabel = "backend=\"127.0.0.1:" + backend.address().getPort() + "\"";
        try (RawClient c = new RawClient(proxy.address)) {
            for (int i = 0; i < SETS; i++) {
                assertEquals("STORED\r\n", c.exchange("set metrics:" + i + " 0 0 2\r\nv" + (i % 10) + "\r\n"));
            }
            for (int i = 0; i < HITS; i++) {
                assertEquals(
                        "VALUE metrics:" + i + " 0 2\r\nv" + (i % 10) + "\r\nEND\r\n",
                        c.exchange("get metrics:" + i + "\r\n"));
            }
            for (int i = 0; i < MISSES; i++) {
                assertEquals("END\r\n", c.exchange("get metrics:missing:" + i + "\r\n"));
            }
            assertEquals("STORED\r\n", c.exchange("set calm:a 0 0 3\r\nabc\r\n"));
            assertTrue(c.exchange("incr calm:a 1\r\n").startsWith("CLIENT_ERROR "), "memcached refuses a non-number");

            PrometheusPage after = PrometheusPage.scrape(proxy.server.prometheusAddress(), null);
            assertTrue(after.contentType.startsWith("text/plain; version=0.0.4"), after.contentType);
            Map<String, String> stats = proxy.stats();

            assertEquals(
                    SETS + 1, delta(before, after, "locus_memcached_requests_total{command=\"set\",outcome=\"ok\"}"));
            assertEquals(
                    HITS + MISSES,
                    delta(before, after, "locus_memcached_requests_total{command=\"get\",outcome=\"ok\"}"));
            assertEquals(1, delta(before, after, "locus_memcached_requests_total{command=\"incr\",outcome=\"error\"}"));
            assertEquals(0, after.value("locus_memcached_requests_total{command=\"get\",outcome=\"error\"}"));
            assertEquals(HITS, delta(before, after, "locus_memcached_get_hits_total"));
            assertEquals(MISSES, delta(before, after, "locus_memcached_get_misses_total"));
            assertEquals(HITS + MISSES, delta(before, after, "locus_memcached_cmd_get_total"));
            assertEquals(SETS + 1, delta(before, after, "locus_memcached_cmd_set_total"));
            assertEquals(Long.parseLong(stats.get("get_hits")), (long) after.value("locus_memcached_get_hits_total"));

            // The request histogram: one observation per request, by command and tenant.
            String get = "locus_memcached_request_duration_seconds_%s{command=\"get\",tenant=\"default\"%s}";
            assertEquals(HITS + MISSES, delta(before, after, String.format(get, "count", "")));
            assertHistogram(after, get);
            String set = "locus_memcached_request_duration_seconds_%s{command=\"set\",tenant=\"default\"%s}";
            assertEquals(SETS, delta(before, after, String.format(set, "count", "")));
            assertEquals(
                    1, after.value("locus_memcached_request_duration_seconds_count{command=\"set\",tenant=\"calm\"}"));
            assertEquals(
                    1, after.value("locus_memcached_request_duration_seconds_count{command=\"incr\",tenant=\"calm\"}"));

            // The backend histogram counts every reply of this backend, as locus_backend_requests counts every send.
            String backendSeries = "locus_memcached_backend_request_duration_seconds_%s{" + backendLabel + "%s}";
            double backendCalls = after.value(String.format(backendSeries, "count", ""));
            assertEquals(after.value("locus_memcached_backend_requests_total"), backendCalls);
            if (passThrough) {
                assertEquals(SETS + HITS + MISSES + 2, delta(before, after, String.format(backendSeries, "count", "")));
            } else {
                assertTrue(backendCalls > 0, "the full proxy's sets and misses reached the backend");
            }
            assertHistogram(after, backendSeries);

            // Levels are gauges; this client is the only connection.
            assertEquals("gauge", after.type("locus_memcached_connections"));
            assertEquals(1, after.value("locus_memcached_connections"));
            assertEquals("counter", after.type("locus_memcached_connections_opened"));
            assertEquals(1, delta(before, after, "locus_memcached_connections_opened_total"));
        }
        // Both clients closed (this one and the one proxy.stats() used): the proxy notices on its I/O thread.
        PrometheusPage closed = waitFor(proxy, "locus_memcached_connections_closed_total", 2);
        assertEquals(2, closed.value("locus_memcached_connections_opened_total"));
        assertEquals(0, closed.value("locus_memcached_connections"));

        PrometheusPage last = PrometheusPage.scrape(proxy.server.prometheusAddress(), null);
        assertTrue(last.has("jvm_memory_used_bytes{"), "JVM memory");
        assertTrue(last.has("jvm_threads_current"), "JVM threads");
        assertTrue(last.has("jvm_gc_collection_seconds_count{"), "JVM GC");
        assertFalse(last.body.contains("_p50_us") || last.body.contains("_p99_us"), "no per-process quantiles");
        for (Map.Entry<String, String> t : last.types.entrySet()) {
            if (t.getValue().equals("counter")) {
                assertTrue(t.getKey().endsWith("_total"), "counter " + t.getKey() + " is written with _total");
            }
        }
    }

    @Test
    void openMetrics_whenTheScraperAsksForIt() throws Exception {
        MemcachedServer backend = servers.get(1);
        try (ProxyUnderTest proxy =
                        ProxyUnderTest.withDeadlines(List.of(backend.address()), yaml(Ports.freeLoopbackPort()));
                RawClient c = new RawClient(proxy.address)) {
            for (int i = 0; i < 5; i++) {
                c.exchange("get om:" + i + "\r\n");
            }
            PrometheusPage page = PrometheusPage.scrape(proxy.server.prometheusAddress(), PrometheusPage.OPENMETRICS);
            assertTrue(page.contentType.startsWith("application/openmetrics-text"), page.contentType);
            assertTrue(page.body.endsWith("# EOF\n"), "an OpenMetrics page ends with # EOF");
            assertEquals(5, page.value("locus_memcached_requests_total{command=\"get\",outcome=\"ok\"}"));
            assertEquals(
                    5,
                    page.value("locus_memcached_request_duration_seconds_count{command=\"get\",tenant=\"default\"}"));
            assertEquals(
                    5,
                    page.value(
                            "locus_memcached_request_duration_seconds_bucket{command=\"get\",tenant=\"default\",le=\"+Inf\"}"));
            assertEquals(5, page.value("locus_memcached_cmd_get_total"));
            assertTrue(page.has("jvm_memory_used_bytes{"), "JVM metrics in OpenMetrics too");
        }
    }

    /** A classic histogram's series (format: suffix, extra labels) are cumulative and end at +Inf with its count. */
    private static void assertHistogram(PrometheusPage page, String format) {
        double count = page.value(String.format(format, "count", ""));
        assertTrue(count > 0, String.format(format, "count", "") + " is observed");
        assertEquals(count, page.value(String.format(format, "bucket", ",le=\"+Inf\"")), "+Inf bucket is the count");
        double previous = 0;
        for (String le : new String[] {"5.0E-5", "1.0E-4", "0.001", "0.01", "0.1", "1.0", "5.0", "+Inf"}) {
            String bucket = String.format(format, "bucket", ",le=\"" + le + "\"");
            assertTrue(page.series.containsKey(bucket), bucket + " in " + page.body);
            double v = page.value(bucket);
            assertTrue(v >= previous, bucket + " is cumulative");
            previous = v;
        }
        assertTrue(page.value(String.format(format, "sum", "")) > 0, "latencies add up to more than nothing");
    }

    private static double delta(PrometheusPage before, PrometheusPage after, String series) {
        assertTrue(after.series.containsKey(series), series + " on the page:\n" + after.body);
        return after.value(series) - before.value(series);
    }

    private static PrometheusPage waitFor(ProxyUnderTest proxy, String series, double value) throws Exception {
        long end = System.nanoTime() + 10_000_000_000L;
        while (true) {
            PrometheusPage page = PrometheusPage.scrape(proxy.server.prometheusAddress(), null);
            if (page.value(series) == value || System.nanoTime() > end) {
                assertEquals(value, page.value(series), series);
                return page;
            }
            Thread.sleep(20);
        }
    }
}

package io.locus.memcached.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import org.junit.jupiter.api.Test;

class ProxyMetricsTest {
    private static MetricSnapshot metric(ProxyMetrics m, String name) {
        return m.registry().scrape().stream()
                .filter(s -> s.getMetadata().getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no metric " + name));
    }

    private static HistogramDataPointSnapshot histogram(ProxyMetrics m, String name, Labels labels) {
        return ((HistogramSnapshot) metric(m, name))
                .getDataPoints().stream()
                        .filter(p -> p.getLabels().equals(labels))
                        .findFirst()
                        .orElseThrow(() -> new AssertionError("no " + labels + " in " + name));
    }

    @Test
    void answeredRequests_countByCommandAndOutcome_andTimeByCommandAndTenant() {
        ProxyMetrics m = new ProxyMetrics();
        ProxyMetrics.TenantRequests t = m.tenant("calm");
        t.answered(0, "get", 80_000, false); // 80 µs
        t.answered(0, "get", 3_000_000, false); // 3 ms
        t.answered(0, "get", 2_000_000, true);
        m.tenant("default").answered(4, "set", 1_000, false);

        CounterSnapshot requests = (CounterSnapshot) metric(m, "locus_memcached_requests");
        assertEquals(
                2,
                requests.getDataPoints().stream()
                        .filter(p -> p.getLabels().equals(Labels.of("command", "get", "outcome", "ok")))
                        .findFirst()
                        .orElseThrow()
                        .getValue());
        HistogramDataPointSnapshot get =
                histogram(m, "locus_memcached_request_duration_seconds", Labels.of("command", "get", "tenant", "calm"));
        assertEquals(3, get.getCount());
        assertEquals(0.00508, get.getSum(), 1e-9);
        // Cumulative counts at 100 µs, 2.5 ms and 5 ms.
        assertEquals(1, count(get, 0.0001));
        assertEquals(2, count(get, 0.0025));
        assertEquals(3, count(get, 0.005));
        assertEquals(3, count(get, Double.POSITIVE_INFINITY));
        assertEquals(
                1,
                histogram(
                                m,
                                "locus_memcached_request_duration_seconds",
                                Labels.of("command", "set", "tenant", "default"))
                        .getCount());
    }

    private static long count(HistogramDataPointSnapshot p, double upperBound) {
        long sum = 0;
        for (var b : p.getClassicBuckets()) {
            sum += b.getCount();
            if (b.getUpperBound() == upperBound) {
                return sum;
            }
        }
        throw new AssertionError("no bucket " + upperBound);
    }

    @Test
    void tenantsPastTheLimit_shareOther() {
        ProxyMetrics m = new ProxyMetrics();
        for (int i = 0; i < ProxyMetrics.MAX_TENANTS; i++) {
            assertEquals("t" + i, m.tenant("t" + i).tenant());
        }
        assertEquals(ProxyMetrics.OTHER, m.tenant("one-more").tenant());
        assertSame(m.tenant("t3"), m.tenant("t3"), "a known tenant keeps its own series");
    }

    @Test
    void backendLatency_byBackend_andEachProxyItsOwnRegistry() {
        ProxyMetrics a = new ProxyMetrics();
        ProxyMetrics b = new ProxyMetrics();
        a.backend("127.0.0.1:11211").observe(0.0002);
        a.backend("127.0.0.1:11211").observe(0.0004);
        b.backend("127.0.0.1:11211").observe(0.0002);
        Labels backend = Labels.of("backend", "127.0.0.1:11211");
        assertEquals(
                2,
                histogram(a, "locus_memcached_backend_request_duration_seconds", backend)
                        .getCount());
        assertEquals(
                1,
                histogram(b, "locus_memcached_backend_request_duration_seconds", backend)
                        .getCount());
    }
}

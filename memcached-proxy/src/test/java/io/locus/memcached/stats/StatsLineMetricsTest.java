package io.locus.memcached.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.stats.StatsLineMetrics.Kind;
import io.locus.memcached.stats.StatsLineMetrics.Sample;
import io.locus.memcached.testing.PrometheusPage;
import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StatsLineMetricsTest {
    @Test
    void memcachedCounters_becomeTotals_andLevelsGauges() {
        assertEquals(
                new Sample(Kind.COUNTER, "locus_memcached_get_hits", null, null, 7),
                StatsLineMetrics.sample("get_hits", "7"));
        assertEquals(
                new Sample(Kind.COUNTER, "locus_memcached_backend_timeouts", null, null, 2),
                StatsLineMetrics.sample("locus_backend_timeouts", "2"));
        assertEquals(
                new Sample(Kind.GAUGE, "locus_memcached_connections", null, null, 3),
                StatsLineMetrics.sample("curr_connections", "3"));
        assertEquals(
                new Sample(Kind.COUNTER, "locus_memcached_connections_opened", null, null, 9),
                StatsLineMetrics.sample("total_connections", "9"));
        assertEquals(
                new Sample(Kind.GAUGE, "locus_memcached_local_bytes", null, null, 1024),
                StatsLineMetrics.sample("locus_local_bytes", "1024"));
    }

    @Test
    void theItemALineIsAbout_becomesALabel() {
        assertEquals(
                new Sample(Kind.COUNTER, "locus_memcached_tenant_hits", "tenant", "calm", 100),
                StatsLineMetrics.sample("locus_tenant:calm:hits", "100"));
        assertEquals(
                new Sample(Kind.GAUGE, "locus_memcached_tenant_queue_depth", "tenant", "calm", 4),
                StatsLineMetrics.sample("locus_tenant:calm:queue_depth", "4"));
        assertEquals(
                new Sample(Kind.COUNTER, "locus_memcached_local_evictions", "tenant", "greedy", 5),
                StatsLineMetrics.sample("locus_local:greedy:evictions", "5"));
        assertEquals(
                new Sample(Kind.GAUGE, "locus_memcached_level_kappa_level", "level", "hard", 1.25),
                StatsLineMetrics.sample("locus_level:hard:kappa_level", "1.250"));
        assertEquals(
                new Sample(Kind.GAUGE, "locus_memcached_lb_backend_utilization", "backend", "1", 0.5),
                StatsLineMetrics.sample("lb:backend:1:utilization", "0.500"));
        assertEquals(
                new Sample(Kind.COUNTER, "locus_memcached_lb_replicated_keys", null, null, 0).kind(),
                Kind.COUNTER,
                "sanity of the record");
        assertEquals(
                Kind.GAUGE, StatsLineMetrics.sample("lb:replicated_keys", "2").kind());
        assertEquals(
                Kind.COUNTER, StatsLineMetrics.sample("lb:p1_triggers", "1").kind());
        assertEquals(
                new Sample(Kind.COUNTER, "locus_memcached_lb_avail_down_events", null, null, 1),
                StatsLineMetrics.sample("lb:avail:down_events", "1"));
        assertEquals(
                new Sample(Kind.GAUGE, "locus_memcached_lb_avail_backend_up", "backend", "0", 1),
                StatsLineMetrics.sample("lb:avail:backend:0:state", "up"));
        assertEquals(
                0,
                StatsLineMetrics.sample("lb:avail:backend:2:state", "warming").value());
    }

    @Test
    void processLines_quantiles_percentages_andWords_areLeftOut() {
        for (String key :
                new String[] {"pid", "uptime", "time", "version", "pointer_size", "threads", "locus_requests"}) {
            assertNull(StatsLineMetrics.sample(key, "1"), key);
        }
        assertNull(StatsLineMetrics.sample("locus_tenant:calm:latency_p50_us", "120"));
        assertNull(StatsLineMetrics.sample("locus_tenant:calm:latency_p99_us", "900"));
        assertNull(StatsLineMetrics.sample("deadlines_met_percent", "99.5"));
        assertNull(StatsLineMetrics.sample("lb:phases", "KEY_REPLICATION"));
    }

    @Test
    void aTable_isValidPrometheusText_withOneFamilyPerName() throws Exception {
        Map<String, String> lines = new LinkedHashMap<>();
        lines.put("pid", "12");
        lines.put("curr_connections", "2");
        lines.put("get_hits", "5");
        lines.put("locus_tenant:a:hits", "1");
        lines.put("locus_tenant:a:latency_p99_us", "100");
        lines.put("locus_tenant:b:hits", "4");
        lines.put("locus_tenant:b:queue_depth", "0");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create()
                .write(out, StatsLineMetrics.snapshots(lines), EscapingScheme.UNDERSCORE_ESCAPING);
        PrometheusPage page = PrometheusPage.parse(out.toString(StandardCharsets.UTF_8));
        assertEquals("counter", page.type("locus_memcached_tenant_hits"));
        assertEquals("gauge", page.type("locus_memcached_connections"));
        assertEquals(1, page.value("locus_memcached_tenant_hits_total{tenant=\"a\"}"));
        assertEquals(4, page.value("locus_memcached_tenant_hits_total{tenant=\"b\"}"));
        assertEquals(5, page.value("locus_memcached_get_hits_total"));
        assertEquals(2, page.value("locus_memcached_connections"));
        assertTrue(page.series.containsKey("locus_memcached_tenant_queue_depth{tenant=\"b\"}"), page.body);
        assertEquals(5, page.series.size(), page.body);
    }
}

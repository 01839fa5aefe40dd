package io.locus.memcached.stats;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The {@code stats} lines on the Prometheus page, read at scrape time from the same {@link StatsTable} that
 * {@code stats} shows, so the two never disagree and the request path pays nothing for them.
 *
 * <p>A line that only grows becomes a counter ({@code _total}); a level (open connections, bytes held, queue depth,
 * the balancer's current load figures) a gauge. Lines a scraper has better sources for or cannot aggregate are left
 * out: the process lines ({@code pid}, {@code uptime}, ...; the JVM metrics carry them), per-process quantiles and
 * percentages ({@code *_p50_us}, {@code *_p99_us}, {@code *_percent}; the histograms replace them), and
 * {@code locus_requests} (the labelled {@code locus_memcached_requests_total} replaces it). See {@link #sample} for
 * the naming.
 */
public final class StatsLineMetrics implements MultiCollector {
    /** Whether a series only grows or is a level. */
    enum Kind {
        COUNTER,
        GAUGE
    }

    /**
     * One series: the metric's name without {@code _total}, at most one label.
     *
     * @param labelName null for a series without labels
     */
    record Sample(Kind kind, String name, String labelName, String labelValue, double value) {}

    private static final String PREFIX = "locus_memcached_";

    private static final Set<String> LEFT_OUT =
            Set.of("pid", "uptime", "time", "version", "pointer_size", "threads", "locus_requests");

    /** Metric names (as {@link #sample} forms them) that are levels; every other numeric line only grows. */
    private static final Set<String> LEVELS = Set.of(
            PREFIX + "connections",
            PREFIX + "local_items",
            PREFIX + "local_bytes",
            PREFIX + "local_capacity_bytes",
            PREFIX + "local_quota_bytes",
            PREFIX + "tenant_queue_depth",
            PREFIX + "level_kappa_level",
            PREFIX + "lb_epoch",
            PREFIX + "lb_replicated_keys",
            PREFIX + "lb_sample_rate",
            PREFIX + "lb_max_over_mean",
            PREFIX + "lb_hot_keys",
            PREFIX + "lb_buckets_moved",
            PREFIX + "lb_migrations_running",
            PREFIX + "lb_backend_bytes",
            PREFIX + "lb_backend_limit_maxbytes",
            PREFIX + "lb_backend_ops",
            PREFIX + "lb_backend_write_ops",
            PREFIX + "lb_backend_utilization",
            PREFIX + "lb_backend_latency_us",
            PREFIX + "lb_avail_backend_up");

    /** {@code stats} names whose Prometheus name says more than memcached's. */
    private static final Map<String, String> RENAMED =
            Map.of("curr_connections", "connections", "total_connections", "connections_opened");

    private final Supplier<Map<String, String>> lines;

    /** @param lines every {@code stats} line, read on each scrape */
    public StatsLineMetrics(Supplier<Map<String, String>> lines) {
        this.lines = lines;
    }

    @Override
    public MetricSnapshots collect() {
        return snapshots(lines.get());
    }

    /** The counters and gauges of {@code lines}, one metric per name, in the order names first appear. */
    static MetricSnapshots snapshots(Map<String, String> lines) {
        Map<String, List<Sample>> byName = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : lines.entrySet()) {
            Sample s = sample(e.getKey(), e.getValue());
            if (s != null) {
                byName.computeIfAbsent(s.name(), n -> new ArrayList<>()).add(s);
            }
        }
        List<MetricSnapshot> out = new ArrayList<>();
        for (List<Sample> samples : byName.values()) {
            if (samples.get(0).kind() == Kind.COUNTER) {
                CounterSnapshot.Builder b =
                        CounterSnapshot.builder().name(samples.get(0).name());
                for (Sample s : samples) {
                    b.dataPoint(CounterDataPointSnapshot.builder()
                            .labels(labels(s))
                            .value(s.value())
                            .build());
                }
                out.add(b.build());
            } else {
                GaugeSnapshot.Builder b =
                        GaugeSnapshot.builder().name(samples.get(0).name());
                for (Sample s : samples) {
                    b.dataPoint(GaugeDataPointSnapshot.builder()
                            .labels(labels(s))
                            .value(s.value())
                            .build());
                }
                out.add(b.build());
            }
        }
        return new MetricSnapshots(out);
    }

    private static Labels labels(Sample s) {
        return s.labelName() == null ? Labels.EMPTY : Labels.of(s.labelName(), s.labelValue());
    }

    /**
     * The series of one {@code stats} line, or null when it is left out or not a number. Names are
     * {@code locus_memcached_} and the line's name without {@code locus_}, colons as underscores, except for the item
     * a line is about, which becomes a label: {@code locus_tenant:<t>:<field>} and {@code locus_local:<t>:<field>} a
     * {@code tenant}, {@code locus_level:<l>:<field>} a {@code level}, {@code lb:...:backend:<b>:<field>} a
     * {@code backend} (its index in {@code servers}). {@code lb:avail:backend:<b>:state} becomes the gauge
     * {@code locus_memcached_lb_avail_backend_up}, 1 when {@code up}.
     */
    static Sample sample(String key, String value) {
        if (LEFT_OUT.contains(key) || key.endsWith("_p50_us") || key.endsWith("_p99_us") || key.endsWith("_percent")) {
            return null;
        }
        String[] parts = key.split(":");
        String labelName = null;
        String labelValue = null;
        StringBuilder name = new StringBuilder(PREFIX);
        if (parts.length == 3
                && (parts[0].equals("locus_tenant")
                        || parts[0].equals("locus_local")
                        || parts[0].equals("locus_level"))) {
            labelName = parts[0].equals("locus_level") ? "level" : "tenant";
            labelValue = parts[1];
            name.append(parts[0].substring("locus_".length())).append('_').append(parts[2]);
        } else {
            for (int i = 0; i < parts.length; i++) {
                if (parts[i].equals("backend") && i + 2 < parts.length) {
                    labelName = "backend";
                    labelValue = parts[i + 1];
                    name.append(name.length() == PREFIX.length() ? "" : "_").append("backend");
                    i++;
                    continue;
                }
                String part = i == 0 && parts[0].startsWith("locus_")
                        ? parts[0].substring("locus_".length())
                        : RENAMED.getOrDefault(parts[i], parts[i]);
                name.append(name.length() == PREFIX.length() ? "" : "_").append(part);
            }
        }
        Double number = number(value);
        if (name.toString().equals(PREFIX + "lb_avail_backend_state")) {
            return new Sample(
                    Kind.GAUGE, PREFIX + "lb_avail_backend_up", labelName, labelValue, value.equals("up") ? 1 : 0);
        }
        if (number == null) {
            return null;
        }
        String metric = name.toString();
        return new Sample(LEVELS.contains(metric) ? Kind.GAUGE : Kind.COUNTER, metric, labelName, labelValue, number);
    }

    private static Double number(String v) {
        if (!v.matches("-?[0-9]+(\\.[0-9]+)?")) {
            return null;
        }
        return Double.parseDouble(v);
    }
}

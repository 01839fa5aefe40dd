package io.locus.memcached.stats;

import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Prometheus text exposition of {@code stats} lines, written by the Prometheus Java client.
 *
 * <p>Every numeric line {@code <name>} becomes the gauge {@code locus_memcached_<name>} (a leading {@code locus_}
 * dropped); per-tenant lines {@code locus_<kind>:<tenant>:<field>} become {@code locus_memcached_<kind>_<field>} with
 * a {@code tenant} label ({@code level} for {@code locus_level:<level>:<field>}). Other lines with a colon (the balancer's per-backend lines) and non-numeric ones
 * ({@code version}) are left out.
 */
public final class PrometheusText {
    private static final String PREFIX = "locus_memcached_";
    private static final PrometheusTextFormatWriter WRITER = PrometheusTextFormatWriter.create();

    private PrometheusText() {}

    /** The content type of {@link #render}'s bytes. */
    public static String contentType() {
        return WRITER.getContentType();
    }

    /** The exposition of {@code lines}, UTF-8. */
    public static byte[] render(Map<String, String> lines) {
        Map<String, List<GaugeDataPointSnapshot>> points = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : lines.entrySet()) {
            Double value = number(e.getValue());
            if (value == null) {
                continue;
            }
            String[] parts = e.getKey().split(":");
            String metric;
            Labels labels = Labels.EMPTY;
            if (parts.length == 3 && parts[0].startsWith("locus_")) {
                metric = PREFIX + parts[0].substring("locus_".length()) + "_" + parts[2];
                labels = Labels.of(parts[0].equals("locus_level") ? "level" : "tenant", parts[1]);
            } else if (parts.length == 1) {
                metric = PREFIX + (parts[0].startsWith("locus_") ? parts[0].substring("locus_".length()) : parts[0]);
            } else {
                continue;
            }
            points.computeIfAbsent(metric, m -> new ArrayList<>())
                    .add(GaugeDataPointSnapshot.builder()
                            .labels(labels)
                            .value(value)
                            .build());
        }
        List<GaugeSnapshot> gauges = new ArrayList<>();
        points.forEach((metric, list) -> {
            GaugeSnapshot.Builder b = GaugeSnapshot.builder().name(metric);
            list.forEach(b::dataPoint);
            gauges.add(b.build());
        });
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            WRITER.write(out, new MetricSnapshots(new ArrayList<>(gauges)), EscapingScheme.UNDERSCORE_ESCAPING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static Double number(String v) {
        if (!v.matches("-?[0-9]+(\\.[0-9]+)?")) {
            return null;
        }
        return Double.parseDouble(v);
    }
}

package io.locus.memcached.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;

/** PNG bar charts of a run (XChart, headless): throughput, p99 latency and deadlines met per row. */
final class Charts {
    private Charts() {}

    /**
     * Writes {@code proxy-bench.png} into {@code dir}.
     *
     * @throws IOException if the file cannot be written
     */
    static Path write(List<RowResult> rows, List<TenantProfile> tenants, Path dir, String title) throws IOException {
        System.setProperty("java.awt.headless", "true");
        List<String> labels = new ArrayList<>();
        List<Double> ops = new ArrayList<>();
        List<Double> p99 = new ArrayList<>();
        for (RowResult row : rows) {
            if (row.ran()) {
                labels.add(row.label());
                ops.add(row.result().throughput());
                p99.add(row.result().total().latencyMillis(99));
            }
        }
        CategoryChart throughput = new CategoryChartBuilder()
                .width(900)
                .height(420)
                .title(title)
                .xAxisTitle("configuration")
                .yAxisTitle("ops/s")
                .build();
        throughput.addSeries("throughput", labels, ops);
        CategoryChart latency = new CategoryChartBuilder()
                .width(900)
                .height(420)
                .title("p99 latency")
                .xAxisTitle("configuration")
                .yAxisTitle("ms")
                .build();
        latency.addSeries("p99", labels, p99);
        CategoryChart met = new CategoryChartBuilder()
                .width(900)
                .height(420)
                .title("deadlines met per tenant")
                .xAxisTitle("configuration")
                .yAxisTitle("% of gets with a deadline")
                .build();
        for (int t = 0; t < Math.min(6, tenants.size()); t++) {
            List<Double> values = new ArrayList<>();
            for (RowResult row : rows) {
                if (row.ran()) {
                    double m = row.result().perTenant().get(t).metRatio();
                    values.add(Double.isNaN(m) ? 0 : 100 * m);
                }
            }
            met.addSeries(tenants.get(t).name(), labels, values);
        }
        Path file = dir.resolve("proxy-bench.png");
        BitmapEncoder.saveBitmap(
                List.of(throughput, latency, met), 3, 1, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        return file;
    }
}

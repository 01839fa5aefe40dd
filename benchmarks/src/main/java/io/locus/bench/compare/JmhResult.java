package io.locus.bench.compare;

import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The primary metric of one benchmark run with one set of parameters, as JMH writes it with {@code -rf json}.
 *
 * @param benchmark the benchmark method's full name, e.g. {@code io.locus.bench.cassandra.TokenBenchmark.getToken}
 * @param mode JMH's mode abbreviation: {@code thrpt}, {@code avgt}, {@code sample} or {@code ss}
 * @param params the {@code @Param} values, sorted by name (empty without parameters)
 * @param score the score, in {@code unit}
 * @param error half-width of JMH's 99.9% confidence interval of the score ({@code scoreError}); NaN when JMH had too
 *     few measurements to estimate one
 * @param unit the score's unit, e.g. {@code ns/op} or {@code ops/s}
 */
public record JmhResult(
        String benchmark, String mode, SortedMap<String, String> params, double score, double error, String unit) {

    public JmhResult {
        params = new TreeMap<>(params);
    }

    /** What identifies the same measurement in two runs: benchmark, mode and parameters. */
    public String key() {
        return benchmark + " [" + mode + "]" + (params.isEmpty() ? "" : " " + paramText());
    }

    /** The parameters as {@code name=value} pairs separated by spaces, sorted by name. */
    public String paramText() {
        return params.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(" "));
    }

    /** {@code Class.method} of {@link #benchmark}. */
    public String shortName() {
        int method = benchmark.lastIndexOf('.');
        int type = method <= 0 ? -1 : benchmark.lastIndexOf('.', method - 1);
        return benchmark.substring(type + 1);
    }

    /** Seconds per unit of time in JMH's unit names. */
    private static final Map<String, Double> SECONDS = Map.of(
            "ns", 1e-9, "us", 1e-6, "\u00b5s", 1e-6, "ms", 1e-3, "s", 1.0, "min", 60.0, "hr", 3600.0, "day", 86400.0);

    /**
     * The score as seconds per operation, so that runs in different units or modes compare; NaN if the unit is none
     * of JMH's time units ({@code <time>/op} or {@code ops/<time>}).
     */
    public double secondsPerOp() {
        String[] parts = unit.split("/", -1);
        if (parts.length != 2) {
            return Double.NaN;
        }
        if (parts[1].equals("op") && SECONDS.containsKey(parts[0])) {
            return score * SECONDS.get(parts[0]);
        }
        if (parts[0].equals("ops") && SECONDS.containsKey(parts[1])) {
            return SECONDS.get(parts[1]) / score;
        }
        return Double.NaN;
    }

    /** Whether a higher score is better: throughput (and any {@code ops/<time>} unit). */
    public boolean higherIsBetter() {
        return mode.equals("thrpt") || unit.startsWith("ops/");
    }
}

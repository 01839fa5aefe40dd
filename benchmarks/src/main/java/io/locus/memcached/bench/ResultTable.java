package io.locus.memcached.bench;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Formats the rows as one fixed-width text table and as CSV. ops/s counts every reply (a fast refusal too);
 * values/s counts only gets that returned the value, which is what a client got done. Ratios are this row's
 * throughput (ops/s) and p99 divided by the direct-memcached and twemproxy rows'; met is the fraction of gets with a
 * deadline whose value came back within it.
 */
public final class ResultTable {
    private ResultTable() {}

    /** The text table, one line per row, headed by the column names. */
    public static String text(List<RowResult> rows, List<TenantProfile> tenants) {
        List<TenantProfile> shown = tenants.subList(0, Math.min(4, tenants.size()));
        StringBuilder header = new StringBuilder(String.format(
                Locale.ROOT,
                "%-14s %9s %9s %8s %8s %6s %6s %6s %6s",
                "row",
                "ops/s",
                "values/s",
                "p50 ms",
                "p99 ms",
                "hit",
                "local",
                "rej",
                "met"));
        for (TenantProfile t : shown) {
            header.append(String.format(Locale.ROOT, " %11s", "met " + abbreviate(t.name())));
        }
        header.append(String.format(Locale.ROOT, " %9s %9s %9s %9s", "ops/dir", "ops/twem", "p99/dir", "p99/twem"));
        StringBuilder out = new StringBuilder(header).append('\n');
        out.append("-".repeat(header.length())).append('\n');
        Optional<RowResult> direct = find(rows, "direct");
        Optional<RowResult> twem = find(rows, "twemproxy");
        for (RowResult row : rows) {
            if (!row.ran()) {
                out.append(String.format(Locale.ROOT, "%-14s not available: %s%n", row.label(), row.unavailable()));
                continue;
            }
            OpStats all = row.result().total();
            out.append(String.format(
                    Locale.ROOT,
                    "%-14s %9.0f %9.0f %8.3f %8.3f %6s %6s %6s %6s",
                    row.label(),
                    row.result().throughput(),
                    all.hits / row.result().measuredSeconds(),
                    all.latencyMillis(50),
                    all.latencyMillis(99),
                    pct(all.hitRatio()),
                    pct(row.localHitRatio()),
                    pct(all.rejectRatio()),
                    pct(all.metRatio())));
            for (int t = 0; t < shown.size(); t++) {
                out.append(String.format(
                        Locale.ROOT,
                        " %11s",
                        pct(row.result().perTenant().get(t).metRatio())));
            }
            out.append(String.format(
                    Locale.ROOT,
                    " %9s %9s %9s %9s",
                    ratio(row, direct, false),
                    ratio(row, twem, false),
                    ratio(row, direct, true),
                    ratio(row, twem, true)));
            out.append('\n');
        }
        return out.toString();
    }

    /** CSV: one line per row and tenant (tenant {@code ALL} first), with per-range met fractions. */
    public static String csv(List<RowResult> rows, List<TenantProfile> tenants) {
        StringBuilder out = new StringBuilder("row,tenant,ops,ops_per_s,values_per_s,p50_ms,p99_ms,p999_ms,gets,"
                + "hit_ratio,local_hit_ratio,rejected_ratio,errors,met_ratio,met_r1,met_r2,met_r3,ops_vs_direct,ops_vs_twemproxy,"
                + "p99_vs_direct,p99_vs_twemproxy,unavailable\n");
        Optional<RowResult> direct = find(rows, "direct");
        Optional<RowResult> twem = find(rows, "twemproxy");
        for (RowResult row : rows) {
            if (!row.ran()) {
                out.append(row.label())
                        .append(",ALL")
                        .append(",".repeat(20))
                        .append('"')
                        .append(row.unavailable().replace('"', '\''))
                        .append("\"\n");
                continue;
            }
            for (int t = -1; t < tenants.size(); t++) {
                OpStats s =
                        t < 0 ? row.result().total() : row.result().perTenant().get(t);
                out.append(String.join(
                                ",",
                                row.label(),
                                t < 0 ? "ALL" : tenants.get(t).name(),
                                Long.toString(s.ops()),
                                num(s.ops() / row.result().measuredSeconds()),
                                num(s.hits / row.result().measuredSeconds()),
                                num(s.latencyMillis(50)),
                                num(s.latencyMillis(99)),
                                num(s.latencyMillis(99.9)),
                                Long.toString(s.gets),
                                num(s.hitRatio()),
                                num(t < 0 ? row.localHitRatio() : Double.NaN),
                                num(s.rejectRatio()),
                                Long.toString(s.errors),
                                num(s.metRatio()),
                                num(s.metRatio(DeadlineRange.R1)),
                                num(s.metRatio(DeadlineRange.R2)),
                                num(s.metRatio(DeadlineRange.R3)),
                                t < 0 ? ratio(row, direct, false) : "",
                                t < 0 ? ratio(row, twem, false) : "",
                                t < 0 ? ratio(row, direct, true) : "",
                                t < 0 ? ratio(row, twem, true) : "",
                                ""))
                        .append('\n');
            }
        }
        return out.toString();
    }

    private static Optional<RowResult> find(List<RowResult> rows, String label) {
        return rows.stream().filter(r -> r.label().equals(label) && r.ran()).findFirst();
    }

    private static String ratio(RowResult row, Optional<RowResult> base, boolean p99) {
        if (base.isEmpty()) {
            return "-";
        }
        double mine =
                p99 ? row.result().total().latencyMillis(99) : row.result().throughput();
        double theirs = p99
                ? base.get().result().total().latencyMillis(99)
                : base.get().result().throughput();
        return theirs > 0 && !Double.isNaN(mine) ? String.format(Locale.ROOT, "%.2fx", mine / theirs) : "-";
    }

    private static String pct(double fraction) {
        return Double.isNaN(fraction) ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * fraction);
    }

    private static String num(double value) {
        return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%.4f", value);
    }

    private static String abbreviate(String tenant) {
        return tenant.length() <= 7 ? tenant : tenant.substring(0, 7);
    }
}

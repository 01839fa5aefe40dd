package io.locus.memcached.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The deadline lines of a run for the tenant with the tightest deadlines (the largest share of R1 keys): per row, its
 * gets with a deadline, how many were refused up front, how many were answered late or not at all, the fraction of
 * admitted ones met, and the reduction of missed deadlines against direct memcached. A refusal counts as a miss in
 * "missed" (the client did not get its value in time) and is left out of "admitted met" (MicroFuge's guarantee is
 * about the requests it admits).
 */
final class DeadlineReport {
    private DeadlineReport() {}

    /** The tenant index with the largest R1 share (the first on ties). */
    static int tightestTenant(List<TenantProfile> tenants) {
        int best = 0;
        for (int i = 1; i < tenants.size(); i++) {
            if (tenants.get(i).r1() > tenants.get(best).r1()) {
                best = i;
            }
        }
        return best;
    }

    /** The report, one line per row that ran, each starting with {@code #}. */
    static List<String> lines(List<RowResult> rows, List<TenantProfile> tenants) {
        int t = tightestTenant(tenants);
        List<String> out = new ArrayList<>();
        out.add(String.format(
                Locale.ROOT,
                "# deadlines of the tightest tenant %s (R1 share %.2f): missed = late, " + "refused or not a hit",
                tenants.get(t).name(),
                tenants.get(t).r1()));
        out.add(String.format(
                Locale.ROOT,
                "#   %-15s %9s %9s %9s %8s %9s %13s %16s",
                "row",
                "deadline",
                "refused",
                "late",
                "missed",
                "missed%",
                "admitted met",
                "missed vs direct"));
        OpStats direct = rows.stream()
                .filter(r -> r.ran() && r.label().equals("direct"))
                .findFirst()
                .map(r -> r.result().perTenant().get(t))
                .orElse(null);
        for (RowResult r : rows) {
            if (!r.ran()) {
                continue;
            }
            OpStats s = r.result().perTenant().get(t);
            long all = s.deadlineGets();
            long refused = s.deadlineRejected();
            long missed = all - s.deadlinesMet();
            long late = missed - refused;
            long admitted = all - refused;
            String vsDirect = direct == null || direct.deadlineGets() == 0
                    ? "-"
                    : String.format(Locale.ROOT, "%+.1f%%", 100.0 * (missedFraction(s) / missedFraction(direct) - 1));
            out.add(String.format(
                    Locale.ROOT,
                    "#   %-15s %9d %9d %9d %8d %8.1f%% %12.1f%% %16s",
                    r.label(),
                    all,
                    refused,
                    late,
                    missed,
                    100 * missedFraction(s),
                    admitted == 0 ? Double.NaN : 100.0 * s.deadlinesMet() / admitted,
                    vsDirect));
        }
        return out;
    }

    private static double missedFraction(OpStats s) {
        return s.deadlineGets() == 0 ? Double.NaN : 1 - (double) s.deadlinesMet() / s.deadlineGets();
    }
}

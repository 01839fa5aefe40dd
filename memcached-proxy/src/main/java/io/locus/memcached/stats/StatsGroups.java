package io.locus.memcached.stats;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code stats tenants} and {@code stats deadline} groups, derived from the {@link StatsTable#DEADLINE} lines of
 * the table, so the three views can never disagree. Names follow memcached's
 * {@code stats <group>} convention: no {@code locus_} prefix, per-item lines as {@code <item>:<field>}.
 */
public final class StatsGroups {
    private static final String TENANT = "locus_tenant:";
    private static final String LOCAL = "locus_local:";

    private StatsGroups() {}

    /**
     * {@code <tenant>:<field>} for every per-tenant counter of the deadline path, the tenant's in-proxy cache lines as
     * {@code <tenant>:local_<field>}, in tenant order of first appearance.
     */
    public static Map<String, String> tenants(Map<String, String> deadlineLines) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : deadlineLines.entrySet()) {
            if (e.getKey().startsWith(TENANT)) {
                out.put(e.getKey().substring(TENANT.length()), e.getValue());
            }
        }
        for (Map.Entry<String, String> e : deadlineLines.entrySet()) {
            if (e.getKey().startsWith(LOCAL)) {
                String rest = e.getKey().substring(LOCAL.length());
                int colon = rest.lastIndexOf(':');
                out.put(rest.substring(0, colon) + ":local_" + rest.substring(colon + 1), e.getValue());
            }
        }
        return out;
    }

    /**
     * Totals over all tenants ({@code requests hits misses deadlines_met deadlines_missed deadlines_met_percent rejected
     * queue_depth}), then the in-proxy cache's totals and re-issues without their {@code locus_} prefix.
     * {@code deadlines_met_percent} is met / (met + missed) of hard requests that were not refused, one decimal, and
     * {@code 100.0} before any.
     */
    public static Map<String, String> deadline(Map<String, String> deadlineLines) {
        long[] sums = new long[6];
        String[] fields = {"requests", "hits", "misses", "deadlines_met", "deadlines_missed", "rejected"};
        long queued = 0;
        for (Map.Entry<String, String> e : deadlineLines.entrySet()) {
            if (!e.getKey().startsWith(TENANT)) {
                continue;
            }
            String field = e.getKey().substring(e.getKey().lastIndexOf(':') + 1);
            for (int i = 0; i < fields.length; i++) {
                if (field.equals(fields[i])) {
                    sums[i] += parse(e.getValue());
                }
            }
            if (field.equals("queue_depth")) {
                queued += parse(e.getValue());
            }
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < fields.length; i++) {
            out.put(fields[i], Long.toString(sums[i]));
            if (fields[i].equals("deadlines_missed")) {
                long met = sums[3];
                long all = met + sums[4];
                out.put(
                        "deadlines_met_percent",
                        String.format(Locale.ROOT, "%.1f", all == 0 ? 100.0 : 100.0 * met / all));
            }
        }
        out.put("queue_depth", Long.toString(queued));
        for (Map.Entry<String, String> e : deadlineLines.entrySet()) {
            if (e.getKey().startsWith("locus_")
                    && !e.getKey().startsWith(TENANT)
                    && !e.getKey().startsWith(LOCAL)) {
                out.put(e.getKey().substring("locus_".length()), e.getValue());
            }
        }
        return out;
    }

    private static long parse(String v) {
        try {
            return Long.parseLong(v.strip());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}

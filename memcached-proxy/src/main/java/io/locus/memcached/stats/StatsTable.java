package io.locus.memcached.stats;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * Every {@code stats} line of the proxy in one table, by group: plain {@code stats} shows all groups in the order they
 * were added, {@code stats <group>} one group, and the Prometheus page ({@link StatsLineMetrics}) shows the same lines,
 * so the views cannot disagree. Each group reads its counters when asked. Thread-safe.
 */
public final class StatsTable {
    /** memcached's own counters and the proxy's {@code locus_*} totals. */
    public static final String GENERAL = "general";
    /** The deadline path: in-proxy cache, re-issues, per-tenant counters. */
    public static final String DEADLINE = "deadline";
    /** MBal's balancer and the availability copies ({@code lb:*}). */
    public static final String LB = "lb";

    private record Group(String name, Supplier<Map<String, String>> lines) {}

    private final List<Group> groups = new CopyOnWriteArrayList<>();

    /** Adds a group whose lines (name to value, in display order) {@code lines} reads on every request. */
    public void add(String group, Supplier<Map<String, String>> lines) {
        groups.add(new Group(group, lines));
    }

    /** The lines of every group, in the order the groups were added. */
    public Map<String, String> all() {
        Map<String, String> out = new LinkedHashMap<>();
        for (Group g : groups) {
            out.putAll(g.lines().get());
        }
        return out;
    }

    /** The lines of one group; empty when nothing was added under that name. */
    public Map<String, String> group(String name) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Group g : groups) {
            if (g.name().equals(name)) {
                out.putAll(g.lines().get());
            }
        }
        return out;
    }
}

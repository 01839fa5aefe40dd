package io.locus.memcached.proxy;

import io.locus.memcached.stats.StatsTable;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters for {@code stats}: memcached's names where the meaning is memcached's, {@code locus_*} for the proxy's own.
 * Thread-safe; every counter only grows except {@code curr_connections}.
 */
public final class ProxyStats {
    private final long startMillis = System.currentTimeMillis();
    final LongAdder currConnections = new LongAdder();
    final LongAdder totalConnections = new LongAdder();
    final LongAdder cmdGet = new LongAdder();
    final LongAdder getHits = new LongAdder();
    final LongAdder getMisses = new LongAdder();
    final LongAdder cmdSet = new LongAdder();
    final LongAdder cmdTouch = new LongAdder();
    final LongAdder cmdFlush = new LongAdder();
    final LongAdder cmdMeta = new LongAdder();
    final LongAdder requests = new LongAdder();
    final LongAdder clientErrors = new LongAdder();
    final LongAdder backendRequests = new LongAdder();
    final LongAdder backendFailures = new LongAdder();
    final LongAdder backendTimeouts = new LongAdder();
    final LongAdder backendConnects = new LongAdder();
    final LongAdder hintsStripped = new LongAdder();
    final LongAdder tenantRejects = new LongAdder();
    final LongAdder authFailures = new LongAdder();

    /** A table with these counters as its {@link StatsTable#GENERAL} group. */
    static StatsTable table(ProxyStats stats, String version, int threads) {
        StatsTable table = new StatsTable();
        table.add(StatsTable.GENERAL, () -> stats.snapshot(version, threads));
        return table;
    }

    /** The lines of {@code stats}, in order, name to value. */
    public Map<String, String> snapshot(String version, int threads) {
        long now = System.currentTimeMillis();
        Map<String, String> m = new LinkedHashMap<>();
        m.put("pid", Long.toString(ProcessHandle.current().pid()));
        m.put("uptime", Long.toString((now - startMillis) / 1000));
        m.put("time", Long.toString(now / 1000));
        m.put("version", version);
        m.put("pointer_size", "64");
        m.put("threads", Integer.toString(threads));
        m.put("curr_connections", currConnections.toString());
        m.put("total_connections", totalConnections.toString());
        m.put("cmd_get", cmdGet.toString());
        m.put("cmd_set", cmdSet.toString());
        m.put("cmd_flush", cmdFlush.toString());
        m.put("cmd_touch", cmdTouch.toString());
        m.put("get_hits", getHits.toString());
        m.put("get_misses", getMisses.toString());
        m.put("locus_requests", requests.toString());
        m.put("locus_meta_requests", cmdMeta.toString());
        m.put("locus_client_errors", clientErrors.toString());
        m.put("locus_backend_requests", backendRequests.toString());
        m.put("locus_backend_failures", backendFailures.toString());
        m.put("locus_backend_timeouts", backendTimeouts.toString());
        m.put("locus_backend_connects", backendConnects.toString());
        m.put("locus_hint_tokens_stripped", hintsStripped.toString());
        m.put("locus_tenant_rejects", tenantRejects.toString());
        m.put("locus_auth_failures", authFailures.toString());
        return m;
    }
}

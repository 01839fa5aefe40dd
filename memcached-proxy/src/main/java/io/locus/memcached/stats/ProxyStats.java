package io.locus.memcached.stats;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters for {@code stats}: memcached's names where the meaning is memcached's, {@code locus_*} for the proxy's own.
 * Thread-safe; every counter only grows except {@code curr_connections}.
 */
public final class ProxyStats {
    /** Every counter, with its {@code stats} name, in the order {@code stats} lists them. */
    public enum Counter {
        CURR_CONNECTIONS("curr_connections"),
        TOTAL_CONNECTIONS("total_connections"),
        CMD_GET("cmd_get"),
        CMD_SET("cmd_set"),
        CMD_FLUSH("cmd_flush"),
        CMD_TOUCH("cmd_touch"),
        GET_HITS("get_hits"),
        GET_MISSES("get_misses"),
        REQUESTS("locus_requests"),
        META_REQUESTS("locus_meta_requests"),
        CLIENT_ERRORS("locus_client_errors"),
        BACKEND_REQUESTS("locus_backend_requests"),
        BACKEND_FAILURES("locus_backend_failures"),
        BACKEND_TIMEOUTS("locus_backend_timeouts"),
        BACKEND_CONNECTS("locus_backend_connects"),
        HINT_TOKENS_STRIPPED("locus_hint_tokens_stripped"),
        TENANT_REJECTS("locus_tenant_rejects"),
        AUTH_FAILURES("locus_auth_failures");

        private final String statName;

        Counter(String statName) {
            this.statName = statName;
        }

        /** The name {@code stats} shows. */
        public String statName() {
            return statName;
        }
    }

    private static final Counter[] COUNTERS = Counter.values();

    private final long startMillis = System.currentTimeMillis();
    private final LongAdder[] counters = new LongAdder[COUNTERS.length];
    private final ProxyMetrics metrics = new ProxyMetrics();

    public ProxyStats() {
        for (int i = 0; i < counters.length; i++) {
            counters[i] = new LongAdder();
        }
    }

    public void increment(Counter c) {
        counters[c.ordinal()].increment();
    }

    public void decrement(Counter c) {
        counters[c.ordinal()].decrement();
    }

    public void add(Counter c, long n) {
        counters[c.ordinal()].add(n);
    }

    /** The request path's histograms and labelled counters, in this proxy's own registry. */
    public ProxyMetrics metrics() {
        return metrics;
    }

    /** The current value of {@code c}. */
    public long get(Counter c) {
        return counters[c.ordinal()].sum();
    }

    /** A table with these counters as its {@link StatsTable#GENERAL} group. */
    public static StatsTable table(ProxyStats stats, String version, int threads) {
        StatsTable table = new StatsTable();
        table.add(StatsTable.GENERAL, () -> stats.snapshot(version, threads));
        return table;
    }

    /** The lines of {@code stats}, in order, name to value: the process's own, then every counter. */
    public Map<String, String> snapshot(String version, int threads) {
        long now = System.currentTimeMillis();
        Map<String, String> m = new LinkedHashMap<>();
        m.put("pid", Long.toString(ProcessHandle.current().pid()));
        m.put("uptime", Long.toString((now - startMillis) / 1000));
        m.put("time", Long.toString(now / 1000));
        m.put("version", version);
        m.put("pointer_size", "64");
        m.put("threads", Integer.toString(threads));
        for (Counter c : COUNTERS) {
            m.put(c.statName(), Long.toString(get(c)));
        }
        return m;
    }
}

package io.locus.memcached.stats;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Per-tenant counters of the deadline path, for {@code stats} and the Prometheus endpoint.
 *
 * <p>Counted per client request (a classic multi-get counts once for met/missed/latency, once per key for
 * hits/misses): {@code hits}, {@code misses} (keys answered from / not found in the in-proxy cache), {@code met} and
 * {@code missed} (requests with a hard deadline whose reply was complete before / after arrival + deadline; requests
 * refused up front count in neither), {@code rejected} (refused by admission, tenant quota, or dropped before
 * dispatch), {@code queued} (tickets waiting in a backend queue now), and the latency from reading the request to
 * completing its reply. At most {@link #MAX_TENANTS} tenants are tracked by name; later ones share
 * {@value #OTHER}, so tenant names from untrusted {@code P} tokens cannot grow memory without bound. Thread-safe.
 */
public final class TenantMetrics {
    static final int MAX_TENANTS = 256;
    static final String OTHER = "other";

    /** The counters of one tenant. */
    public static final class Counters {
        private final LongAdder hits = new LongAdder();
        private final LongAdder misses = new LongAdder();
        private final LongAdder met = new LongAdder();
        private final LongAdder missed = new LongAdder();
        private final LongAdder rejected = new LongAdder();
        private final LongAdder requests = new LongAdder();
        private final AtomicLong queued = new AtomicLong();
        private final LatencyHistogram latency = new LatencyHistogram();

        public LongAdder hits() {
            return hits;
        }

        public LongAdder misses() {
            return misses;
        }

        public LongAdder met() {
            return met;
        }

        public LongAdder missed() {
            return missed;
        }

        public LongAdder rejected() {
            return rejected;
        }

        public LongAdder requests() {
            return requests;
        }

        public AtomicLong queued() {
            return queued;
        }

        public LatencyHistogram latency() {
            return latency;
        }
    }

    private final ConcurrentHashMap<String, Counters> byTenant = new ConcurrentHashMap<>();

    public Counters of(String tenant) {
        Counters c = byTenant.get(tenant);
        if (c != null) {
            return c;
        }
        if (byTenant.size() >= MAX_TENANTS) {
            return byTenant.computeIfAbsent(OTHER, t -> new Counters());
        }
        return byTenant.computeIfAbsent(tenant, t -> new Counters());
    }

    /** Tenant name → counters, sorted by name. */
    Map<String, Counters> all() {
        return new TreeMap<>(byTenant);
    }

    /** The {@code stats} lines: {@code locus_tenant:<id>:<field>}. */
    public void appendStats(Map<String, String> out) {
        for (Map.Entry<String, Counters> e : all().entrySet()) {
            String p = "locus_tenant:" + e.getKey() + ":";
            Counters c = e.getValue();
            out.put(p + "requests", c.requests.toString());
            out.put(p + "hits", c.hits.toString());
            out.put(p + "misses", c.misses.toString());
            out.put(p + "deadlines_met", c.met.toString());
            out.put(p + "deadlines_missed", c.missed.toString());
            out.put(p + "rejected", c.rejected.toString());
            out.put(p + "queue_depth", Long.toString(c.queued.get()));
            out.put(p + "latency_p50_us", Long.toString(c.latency.quantileMicros(0.50)));
            out.put(p + "latency_p99_us", Long.toString(c.latency.quantileMicros(0.99)));
        }
    }
}

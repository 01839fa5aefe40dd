package io.locus.memcached.stats;

import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The metrics the proxy measures on its request path, in one {@link PrometheusRegistry} per proxy, so several proxies
 * in one JVM never add to each other's series.
 *
 * <p>Latencies go into classic histograms whose buckets ({@link #LATENCY_BUCKETS_SECONDS}) are the same on every
 * proxy: {@code _bucket} series of a fleet add up, and {@code histogram_quantile} over their sum is the fleet's
 * quantile, which per-process quantiles can never give.
 *
 * <p>The hot path never looks a label up by name: each client connection holds its tenant's {@link TenantRequests},
 * whose data points are bound on first use of a command and reused, and each backend connection holds its backend's
 * data point. Observing is lock-free in the Prometheus client.
 */
public final class ProxyMetrics {
    /**
     * 50 µs (a loopback memcached round trip) up to 5 s (beyond any sensible {@code backend.timeout}), about three
     * buckets per decade.
     */
    public static final double[] LATENCY_BUCKETS_SECONDS = {
        0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5
    };

    /**
     * Tenants named in the request histogram; later ones share {@value #OTHER}. Tenant names come from untrusted
     * {@code P} tokens, and each one costs a series per command and bucket.
     */
    static final int MAX_TENANTS = 32;

    static final String OTHER = "other";

    /** More than there are memcached commands; a command's index is its place in the proxy's own command list. */
    static final int MAX_COMMANDS = 64;

    private static final String[] OUTCOMES = {"ok", "error"};

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final Counter requests;
    private final Histogram requestDuration;
    private final Histogram backendDuration;
    private final CounterDataPoint connectionsClosed;
    private final ConcurrentHashMap<String, TenantRequests> tenants = new ConcurrentHashMap<>();
    /** Data points of {@link #requests} by command index, then outcome; shared by all tenants. */
    private final AtomicReferenceArray<CounterDataPoint> answered =
            new AtomicReferenceArray<>(MAX_COMMANDS * OUTCOMES.length);

    public ProxyMetrics() {
        requests = Counter.builder()
                .name("locus_memcached_requests_total")
                .help("Client requests answered, by command and whether the reply was an error line")
                .labelNames("command", "outcome")
                .register(registry);
        requestDuration = histogram(Histogram.builder()
                .name("locus_memcached_request_duration_seconds")
                .help("From reading a client request to its reply being ready, by command and tenant")
                .labelNames("command", "tenant"));
        backendDuration = histogram(Histogram.builder()
                .name("locus_memcached_backend_request_duration_seconds")
                .help("From sending a request to a backend to reading its reply, by backend host:port")
                .labelNames("backend"));
        connectionsClosed = Counter.builder()
                .name("locus_memcached_connections_closed_total")
                .help("Client connections closed")
                .register(registry);
    }

    private Histogram histogram(Histogram.Builder b) {
        b.classicOnly().classicUpperBounds(LATENCY_BUCKETS_SECONDS).withoutExemplars();
        return b.register(registry);
    }

    /** The registry behind this proxy's {@code /metrics} page. */
    public PrometheusRegistry registry() {
        return registry;
    }

    /** Counts a closed client connection. */
    public void connectionClosed() {
        connectionsClosed.inc();
    }

    /** The data point of {@code backend} ({@code host:port}); look it up once per backend connection. */
    public DistributionDataPoint backend(String backend) {
        return backendDuration.labelValues(backend);
    }

    /** The request metrics of {@code tenant}; look it up when a connection's tenant changes, not per request. */
    public TenantRequests tenant(String tenant) {
        TenantRequests t = tenants.get(tenant);
        if (t != null) {
            return t;
        }
        String name = tenants.size() >= MAX_TENANTS ? OTHER : tenant;
        return tenants.computeIfAbsent(name, TenantRequests::new);
    }

    private CounterDataPoint answered(int command, String commandName, boolean error) {
        int i = command * OUTCOMES.length + (error ? 1 : 0);
        CounterDataPoint p = answered.get(i);
        if (p == null) {
            // labelValues returns the same data point for the same labels, so a race binds it twice harmlessly.
            p = requests.labelValues(commandName, OUTCOMES[error ? 1 : 0]);
            answered.set(i, p);
        }
        return p;
    }

    /** One tenant's request latency by command, with its data points bound on first use. */
    public final class TenantRequests {
        private final String tenant;
        private final AtomicReferenceArray<DistributionDataPoint> byCommand = new AtomicReferenceArray<>(MAX_COMMANDS);

        private TenantRequests(String tenant) {
            this.tenant = tenant;
        }

        /** The label this tenant is counted under ({@value ProxyMetrics#OTHER} past the limit). */
        public String tenant() {
            return tenant;
        }

        /** This, when {@code name} is this tenant; otherwise {@code name}'s, from the proxy's table. */
        public TenantRequests switchTo(String name) {
            return name.equals(tenant) ? this : ProxyMetrics.this.tenant(name);
        }

        /**
         * Counts one answered request.
         *
         * @param command the command's index, below {@value ProxyMetrics#MAX_COMMANDS}
         * @param commandName the command as the client wrote it ({@code get}, {@code mg}, ...)
         * @param nanos from reading the request to its reply being ready
         * @param error whether the reply was an {@code ERROR}, {@code CLIENT_ERROR} or {@code SERVER_ERROR} line
         */
        public void answered(int command, String commandName, long nanos, boolean error) {
            ProxyMetrics.this.answered(command, commandName, error).inc();
            DistributionDataPoint p = byCommand.get(command);
            if (p == null) {
                p = requestDuration.labelValues(commandName, tenant);
                byCommand.set(command, p);
            }
            p.observe(nanos / 1e9);
        }
    }
}

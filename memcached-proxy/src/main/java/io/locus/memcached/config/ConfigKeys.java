package io.locus.memcached.config;

import static io.locus.memcached.config.ConfigKey.Type.BOOL;
import static io.locus.memcached.config.ConfigKey.Type.DOUBLE;
import static io.locus.memcached.config.ConfigKey.Type.DURATION;
import static io.locus.memcached.config.ConfigKey.Type.ENUM;
import static io.locus.memcached.config.ConfigKey.Type.INT;
import static io.locus.memcached.config.ConfigKey.Type.LETTER;
import static io.locus.memcached.config.ConfigKey.Type.SIZE;
import static io.locus.memcached.config.ConfigKey.Type.STRING;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every scalar configuration key with its type, default, range and meaning: the single reference for defaults
 * (README.md, "Configuration" plus the proxy's own keys). Durations are in microseconds and sizes in bytes
 * when checked against min and max.
 */
public final class ConfigKeys {
    private static final double INF = Double.MAX_VALUE;
    private static final long MS = 1000;
    private static final long S = 1_000_000;
    private static final long MIB = 1 << 20;

    /** Keys that hold lists or maps, read by {@code StructuredKeys} rather than by {@link ConfigLoader#convert}. */
    public static final List<String> STRUCTURED =
            List.of("listeners", "pool.servers", "tenants", "deadline_rules", "auth.allowed_tenants");

    public static final List<ConfigKey> ALL = List.of(
            // The proxy itself.
            key("listen", STRING, "127.0.0.1:11211", 0, 0, "address the proxy listens on, host:port"),
            key(
                    "io_threads",
                    INT,
                    "auto",
                    1,
                    64,
                    "Netty I/O threads, each with its own backend connections; `auto` = half "
                            + "the cores, at least 1 (the other half is for the kernel's network stack, memcached and clients on the "
                            + "same host)"),
            key(
                    "server.busy_poll_us",
                    INT,
                    "0",
                    0,
                    10_000,
                    "microseconds an I/O thread keeps polling its sockets after the last one was ready before it "
                            + "sleeps; 0 = sleep at once"),
            key("version", STRING, "1.6.0", 0, 0, "what the proxy answers to `version`"),
            key(
                    "mode",
                    ENUM,
                    "full",
                    0,
                    0,
                    "`full`: in-proxy deadline cache, scheduler and admission; `pass_through`: "
                            + "forward every request unchanged, no cache, no scheduling {full, pass_through}"),
            key("max_item_size", SIZE, "1m", 1, 1024 * MIB, "largest value accepted, bytes (memcached's -I default)"),
            key("limits.max_key_bytes", INT, "250", 1, 250, "longest key, bytes"),
            key(
                    "limits.max_line_bytes",
                    SIZE,
                    "4m",
                    300,
                    16 * MIB,
                    "longest command line, bytes; only retrieval lines may exceed 2048 (memcached's own rule), "
                            + "and 4m holds a get of 10,000 keys of 250 bytes"),
            key(
                    "limits.max_pipeline",
                    INT,
                    "1024",
                    1,
                    1 << 20,
                    "requests in flight per client connection before the proxy stops reading from it"),
            key(
                    "limits.reply_budget",
                    SIZE,
                    "4m",
                    64 * 1024,
                    1024 * MIB,
                    "reply bytes a client connection may have in flight: requests in flight <= this / recent largest reply"),
            key(
                    "limits.max_pending_keys",
                    INT,
                    "100000",
                    1,
                    1 << 24,
                    "keys of a client connection's gets in flight before the proxy stops reading from it; a get with more"
                            + " keys is let through alone"),
            key(
                    "backend.conns",
                    INT,
                    "1",
                    1,
                    64,
                    "persistent connections per backend per I/O thread (nutcracker's "
                            + "server_connections default); more connections split the pipelined batches, see the README"),
            key(
                    "backend.timeout",
                    DURATION,
                    "1s",
                    MS,
                    3600 * S,
                    "per-request backend timeout; on expiry the client gets SERVER_ERROR backend timeout"),
            key("backend.connect_timeout", DURATION, "1s", MS, 60 * S, "TCP connect timeout to a backend"),
            key(
                    "backend.retry_interval",
                    DURATION,
                    "1s",
                    MS,
                    3600 * S,
                    "after a failed connect, requests to that backend fail fast this long before the next attempt"),
            key(
                    "backend.auto_eject_hosts",
                    BOOL,
                    "false",
                    0,
                    0,
                    "take a server out of the ring after backend.server_failure_limit consecutive failures, its keys "
                            + "going to the next server on the ring (nutcracker's auto_eject_hosts)"),
            key(
                    "backend.server_failure_limit",
                    INT,
                    "2",
                    1,
                    1_000_000,
                    "consecutive failures (timeouts, refused or lost connections) that eject a server; a reply resets "
                            + "the count (nutcracker's server_failure_limit)"),
            key(
                    "backend.server_retry_timeout",
                    DURATION,
                    "30s",
                    MS,
                    24 * 3600 * S,
                    "how long an ejected server stays out of the ring before it is put back and tried again; a bare "
                            + "number is ms, as in nutcracker (nutcracker's server_retry_timeout)"),
            key("pool.distribution", ENUM, "ketama", 0, 0, "key placement {ketama}; nutcracker-compatible"),
            key("pool.hash", ENUM, "fnv1a_64", 0, 0, "key hash {fnv1a_64}; nutcracker's default"),
            key("hints.tenant_token", LETTER, "P", 0, 0, "meta flag letter carrying the tenant"),
            key("hints.deadline_token", LETTER, "L", 0, 0, "meta flag letter carrying the deadline"),
            key("hints.trust_tenant_token", BOOL, "true", 0, 0, "without auth, whether the tenant token is honoured"),
            key("auth.enabled", BOOL, "false", 0, 0, "require memcached text-protocol auth; the user is the tenant"),
            key("auth.file", STRING, "", 0, 0, "user:password file (memcached -Y format); required if auth.enabled"),
            key(
                    "classic.reject_mode",
                    ENUM,
                    "miss",
                    0,
                    0,
                    "classic get when a hard deadline is rejected {miss, error}"),
            key("classic.stale_ok", BOOL, "false", 0, 0, "classic get may be served a stale local copy"),
            key("meta.reject_mode", ENUM, "error", 0, 0, "mg when a hard deadline is rejected {miss, error}"),
            key("be.nominal_deadline", DURATION, "1s", 1, 3600 * S, "deadline of best-effort requests"),
            key("be.requeue_max", INT, "0", 0, 1000, "times a best-effort ticket may be requeued"),
            // Deadline cache (MicroFuge §3.1.2, DEADLINES.md, "In the proxy").
            key("dlc.base", DURATION, "2ms", 1, 3600 * S, "deadline class base B"),
            key("dlc.factor", INT, "2", 2, 16, "deadline class factor c"),
            key("dlc.queues", INT, "12", 1, 64, "deadline classes Q (1 = plain LRU)"),
            key("dlc.class_policy", ENUM, "LATEST", 0, 0, "class of an item read with several deadlines {LATEST, MIN}"),
            key("dlc.weight", ENUM, "geometric", 0, 0, "class weight {geometric, miss_prob}"),
            key("fairness.enabled", BOOL, "false", 0, 0, "per-tenant cache shares"),
            key(
                    "fairness.hard_over_quota",
                    BOOL,
                    "false",
                    0,
                    0,
                    "with fairness, only tenants over their quota lose items while any is over"),
            key("fairness.eps", DOUBLE, "0.015625", 0, 1, "fairness slack EPS"),
            key("local.capacity_bytes", SIZE, "64m", 0, 1L << 40, "in-proxy cache capacity, bytes"),
            key("local.mode", ENUM, "all", 0, 0, "in-proxy cache use {all, hot_only, off}"),
            key("local.max_ttl", DURATION, "0", 0, 3600 * S, "cap on local copies' TTL; 0 = the item's TTL"),
            key("local.max_item_size", SIZE, "256k", 0, 1024 * MIB, "largest value kept in the in-proxy cache, bytes"),
            // Scheduler and admission (MicroFuge §4.1, MicroFuge §4.2, DESIGN.md, "Threads").
            key(
                    "sched.enabled",
                    BOOL,
                    "true",
                    0,
                    0,
                    "EDF scheduler and admission control; false = forward at once (DLC only)"),
            key("sched.window", INT, "8", 1, 1024, "requests in flight per backend W"),
            key("sched.max_demotions", INT, "16", 0, 1 << 20, "demotions per ticket K"),
            key("sched.max_queue", INT, "1024", 1, 1 << 20, "queued tickets per backend"),
            key("admission.target_miss", DOUBLE, "0.10", 0, 1, "target deadline-miss fraction"),
            key("admission.quantile", DOUBLE, "0.90", 0, 1, "latency quantile used for admission (1 - target_miss)"),
            // 500 us, not 100 us: deadlines are met or missed at the client, so the guard must cover the way to the
            // proxy and back as well as the proxy's own write (100 us -> 93.1-95.0 % of admitted hard reads on time at
            // the client, 500 us -> 95.5-96.9 %, ProxyBench open-loop overload).
            key("admission.guard", DURATION, "500us", 0, S, "admission guard time (client <-> proxy path and jitter)"),
            key("admission.kappa", DOUBLE, "1", 0.5, 4, "initial kappa (controller range 0.5..4)"),
            key("reissue.rate", INT, "50", 0, 1_000_000, "background re-issues of rejected reads per second"),
            key("reissue.burst", INT, "10", 0, 1_000_000, "re-issue bucket burst"),
            key("replication_factor", INT, "1", 1, 16, "static replicas per key"),
            // Load balancing (MBal §3, BALANCE.md, "In the proxy"); read by proxy.BalancingServices, checked again by
            // balance.BalanceConfig.
            key("lb.enabled", BOOL, "false", 0, 0, "run the load balancer (statistics, phase 1 hot-key replication)"),
            key("lb.capacity", DOUBLE, "50000", 1, INF, "capacity T_b of each backend, requests per second"),
            key("lb.phases", STRING, "p1", 0, 0, "phases that may run: p1, p3, p1,p3, or none (observe only)"),
            key("lb.hot_keys", INT, "1024", 1, 1 << 20, "Space-Saving table size"),
            key("lb.write_weight", DOUBLE, "4", 0, 1000, "hotness subtracted per sampled write"),
            key("lb.decay", DOUBLE, "0.5", 0, 0.999999, "hotness multiplier per epoch"),
            key("lb.hot_rate_fraction", DOUBLE, "0.02", 0.000001, 1, "hot if rate >= this * T_home"),
            key("lb.hot_home_load", DOUBLE, "0.5", 0, 10, "... and the home's load >= this * T_home"),
            key("lb.replica_rate_fraction", DOUBLE, "0.1", 0.000001, 1, "copies = 1 + ceil(rate / (this * T_home))"),
            key(
                    "lb.shadow_updates",
                    ENUM,
                    "sync",
                    0,
                    0,
                    "when a write to a replicated key is acknowledged {sync, async}"),
            // Operations (README.md, "Observability").
            key(
                    "metrics.prometheus_port",
                    INT,
                    "0",
                    0,
                    65535,
                    "port of the Prometheus text endpoint GET /metrics on the listen host; 0 = off"),
            key(
                    "reload.interval",
                    DURATION,
                    "1s",
                    0,
                    3600 * S,
                    "how often the running proxy checks its config file for changed tenants; 0 = only on SIGHUP"),
            key("lb.epoch", DURATION, "1s", MS, 3600 * S, "statistics epoch"),
            key("lb.persistence", INT, "4", 1, 1000, "epochs a trigger must persist"),
            key("lb.cachelets_per_backend", INT, "16", 1, 4096, "cachelets per backend"),
            key(
                    "lb.sample_rate",
                    DOUBLE,
                    "0.05",
                    0,
                    1,
                    "key sampling rate ps; raised so a key at the hot threshold gets 4 samples an epoch"),
            key("lb.replicas_max", INT, "2", 1, 16, "replicas per hot key"),
            key("lb.repl_high", INT, "64", 0, 1 << 20, "hot-key replicas per backend"),
            key("lb.server_load_thresh", DOUBLE, "0.75", 0, 1, "server load threshold"),
            key("lb.p2_rdev", DOUBLE, "0.20", 0, 10, "phase 2 relative deviation trigger"),
            key("lb.imb_thresh", DOUBLE, "0.10", 0, 10, "imbalance threshold"),
            key("lb.max_iter", INT, "8", 1, 1000, "planner iterations"),
            key("lb.ilp_time_limit", DURATION, "20ms", MS, 60 * S, "ILP time limit"),
            key("lb.lease_p1", INT, "4", 1, 1000, "phase 1 lease, epochs"),
            key("lb.lease_p2", INT, "8", 1, 1000, "phase 2 lease, epochs"),
            key("lb.copy_rate", SIZE, "4m", 1, 1L << 40, "migration copy rate, bytes per second"),
            key(
                    "lb.memory_poll",
                    DURATION,
                    "5s",
                    0,
                    3600 * S,
                    "how often the backends' stats bytes/limit_maxbytes are read "
                            + "for phase 3's memory check; 0 = never"));

    /** Enum values per ENUM key. */
    public static final Map<String, List<String>> ENUM_VALUES = Map.of(
            "mode", List.of("full", "pass_through"),
            "pool.distribution", List.of("ketama"),
            "pool.hash", List.of("fnv1a_64"),
            "classic.reject_mode", List.of("miss", "error"),
            "meta.reject_mode", List.of("miss", "error"),
            "dlc.class_policy", List.of("LATEST", "MIN"),
            "dlc.weight", List.of("geometric", "miss_prob"),
            "local.mode", List.of("all", "hot_only", "off"),
            "lb.shadow_updates", List.of("sync", "async"));

    private static final Map<String, ConfigKey> BY_NAME = new LinkedHashMap<>();

    static {
        for (ConfigKey k : ALL) {
            BY_NAME.put(k.name(), k);
        }
    }

    private ConfigKeys() {}

    /**
     * What {@code auto} means for {@code io_threads}: half the cores, at least one. Why not one per core: on a
     * 2-core host that also runs memcached and clients, two proxy threads split each batch of requests in two; in
     * four runs set against one-thread runs of the same hour they carried 0.93 to 0.98 of one thread's pass-through
     * throughput (memcached-proxy README, "Measured").
     */
    public static long autoThreads() {
        return Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
    }

    /** The key named {@code name}, or null. */
    public static ConfigKey byName(String name) {
        return BY_NAME.get(name);
    }

    private static ConfigKey key(String name, ConfigKey.Type type, String def, double min, double max, String doc) {
        return new ConfigKey(name, type, def, min, max, doc);
    }
}

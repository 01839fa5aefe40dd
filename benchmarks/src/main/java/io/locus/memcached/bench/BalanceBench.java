package io.locus.memcached.bench;

import io.locus.fixture.Ports;
import io.locus.memcached.fixture.MemcachedConfig;
import io.locus.memcached.fixture.MemcachedServer;
import io.locus.memcached.fixture.MemcachedServers;
import io.locus.memcached.fixture.Nutcracker;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./locus bench proxy-balance}: how evenly the backends are loaded, and what that does to throughput and p99,
 * with the proxy's load balancer off, with Phase 1 (hot-key replication), with Phases 1+3, and with twemproxy, on
 * Zipf and real key traces ({@code memcached-proxy/BALANCE.md}).
 *
 * <p>Each backend is a real memcached behind a {@link SlowShim} with {@link Emulation#CAPACITY} (4000 requests per
 * second, exponential service), so a backend that gets more than its share queues as a loaded server does. The load
 * is open-loop Poisson at the same offered rate for every row; latency counts from the intended start. A backend's
 * load is what memcached itself counts ({@code cmd_get + cmd_set + cmd_touch} from its {@code stats}), sampled
 * every 500 ms; imbalance is max/mean of those loads.
 */
@Command(name = "proxy-balance", mixinStandardHelpOptions = true,
        description = "Backend imbalance, throughput and p99: balancer off, Phase 1, Phases 1+3, twemproxy.")
public final class BalanceBench implements Callable<Integer> {
    private static final String JAR_NAME = "locus-memcached-proxy-<version>.jar";
    private static final long SAMPLE_MILLIS = 500;

    @Option(names = "--proxy-jar", required = true, description = "the proxy's shaded jar (" + JAR_NAME + ")")
    Path jar;

    @Option(names = "--quick", description = "about 30 s: Zipf only, rows off,p1, 3 s warm-up + 6 s per row")
    boolean quick;

    @Option(names = "--seconds", description = "measured seconds per row (default 20, quick 6)")
    Integer seconds;

    @Option(names = "--warmup", description = "warm-up seconds per row, unmeasured (default 8, quick 3)")
    Integer warmup;

    @Option(names = "--rate", description = "offered ops/s over all connections, Poisson (default ${DEFAULT-VALUE})",
            defaultValue = "9000")
    double rate;

    @Option(names = "--connections", description = "client connections (default ${DEFAULT-VALUE})",
            defaultValue = "32")
    int connections;

    @Option(names = "--get-fraction", description = "fraction of gets (default ${DEFAULT-VALUE})",
            defaultValue = "0.95")
    double getFraction;

    @Option(names = "--keys", description = "distinct Zipf keys (default ${DEFAULT-VALUE})", defaultValue = "10000")
    long keys;

    @Option(names = "--backends", description = "memcached servers (default ${DEFAULT-VALUE})", defaultValue = "4")
    int backends;

    @Option(names = "--traces", split = ",", description = "key traces to replay besides Zipf (default: every "
            + "*.trace.xz of shared/traces/kv; none with --quick)")
    List<Path> traces;

    @Option(names = "--trace-limit", description = "accesses read per trace (default ${DEFAULT-VALUE})",
            defaultValue = "2000000")
    int traceLimit;

    @Option(names = "--rows", split = ",", description = "rows: off,p1,p1p3,twemproxy (default all; quick off,p1)")
    List<String> rows;

    @Option(names = "--lb", description = "extra balancer keys for the Locus rows, e.g. --lb hot_home_load=0 "
            + "(default none; with --quick: epoch=250ms, hot_home_load=0)")
    Map<String, String> lbExtra;

    @Option(names = "--seed", description = "seed of every random choice (default ${DEFAULT-VALUE})",
            defaultValue = "20261122")
    long seed;

    @Option(names = "--out", description = "output directory (default benchmarks/target/bench-balance)")
    Path out;

    private final PrintStream stdout;
    private final PrintStream progress;

    BalanceBench(PrintStream stdout, PrintStream progress) {
        this.stdout = stdout;
        this.progress = progress;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new BalanceBench(System.out, System.err)).execute(args));
    }

    /** One row on one workload. */
    record Row(String workload, String row, String description, LoadGenerator.Result result, double imbalance,
            long[] backendLoads, List<double[]> series, String unavailable, Map<String, String> lb) {
        boolean ran() {
            return result != null;
        }
    }

    @Override
    public Integer call() throws Exception {
        int measure = seconds != null ? seconds : quick ? 6 : 20;
        int warm = warmup != null ? warmup : quick ? 3 : 8;
        List<String> wanted = rows != null ? rows : quick ? List.of("off", "p1") : List.of("off", "p1", "p1p3",
                "twemproxy");
        for (String r : wanted) {
            if (!List.of("off", "p1", "p1p3", "twemproxy").contains(r)) {
                throw new CommandLine.ParameterException(new CommandLine(this), "--rows: \"" + r
                        + "\" (expected: off, p1, p1p3 or twemproxy)");
            }
        }
        if (!Files.isRegularFile(jar)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--proxy-jar: " + jar.toAbsolutePath()
                    + " does not exist (expected: the shaded jar; build with mvn -pl memcached-proxy package)");
        }
        List<Path> traceFiles = traces;
        if (traceFiles == null) {
            traceFiles = new ArrayList<>();
            Path dir = Path.of("..", "shared", "traces", "kv");
            for (Path candidate : List.of(Path.of("/work/shared/traces/kv"), dir)) {
                if (!quick && Files.isDirectory(candidate)) {
                    try (var files = Files.list(candidate)) {
                        files.filter(f -> f.getFileName().toString().endsWith(".trace.xz")).sorted()
                                .forEach(traceFiles::add);
                    }
                    break;
                }
            }
        }
        Path dir = out != null ? out : Path.of("benchmarks", "target", "bench-balance");
        Files.createDirectories(dir);
        Path hosts = dir.resolve("hosts");
        LoadGenerator.Settings settings = new LoadGenerator.Settings(connections, rate, getFraction, seed,
                warm * 1_000_000_000L, measure * 1_000_000_000L, Emulation.CAPACITY);
        stdout.println(String.format(Locale.ROOT, "# proxy-balance: %d memcached backends behind SlowShim (%s); "
                + "%.0f ops/s offered (Poisson, %d connections, %.0f%% gets); %d s warm-up + %d s measured per row",
                backends, Emulation.CAPACITY.description(), rate, connections, 100 * getFraction, warm, measure)
                + (quick ? "; --quick: lb.epoch 250ms, lb.hot_home_load 0" : "")
                + (lbExtra == null ? "" : "; lb " + lbExtra));
        stdout.println("# load average before: " + loadAverage());
        stdout.flush();

        List<KeySource> workloads = new ArrayList<>();
        List<String> names = new ArrayList<>();
        workloads.add(new ZipfKeys(List.of(new TenantProfile("zipf", 1, 0, 0, 0, "default", 1)), keys));
        names.add("zipf-0.99");
        for (Path t : traceFiles) {
            workloads.add(TraceKeys.read(t, traceLimit));
            names.add(t.getFileName().toString().replace(".trace.xz", ""));
        }
        List<Row> results = new ArrayList<>();
        int failures = 0;
        for (int w = 0; w < workloads.size(); w++) {
            KeySource workload = workloads.get(w);
            String name = names.get(w);
            long distinct = workload.distinctKeys();
            int megabytes = (int) Math.min(4096, Math.max(64, distinct * 1200 / (1 << 20)));
            try (MemcachedServers servers = MemcachedServers.start(backends,
                    MemcachedConfig.DEFAULTS.withThreads(1).withMemoryMegabytes(megabytes), hosts)) {
                progress.printf(Locale.ROOT, "[%s] preloading %d keys into each of %d memcached servers ...%n", name,
                        distinct, backends);
                Preloader.preload(workload, servers.addresses());
                List<SlowShim> shims = new ArrayList<>();
                try {
                    List<InetSocketAddress> addresses = new ArrayList<>();
                    for (int i = 0; i < backends; i++) {
                        SlowShim shim = SlowShim.start("memcached-" + i, servers.get(i).address(), Emulation.CAPACITY,
                                seed * 31 + i);
                        shims.add(shim);
                        addresses.add(shim.address());
                    }
                    for (String row : wanted) {
                        String tag = "[" + name + " " + row + "]";
                        try {
                            Row r = runRow(name, row, tag, workload, settings, servers, addresses, hosts);
                            results.add(r);
                            progress.printf(Locale.ROOT, "%s %s%n", tag, r.ran() ? String.format(Locale.ROOT,
                                    "done: %.0f ops/s, max/mean %.3f", r.result().throughput(), r.imbalance())
                                    : "not available: " + r.unavailable());
                        } catch (RuntimeException e) {
                            failures++;
                            results.add(new Row(name, row, row, null, Double.NaN, null, List.of(),
                                    "FAILED: " + e.getMessage(), Map.of()));
                            progress.printf("%s FAILED: %s%n", tag, e);
                        }
                    }
                } finally {
                    shims.forEach(SlowShim::close);
                }
            }
        }
        String table = table(results);
        stdout.println();
        stdout.print(table);
        stdout.println();
        stdout.println("# max/mean = the busiest backend's load over the mean backend load in the measured window "
                + "(memcached's own cmd_get+cmd_set+cmd_touch); p99 from the intended start (open loop); "
                + "p99/off = ratio to the balancer-off row of the same workload");
        for (Row r : results) {
            if (r.ran() && r.result().throughput() < 0.9 * rate) {
                stdout.println(String.format(Locale.ROOT, "# WARNING: %s %s completed %.0f of %.0f offered ops/s in "
                        + "the measured window: this machine could not generate or carry the load, so its p99 is not "
                        + "comparable", r.workload(), r.row(), r.result().throughput(), rate));
            }
        }
        stdout.println("# load average after: " + loadAverage());
        Files.writeString(dir.resolve("proxy-balance.txt"), table);
        try {
            stdout.println("# written: " + dir.resolve("proxy-balance.txt") + ", " + chart(results, dir));
        } catch (IOException | RuntimeException | Error e) {
            stdout.println("# written: " + dir.resolve("proxy-balance.txt") + " (no chart: " + e + ")");
        }
        return failures == 0 ? 0 : 1;
    }

    private Row runRow(String workload, String row, String tag, KeySource keys, LoadGenerator.Settings settings,
            MemcachedServers servers, List<InetSocketAddress> addresses, Path hosts) throws InterruptedException {
        if (row.equals("twemproxy")) {
            Nutcracker.Builder builder = Nutcracker.builder(hosts);
            for (int i = 0; i < addresses.size(); i++) {
                builder.server(addresses.get(i), 1, "memcached-" + i);
            }
            try (Nutcracker nutcracker = builder.start()) {
                return measure(workload, row, "twemproxy " + nutcracker.version(), tag, keys, settings, servers,
                        nutcracker.address(), null);
            }
        }
        int port = Ports.freeLoopbackPort();
        StringBuilder y = new StringBuilder("listen: 127.0.0.1:").append(port).append('\n');
        y.append("pool:\n  servers:\n");
        for (int i = 0; i < addresses.size(); i++) {
            InetSocketAddress b = addresses.get(i);
            y.append("    - \"").append(b.getHostString()).append(':').append(b.getPort()).append(":1 memcached-")
                    .append(i).append("\"\n");
        }
        // One I/O thread and one connection per backend: every connection costs the shim three threads.
        // mode pass_through: like twemproxy, no cache and no deadline scheduler in the path; only the balancer differs.
        y.append("mode: pass_through\nlocal.mode: \"off\"\nbackend.timeout: 10s\nio_threads: 1\nbackend:\n  conns: 1\n");
        y.append("lb:\n  capacity: ").append((long) (1e9 / Emulation.CAPACITY.meanServiceNanos()))
                .append("\n  enabled: true\n  phases: ").append(row.equals("off") ? "none" : row.equals("p1p3") ? "p1,p3" : "p1")
                .append('\n');
        Map<String, String> extra = new LinkedHashMap<>(Map.of("epoch", "500ms"));
        if (quick) {
            // The demo machine may not carry the offered rate; without the home-load guard, Phase 1 acts on hot
            // keys at whatever rate arrives, so the demo shows the balancing itself.
            extra.putAll(Map.of("epoch", "250ms", "hot_home_load", "0"));
        }
        if (lbExtra != null) {
            extra.putAll(lbExtra);
        }
        extra.forEach((k, v) -> y.append("  ").append(k).append(": ").append(v).append('\n'));
        try (LocusProxy proxy = LocusProxy.start("balance-" + row, jar, y.toString(), port, hosts, List.of())) {
            return measure(workload, row, row.equals("off") ? "Locus, balancer observing only (lb.phases none)"
                    : row.equals("p1p3") ? "Locus, Phases 1+3 (hot-key replication, bucket migration)"
                    : "Locus, Phase 1 hot-key replication", tag, keys, settings, servers, proxy.address(), proxy);
        }
    }

    private Row measure(String workload, String row, String description, String tag, KeySource keys,
            LoadGenerator.Settings settings, MemcachedServers servers, InetSocketAddress target, LocusProxy proxy)
            throws InterruptedException {
        List<double[]> series = new CopyOnWriteArrayList<>();
        long[][] window = new long[2][];
        long t0 = System.nanoTime();
        long measureFrom = t0 + 50_000_000L + settings.warmupNanos();
        long measureTo = measureFrom + settings.measureNanos();
        Thread sampler = new Thread(() -> {
            long[] last = loads(servers);
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    Thread.sleep(SAMPLE_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
                long[] now = loads(servers);
                long nanos = System.nanoTime();
                long[] delta = new long[now.length];
                for (int i = 0; i < now.length; i++) {
                    delta[i] = now[i] - last[i];
                }
                last = now;
                if (java.util.Arrays.stream(delta).sum() >= 50) { // after the load ends, max/mean of a few is noise
                    series.add(new double[] {(nanos - t0) / 1e9, maxOverMean(delta)});
                }
                if (window[0] == null && nanos >= measureFrom) {
                    window[0] = now;
                }
                if (window[1] == null && nanos >= measureTo) {
                    window[1] = now;
                }
            }
        }, "balance-sampler");
        sampler.setDaemon(true);
        Thread ticker = new Thread(() -> {
            long total = settings.warmupNanos() + settings.measureNanos();
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    Thread.sleep(2000);
                } catch (InterruptedException e) {
                    return;
                }
                double[] lastPoint = series.isEmpty() ? null : series.get(series.size() - 1);
                progress.printf(Locale.ROOT, "%s %4.0f/%.0f s  max/mean now %s%n", tag, (System.nanoTime() - t0) / 1e9,
                        total / 1e9, lastPoint == null ? "-" : String.format(Locale.ROOT, "%.2f", lastPoint[1]));
            }
        }, "balance-progress");
        ticker.setDaemon(true);
        sampler.start();
        ticker.start();
        LoadGenerator.Result result;
        try {
            result = new LoadGenerator().run(new LoadGenerator.Target(row, List.of(target)), keys, settings);
            Thread.sleep(SAMPLE_MILLIS + 100);
        } finally {
            sampler.interrupt();
            ticker.interrupt();
            sampler.join();
            ticker.join();
        }
        long[] loads = new long[servers.size()];
        if (window[0] != null && window[1] != null) {
            for (int i = 0; i < loads.length; i++) {
                loads[i] = window[1][i] - window[0][i];
            }
        }
        Map<String, String> lb = new LinkedHashMap<>();
        if (proxy != null) {
            proxy.stats().forEach((k, v) -> {
                if (k.equals("lb:replicated_keys") || k.equals("lb:shadow_reads") || k.equals("lb:p1_triggers")
                        || k.equals("lb:p3_triggers") || k.equals("lb:buckets_moved")
                        || k.equals("lb:migrated_keys")) {
                    lb.put(k, v);
                }
            });
        }
        return new Row(workload, row, description, result, maxOverMean(loads), loads, List.copyOf(series), null, lb);
    }

    /** Each backend's requests so far, as memcached counts them. */
    static long[] loads(MemcachedServers servers) {
        long[] n = new long[servers.size()];
        for (int i = 0; i < n.length; i++) {
            MemcachedServer s = servers.get(i);
            Map<String, String> st = s.stats();
            n[i] = Long.parseLong(st.get("cmd_get")) + Long.parseLong(st.get("cmd_set"))
                    + Long.parseLong(st.getOrDefault("cmd_touch", "0"));
        }
        return n;
    }

    static double maxOverMean(long[] loads) {
        long max = 0;
        long sum = 0;
        for (long l : loads) {
            max = Math.max(max, l);
            sum += l;
        }
        return sum == 0 ? Double.NaN : max * loads.length / (double) sum;
    }

    static String table(List<Row> rows) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%-22s %-10s %9s %10s %9s %8s  %s%n",
                "workload", "row", "max/mean", "ops/s", "p99 ms", "p99/off", "backend loads (measured window)"));
        Map<String, Double> offP99 = new LinkedHashMap<>();
        for (Row r : rows) {
            if (r.ran() && r.row().equals("off")) {
                offP99.put(r.workload(), r.result().total().latencyMillis(99));
            }
        }
        for (Row r : rows) {
            if (!r.ran()) {
                sb.append(String.format(Locale.ROOT, "%-22s %-10s %s%n", r.workload(), r.row(), "n/a: "
                        + r.unavailable()));
                continue;
            }
            double p99 = r.result().total().latencyMillis(99);
            Double off = offP99.get(r.workload());
            sb.append(String.format(Locale.ROOT, "%-22s %-10s %9.3f %10.0f %9.2f %8s  %s %s%n", r.workload(), r.row(),
                    r.imbalance(), r.result().throughput(), p99,
                    off == null ? "-" : String.format(Locale.ROOT, "%.2f", p99 / off),
                    java.util.Arrays.toString(r.backendLoads()), r.lb().isEmpty() ? "" : r.lb().toString()));
        }
        return sb.toString();
    }

    /** One line chart per workload: max/mean backend load over time, one series per row. */
    static Path chart(List<Row> rows, Path dir) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Map<String, XYChart> charts = new LinkedHashMap<>();
        for (Row r : rows) {
            if (!r.ran() || r.series().isEmpty()) {
                continue;
            }
            XYChart chart = charts.computeIfAbsent(r.workload(), w -> new XYChartBuilder().width(900).height(380)
                    .title("backend imbalance over time: " + w).xAxisTitle("seconds since the row started")
                    .yAxisTitle("max/mean backend load (500 ms)").build());
            double[] x = new double[r.series().size()];
            double[] y = new double[x.length];
            for (int i = 0; i < x.length; i++) {
                x[i] = r.series().get(i)[0];
                y[i] = Double.isNaN(r.series().get(i)[1]) ? 0 : r.series().get(i)[1];
            }
            chart.addSeries(r.row(), x, y);
        }
        Path file = dir.resolve("proxy-balance.png");
        if (charts.isEmpty()) {
            throw new IOException("no row ran");
        }
        BitmapEncoder.saveBitmap(new ArrayList<>(charts.values()), charts.size(), 1, file.toString(),
                BitmapEncoder.BitmapFormat.PNG);
        return file;
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }
}

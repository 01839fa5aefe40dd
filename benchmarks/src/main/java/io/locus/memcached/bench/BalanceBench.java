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
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./locus bench proxy-balance}: how evenly the backends are loaded, and what that does to throughput and p99,
 * with the proxy's load balancer off, with Phase 1 (hot-key replication), with Phases 1+3, and with twemproxy, on
 * Zipf and real key traces ({@code memcached-proxy/BALANCE.md}).
 *
 * <p>Each backend is a real memcached behind a {@link SlowShim} with {@link Emulation#CAPACITY}'s exponential service
 * at {@code --capacity} requests per second (500 by default, low enough that this 2-core machine carries the whole
 * pool, proxy and generator with CPU to spare, so the queues measured are the emulated backends' and not the
 * machine's), so a backend that gets more than its share queues as a loaded server does. The load is open-loop
 * Poisson at the same offered rate for every row; latency counts from the intended start. The rows run in rounds
 * (off, p1, ..., off, p1, ...) and each round's p99 is compared with the same round's off row, because this shared
 * machine drifts over minutes. A backend's load is what memcached itself counts ({@code cmd_get + cmd_set +
 * cmd_touch} from its {@code stats}), sampled every 500 ms; imbalance is max/mean of those loads.
 */
@Command(
        name = "proxy-balance",
        mixinStandardHelpOptions = true,
        description = "Backend imbalance, throughput and p99: balancer off, Phase 1, Phases 1+3, twemproxy.")
public final class BalanceBench implements Callable<Integer> {
    private static final long SAMPLE_MILLIS = 500;

    @Mixin
    LocusProxyOptions proxyOptions = new LocusProxyOptions();

    @Option(
            names = "--quick",
            description = "about 35 s: Zipf only, rows off,p1, 2 rounds, 3 s warm-up + 4 s per row; shows the "
                    + "backends' imbalance only (a 4 s window is too short for a p99 to compare)")
    boolean quick;

    @Option(names = "--seconds", description = "measured seconds per row (default 15, quick 4)")
    Integer seconds;

    @Option(names = "--warmup", description = "warm-up seconds per row, unmeasured (default 6, quick 3)")
    Integer warmup;

    @Option(
            names = "--capacity",
            description = "emulated capacity of each backend, ops/s: SlowShim's exponential "
                    + "service time has mean 1/capacity, and lb.capacity is set to it (default ${DEFAULT-VALUE})",
            defaultValue = "500")
    double capacity;

    @Option(
            names = "--rate",
            description =
                    "offered ops/s over all connections, Poisson (default 0.8 x backends x "
                            + "capacity: Zipf's hot backend, with 28 %% of the requests, then runs at about 0.9 of its capacity)")
    Double rate;

    @Option(
            names = "--rounds",
            description = "rounds of the Zipf workload; each round runs every row once, in "
                    + "order, so slow drifts of a shared machine hit every row alike (default 3, quick 2)")
    Integer rounds;

    @Option(
            names = "--trace-rounds",
            description = "rounds of each trace workload (default ${DEFAULT-VALUE})",
            defaultValue = "1")
    int traceRounds;

    @Option(
            names = "--spin",
            description = "run two 'nice -n 19' busy loops while measuring: an idle vCPU of this "
                    + "Firecracker VM halts and takes 1-2 ms to wake, which low-load latency would otherwise measure")
    boolean spin;

    /*
     * 256, not 32: LoadGenerator keeps one request in flight per connection. At 32 connections and 1,600 ops/s each
     * connection was busy about half the time, so one slow reply from the hot backend held back the next requests
     * of its connection, whichever backend they went to; that client-side queueing filled p99 for every row alike
     * and hid the balancer's effect (p99/off 0.88-1.32 in three rounds at 32 connections, 0.57-0.69 at 256).
     */
    @Option(
            names = "--connections",
            description = "client connections, one request in flight each "
                    + "(default ${DEFAULT-VALUE}: few enough requests per connection that a slow reply rarely delays the "
                    + "next one)",
            defaultValue = "256")
    int connections;

    @Option(
            names = "--get-fraction",
            description = "fraction of gets (default ${DEFAULT-VALUE})",
            defaultValue = "0.95")
    double getFraction;

    @Option(names = "--keys", description = "distinct Zipf keys (default ${DEFAULT-VALUE})", defaultValue = "10000")
    long keys;

    @Option(names = "--backends", description = "memcached servers (default ${DEFAULT-VALUE})", defaultValue = "4")
    int backends;

    @Option(
            names = "--traces",
            split = ",",
            description = "key traces to replay besides Zipf (default: every "
                    + "*.trace.xz of data/kv; none with --quick; --traces none: Zipf only)")
    List<Path> traces;

    @Option(
            names = "--trace-limit",
            description = "accesses read per trace (default ${DEFAULT-VALUE})",
            defaultValue = "2000000")
    int traceLimit;

    @Option(names = "--rows", split = ",", description = "rows: off,p1,p1p3,twemproxy (default all; quick off,p1)")
    List<String> rows;

    @Option(
            names = "--lb",
            description = "extra balancer keys for the Locus rows, e.g. --lb hot_home_load=0 "
                    + "(default epoch=500ms; with --quick: epoch=250ms)")
    Map<String, String> lbExtra;

    @Option(
            names = "--seed",
            description = "seed of every random choice (default ${DEFAULT-VALUE})",
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

    /**
     * One row of one round on one workload.
     *
     * @param offered the offered rate, ops/s
     * @param cpuBusy fraction of the machine's CPU time spent outside idle, iowait and nice during the measured
     *     window (the nice-19 busy loops of {@code --spin} are not counted; other people's jobs are), NaN if unknown
     * @param loadAverage the 1-minute load average at the row's end
     */
    record Row(
            String workload,
            int round,
            String row,
            String description,
            double offered,
            LoadGenerator.Result result,
            double imbalance,
            long[] backendLoads,
            List<double[]> series,
            String unavailable,
            Map<String, String> lb,
            double cpuBusy,
            String loadAverage) {
        boolean ran() {
            return result != null;
        }

        double p99() {
            return result.total().latencyMillis(99);
        }

        /** The busiest backend's measured rate over its capacity (what queueing on the hot backend depends on). */
        double hotUtilization(double capacity) {
            long max = 0;
            for (long l : backendLoads) {
                max = Math.max(max, l);
            }
            return max / result.measuredSeconds() / capacity;
        }
    }

    @Override
    public Integer call() throws Exception {
        int measure = seconds != null ? seconds : quick ? 4 : 15;
        // A 4 s window holds about 6,400 requests, so its p99 rests on the slowest 64: one burst at the hot backend
        // decides it, and rows differ by more between rounds than between balancer settings. A quick run shows what
        // such windows do measure, the backends' imbalance.
        boolean latency = !quick || measure >= 15;
        int warm = warmup != null ? warmup : quick ? 3 : 6;
        int zipfRounds = rounds != null ? rounds : quick ? 2 : 3;
        List<String> wanted =
                rows != null ? rows : quick ? List.of("off", "p1") : List.of("off", "p1", "p1p3", "twemproxy");
        for (String r : wanted) {
            if (!List.of("off", "p1", "p1p3", "twemproxy").contains(r)) {
                throw new CommandLine.ParameterException(
                        new CommandLine(this), "--rows: \"" + r + "\" (expected: off, p1, p1p3 or twemproxy)");
            }
        }
        if (lbExtra != null) {
            for (Map.Entry<String, String> e : lbExtra.entrySet()) {
                try {
                    LocusProxy.parseLine(e.getKey() + ": " + e.getValue());
                } catch (IllegalArgumentException bad) {
                    throw new CommandLine.ParameterException(new CommandLine(this), "--lb: " + bad.getMessage());
                }
            }
        }
        if (!(capacity >= 10 && capacity <= 1_000_000)) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this), "--capacity: " + capacity + " (expected: 10..1000000 ops/s per backend)");
        }
        if (zipfRounds < 1 || traceRounds < 1) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this),
                    "--rounds " + zipfRounds + ", --trace-rounds " + traceRounds + " (expected: >= 1)");
        }
        Path jar = proxyOptions.jar();
        proxyOptions.settings(); // a bad --proxy-set line is refused before anything starts
        if (!Files.isRegularFile(jar)) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this),
                    "--proxy-jar: " + jar.toAbsolutePath()
                            + " does not exist (expected: the shaded jar; build with mvn -pl memcached-proxy package)");
        }
        double offered = rate != null ? rate : 0.8 * backends * capacity;
        List<Path> traceFiles = traces == null
                ? null
                : traces.stream()
                        .filter(t -> !t.toString().isEmpty() && !t.toString().equals("none"))
                        .toList();
        if (traceFiles == null) {
            traceFiles = new ArrayList<>();
            Path dir = Path.of(System.getProperty("locus.data.dir", "data"), "kv");
            if (!quick && Files.isDirectory(dir)) {
                try (var files = Files.list(dir)) {
                    files.filter(f -> f.getFileName().toString().endsWith(".trace.xz"))
                            .sorted()
                            .forEach(traceFiles::add);
                }
            }
        }
        Path dir = out != null ? out : Path.of("benchmarks", "target", "bench-balance");
        Files.createDirectories(dir);
        Path hosts = dir.resolve("hosts");
        double meanServiceNanos = 1e9 / capacity;
        LoadGenerator.Settings settings = new LoadGenerator.Settings(
                connections,
                offered,
                getFraction,
                seed,
                warm * 1_000_000_000L,
                measure * 1_000_000_000L,
                Emulation.CAPACITY);
        stdout.println(String.format(
                        Locale.ROOT,
                        "# proxy-balance: %d memcached backends behind SlowShim (one server "
                                + "per backend, exponential service, mean %.3f ms = %.0f ops/s per backend); %.0f ops/s offered "
                                + "(Poisson, %d connections, %.0f%% gets) = %.2f of the pool's capacity; %d s warm-up + %d s measured "
                                + "per row; Zipf %d round(s), traces %d",
                        backends,
                        meanServiceNanos / 1e6,
                        capacity,
                        offered,
                        connections,
                        100 * getFraction,
                        offered / (backends * capacity),
                        warm,
                        measure,
                        zipfRounds,
                        traceRounds)
                + (quick ? "; --quick: lb.epoch 250ms" : "")
                + (latency ? "" : "; imbalance only: " + measure + " s windows are too short for a p99 to compare")
                + (lbExtra == null ? "" : "; lb " + lbExtra)
                + (proxyOptions.customised() ? "; proxy " + proxyOptions.describe() : "")
                + (spin ? "; --spin: two nice-19 busy loops run during every row" : ""));
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
        BusyLoops spinners = BusyLoops.start(spin ? 2 : 0);
        try {
            for (int w = 0; w < workloads.size(); w++) {
                KeySource workload = workloads.get(w);
                String name = names.get(w);
                int workloadRounds = w == 0 ? zipfRounds : traceRounds;
                long distinct = workload.distinctKeys();
                int megabytes = (int) Math.min(4096, Math.max(64, distinct * 1200 / (1 << 20)));
                try (MemcachedServers servers = MemcachedServers.start(
                        backends, MemcachedConfig.DEFAULTS.withThreads(1).withMemoryMegabytes(megabytes), hosts)) {
                    progress.printf(
                            Locale.ROOT,
                            "[%s] preloading %d keys into each of %d memcached servers ...%n",
                            name,
                            distinct,
                            backends);
                    Preloader.preload(workload, servers.addresses());
                    List<SlowShim> shims = new ArrayList<>();
                    try {
                        List<InetSocketAddress> addresses = new ArrayList<>();
                        for (int i = 0; i < backends; i++) {
                            SlowShim shim = SlowShim.start(
                                    "memcached-" + i,
                                    servers.get(i).address(),
                                    Emulation.CAPACITY,
                                    meanServiceNanos,
                                    seed * 31 + i);
                            shims.add(shim);
                            addresses.add(shim.address());
                        }
                        for (int round = 1; round <= workloadRounds; round++) {
                            // Every row of a round replays the same arrivals and keys (a paired comparison); each
                            // round draws new ones, so the rounds are independent samples.
                            LoadGenerator.Settings roundSettings = new LoadGenerator.Settings(
                                    connections,
                                    offered,
                                    getFraction,
                                    seed + 7919L * (round - 1),
                                    settings.warmupNanos(),
                                    settings.measureNanos(),
                                    settings.emulation());
                            for (String row : wanted) {
                                String tag = "[" + name + " r" + round + " " + row + "]";
                                try {
                                    Row r = runRow(
                                            name, round, row, tag, workload, roundSettings, servers, addresses, hosts);
                                    results.add(r);
                                    progress.printf(
                                            Locale.ROOT,
                                            "%s %s%n",
                                            tag,
                                            r.ran()
                                                    ? String.format(
                                                            Locale.ROOT,
                                                            "done: %.0f of %.0f ops/s, max/mean %.3f, p99 %.1f ms",
                                                            r.result().throughput(),
                                                            offered,
                                                            r.imbalance(),
                                                            r.p99())
                                                    : "not available: " + r.unavailable());
                                } catch (RuntimeException e) {
                                    failures++;
                                    results.add(new Row(
                                            name,
                                            round,
                                            row,
                                            row,
                                            offered,
                                            null,
                                            Double.NaN,
                                            null,
                                            List.of(),
                                            "FAILED: " + e.getMessage(),
                                            Map.of(),
                                            Double.NaN,
                                            loadAverage()));
                                    progress.printf("%s FAILED: %s%n", tag, e);
                                }
                            }
                        }
                    } finally {
                        shims.forEach(SlowShim::close);
                    }
                }
            }
        } finally {
            spinners.close();
        }
        String table = table(results, capacity, latency) + (latency ? summary(results) : imbalanceSummary(results));
        stdout.println();
        stdout.print(table);
        stdout.println();
        stdout.println(
                "# offered/carried = ops/s offered (Poisson) and completed in the measured window; hot rho = the "
                        + "busiest backend's measured rate / its capacity; max/mean = the busiest backend's load over the mean "
                        + "backend load (memcached's own cmd_get+cmd_set+cmd_touch, so the proxy's replica copies count); "
                        + "p99 from the intended start (open loop); p99/off = ratio to the balancer-off row of the same round "
                        + "and workload; hit = gets that found the preloaded value (a miss costs the backend a second request, "
                        + "the cache-aside set); err = requests answered with an error or not at all; cpu = machine CPU busy outside idle/iowait/nice in the measured window (all "
                        + "processes); load = 1-min load average at the row's end");
        for (Row r : results) {
            if (r.ran() && r.result().throughput() < 0.9 * offered) {
                stdout.println(String.format(
                        Locale.ROOT,
                        "# WARNING: %s r%d %s completed %.0f of %.0f offered ops/s "
                                + "in the measured window: this machine could not generate or carry the load, so its p99 is "
                                + "not comparable",
                        r.workload(),
                        r.round(),
                        r.row(),
                        r.result().throughput(),
                        offered));
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

    /**
     * The Locus proxy's configuration for a balancer row ({@code off}, {@code p1}, {@code p1p3}): pass-through with
     * the balancer's phases, {@code lbExtra} (may be null) added to the {@code lb} keys.
     */
    static Map<String, Object> proxyConfig(
            int port,
            List<InetSocketAddress> addresses,
            double capacity,
            String row,
            boolean quick,
            Map<String, String> lbExtra) {
        Map<String, Object> y = new LinkedHashMap<>();
        y.put("listen", "127.0.0.1:" + port);
        y.put("pool", Map.of("servers", LocusProxy.servers(addresses)));
        // One I/O thread and one connection per backend: every connection costs the shim three threads.
        // mode pass_through: like twemproxy, no cache and no deadline scheduler in the path; only the balancer differs.
        y.put("mode", "pass_through");
        y.put("local.mode", "off");
        y.put("backend.timeout", "10s");
        y.put("io_threads", 1);
        y.put("backend", Map.of("conns", 1));
        Map<String, Object> lb = new LinkedHashMap<>();
        lb.put("capacity", Math.round(capacity));
        lb.put("enabled", true);
        lb.put("phases", row.equals("off") ? "none" : row.equals("p1p3") ? "p1,p3" : "p1");
        // Quick runs: 4 persistent epochs fit in the 3 s warm-up with room for the copies.
        lb.put("epoch", quick ? "250ms" : "500ms");
        if (lbExtra != null) {
            lbExtra.forEach((k, v) -> lb.putAll(LocusProxy.parseLine(k + ": " + v)));
        }
        y.put("lb", lb);
        return y;
    }

    private Row runRow(
            String workload,
            int round,
            String row,
            String tag,
            KeySource keys,
            LoadGenerator.Settings settings,
            MemcachedServers servers,
            List<InetSocketAddress> addresses,
            Path hosts)
            throws InterruptedException {
        if (row.equals("twemproxy")) {
            Nutcracker.Builder builder = Nutcracker.builder(hosts);
            for (int i = 0; i < addresses.size(); i++) {
                builder.server(addresses.get(i), 1, "memcached-" + i);
            }
            try (Nutcracker nutcracker = builder.start()) {
                return measure(
                        workload,
                        round,
                        row,
                        "twemproxy " + nutcracker.version(),
                        tag,
                        keys,
                        settings,
                        servers,
                        nutcracker.address(),
                        null);
            }
        }
        int port = Ports.freeLoopbackPort();
        Map<String, Object> config = proxyConfig(port, addresses, capacity, row, quick, lbExtra);
        config.putAll(proxyOptions.settings());
        try (LocusProxy proxy = LocusProxy.start(
                "balance-" + row,
                proxyOptions.jar(),
                LocusProxy.dump(config),
                port,
                hosts,
                proxyOptions.jvmArgs("balance-" + row))) {
            return measure(
                    workload,
                    round,
                    row,
                    row.equals("off")
                            ? "Locus, balancer observing only (lb.phases none)"
                            : row.equals("p1p3")
                                    ? "Locus, Phases 1+3 (hot-key replication, bucket migration)"
                                    : "Locus, Phase 1 hot-key replication",
                    tag,
                    keys,
                    settings,
                    servers,
                    proxy.address(),
                    proxy);
        }
    }

    private Row measure(
            String workload,
            int round,
            String row,
            String description,
            String tag,
            KeySource keys,
            LoadGenerator.Settings settings,
            MemcachedServers servers,
            InetSocketAddress target,
            LocusProxy proxy)
            throws InterruptedException {
        List<double[]> series = new CopyOnWriteArrayList<>();
        long[][] window = new long[2][];
        long[][] cpu = new long[2][];
        long t0 = System.nanoTime();
        long measureFrom = t0 + 50_000_000L + settings.warmupNanos();
        long measureTo = measureFrom + settings.measureNanos();
        Thread sampler = new Thread(
                () -> {
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
                        if (java.util.Arrays.stream(delta).sum()
                                >= 50) { // after the load ends, max/mean of a few is noise
                            series.add(new double[] {(nanos - t0) / 1e9, maxOverMean(delta)});
                        }
                        if (window[0] == null && nanos >= measureFrom) {
                            window[0] = now;
                            cpu[0] = cpuTicks();
                        }
                        if (window[1] == null && nanos >= measureTo) {
                            window[1] = now;
                            cpu[1] = cpuTicks();
                        }
                    }
                },
                "balance-sampler");
        sampler.setDaemon(true);
        Thread ticker = new Thread(
                () -> {
                    long total = settings.warmupNanos() + settings.measureNanos();
                    while (!Thread.currentThread().isInterrupted()) {
                        try {
                            Thread.sleep(2000);
                        } catch (InterruptedException e) {
                            return;
                        }
                        double[] lastPoint = series.isEmpty() ? null : series.get(series.size() - 1);
                        progress.printf(
                                Locale.ROOT,
                                "%s %4.0f/%.0f s  max/mean now %s%n",
                                tag,
                                (System.nanoTime() - t0) / 1e9,
                                total / 1e9,
                                lastPoint == null ? "-" : String.format(Locale.ROOT, "%.2f", lastPoint[1]));
                    }
                },
                "balance-progress");
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
                if (List.of(
                                "lb:replicated_keys",
                                "lb:shadow_reads",
                                "lb:shadow_fallbacks",
                                "lb:versioned_writes",
                                "lb:p1_triggers",
                                "lb:p3_triggers",
                                "lb:buckets_moved",
                                "lb:migrated_keys")
                        .contains(k)) {
                    lb.put(k, v);
                }
            });
        }
        return new Row(
                workload,
                round,
                row,
                description,
                settings.ratePerSecond(),
                result,
                maxOverMean(loads),
                loads,
                List.copyOf(series),
                null,
                lb,
                busyFraction(cpu[0], cpu[1]),
                loadAverage().split(" ")[0]);
    }

    /** The machine's {busy, total} CPU ticks from /proc/stat; busy leaves out idle, iowait and nice; null if unknown. */
    static long[] cpuTicks() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long total = 0;
            for (int i = 1; i < f.length && i <= 8; i++) { // user nice system idle iowait irq softirq steal
                total += Long.parseLong(f[i]);
            }
            long busy = total - Long.parseLong(f[2]) - Long.parseLong(f[4]) - Long.parseLong(f[5]);
            return new long[] {busy, total};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    static double busyFraction(long[] before, long[] after) {
        if (before == null || after == null || after[1] <= before[1]) {
            return Double.NaN;
        }
        return (after[0] - before[0]) / (double) (after[1] - before[1]);
    }

    /** Each backend's requests so far, as memcached counts them. */
    static long[] loads(MemcachedServers servers) {
        long[] n = new long[servers.size()];
        for (int i = 0; i < n.length; i++) {
            MemcachedServer s = servers.get(i);
            Map<String, String> st = s.stats();
            n[i] = Long.parseLong(st.get("cmd_get"))
                    + Long.parseLong(st.get("cmd_set"))
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

    static String table(List<Row> rows, double capacity) {
        return table(rows, capacity, true);
    }

    /** The per-row table; without {@code latency}, no p50/p99 columns (windows too short to compare them). */
    static String table(List<Row> rows, double capacity, boolean latency) {
        StringBuilder sb = new StringBuilder(String.format(
                Locale.ROOT,
                "%-16s %2s %-9s %7s %7s %6s %8s " + (latency ? "%6s %8s %7s " : "%s%s%s") + "%6s %5s %4s %5s  %s%n",
                "workload",
                "r",
                "row",
                "offered",
                "carried",
                "hot rho",
                "max/mean",
                latency ? "p50 ms" : "",
                latency ? "p99 ms" : "",
                latency ? "p99/off" : "",
                "hit",
                "err",
                "cpu",
                "load",
                "backend shares of requests (memcached cmd_*), lb counters"));
        Map<String, Double> offP99 = new LinkedHashMap<>();
        for (Row r : rows) {
            if (r.ran() && r.row().equals("off")) {
                offP99.put(r.workload() + "#" + r.round(), r.p99());
            }
        }
        for (Row r : rows) {
            if (!r.ran()) {
                sb.append(String.format(
                        Locale.ROOT,
                        "%-16s %2d %-9s %s%n",
                        r.workload(),
                        r.round(),
                        r.row(),
                        "n/a: " + r.unavailable()));
                continue;
            }
            Double off = offP99.get(r.workload() + "#" + r.round());
            String latencyColumns = latency
                    ? String.format(
                            Locale.ROOT,
                            "%6.2f %8.2f %7s ",
                            r.result().total().latencyMillis(50),
                            r.p99(),
                            off == null ? "-" : String.format(Locale.ROOT, "%.2f", r.p99() / off))
                    : "";
            sb.append(String.format(
                    Locale.ROOT,
                    "%-16s %2d %-9s %7.0f %7.0f %6.2f %8.3f %s%5.1f%% %5d %3.0f%% %5s  %s %s%n",
                    r.workload(),
                    r.round(),
                    r.row(),
                    r.offered(),
                    r.result().throughput(),
                    r.hotUtilization(capacity),
                    r.imbalance(),
                    latencyColumns,
                    100 * r.result().total().hitRatio(),
                    r.result().total().errors,
                    100 * r.cpuBusy(),
                    r.loadAverage(),
                    shares(r.backendLoads()),
                    r.lb().isEmpty() ? "" : r.lb().toString()));
        }
        return sb.toString();
    }

    /** "26.1/23.9/28.0/22.4%" of the window's backend loads. */
    static String shares(long[] loads) {
        long sum = 0;
        for (long l : loads) {
            sum += l;
        }
        StringBuilder sb = new StringBuilder();
        for (long l : loads) {
            sb.append(sb.length() == 0 ? "" : "/")
                    .append(sum == 0 ? "-" : String.format(Locale.ROOT, "%.1f", 100.0 * l / sum));
        }
        return sb.append('%').toString();
    }

    /**
     * Per workload and row (other than off): each round's p99 and throughput over the same round's off row, and the
     * median of those ratios. Rounds interleave the rows, so a ratio compares two runs a minute apart at most.
     * "pooled" is the p99 of all rounds' requests of the row over that of all off rows: one p99 over the longer window
     * is steadier than a 15 s window's, in which a few excursions of the hot queue decide the tail.
     */
    static String summary(List<Row> rows) {
        StringBuilder sb = new StringBuilder();
        Map<String, Map<String, List<double[]>>> ratios = new LinkedHashMap<>();
        Map<String, Row> off = new LinkedHashMap<>();
        for (Row r : rows) {
            if (r.ran() && r.row().equals("off")) {
                off.put(r.workload() + "#" + r.round(), r);
            }
        }
        for (Row r : rows) {
            Row o = off.get(r.workload() + "#" + r.round());
            if (!r.ran() || r.row().equals("off") || o == null) {
                continue;
            }
            ratios.computeIfAbsent(r.workload(), w -> new LinkedHashMap<>())
                    .computeIfAbsent(r.row(), x -> new ArrayList<>())
                    .add(new double[] {
                        r.p99() / o.p99(), r.result().throughput() / o.result().throughput(), r.p99(), o.p99()
                    });
        }
        if (ratios.isEmpty()) {
            return "";
        }
        Map<String, OpStats> pooled = new LinkedHashMap<>();
        for (Row r : rows) {
            if (r.ran()) {
                pooled.computeIfAbsent(r.workload() + "#" + r.row(), k -> new OpStats())
                        .add(r.result().total());
            }
        }
        sb.append(String.format(
                Locale.ROOT,
                "%n%-16s %-9s %-40s %7s %8s %-22s %7s%n",
                "workload",
                "row",
                "p99/off per round (p99 ms/off ms)",
                "median",
                "pooled",
                "throughput/off",
                "median"));
        ratios.forEach((w, byRow) -> byRow.forEach((row, list) -> {
            StringBuilder p = new StringBuilder();
            StringBuilder t = new StringBuilder();
            double[] pr = new double[list.size()];
            double[] tr = new double[list.size()];
            for (int i = 0; i < list.size(); i++) {
                double[] x = list.get(i);
                pr[i] = x[0];
                tr[i] = x[1];
                p.append(i == 0 ? "" : " ").append(String.format(Locale.ROOT, "%.2f(%.0f/%.0f)", x[0], x[2], x[3]));
                t.append(i == 0 ? "" : " ").append(String.format(Locale.ROOT, "%.3f", x[1]));
            }
            OpStats mine = pooled.get(w + "#" + row);
            OpStats theirs = pooled.get(w + "#off");
            sb.append(String.format(
                    Locale.ROOT,
                    "%-16s %-9s %-40s %7.2f %8.2f %-22s %7.3f%n",
                    w,
                    row,
                    p,
                    median(pr),
                    mine.latencyMillis(99) / theirs.latencyMillis(99),
                    t,
                    median(tr)));
        }));
        return sb.toString();
    }

    /** Per workload and row (other than off): each round's max/mean over the same round's off row, and the median. */
    static String imbalanceSummary(List<Row> rows) {
        Map<String, Row> off = new LinkedHashMap<>();
        for (Row r : rows) {
            if (r.ran() && r.row().equals("off")) {
                off.put(r.workload() + "#" + r.round(), r);
            }
        }
        Map<String, List<double[]>> ratios = new LinkedHashMap<>();
        for (Row r : rows) {
            Row o = off.get(r.workload() + "#" + r.round());
            if (r.ran() && !r.row().equals("off") && o != null) {
                ratios.computeIfAbsent(r.workload() + "#" + r.row(), k -> new ArrayList<>())
                        .add(new double[] {r.imbalance() / o.imbalance(), r.imbalance(), o.imbalance()});
            }
        }
        if (ratios.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder(String.format(
                Locale.ROOT,
                "%n%-16s %-9s %-44s %7s%n",
                "workload",
                "row",
                "max/mean vs off per round (row/off)",
                "median"));
        ratios.forEach((key, list) -> {
            StringBuilder p = new StringBuilder();
            double[] v = new double[list.size()];
            for (int i = 0; i < list.size(); i++) {
                double[] x = list.get(i);
                v[i] = x[0];
                p.append(i == 0 ? "" : " ").append(String.format(Locale.ROOT, "%.3f(%.3f/%.3f)", x[0], x[1], x[2]));
            }
            String[] wr = key.split("#", 2);
            sb.append(String.format(Locale.ROOT, "%-16s %-9s %-44s %7.3f%n", wr[0], wr[1], p, median(v)));
        });
        return sb.toString();
    }

    static double median(double[] values) {
        double[] v = values.clone();
        java.util.Arrays.sort(v);
        int n = v.length;
        return n == 0 ? Double.NaN : n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    /** One line chart per workload: max/mean backend load over time, one series per row. */
    static Path chart(List<Row> rows, Path dir) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Map<String, XYChart> charts = new LinkedHashMap<>();
        for (Row r : rows) {
            if (!r.ran() || r.series().isEmpty()) {
                continue;
            }
            XYChart chart = charts.computeIfAbsent(
                    r.workload(),
                    w -> new XYChartBuilder()
                            .width(900)
                            .height(380)
                            .title("backend imbalance over time: " + w)
                            .xAxisTitle("seconds since the row started")
                            .yAxisTitle("max/mean backend load (500 ms)")
                            .build());
            double[] x = new double[r.series().size()];
            double[] y = new double[x.length];
            for (int i = 0; i < x.length; i++) {
                x[i] = r.series().get(i)[0];
                y[i] = Double.isNaN(r.series().get(i)[1]) ? 0 : r.series().get(i)[1];
            }
            chart.addSeries(r.row() + " r" + r.round(), x, y);
        }
        Path file = dir.resolve("proxy-balance.png");
        if (charts.isEmpty()) {
            throw new IOException("no row ran");
        }
        BitmapEncoder.saveBitmap(
                new ArrayList<>(charts.values()), charts.size(), 1, file.toString(), BitmapEncoder.BitmapFormat.PNG);
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

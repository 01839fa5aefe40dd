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
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./locus bench proxy}: in one run, starts real memcached servers (behind {@link SlowShim}s so deadlines
 * matter on loopback), preloads them, and measures the same workload against direct memcached, twemproxy, and the
 * Locus proxy in each {@link LocusMode}, printing one table (stdout), a CSV and a PNG chart under the output
 * directory. Progress goes to stderr. Exit code 0 if every available row ran, 1 if a row failed, 2 for bad options.
 */
@Command(
        name = "proxy-bench",
        mixinStandardHelpOptions = true,
        description = "Direct memcached vs twemproxy vs the Locus proxy (pass-through, DLC, DLC+DLS+admission).")
public final class ProxyBench implements Callable<Integer> {
    static final String JAR_NAME = "locus-memcached-proxy-0.1.0-SNAPSHOT.jar";

    @Option(names = "--quick", description = "about one minute: 3 s warm-up + 8 s per row, 5000 keys per tenant")
    boolean quick;

    @Option(names = "--seconds", description = "measured seconds per row (default 40, quick 8)")
    Integer seconds;

    @Option(names = "--warmup", description = "warm-up seconds per row (default 10, quick 3)")
    Integer warmup;

    @Option(
            names = "--connections",
            description = "client connections: threads of the threads generator (default 32); "
                    + "with the nio generator, the most connections in all (split over the endpoints), opened on demand "
                    + "(default 512)")
    Integer connections;

    @Option(
            names = "--generator",
            description =
                    "threads: one thread per connection, one request in flight (closed "
                            + "loop, or Poisson per thread with --rate); nio: open loop only, one Poisson stream sent on idle "
                            + "connections of a pool by two threads (faithful at overload). Default: nio with --rate, else threads")
    String generatorName;

    @Option(
            names = "--rate",
            description = "target ops/s over all connections, Poisson; 0 = closed loop " + "(default ${DEFAULT-VALUE})",
            defaultValue = "0")
    double rate;

    @Option(
            names = "--load",
            description = "offered load as a fraction of the emulated backends' capacity, instead of --rate: "
                    + "rate = load x backends / mean service time (open loop, the same for every row)")
    Double load;

    @Option(
            names = "--get-fraction",
            description = "fraction of gets (default ${DEFAULT-VALUE})",
            defaultValue = "0.95")
    double getFraction;

    @Option(names = "--keys-per-tenant", description = "distinct keys per tenant (default 50000, quick 5000)")
    Long keysPerTenant;

    @Option(names = "--trace", description = "replay a key trace of data/kv instead of Zipf keys")
    Path trace;

    @Option(
            names = "--trace-limit",
            description = "accesses read from the trace (default ${DEFAULT-VALUE})",
            defaultValue = "1000000")
    int traceLimit;

    @Option(names = "--backends", description = "memcached servers (default ${DEFAULT-VALUE})", defaultValue = "2")
    int backends;

    @Option(
            names = "--emulation",
            description = "backend slow-down: ${COMPLETION-CANDIDATES} (default " + "${DEFAULT-VALUE})",
            defaultValue = "SCALED10")
    Emulation emulation;

    @Option(
            names = "--local-fraction",
            description = "Locus local cache capacity as a fraction of the data bytes "
                    + "(default ${DEFAULT-VALUE}, the thesis's 6 GB of 21.6 GB)",
            defaultValue = "0.278")
    double localFraction;

    @Option(
            names = "--rows",
            split = ",",
            description = "rows to run: direct,twemproxy,locus,locus-dlc,locus-dlc-dls " + "(default all)")
    List<String> rows;

    @Option(
            names = "--seed",
            description = "seed of every random choice (default ${DEFAULT-VALUE})",
            defaultValue = "42")
    long seed;

    @Mixin
    LocusProxyOptions proxyOptions = new LocusProxyOptions();

    @Option(
            names = "--busy-loops",
            description = "start this many 'nice -n 19' busy loops for the run (default "
                    + "${DEFAULT-VALUE}). Why: on a Firecracker VM an idle vCPU halts and waking it costs 1-2 ms, which at "
                    + "low load dominates every row's latency; lowest-priority spinners keep the vCPUs awake and yield to "
                    + "any real work",
            defaultValue = "0")
    int busyLoops;

    @Option(
            names = "--memcaslap-rounds",
            description = "after the rows, the memcaslap comparison of ./locus bench proxy-memcaslap (mix and hot-read "
                    + "workloads) in this many interleaved rounds; 0 skips it (default 4, quick 2)")
    Integer memcaslapRounds;

    @Option(
            names = "--memcaslap-seconds",
            description = "memcaslap run time per target and round (default 10, quick 5)")
    Integer memcaslapSeconds;

    @Option(
            names = "--level-detail",
            description = "print, per second of a Locus row's measured window, each service level's inflation and its "
                    + "refusals by cause (from the proxy's stats)")
    boolean levelDetail;

    @Option(names = "--out", description = "output directory (default benchmarks/target/bench)")
    Path out;

    private final PrintStream stdout;
    private final PrintStream progress;
    private final List<RowResult> results = new ArrayList<>();
    private final List<Long> pidsStarted = new ArrayList<>();
    private final List<String> cpuLines = new ArrayList<>();
    private final List<MemcaslapBench.Run> memcaslapRuns = new ArrayList<>();

    ProxyBench(PrintStream stdout, PrintStream progress) {
        this.stdout = stdout;
        this.progress = progress;
    }

    /** Runs the harness and exits with its code. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new ProxyBench(System.out, System.err))
                .setCaseInsensitiveEnumValuesAllowed(true)
                .execute(args));
    }

    /** Offered ops/s at {@code load} times the capacity of {@code backends} servers slowed by {@code emulation}. */
    static double rateAt(double load, int backends, Emulation emulation) {
        return load * backends * 1e9 / emulation.meanServiceNanos();
    }

    /** The rows of the last run, in table order. */
    List<RowResult> results() {
        return results;
    }

    /** The memcaslap comparison's runs, in order; empty if it was skipped. */
    List<MemcaslapBench.Run> memcaslapRuns() {
        return memcaslapRuns;
    }

    /** Every pid this run started (memcached, nutcracker, proxies), for teardown checks. */
    List<Long> pidsStarted() {
        return pidsStarted;
    }

    @Override
    public Integer call() throws Exception {
        int measure = seconds != null ? seconds : quick ? 8 : 40;
        int mcRounds = memcaslapRounds != null ? memcaslapRounds : quick ? 2 : 4;
        int mcSeconds = memcaslapSeconds != null ? memcaslapSeconds : quick ? 5 : 10;
        int warm = warmup != null ? warmup : quick ? 3 : 10;
        long keysEach = keysPerTenant != null ? keysPerTenant : quick ? 5000 : 50_000;
        if (measure < 1
                || warm < 0
                || keysEach < 1
                || backends < 1
                || backends > 16
                || localFraction < 0
                || localFraction > 1
                || busyLoops < 0
                || busyLoops > 8
                || mcRounds < 0
                || mcSeconds < 1) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this),
                    "--seconds " + measure + ", --warmup "
                            + warm + ", --keys-per-tenant " + keysEach + ", --backends " + backends
                            + ", --local-fraction "
                            + localFraction + ", --busy-loops " + busyLoops + ", --memcaslap-rounds " + mcRounds
                            + ", --memcaslap-seconds " + mcSeconds
                            + " (expected: seconds >= 1, warm-up >= 0, keys >= 1, "
                            + "backends 1..16, local fraction 0..1, busy loops 0..8, memcaslap rounds >= 0, "
                            + "memcaslap seconds >= 1)");
        }
        List<String> wanted =
                rows != null ? rows : List.of("direct", "twemproxy", "locus", "locus-dlc", "locus-dlc-dls");
        for (String row : wanted) {
            if (!List.of("direct", "twemproxy", "locus", "locus-dlc", "locus-dlc-dls")
                    .contains(row)) {
                throw new CommandLine.ParameterException(
                        new CommandLine(this),
                        "--rows: \"" + row + "\" (expected: direct, twemproxy, locus, locus-dlc, locus-dlc-dls)");
            }
        }
        if (load != null) {
            if (!(load > 0) || rate > 0 || !emulation.shimmed()) {
                throw new CommandLine.ParameterException(
                        new CommandLine(this),
                        "--load " + load + " with --rate " + rate + " and --emulation "
                                + emulation.name().toLowerCase(Locale.ROOT)
                                + " (expected: load > 0, no --rate, an emulation with a capacity)");
            }
            rate = rateAt(load, backends, emulation);
        }
        String generatorKind = generatorName != null ? generatorName : rate > 0 ? "nio" : "threads";
        if (!List.of("threads", "nio").contains(generatorKind) || generatorKind.equals("nio") && !(rate > 0)) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this),
                    "--generator " + generatorKind + " with --rate " + rate
                            + " (expected: threads, or nio with --rate > 0)");
        }
        int conns = connections != null ? connections : generatorKind.equals("nio") ? 512 : 32;
        Path jar = proxyOptions.jar();
        proxyOptions.settings(); // a bad --proxy-set line is refused before anything starts
        if (wanted.stream().anyMatch(r -> r.startsWith("locus")) && !Files.isRegularFile(jar)) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this),
                    "--proxy-jar: " + jar.toAbsolutePath()
                            + " does not exist (expected: the shaded jar; build it with "
                            + "mvn -B -ntp -pl memcached-proxy -am package -DskipTests)");
        }
        Path dir = (out != null
                        ? out
                        : Files.isRegularFile(Path.of("benchmarks", "pom.xml"))
                                ? Path.of("benchmarks", "target", "bench")
                                : Path.of("target", "bench"))
                .toAbsolutePath();
        Path hosts = dir.resolve("hosts");
        Files.createDirectories(hosts);

        KeySource keys =
                trace != null ? TraceKeys.read(trace, traceLimit) : new ZipfKeys(TenantProfile.defaults(), keysEach);
        LoadGenerator.Settings settings = new LoadGenerator.Settings(
                conns, rate, getFraction, seed, warm * 1_000_000_000L, measure * 1_000_000_000L, emulation);
        String load = generatorKind.equals("nio")
                ? String.format(
                        Locale.ROOT,
                        "open loop (one Poisson stream) at %.0f "
                                + "ops/s, nio generator: each request sent at its arrival on an idle connection (at most %d in all, "
                                + "one request in flight each), else it waits in the generator",
                        rate,
                        conns)
                : rate > 0
                        ? String.format(
                                Locale.ROOT,
                                "open loop (Poisson per thread) at %.0f ops/s over %d "
                                        + "connections, one request in flight each",
                                rate,
                                conns)
                        : "closed loop, " + conns + " connections, one request in flight each";

        stdout.println("# Locus memcached proxy benchmark, " + Instant.now());
        stdout.println("# backends: " + backends + " x memcached (-t 1), preloaded with every key; emulation: "
                + emulation.description()
                + (emulation.shimmed()
                        ? String.format(
                                Locale.ROOT,
                                " (capacity about %.0f ops/s per backend)",
                                1e9 / emulation.meanServiceNanos())
                        : ""));
        stdout.println("# deadlines (key prefix tenant:range:, proxy deadline_rules): R1 "
                + emulation.deadlineMillis(DeadlineRange.R1) + " ms, R2 " + emulation.deadlineMillis(DeadlineRange.R2)
                + " ms, R3 " + emulation.deadlineMillis(DeadlineRange.R3) + " ms, b = best-effort");
        stdout.println("# workload: " + keys.describe() + "; " + Math.round(getFraction * 100) + "% get (a miss is "
                + "followed by a set), rest set; " + load + "; warm-up " + warm + " s, measured " + measure
                + " s per row; seed " + seed);
        for (TenantProfile t :
                keys.tenants().subList(0, Math.min(8, keys.tenants().size()))) {
            stdout.println(String.format(
                    Locale.ROOT,
                    "#   tenant %-8s share %.2f  R1 %.2f R2 %.2f R3 %.2f " + "best-effort %.2f  level %s",
                    t.name(),
                    t.share(),
                    t.r1(),
                    t.r2(),
                    t.r3(),
                    1 - t.r1() - t.r2() - t.r3(),
                    t.level()));
        }
        stdout.println("# rows: direct = clients straight to the (shimmed) memcached servers, key placement by FNV-1a "
                + "mod n; twemproxy = nutcracker, ketama + fnv1a_64; "
                + java.util.Arrays.stream(LocusMode.values())
                        .map(m -> m.label() + " = " + m.description())
                        .collect(java.util.stream.Collectors.joining("; ")));
        stdout.println("# load average before: " + loadAverage()
                + (busyLoops > 0
                        ? "; " + busyLoops
                                + " 'nice -n 19' busy loops keep the vCPUs awake during the run (--busy-loops)"
                        : ""));
        stdout.flush();

        long distinct = keys.distinctKeys();
        int megabytes = (int) Math.min(4096, Math.max(64, distinct * 1200 / (1 << 20)));
        Generator generator = Generator.of(generatorKind);
        List<SlowShim> shims = new ArrayList<>();
        BusyLoops spinners = BusyLoops.start(busyLoops);
        pidsStarted.addAll(spinners.pids());
        int failures = 0;
        try (MemcachedServers servers = MemcachedServers.start(
                backends, MemcachedConfig.DEFAULTS.withThreads(1).withMemoryMegabytes(megabytes), hosts)) {
            servers.servers().forEach(s -> pidsStarted.addAll(s.pidsStarted()));
            progress.printf(Locale.ROOT, "preloading %d keys into %d memcached servers ...%n", distinct, backends);
            long dataBytes = Preloader.preload(keys, servers.addresses());
            long localCapacity = Math.max(1, (long) (dataBytes * localFraction));
            stdout.println(String.format(
                    Locale.ROOT,
                    "# data: %d keys, %.1f MiB of keys+values per copy; Locus " + "local.capacity_bytes %d (%.1f%%)",
                    distinct,
                    dataBytes / 1048576.0,
                    localCapacity,
                    100 * localFraction));
            List<InetSocketAddress> backendAddresses = new ArrayList<>();
            for (int i = 0; i < backends; i++) {
                if (emulation.shimmed()) {
                    SlowShim shim =
                            SlowShim.start("memcached-" + i, servers.get(i).address(), emulation, seed * 31 + i);
                    shims.add(shim);
                    backendAddresses.add(shim.address());
                } else {
                    backendAddresses.add(servers.get(i).address());
                }
            }
            int index = 0;
            for (String row : wanted) {
                index++;
                String tag = "[" + index + "/" + wanted.size() + " " + row + "]";
                try {
                    RowResult result =
                            runRow(row, tag, jar, hosts, keys, settings, generator, backendAddresses, localCapacity);
                    if (!shims.isEmpty()) {
                        StringBuilder late = new StringBuilder("shim lateness " + row + " (whole row):");
                        for (SlowShim shim : shims) {
                            late.append(' ').append(shim.takeLateness()).append(';');
                        }
                        cpuLines.add(late.toString());
                    }
                    results.add(result);
                    if (result.ran()) {
                        progress.printf(
                                Locale.ROOT,
                                "%s done: %.0f ops/s%n",
                                tag,
                                result.result().throughput());
                    } else {
                        progress.printf("%s not available: %s%n", tag, result.unavailable());
                    }
                } catch (RuntimeException e) {
                    failures++;
                    results.add(new RowResult(row, row, null, Double.NaN, "FAILED: " + e.getMessage()));
                    progress.printf("%s FAILED: %s%n", tag, e);
                }
            }
            long evictions = servers.servers().stream()
                    .mapToLong(s -> Long.parseLong(s.stats().get("evictions")))
                    .sum();
            StringBuilder spread = new StringBuilder();
            for (MemcachedServer s : servers.servers()) {
                spread.append(' ').append(s.name()).append('=').append(s.stats().get("cmd_get"));
            }
            String table = ResultTable.text(results, keys.tenants());
            stdout.println();
            stdout.print(table);
            stdout.println();
            stdout.println("# ops/s = all replies (sets, cache-aside fills and fast refusals included); "
                    + "values/s = gets that returned the value; met = gets with a deadline whose value came back "
                    + "within it, latency from the intended start; hit = client-seen hits / gets (every key is "
                    + "preloaded, so a miss is a refusal that classic.reject_mode turned into a miss); local = the "
                    + "proxy's in-proxy cache hits / gets (its stats); rej = proxy rejects / requests; ops/dir, "
                    + "p99/dir = ratio to direct memcached, /twem = to twemproxy");
            DeadlineReport.lines(results, keys.tenants()).forEach(stdout::println);
            addedLatency(results).forEach(stdout::println);
            tailByKind(results).forEach(stdout::println);
            stdout.println("# backend evictions: " + evictions + "; backend cmd_get (all rows):" + spread);
            for (SlowShim shim : shims) {
                long[] c = shim.counters();
                stdout.println(
                        String.format(Locale.ROOT, "# %s: %d replies, emulated busy %.1f s", shim, c[0], c[1] / 1e9));
            }
            for (String line : cpuLines) {
                stdout.println(
                        line.startsWith("stats deadline ")
                                        || line.startsWith("levels ")
                                        || line.startsWith("generator ")
                                        || line.startsWith("clocks ")
                                        || line.startsWith("shim lateness ")
                                ? "# " + line
                                : "# proxy CPU " + line);
            }
            stdout.println("# load average after: " + loadAverage());
            Files.writeString(dir.resolve("proxy-bench.txt"), table);
            Files.writeString(dir.resolve("proxy-bench.csv"), ResultTable.csv(results, keys.tenants()));
            try {
                Path png = Charts.write(
                        results,
                        keys.tenants(),
                        dir,
                        "memcached proxy, " + emulation.name().toLowerCase(Locale.ROOT) + ", " + conns
                                + " connections");
                stdout.println("# written: " + dir.resolve("proxy-bench.csv") + ", " + png);
            } catch (IOException | RuntimeException | Error e) {
                stdout.println("# written: " + dir.resolve("proxy-bench.csv") + " (no chart: " + e + ")");
            }
            servers.servers().forEach(s -> pidsStarted.addAll(s.pidsStarted()));
        } finally {
            shims.forEach(SlowShim::close);
            spinners.close();
        }
        if (mcRounds > 0 && !memcaslap(dir, mcRounds, mcSeconds, quick ? 1 : 3)) {
            failures++;
        }
        return failures == 0 ? 0 : 1;
    }

    /** The memcaslap comparison with this run's proxy options, its files under {@code dir/memcaslap}. */
    private boolean memcaslap(Path dir, int rounds, int runSeconds, int warmupSeconds) {
        MemcaslapBench m = new MemcaslapBench(stdout, progress);
        m.proxyOptions = proxyOptions;
        m.rounds = rounds;
        m.seconds = runSeconds;
        m.warmup = warmupSeconds;
        m.out = dir.resolve("memcaslap");
        stdout.println();
        try {
            m.call();
            memcaslapRuns.addAll(m.runs());
            return true;
        } catch (Exception e) {
            stdout.println("# memcaslap comparison FAILED: " + e.getMessage());
            progress.println("memcaslap comparison FAILED: " + e);
            return false;
        }
    }

    private RowResult runRow(
            String row,
            String tag,
            Path jar,
            Path hosts,
            KeySource keys,
            LoadGenerator.Settings settings,
            Generator generator,
            List<InetSocketAddress> backendAddresses,
            long localCapacity)
            throws InterruptedException {
        switch (row) {
            case "direct":
                return new RowResult(
                        row,
                        "direct memcached (client-side placement)",
                        measured(
                                tag,
                                generator,
                                settings,
                                () -> generator.run(new LoadGenerator.Target(row, backendAddresses), keys, settings)),
                        Double.NaN,
                        null);
            case "twemproxy": {
                Nutcracker.Builder builder = Nutcracker.builder(hosts);
                for (int i = 0; i < backendAddresses.size(); i++) {
                    builder.server(backendAddresses.get(i), 1, "memcached-" + i);
                }
                try (Nutcracker nutcracker = builder.start()) {
                    pidsStarted.add(nutcracker.pid());
                    ProcessCpu cpu = ProcessCpu.start(nutcracker.pid(), generator::completed, settings.warmupNanos());
                    LoadGenerator.Result result = measured(
                            tag,
                            generator,
                            settings,
                            () -> generator.run(
                                    new LoadGenerator.Target(row, List.of(nutcracker.address())), keys, settings));
                    cpuLines.add(cpu.line(row));
                    return new RowResult(row, "twemproxy " + nutcracker.version(), result, Double.NaN, null);
                }
            }
            default: {
                LocusMode mode = switch (row) {
                    case "locus" -> LocusMode.PASS_THROUGH;
                    case "locus-dlc" -> LocusMode.DLC;
                    default -> LocusMode.DLC_DLS;
                };
                int port = Ports.freeLoopbackPort();
                Map<String, Object> proxyConfig =
                        LocusProxy.config(mode, port, backendAddresses, keys.tenants(), emulation, localCapacity);
                proxyConfig.putAll(proxyOptions.settings());
                String yaml = LocusProxy.dump(proxyConfig);
                Path config = hosts.resolve(row + "-check.yaml");
                try {
                    Files.writeString(config, yaml);
                } catch (IOException e) {
                    throw new IllegalStateException("cannot write " + config, e);
                }
                String refused = LocusProxy.check(jar, config);
                if (refused == null) {
                    refused = LocusModes.missingFeature(mode, jar);
                }
                if (refused != null) {
                    return new RowResult(row, mode.description(), null, Double.NaN, refused);
                }
                progress.printf("%s starting %s%n", tag, jar.getFileName());
                try (LocusProxy proxy = LocusProxy.start(row, jar, yaml, port, hosts, proxyOptions.jvmArgs(row))) {
                    pidsStarted.add(proxy.pid());
                    Map<String, String> before = proxy.stats();
                    ProcessCpu cpu = ProcessCpu.start(proxy.pid(), generator::completed, settings.warmupNanos());
                    // The proxy's own counters at the start of the measured window, to compare clocks over it.
                    java.util.concurrent.atomic.AtomicReference<Map<String, String>> atMeasure =
                            new java.util.concurrent.atomic.AtomicReference<>(Map.of());
                    Thread snapshot = new Thread(
                            () -> {
                                try {
                                    Thread.sleep(settings.warmupNanos() / 1_000_000 + 50);
                                } catch (InterruptedException e) {
                                    return;
                                }
                                atMeasure.set(proxy.stats());
                            },
                            "bench-stats-snapshot");
                    snapshot.setDaemon(true);
                    snapshot.start();
                    LevelDetail levels =
                            levelDetail ? LevelDetail.start(row, proxy::stats, settings.warmupNanos()) : null;
                    LoadGenerator.Result result = measured(
                            tag,
                            generator,
                            settings,
                            () -> generator.run(
                                    new LoadGenerator.Target(row, List.of(proxy.address())), keys, settings));
                    if (levels != null) {
                        levels.close();
                        cpuLines.addAll(levels.lines());
                    }
                    cpuLines.add(cpu.line(row));
                    Map<String, String> after = proxy.stats();
                    String clocks = clockLine(row, keys.tenants(), result, generator, atMeasure.get(), after);
                    if (clocks != null) {
                        cpuLines.add(clocks);
                    }
                    Map<String, String> deadline = proxy.stats("stats deadline");
                    if (!deadline.isEmpty() && !deadline.containsKey("mode")) {
                        // The proxy's own view of the row (its clock, one I/O thread's schedulers), for reading misses.
                        StringBuilder line = new StringBuilder(row + ":");
                        deadline.forEach(
                                (k, v) -> line.append(' ').append(k).append('=').append(v));
                        cpuLines.add("stats deadline " + line);
                    }
                    return new RowResult(
                            row, mode.description(), result, LocusModes.localHitRatio(before, after), null);
                }
            }
        }
    }

    /**
     * The tightest tenant's admitted-met fraction over the measured window by three clocks: the client's from the
     * intended start (the table's), the client's from the send (without the generator's own lag; nio generator only),
     * and the proxy's ({@code locus_tenant:<id>:deadlines_met/missed} of its {@code stats}, from reading the request
     * to completing the reply, differenced over the window). Null if the proxy has no such counters.
     */
    static String clockLine(
            String row,
            List<TenantProfile> tenants,
            LoadGenerator.Result result,
            Generator generator,
            Map<String, String> atMeasure,
            Map<String, String> after) {
        int t = DeadlineReport.tightestTenant(tenants);
        String p = "locus_tenant:" + tenants.get(t).name() + ":";
        if (!after.containsKey(p + "deadlines_met") || !atMeasure.containsKey(p + "deadlines_met")) {
            return null;
        }
        long met = Long.parseLong(after.get(p + "deadlines_met")) - Long.parseLong(atMeasure.get(p + "deadlines_met"));
        long missed = Long.parseLong(after.get(p + "deadlines_missed"))
                - Long.parseLong(atMeasure.get(p + "deadlines_missed"));
        OpStats s = result.perTenant().get(t);
        long admitted = s.deadlineGets() - s.deadlineRejected();
        double fromSend = generator.admittedMetFromSend(t);
        return String.format(
                Locale.ROOT,
                "clocks %s %s admitted met: client from the intended start %.1f%%, %sproxy "
                        + "%.1f%% (%d met, %d missed by its clock over the window); all requests p99: client %.1f ms, "
                        + "proxy %s ms (read to reply, whole run)",
                row,
                tenants.get(t).name(),
                admitted == 0 ? Double.NaN : 100.0 * s.deadlinesMet() / admitted,
                Double.isNaN(fromSend)
                        ? ""
                        : String.format(Locale.ROOT, "client from the send %.1f%%, ", 100 * fromSend),
                met + missed == 0 ? Double.NaN : 100.0 * met / (met + missed),
                met,
                missed,
                s.latencyMillis(99),
                after.containsKey(p + "latency_p99_us")
                        ? String.format(Locale.ROOT, "%.1f", Long.parseLong(after.get(p + "latency_p99_us")) / 1000.0)
                        : "-");
    }

    /** Each row's p50 and p99 minus direct memcached's, microseconds (from the same histograms as the table). */
    static List<String> addedLatency(List<RowResult> rows) {
        RowResult direct = rows.stream()
                .filter(r -> r.ran() && r.label().equals("direct"))
                .findFirst()
                .orElse(null);
        List<String> out = new ArrayList<>();
        if (direct == null) {
            return out;
        }
        OpStats d = direct.result().total();
        StringBuilder line =
                new StringBuilder("# added latency vs direct (us, all requests, from the intended start):");
        for (RowResult r : rows) {
            if (r.ran() && r != direct) {
                OpStats s = r.result().total();
                line.append(String.format(
                        Locale.ROOT,
                        " %s p50 %+.0f p99 %+.0f;",
                        r.label(),
                        (s.latencyMillis(50) - d.latencyMillis(50)) * 1000,
                        (s.latencyMillis(99) - d.latencyMillis(99)) * 1000));
            }
        }
        out.add(line.toString());
        if (!Double.isNaN(d.fromSendMillis(50))) {
            StringBuilder send = new StringBuilder(
                    "# added latency vs direct from the send (us, without the " + "generator's own lag):");
            for (RowResult r : rows) {
                if (r.ran() && r != direct) {
                    OpStats s = r.result().total();
                    send.append(String.format(
                            Locale.ROOT,
                            " %s p50 %+.0f p99 %+.0f;",
                            r.label(),
                            (s.fromSendMillis(50) - d.fromSendMillis(50)) * 1000,
                            (s.fromSendMillis(99) - d.fromSendMillis(99)) * 1000));
                }
            }
            send.append(String.format(
                    Locale.ROOT, " (direct p50 %.3f ms, p99 %.3f ms)", d.fromSendMillis(50), d.fromSendMillis(99)));
            out.add(send.toString());
        }
        return out;
    }

    /**
     * Per row, p99 and count of each reply kind (all tenants, from the intended start): which requests make the row's
     * tail. Refusals need no backend, so when they share the tail it comes from stalls outside the queues.
     */
    static List<String> tailByKind(List<RowResult> rows) {
        List<String> out = new ArrayList<>();
        for (RowResult r : rows) {
            if (!r.ran()) {
                continue;
            }
            OpStats s = r.result().total();
            StringBuilder line = new StringBuilder("# p99 by reply kind, " + r.label() + ":");
            for (OpStats.Kind k : OpStats.Kind.values()) {
                if (s.count(k) > 0) {
                    line.append(String.format(
                            Locale.ROOT, " %s %.1f ms (%d);", k.label(), s.latencyMillis(k, 99), s.count(k)));
                }
            }
            out.add(line.toString());
        }
        return out;
    }

    /** Runs one load phase while a daemon prints progress lines to stderr every 2 s. */
    private LoadGenerator.Result measured(String tag, Generator generator, LoadGenerator.Settings settings, Phase phase)
            throws InterruptedException {
        long start = System.nanoTime();
        long total = settings.warmupNanos() + settings.measureNanos();
        Thread ticker = new Thread(
                () -> {
                    long last = generator.completed();
                    long lastTime = System.nanoTime();
                    while (!Thread.currentThread().isInterrupted()) {
                        try {
                            Thread.sleep(2000);
                        } catch (InterruptedException e) {
                            return;
                        }
                        long now = System.nanoTime();
                        long done = generator.completed();
                        long elapsed = now - start;
                        progress.printf(
                                Locale.ROOT,
                                "%s %s %4.0f/%.0f s  %.0f ops/s%n",
                                tag,
                                elapsed < settings.warmupNanos() ? "warm-up" : "measure",
                                elapsed / 1e9,
                                total / 1e9,
                                (done - last) * 1e9 / (now - lastTime));
                        last = done;
                        lastTime = now;
                    }
                },
                "bench-progress");
        ticker.setDaemon(true);
        ticker.start();
        try {
            LoadGenerator.Result result = phase.run();
            String summary = generator.summary();
            if (!summary.isEmpty()) {
                cpuLines.add("generator " + summary);
            }
            return result;
        } finally {
            ticker.interrupt();
        }
    }

    /** One load phase. */
    @FunctionalInterface
    private interface Phase {
        LoadGenerator.Result run() throws InterruptedException;
    }

    static Path defaultJar() {
        Path fromRoot = Path.of("memcached-proxy", "target", JAR_NAME);
        return Files.isRegularFile(fromRoot) ? fromRoot : Path.of("..", "memcached-proxy", "target", JAR_NAME);
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).strip() + " ("
                    + Runtime.getRuntime().availableProcessors() + " cores)";
        } catch (IOException e) {
            return "unknown";
        }
    }
}

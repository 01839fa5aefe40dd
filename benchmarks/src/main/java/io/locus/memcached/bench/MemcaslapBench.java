package io.locus.memcached.bench;

import io.locus.fixture.Ports;
import io.locus.memcached.fixture.MemcachedConfig;
import io.locus.memcached.fixture.MemcachedServers;
import io.locus.memcached.fixture.Nutcracker;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./locus bench proxy-memcaslap} (and the second part of {@code ./locus bench proxy}): throughput measured by a
 * load generator the proxy's authors did not write, libmemcached's {@code memcaslap}, against one memcached
 * ({@code -t 1}). Two workloads: memcaslap's own mix (90/10 get/set, every set a new key) directly, through
 * twemproxy, through Locus in {@code pass_through} mode and through Locus in {@code full} mode; and a hot-read mix
 * (99/1 get/set over a small window of recent keys, which the full mode's deadline cache holds) directly and through
 * Locus in {@code full} mode. The targets run in interleaved rounds so slow drifts of a shared machine hit them alike;
 * every proxy stays up for the whole run and only the measured one gets load. The verdicts are medians of per-round
 * ratios (each proxy against the alternative measured in the same round).
 */
@Command(
        name = "proxy-memcaslap",
        mixinStandardHelpOptions = true,
        description = "memcaslap ops/s: direct memcached vs twemproxy vs Locus pass-through vs Locus full, and Locus "
                + "full (default and two I/O threads) vs direct on a hot-read mix.")
public final class MemcaslapBench implements Callable<Integer> {
    /** Every target in the order each round runs them. */
    static final List<String> TARGETS = List.of(
            "direct",
            "twemproxy",
            "locus-pass-through",
            "locus-full",
            "direct-hot",
            "locus-full-hot",
            "locus-full-2t-hot");
    /**
     * {@code io_threads} of the {@code locus-full-2t-hot} target. Why a second full proxy: on the hot-read mix the
     * backend is nearly idle and the proxy answers from its cache, so a second I/O thread can use the core memcached
     * does not; the default ({@code auto}, half the cores) is tuned for pass-through, where memcached needs that core.
     */
    static final int FULL_HOT_THREADS = 2;
    /** The throughput goals: pass-through against twemproxy, full against direct on the hot-read mix. */
    static final double PASS_THROUGH_GOAL = 1.25;

    static final double FULL_HOT_GOAL = 0.8;

    private static final Pattern TPS = Pattern.compile("Run time: *([0-9.]+)s Ops: *([0-9]+) TPS: *([0-9]+)");
    private static final Pattern PROPORTION = Pattern.compile("(set|get)_prop=([0-9.]+)");

    @Mixin
    LocusProxyOptions proxyOptions = new LocusProxyOptions();

    @Option(names = "--rounds", description = "rounds, each running every target once (default ${DEFAULT-VALUE})")
    int rounds = 4;

    @Option(names = "--seconds", description = "memcaslap run time per target and round (default ${DEFAULT-VALUE})")
    int seconds = 10;

    @Option(
            names = "--warmup",
            description = "one unmeasured memcaslap run per target before the rounds, seconds, so the proxies' JIT has "
                    + "compiled the request path (default ${DEFAULT-VALUE})")
    int warmup = 3;

    @Option(names = "--threads", description = "memcaslap -T (default ${DEFAULT-VALUE})")
    int threads = 1;

    @Option(names = "--concurrency", description = "memcaslap -c (default ${DEFAULT-VALUE})")
    int concurrency = 32;

    @Option(names = "--value-bytes", description = "memcaslap's fixed value size (default ${DEFAULT-VALUE})")
    int valueBytes = 100;

    @Option(
            names = "--hot-get-fraction",
            description = "gets in the hot-read mix; the rest are sets of new keys (default ${DEFAULT-VALUE})")
    double hotGetFraction = 0.99;

    @Option(
            names = "--hot-window",
            description = "memcaslap -w of the hot-read mix: recent keys per connection that its gets pick from "
                    + "(default ${DEFAULT-VALUE})")
    String hotWindow = "1k";

    @Option(names = "--out", description = "output directory (default benchmarks/target/bench-memcaslap)")
    Path out;

    @Option(
            names = "--variant",
            description = "NAME=LINE[;LINE...]: also run a pass-through and a full Locus proxy changed by these lines, "
                    + "each a 'key: value' configuration line, -J<JVM option> or -jar <another build of the proxy's jar>, as targets locus-pass-through+NAME "
                    + "and locus-full-hot+NAME in every round right after their base targets; repeatable")
    List<String> variants = new ArrayList<>();

    @Option(
            names = "--detail",
            description = "also measure, from second 1 to one second before the end of each run, every process's "
                    + "cores used, its busiest thread, context switches and system calls (perf stat) per request, "
                    + "and print them as a second table")
    boolean detail;

    private final PrintStream stdout;
    private final PrintStream progress;
    private final List<Run> runs = new ArrayList<>();
    private final StringBuilder details = new StringBuilder();
    /** Per target, the CPU µs per request of all its processes together, one value per round ({@code --detail}). */
    private final Map<String, List<Double>> chainMicros = new LinkedHashMap<>();

    MemcaslapBench(PrintStream stdout, PrintStream progress) {
        this.stdout = stdout;
        this.progress = progress;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new MemcaslapBench(System.out, System.err)).execute(args));
    }

    /**
     * One memcaslap run: ops/s as memcaslap reports it, its get/set proportions, the 1-minute load average when it
     * ended, and for Locus full mode the share of gets its deadline cache answered (NaN for other targets).
     */
    record Run(
            String target,
            int round,
            double seconds,
            long ops,
            long tps,
            String proportions,
            double load,
            double localHitRatio) {
        Run withContext(double load, double localHitRatio) {
            return new Run(target, round, seconds, ops, tps, proportions, load, localHitRatio);
        }
    }

    /** The runs of the last call, in order. */
    List<Run> runs() {
        return runs;
    }

    @Override
    public Integer call() throws Exception {
        if (rounds < 1
                || seconds < 1
                || warmup < 0
                || threads < 1
                || concurrency < 1
                || valueBytes < 1
                || !(hotGetFraction > 0 && hotGetFraction < 1)
                || !hotWindow.matches("[0-9]+[kKmM]?")) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this),
                    "--rounds " + rounds + ", --seconds " + seconds + ", --warmup " + warmup + ", --threads " + threads
                            + ", --concurrency " + concurrency + ", --value-bytes " + valueBytes
                            + ", --hot-get-fraction " + hotGetFraction + ", --hot-window " + hotWindow
                            + " (expected: warm-up >= 0, hot get fraction strictly between 0 and 1, hot window a "
                            + "count with an optional k or m suffix, the others >= 1)");
        }
        Path jar = proxyOptions.jar();
        proxyOptions.settings(); // a bad --proxy-set line is refused before anything starts
        List<MemcaslapVariant> variantList = new ArrayList<>();
        for (String v : variants) {
            try {
                variantList.add(MemcaslapVariant.parse(v));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(new CommandLine(this), e.getMessage());
            }
        }
        if (!Files.isRegularFile(jar)) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this),
                    "--proxy-jar: " + jar.toAbsolutePath() + " does not exist (expected: the shaded jar)");
        }
        Path memcaslap = Path.of("/usr/bin/memcaslap");
        if (!Files.isExecutable(memcaslap)) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this),
                    memcaslap + " not found (expected: Debian's libmemcached-tools; ./locus hosts installs it)");
        }
        Path dir = (out != null ? out : Path.of("benchmarks", "target", "bench-memcaslap")).toAbsolutePath();
        Path hosts = dir.resolve("hosts");
        Files.createDirectories(hosts);
        Path hotConfig = hosts.resolve("hot-read.cnf");
        Files.writeString(hotConfig, hotReadConfig(hotGetFraction, valueBytes));
        stdout.println(String.format(
                Locale.ROOT,
                "# proxy-memcaslap: memcaslap -T %d -c %d, %d-byte values, -t %ds, against one memcached -t 1"
                        + "%n#   mix (its default 90/10 get/set, every set a new key, -w 10k): direct, twemproxy, "
                        + "Locus pass_through, Locus full (default settings)"
                        + "%n#   hot (-F %s: %.0f/%.0f get/set, -w %s, so gets hit the %s most recent keys of each "
                        + "connection): direct, Locus full, Locus full with io_threads: " + FULL_HOT_THREADS
                        + "%n#   %d s unmeasured warm-up each, then %d interleaved rounds%s",
                threads,
                concurrency,
                valueBytes,
                seconds,
                hotConfig.getFileName(),
                100 * hotGetFraction,
                100 * (1 - hotGetFraction),
                hotWindow,
                hotWindow,
                warmup,
                rounds,
                proxyOptions.customised() ? "; Locus with " + proxyOptions.describe() : ""));
        stdout.println("# load average before: " + loadAverage());
        stdout.flush();
        runs.clear();
        try (MemcachedServers servers = MemcachedServers.start(1, MemcachedConfig.DEFAULTS.withThreads(1), hosts);
                Nutcracker twemproxy = Nutcracker.builder(hosts)
                        .server(servers.get(0).address(), 1, "memcached-0")
                        .start();
                LocusProxy passThrough = locus("locus-pass-through", "pass_through", jar, servers, hosts, Map.of());
                LocusProxy full = locus("locus-full", "full", jar, servers, hosts, Map.of());
                LocusProxy full2 =
                        locus("locus-full-2t", "full", jar, servers, hosts, Map.of("io_threads", FULL_HOT_THREADS));
                MemcaslapVariant.Proxies variantProxies = new MemcaslapVariant.Proxies()) {
            Map<String, Long> proxyPids = new HashMap<>(Map.of(
                    "twemproxy", twemproxy.pid(),
                    "locus-pass-through", passThrough.pid(),
                    "locus-full", full.pid(),
                    "locus-full-hot", full.pid(),
                    "locus-full-2t-hot", full2.pid()));
            Map<String, InetSocketAddress> targets = new LinkedHashMap<>();
            targets.put("direct", servers.get(0).address());
            targets.put("twemproxy", twemproxy.address());
            targets.put("locus-pass-through", passThrough.address());
            for (MemcaslapVariant v : variantList) {
                LocusProxy p = locus(
                        "locus-pass-through+" + v.name(),
                        "pass_through",
                        v.jarOr(jar),
                        servers,
                        hosts,
                        v.settings(),
                        v.jvmArgs());
                variantProxies.add("locus-pass-through+" + v.name(), p);
                targets.put("locus-pass-through+" + v.name(), p.address());
                proxyPids.put("locus-pass-through+" + v.name(), p.pid());
            }
            targets.put("locus-full", full.address());
            targets.put("direct-hot", servers.get(0).address());
            targets.put("locus-full-hot", full.address());
            for (MemcaslapVariant v : variantList) {
                LocusProxy p = locus(
                        "locus-full+" + v.name(), "full", v.jarOr(jar), servers, hosts, v.settings(), v.jvmArgs());
                variantProxies.add("locus-full+" + v.name(), p);
                targets.put("locus-full-hot+" + v.name(), p.address());
                proxyPids.put("locus-full-hot+" + v.name(), p.pid());
            }
            targets.put("locus-full-2t-hot", full2.address());
            if (warmup > 0) {
                for (Map.Entry<String, InetSocketAddress> t : targets.entrySet()) {
                    progress.printf(Locale.ROOT, "[warm-up %s] memcaslap %d s ...%n", t.getKey(), warmup);
                    memcaslap(memcaslap, t.getKey(), 0, t.getValue(), warmup, hosts, hotConfig, Map.of());
                }
            }
            for (int round = 1; round <= rounds; round++) {
                for (Map.Entry<String, InetSocketAddress> t : targets.entrySet()) {
                    String tag = "[r" + round + " " + t.getKey() + "]";
                    progress.printf(Locale.ROOT, "%s memcaslap %d s ...%n", tag, seconds);
                    LocusProxy cached = t.getKey().startsWith("locus-full-2t")
                            ? full2
                            : t.getKey().startsWith("locus-full-hot+")
                                    ? variantProxies.find(
                                            "locus-full+" + t.getKey().substring(15))
                                    : t.getKey().startsWith("locus-full") ? full : null;
                    long[] before = cached != null ? localHits(cached) : null;
                    Map<String, Long> watched = new LinkedHashMap<>();
                    if (detail) {
                        watched.put("memcached", servers.get(0).pid());
                        Long proxy = proxyPids.get(t.getKey());
                        if (proxy != null) {
                            watched.put(t.getKey().startsWith("twemproxy") ? "twemproxy" : "locus (jvm)", proxy);
                        }
                    }
                    Run r = memcaslap(memcaslap, t.getKey(), round, t.getValue(), seconds, hosts, hotConfig, watched);
                    double local = Double.NaN;
                    if (before != null) {
                        long[] after = localHits(cached);
                        long gets = (after[0] - before[0]) + (after[1] - before[1]);
                        local = gets > 0 ? (double) (after[0] - before[0]) / gets : Double.NaN;
                    }
                    r = r.withContext(loadAverage1(), local);
                    runs.add(r);
                    progress.printf(Locale.ROOT, "%s %d ops/s%n", tag, r.tps());
                }
            }
        }
        String table = table(runs);
        stdout.println();
        stdout.print(table);
        if (detail) {
            stdout.println();
            stdout.println("# per process over each run's window: cores used, the busiest thread's share of a core "
                    + "(top), CPU us per request and the kernel's share of it, voluntary/involuntary context switches "
                    + "and system calls per request; 'all' sums the run's processes");
            stdout.print(RunDetail.header());
            stdout.print(details);
            String chain = RunDetail.chainTable(chainMicros);
            stdout.print(chain);
            table = table + "\n" + RunDetail.header() + details + chain;
        }
        stdout.println("# load average after: " + loadAverage());
        Files.writeString(dir.resolve("proxy-memcaslap.txt"), table);
        Path text = shown(dir.resolve("proxy-memcaslap.txt"));
        try {
            stdout.println("# written: " + text + ", " + shown(chart(runs, dir)));
        } catch (IOException | RuntimeException | Error e) {
            stdout.println("# written: " + text + " (no chart: " + e + ")");
        }
        stdout.flush();
        return 0;
    }

    /** {@code file} relative to the working directory when it lies below it, so printed output names no checkout. */
    static Path shown(Path file) {
        Path cwd = Path.of("").toAbsolutePath();
        return file.startsWith(cwd) ? cwd.relativize(file) : file;
    }

    /** memcaslap's {@code -F} file of the hot-read mix: 64-byte keys (its default), fixed values, the get share. */
    static String hotReadConfig(double getFraction, int valueBytes) {
        return String.format(
                Locale.ROOT,
                "key%n64 64 1%nvalue%n%d %d 1%ncmd%n0 %.3f%n1 %.3f%n",
                valueBytes,
                valueBytes,
                1 - getFraction,
                getFraction);
    }

    /** {@code fixed}: settings that override the command line's {@code --proxy-set} for this proxy. */
    private LocusProxy locus(
            String label, String mode, Path jar, MemcachedServers servers, Path hosts, Map<String, Object> fixed) {
        return locus(label, mode, jar, servers, hosts, fixed, List.of());
    }

    private LocusProxy locus(
            String label,
            String mode,
            Path jar,
            MemcachedServers servers,
            Path hosts,
            Map<String, Object> fixed,
            List<String> moreJvmArgs) {
        int port = Ports.freeLoopbackPort();
        InetSocketAddress b = servers.get(0).address();
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("listen", "127.0.0.1:" + port);
        config.put("pool", Map.of("servers", List.of(b.getHostString() + ":" + b.getPort() + ":1 memcached-0")));
        config.put("mode", mode);
        config.putAll(proxyOptions.settings());
        config.putAll(fixed);
        List<String> jvm = new ArrayList<>(proxyOptions.jvmArgs(label));
        jvm.addAll(moreJvmArgs);
        return LocusProxy.start(label, jar, LocusProxy.dump(config), port, hosts, jvm);
    }

    /** The full proxy's deadline-cache hits and misses so far, over all tenants. */
    private static long[] localHits(LocusProxy full) {
        long hits = 0;
        long misses = 0;
        for (Map.Entry<String, String> e : full.stats().entrySet()) {
            if (e.getKey().startsWith("locus_tenant:") && e.getKey().endsWith(":hits")) {
                hits += Long.parseLong(e.getValue());
            } else if (e.getKey().startsWith("locus_tenant:") && e.getKey().endsWith(":misses")) {
                misses += Long.parseLong(e.getValue());
            }
        }
        return new long[] {hits, misses};
    }

    /** Runs memcaslap for {@code runSeconds} against {@code address}; round 0 is the warm-up. */
    private Run memcaslap(
            Path binary,
            String target,
            int round,
            InetSocketAddress address,
            int runSeconds,
            Path hosts,
            Path hotConfig,
            Map<String, Long> watched)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                binary.toString(),
                "-s",
                address.getHostString() + ":" + address.getPort(),
                "-T",
                Integer.toString(threads),
                "-c",
                Integer.toString(concurrency),
                "-t",
                runSeconds + "s"));
        if (target.contains("-hot")) {
            command.addAll(List.of("-F", hotConfig.toString(), "-w", hotWindow));
        } else {
            command.addAll(List.of("-X", Integer.toString(valueBytes)));
        }
        Path log = hosts.resolve("memcaslap-r" + round + "-" + target + ".log");
        Process p = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        List<RunDetail.Usage> usage = List.of();
        if (!watched.isEmpty() && runSeconds >= 3) {
            Thread.sleep(1000);
            Map<String, Long> pids = new LinkedHashMap<>();
            pids.put("memcaslap", p.pid());
            pids.putAll(watched);
            int window = runSeconds - 2;
            RunDetail d = RunDetail.start(pids, hosts.resolve("perf-r" + round + "-" + target + ".txt"), window);
            Thread.sleep(window * 1000L);
            usage = d.finish();
        }
        if (!p.waitFor(runSeconds + 60L, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("memcaslap did not finish within " + (runSeconds + 60) + " s; see " + log);
        }
        Run run = parse(Files.readString(log, StandardCharsets.ISO_8859_1), target, round);
        if (p.exitValue() != 0 || run == null) {
            throw new IllegalStateException(
                    "memcaslap exited " + p.exitValue() + " without a 'Run time: ... TPS:' line; see " + log);
        }
        if (!usage.isEmpty()) {
            details.append(RunDetail.rows(round, target, run.tps(), usage));
            RunDetail.Usage all = usage.get(usage.size() - 1);
            chainMicros.computeIfAbsent(target, t -> new ArrayList<>()).add(all.cores() * 1e6 / run.tps());
        }
        return run;
    }

    /** The run memcaslap's output reports, or null if it has no {@code Run time: ... TPS:} line. */
    static Run parse(String output, String target, int round) {
        Matcher m = TPS.matcher(output);
        if (!m.find()) {
            return null;
        }
        StringBuilder proportions = new StringBuilder();
        Matcher pm = PROPORTION.matcher(output);
        while (pm.find()) {
            proportions
                    .append(proportions.length() == 0 ? "" : " ")
                    .append(pm.group(1))
                    .append(' ')
                    .append(pm.group(2));
        }
        return new Run(
                target,
                round,
                Double.parseDouble(m.group(1)),
                Long.parseLong(m.group(2)),
                Long.parseLong(m.group(3)),
                proportions.toString(),
                Double.NaN,
                Double.NaN);
    }

    /**
     * Per round and target, memcaslap's ops/s; per target the median over rounds and its ratios; then the two goals
     * as per-round ratios to the alternative of the same round and their median.
     */
    static String table(List<Run> runs) {
        StringBuilder sb = new StringBuilder(String.format(
                Locale.ROOT,
                "%-5s %-20s %10s %12s %6s %7s  %s%n",
                "round",
                "target",
                "ops/s",
                "ops",
                "load1",
                "local",
                "memcaslap mix"));
        for (Run r : runs) {
            sb.append(String.format(
                    Locale.ROOT,
                    "%-5d %-20s %10d %12d %6.2f %7s  %s%n",
                    r.round(),
                    r.target(),
                    r.tps(),
                    r.ops(),
                    r.load(),
                    Double.isNaN(r.localHitRatio()) ? "-" : String.format(Locale.ROOT, "%.3f", r.localHitRatio()),
                    r.proportions()));
        }
        Map<String, double[]> byTarget = new LinkedHashMap<>();
        for (String t : targets(runs)) {
            byTarget.put(t, tps(runs, t));
        }
        double direct = median(byTarget.get("direct"));
        double twem = median(byTarget.get("twemproxy"));
        double directHot = median(byTarget.get("direct-hot"));
        sb.append(String.format(
                Locale.ROOT,
                "%n%-20s %10s %9s %10s  %s%n",
                "target",
                "median",
                "/direct",
                "/twemproxy",
                "(hot targets: /direct-hot)"));
        for (String t : byTarget.keySet()) {
            double med = median(byTarget.get(t));
            boolean hot = t.contains("-hot");
            sb.append(String.format(
                    Locale.ROOT,
                    "%-20s %10.0f %9.2f %10s%n",
                    t,
                    med,
                    med / (hot ? directHot : direct),
                    hot ? "-" : String.format(Locale.ROOT, "%.2f", med / twem)));
        }
        sb.append('\n');
        sb.append(goal(
                "pass-through / twemproxy, mix",
                byTarget.get("locus-pass-through"),
                byTarget.get("twemproxy"),
                PASS_THROUGH_GOAL));
        sb.append(
                goal("full / direct, hot", byTarget.get("locus-full-hot"), byTarget.get("direct-hot"), FULL_HOT_GOAL));
        sb.append(goal(
                "full " + FULL_HOT_THREADS + " threads / direct, hot",
                byTarget.get("locus-full-2t-hot"),
                byTarget.get("direct-hot"),
                FULL_HOT_GOAL));
        sb.append(goal("full / direct, mix", byTarget.get("locus-full"), byTarget.get("direct"), Double.NaN));
        for (String t : byTarget.keySet()) {
            int plus = t.indexOf('+');
            if (plus > 0) {
                String base = t.substring(0, plus);
                boolean hot = t.contains("-hot");
                String against = hot ? "direct-hot" : "twemproxy";
                sb.append(goal(t + " / " + base, byTarget.get(t), byTarget.get(base), Double.NaN));
                sb.append(goal(
                        t + " / " + against,
                        byTarget.get(t),
                        byTarget.get(against),
                        hot ? FULL_HOT_GOAL : PASS_THROUGH_GOAL));
            }
        }
        return sb.toString();
    }

    /** One goal line: the ratio of each round, their median, and whether the median reaches {@code goal}. */
    private static String goal(String name, double[] a, double[] b, double goal) {
        int n = Math.min(a.length, b.length);
        double[] ratios = new double[n];
        StringBuilder perRound = new StringBuilder();
        for (int i = 0; i < n; i++) {
            ratios[i] = a[i] / b[i];
            perRound.append(String.format(Locale.ROOT, " %.2f", ratios[i]));
        }
        double med = median(ratios);
        String verdict = Double.isNaN(goal)
                ? ""
                : String.format(Locale.ROOT, "  goal >= %.2f: %s", goal, med >= goal ? "met" : "NOT met");
        return String.format(Locale.ROOT, "%-32s per round%s; median %.2f%s%n", name, perRound, med, verdict);
    }

    /** The targets of {@code runs}: the fixed ones first, then any variants in the order they ran. */
    private static List<String> targets(List<Run> runs) {
        java.util.LinkedHashSet<String> out = new java.util.LinkedHashSet<>(TARGETS);
        runs.forEach(r -> out.add(r.target()));
        return List.copyOf(out);
    }

    private static double[] tps(List<Run> runs, String target) {
        return runs.stream()
                .filter(r -> r.target().equals(target))
                .mapToDouble(Run::tps)
                .toArray();
    }

    static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n == 0 ? Double.NaN : n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    /** One bar per target and round: memcaslap's ops/s. */
    static Path chart(List<Run> runs, Path dir) throws IOException {
        System.setProperty("java.awt.headless", "true");
        CategoryChart chart = new CategoryChartBuilder()
                .width(1000)
                .height(440)
                .title("memcaslap throughput, one memcached -t 1 (mix: 90/10 get/set; hot: 99/1 on recent keys)")
                .xAxisTitle("round")
                .yAxisTitle("ops/s")
                .build();
        for (String t : targets(runs)) {
            List<String> rounds = new ArrayList<>();
            List<Double> tps = new ArrayList<>();
            for (Run r : runs) {
                if (r.target().equals(t)) {
                    rounds.add("r" + r.round());
                    tps.add((double) r.tps());
                }
            }
            if (!tps.isEmpty()) {
                chart.addSeries(t, rounds, tps);
            }
        }
        Path file = dir.resolve("proxy-memcaslap.png");
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        return file;
    }

    private static double loadAverage1() {
        String all = loadAverage();
        try {
            return Double.parseDouble(all.split(" ")[0]);
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }
}

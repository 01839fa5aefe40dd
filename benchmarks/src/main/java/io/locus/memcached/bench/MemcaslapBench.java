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
import picocli.CommandLine.Option;

/**
 * {@code ./locus bench proxy-memcaslap}: throughput measured by a load generator the proxy's authors did not write,
 * libmemcached's {@code memcaslap}, against one memcached ({@code -t 1}) reached directly, through twemproxy, through
 * Locus in {@code pass_through} mode and through Locus in {@code full} mode. The four targets run in interleaved
 * rounds (direct, twemproxy, pass-through, full, direct, ...) so slow drifts of a shared machine hit them alike;
 * every proxy stays up for the whole run and only the measured one gets load.
 */
@Command(
        name = "proxy-memcaslap",
        mixinStandardHelpOptions = true,
        description = "memcaslap ops/s: direct memcached vs twemproxy vs Locus pass-through vs Locus full.")
public final class MemcaslapBench implements Callable<Integer> {
    static final List<String> TARGETS = List.of("direct", "twemproxy", "locus-pass-through", "locus-full");
    private static final Pattern TPS = Pattern.compile("Run time: *([0-9.]+)s Ops: *([0-9]+) TPS: *([0-9]+)");
    private static final Pattern PROPORTION = Pattern.compile("(set|get)_prop=([0-9.]+)");

    @Option(names = "--proxy-jar", required = true, description = "the proxy's shaded jar")
    Path jar;

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

    @Option(names = "--value-bytes", description = "memcaslap -X, the fixed value size (default ${DEFAULT-VALUE})")
    int valueBytes = 100;

    @Option(names = "--out", description = "output directory (default benchmarks/target/bench-memcaslap)")
    Path out;

    private final PrintStream stdout;
    private final PrintStream progress;

    MemcaslapBench(PrintStream stdout, PrintStream progress) {
        this.stdout = stdout;
        this.progress = progress;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new MemcaslapBench(System.out, System.err)).execute(args));
    }

    /** One memcaslap run: ops/s as memcaslap reports it, and its get/set proportions. */
    record Run(String target, int round, double seconds, long ops, long tps, String proportions) {}

    @Override
    public Integer call() throws Exception {
        if (rounds < 1 || seconds < 1 || warmup < 0 || threads < 1 || concurrency < 1 || valueBytes < 1) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this),
                    "--rounds " + rounds + ", --seconds " + seconds + ", --warmup " + warmup + ", --threads " + threads
                            + ", --concurrency " + concurrency + ", --value-bytes " + valueBytes
                            + " (expected: warm-up >= 0, the others >= 1)");
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
        stdout.println(String.format(
                Locale.ROOT,
                "# proxy-memcaslap: memcaslap -T %d -c %d -X %d -t %ds (its default 90/10 get/set mix) against one "
                        + "memcached -t 1: direct, twemproxy, Locus pass_through, Locus full (default settings); %d s "
                        + "unmeasured warm-up each, then %d interleaved rounds",
                threads,
                concurrency,
                valueBytes,
                seconds,
                warmup,
                rounds));
        stdout.println("# load average before: " + loadAverage());
        stdout.flush();
        List<Run> runs = new ArrayList<>();
        try (MemcachedServers servers = MemcachedServers.start(1, MemcachedConfig.DEFAULTS.withThreads(1), hosts);
                Nutcracker twemproxy = Nutcracker.builder(hosts)
                        .server(servers.get(0).address(), 1, "memcached-0")
                        .start();
                LocusProxy passThrough = locus("locus-pass-through", "pass_through", servers, hosts);
                LocusProxy full = locus("locus-full", "full", servers, hosts)) {
            Map<String, InetSocketAddress> targets = new LinkedHashMap<>();
            targets.put("direct", servers.get(0).address());
            targets.put("twemproxy", twemproxy.address());
            targets.put("locus-pass-through", passThrough.address());
            targets.put("locus-full", full.address());
            if (warmup > 0) {
                for (Map.Entry<String, InetSocketAddress> t : targets.entrySet()) {
                    progress.printf(Locale.ROOT, "[warm-up %s] memcaslap %d s ...%n", t.getKey(), warmup);
                    memcaslap(memcaslap, t.getKey(), 0, t.getValue(), warmup, hosts);
                }
            }
            for (int round = 1; round <= rounds; round++) {
                for (Map.Entry<String, InetSocketAddress> t : targets.entrySet()) {
                    String tag = "[r" + round + " " + t.getKey() + "]";
                    progress.printf(Locale.ROOT, "%s memcaslap %d s ...%n", tag, seconds);
                    Run r = memcaslap(memcaslap, t.getKey(), round, t.getValue(), seconds, hosts);
                    runs.add(r);
                    progress.printf(Locale.ROOT, "%s %d ops/s%n", tag, r.tps());
                }
            }
        }
        String table = table(runs);
        stdout.println();
        stdout.print(table);
        stdout.println("# load average after: " + loadAverage());
        Files.writeString(dir.resolve("proxy-memcaslap.txt"), table);
        try {
            stdout.println("# written: " + dir.resolve("proxy-memcaslap.txt") + ", " + chart(runs, dir));
        } catch (IOException | RuntimeException | Error e) {
            stdout.println("# written: " + dir.resolve("proxy-memcaslap.txt") + " (no chart: " + e + ")");
        }
        return 0;
    }

    private LocusProxy locus(String label, String mode, MemcachedServers servers, Path hosts) {
        int port = Ports.freeLoopbackPort();
        InetSocketAddress b = servers.get(0).address();
        String yaml = "listen: 127.0.0.1:" + port + "\npool:\n  servers: [\"" + b.getHostString() + ":" + b.getPort()
                + ":1 memcached-0\"]\nmode: " + mode + "\n";
        return LocusProxy.start(label, jar, yaml, port, hosts, List.of());
    }

    /** Runs memcaslap for {@code runSeconds} against {@code address}; round 0 is the warm-up. */
    private Run memcaslap(Path binary, String target, int round, InetSocketAddress address, int runSeconds, Path hosts)
            throws IOException, InterruptedException {
        List<String> command = List.of(
                binary.toString(),
                "-s",
                address.getHostString() + ":" + address.getPort(),
                "-T",
                Integer.toString(threads),
                "-c",
                Integer.toString(concurrency),
                "-X",
                Integer.toString(valueBytes),
                "-t",
                runSeconds + "s");
        Path log = hosts.resolve("memcaslap-r" + round + "-" + target + ".log");
        Process p = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        if (!p.waitFor(runSeconds + 60L, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("memcaslap did not finish within " + (runSeconds + 60) + " s; see " + log);
        }
        Run run = parse(Files.readString(log, StandardCharsets.ISO_8859_1), target, round);
        if (p.exitValue() != 0 || run == null) {
            throw new IllegalStateException(
                    "memcaslap exited " + p.exitValue() + " without a 'Run time: ... TPS:' line; see " + log);
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
                proportions.toString());
    }

    /** Per round and target, memcaslap's ops/s; then per target the median over rounds and its ratios. */
    static String table(List<Run> runs) {
        StringBuilder sb = new StringBuilder(String.format(
                Locale.ROOT, "%-5s %-20s %10s %12s  %s%n", "round", "target", "ops/s", "ops", "memcaslap mix"));
        for (Run r : runs) {
            sb.append(String.format(
                    Locale.ROOT,
                    "%-5d %-20s %10d %12d  %s%n",
                    r.round(),
                    r.target(),
                    r.tps(),
                    r.ops(),
                    r.proportions()));
        }
        Map<String, double[]> byTarget = new LinkedHashMap<>();
        for (String t : TARGETS) {
            byTarget.put(
                    t,
                    runs.stream()
                            .filter(r -> r.target().equals(t))
                            .mapToDouble(Run::tps)
                            .toArray());
        }
        double direct = median(byTarget.get("direct"));
        double twem = median(byTarget.get("twemproxy"));
        sb.append(String.format(
                Locale.ROOT,
                "%n%-20s %10s %9s %9s  %s%n",
                "target",
                "median",
                "/direct",
                "/twemproxy",
                "per round /twemproxy of the same round"));
        for (String t : TARGETS) {
            double[] v = byTarget.get(t);
            double[] tw = byTarget.get("twemproxy");
            StringBuilder perRound = new StringBuilder();
            for (int i = 0; i < Math.min(v.length, tw.length); i++) {
                perRound.append(i == 0 ? "" : " ").append(String.format(Locale.ROOT, "%.2f", v[i] / tw[i]));
            }
            double med = median(v);
            sb.append(String.format(
                    Locale.ROOT, "%-20s %10.0f %9.2f %9.2f  %s%n", t, med, med / direct, med / twem, perRound));
        }
        return sb.toString();
    }

    static double median(double[] values) {
        double[] v = values.clone();
        java.util.Arrays.sort(v);
        int n = v.length;
        return n == 0 ? Double.NaN : n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    /** One bar per target and round: memcaslap's ops/s. */
    static Path chart(List<Run> runs, Path dir) throws IOException {
        System.setProperty("java.awt.headless", "true");
        CategoryChart chart = new CategoryChartBuilder()
                .width(900)
                .height(420)
                .title("memcaslap throughput, one memcached -t 1")
                .xAxisTitle("round")
                .yAxisTitle("ops/s")
                .build();
        for (String t : TARGETS) {
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

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }
}

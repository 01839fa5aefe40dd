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
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./locus bench proxy-latency}: the latency a proxy adds to a memcached round trip, measured so that this
 * machine's stalls do not decide it. One memcached; twemproxy and the Locus proxy ({@code mode: pass_through}) in
 * front of it; one connection per path. Every round sends one 100-byte {@code get} on each path, one after the other,
 * in a fresh random order, and the rounds are paced at {@code --rate}. So every path sees the same machine state
 * within a fraction of a millisecond, and a stall lands on all paths' tails alike.
 *
 * <p>Why not the difference of two p99s from separate runs (what ProxyBench's open-loop rows give): on this 2-core
 * Firecracker VM an idle vCPU halts and wakes in 1-2 ms, and a run's p99 moves by milliseconds with the other jobs on
 * the machine; twemproxy itself then "adds" +1.4 to +3.9 ms at p99. Two figures come out: the
 * difference of each path's percentile and direct's over the same rounds, and the percentiles of the per-round
 * paired difference (path minus direct in the same round), which removes what the round shares.
 */
@Command(
        name = "proxy-latency",
        mixinStandardHelpOptions = true,
        description = "Added latency of twemproxy and the Locus proxy over direct memcached, paired per round.")
public final class LatencyProbe implements Callable<Integer> {

    @Option(names = "--rounds", description = "measured rounds (default ${DEFAULT-VALUE})", defaultValue = "60000")
    int rounds;

    @Option(
            names = "--warmup-rounds",
            description = "unmeasured rounds first, for the JIT (default ${DEFAULT-VALUE})",
            defaultValue = "20000")
    int warmupRounds;

    @Option(
            names = "--rate",
            description = "rounds per second (each round is one get per path; default " + "${DEFAULT-VALUE})",
            defaultValue = "1000")
    double rate;

    @Option(
            names = "--busy-loops",
            description = "'nice -n 19' busy loops that keep the vCPUs awake " + "(default ${DEFAULT-VALUE})",
            defaultValue = "2")
    int busyLoops;

    @Option(names = "--rows", split = ",", description = "paths besides direct: twemproxy,locus (default both)")
    List<String> rows;

    @Mixin
    LocusProxyOptions proxyOptions = new LocusProxyOptions();

    @Option(
            names = "--locus-mode",
            defaultValue = "PASS_THROUGH",
            description = "the Locus proxy's configuration: "
                    + "${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE}; DLC and DLC_DLS answer repeated gets from the "
                    + "in-proxy cache)")
    LocusMode locusMode;

    @Option(
            names = "--local-capacity",
            defaultValue = "0",
            description = "in-proxy cache bytes for DLC and DLC_DLS "
                    + "(default ${DEFAULT-VALUE}: every get goes through the scheduler to memcached; e.g. 67108864 to measure "
                    + "local hits)")
    long localCapacity;

    @Option(names = "--seed", defaultValue = "42", description = "seed of the round orders (default ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--out", description = "output directory (default benchmarks/target/bench-latency)")
    Path out;

    private final PrintStream stdout = System.out;
    private final PrintStream progress = System.err;

    public static void main(String[] args) {
        System.exit(new CommandLine(new LatencyProbe()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        List<String> paths = new ArrayList<>(List.of("direct"));
        paths.addAll(rows == null ? List.of("twemproxy", "locus") : rows);
        for (String p : paths.subList(1, paths.size())) {
            if (!p.equals("twemproxy") && !p.equals("locus")) {
                throw new CommandLine.ParameterException(
                        new CommandLine(this), "--rows: \"" + p + "\" (expected: twemproxy, locus)");
            }
        }
        Map<String, Object> settings = proxyOptions.settings(); // refused before anything starts
        if (rounds < 100 || warmupRounds < 0 || !(rate > 0) || busyLoops < 0 || busyLoops > 8 || localCapacity < 0) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this),
                    "--rounds " + rounds + ", --warmup-rounds "
                            + warmupRounds + ", --rate " + rate + ", --busy-loops " + busyLoops + ", --local-capacity "
                            + localCapacity
                            + " (expected: rounds >= 100, warm-up >= 0, rate > 0, busy loops 0..8, capacity >= 0)");
        }
        Path jar = proxyOptions.jar();
        Path dir = out != null ? out : Path.of("benchmarks", "target", "bench-latency");
        Path hosts = dir.resolve("hosts");
        Files.createDirectories(hosts);
        stdout.printf(
                Locale.ROOT,
                "# proxy-latency: %d rounds (after %d warm-up) at %.0f rounds/s, paths %s, one "
                        + "connection each, 100-byte gets, random order per round; load average before: %s%n",
                rounds,
                warmupRounds,
                rate,
                paths,
                Files.readString(Path.of("/proc/loadavg")).trim());
        if (locusMode != LocusMode.PASS_THROUGH || proxyOptions.customised()) {
            stdout.println("# locus: " + locusMode.description() + ", local.capacity_bytes " + localCapacity + "; "
                    + proxyOptions.describe());
        }
        BusyLoops spinners = BusyLoops.start(busyLoops);
        List<AutoCloseable> started = new ArrayList<>();
        try (MemcachedServers servers = MemcachedServers.start(1, MemcachedConfig.DEFAULTS.withThreads(1), hosts)) {
            InetSocketAddress memcached = servers.addresses().get(0);
            List<InetSocketAddress> addresses = new ArrayList<>();
            for (String p : paths) {
                addresses.add(
                        switch (p) {
                            case "direct" -> memcached;
                            case "twemproxy" -> {
                                Nutcracker n = Nutcracker.builder(hosts)
                                        .server(memcached, 1, "memcached-0")
                                        .start();
                                started.add(n);
                                yield n.address();
                            }
                            default -> {
                                int port = Ports.freeLoopbackPort();
                                Map<String, Object> config = LocusProxy.config(
                                        locusMode,
                                        port,
                                        List.of(memcached),
                                        TenantProfile.defaults(),
                                        Emulation.NONE,
                                        localCapacity);
                                config.putAll(settings);
                                String yaml = LocusProxy.dump(config);
                                LocusProxy locus = LocusProxy.start(
                                        "locus", jar, yaml, port, hosts, proxyOptions.jvmArgs("locus"));
                                started.add(locus);
                                yield locus.address();
                            }
                        });
            }
            String[] keys = new String[1000];
            byte[] value = "v".repeat(100).getBytes(StandardCharsets.US_ASCII);
            try (TextClient c = new TextClient(memcached, 5000)) {
                for (int i = 0; i < keys.length; i++) {
                    keys[i] = "probe:" + i;
                    c.set(keys[i], value);
                }
            }
            List<TextClient> clients = new ArrayList<>();
            try {
                for (InetSocketAddress a : addresses) {
                    clients.add(new TextClient(a, 5000));
                }
                long[][] nanos = run(clients, keys, warmupRounds, rounds);
                stdout.print(table(paths, nanos));
            } finally {
                for (TextClient c : clients) {
                    c.close();
                }
            }
        } finally {
            for (int i = started.size() - 1; i >= 0; i--) {
                started.get(i).close();
            }
            spinners.close();
        }
        stdout.println("# load average after: "
                + Files.readString(Path.of("/proc/loadavg")).trim());
        return 0;
    }

    /** Latency in ns of every measured round's get, per path: {@code [path][round]}. */
    private long[][] run(List<TextClient> clients, String[] keys, int warmup, int measured) throws IOException {
        int n = clients.size();
        long[][] nanos = new long[n][measured];
        SplittableRandom random = new SplittableRandom(seed);
        int[] order = new int[n];
        long period = (long) (1e9 / rate);
        long next = System.nanoTime();
        int total = warmup + measured;
        for (int r = 0; r < total; r++) {
            next += period;
            for (int i = 0; i < n; i++) {
                order[i] = i;
            }
            for (int i = n - 1; i > 0; i--) {
                int j = random.nextInt(i + 1);
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
            String key = keys[r % keys.length];
            for (int i : order) {
                long start = System.nanoTime();
                OpStats.Reply reply = clients.get(i).get(key);
                long took = System.nanoTime() - start;
                if (reply != OpStats.Reply.HIT) {
                    throw new IOException("path " + i + ": get " + key + " answered " + reply + " (expected a hit)");
                }
                if (r >= warmup) {
                    nanos[i][r - warmup] = took;
                }
            }
            if (r % 5000 == 0) {
                progress.printf(
                        Locale.ROOT,
                        "proxy-latency %s %d/%d rounds%n",
                        r < warmup ? "warm-up" : "measure",
                        r < warmup ? r : r - warmup,
                        r < warmup ? warmup : measured);
            }
            long wait = next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            } else if (wait < -100 * period) {
                next = System.nanoTime(); // far behind after a stall: do not fire a burst of catch-up rounds
            }
        }
        return nanos;
    }

    static final double[] PERCENTILES = {50, 90, 99, 99.9};

    /**
     * The result table: per path its percentiles, then for each path but direct (index 0) the difference of
     * percentiles and the percentiles of the per-round paired difference, all in microseconds.
     */
    static String table(List<String> paths, long[][] nanos) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%-10s %9s %9s %9s %9s%n", "path (us)", "p50", "p90", "p99", "p99.9"));
        double[][] pct = new double[paths.size()][];
        for (int i = 0; i < paths.size(); i++) {
            pct[i] = percentilesMicros(nanos[i]);
            sb.append(String.format(
                    Locale.ROOT,
                    "%-10s %9.1f %9.1f %9.1f %9.1f%n",
                    paths.get(i),
                    pct[i][0],
                    pct[i][1],
                    pct[i][2],
                    pct[i][3]));
        }
        sb.append(String.format(
                Locale.ROOT, "%n%-22s %9s %9s %9s %9s%n", "added vs direct (us)", "p50", "p90", "p99", "p99.9"));
        for (int i = 1; i < paths.size(); i++) {
            sb.append(String.format(
                    Locale.ROOT,
                    "%-22s %9.1f %9.1f %9.1f %9.1f%n",
                    paths.get(i) + " pctl diff",
                    pct[i][0] - pct[0][0],
                    pct[i][1] - pct[0][1],
                    pct[i][2] - pct[0][2],
                    pct[i][3] - pct[0][3]));
            double[] paired = pairedPercentilesMicros(nanos[i], nanos[0]);
            sb.append(String.format(
                    Locale.ROOT,
                    "%-22s %9.1f %9.1f %9.1f %9.1f%n",
                    paths.get(i) + " paired",
                    paired[0],
                    paired[1],
                    paired[2],
                    paired[3]));
        }
        sb.append("# pctl diff = the path's percentile minus direct's over the same rounds; paired = percentiles of "
                + "(path - direct) per round\n");
        return sb.toString();
    }

    static double[] percentilesMicros(long[] nanos) {
        Histogram h = new Histogram(3);
        for (long v : nanos) {
            h.recordValue(Math.max(0, v));
        }
        double[] out = new double[PERCENTILES.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = h.getValueAtPercentile(PERCENTILES[i]) / 1000.0;
        }
        return out;
    }

    /** Percentiles of {@code a[r] - b[r]} (may be negative: a round where direct stalled and the path did not). */
    static double[] pairedPercentilesMicros(long[] a, long[] b) {
        if (a.length != b.length || a.length == 0) {
            throw new IllegalArgumentException(
                    "rounds: " + a.length + " and " + b.length + " (expected: the same, > 0)");
        }
        long[] d = new long[a.length];
        for (int r = 0; r < a.length; r++) {
            d[r] = a[r] - b[r];
        }
        java.util.Arrays.sort(d);
        double[] out = new double[PERCENTILES.length];
        for (int i = 0; i < out.length; i++) {
            int rank = (int) Math.ceil(PERCENTILES[i] / 100.0 * d.length) - 1; // nearest rank
            out[i] = d[Math.max(0, Math.min(d.length - 1, rank))] / 1000.0;
        }
        return out;
    }
}

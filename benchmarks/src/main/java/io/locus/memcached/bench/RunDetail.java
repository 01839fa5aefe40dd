package io.locus.memcached.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * {@code --detail} of {@code proxy-memcaslap}: over a window inside one memcaslap run, per process (and per I/O
 * thread of a Locus proxy) the cores used, the busiest thread's share of a core, context switches and system calls
 * per request. System calls are counted by {@code perf stat -e raw_syscalls:sys_enter} (a counting tracepoint, no
 * per-call record), or shown as {@code -} where perf is missing or not allowed.
 */
final class RunDetail {
    /** What one process (or one of its threads) did over the window, per second of it. */
    record Usage(
            String process,
            double cores,
            double systemShare,
            double busiestThread,
            String busiestName,
            double voluntaryPerSecond,
            double involuntaryPerSecond,
            double syscallsPerSecond) {}

    private final Map<String, Long> pids;
    private final Path perfOutput;
    private final Map<String, List<HostUsage.ThreadCounters>> before = new LinkedHashMap<>();
    private Process perf;
    private long startNanos;

    private RunDetail(Map<String, Long> pids, Path perfOutput) {
        this.pids = pids;
        this.perfOutput = perfOutput;
    }

    /**
     * Takes the first snapshot of every process in {@code pids} (label to pid, in display order) and starts counting
     * their system calls into {@code perfOutput} for {@code windowSeconds}.
     */
    static RunDetail start(Map<String, Long> pids, Path perfOutput, int windowSeconds) {
        RunDetail d = new RunDetail(pids, perfOutput);
        for (Map.Entry<String, Long> e : pids.entrySet()) {
            d.before.put(e.getKey(), HostUsage.threads(e.getValue()));
        }
        String list = pids.values().stream().map(String::valueOf).collect(Collectors.joining(","));
        try {
            Files.deleteIfExists(perfOutput);
            d.perf = new ProcessBuilder(
                            "perf",
                            "stat",
                            "-x,",
                            "--per-thread",
                            "-e",
                            "raw_syscalls:sys_enter",
                            "-o",
                            perfOutput.toString(),
                            "-p",
                            list,
                            "--",
                            "sleep",
                            Integer.toString(windowSeconds))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
        } catch (IOException e) {
            d.perf = null; // no perf: the syscall column stays empty
        }
        d.startNanos = System.nanoTime();
        return d;
    }

    /** Takes the second snapshot (call when the window has passed) and returns one row per process and I/O thread. */
    List<Usage> finish() throws InterruptedException {
        Map<String, List<HostUsage.ThreadCounters>> after = new LinkedHashMap<>();
        for (Map.Entry<String, Long> e : pids.entrySet()) {
            after.put(e.getKey(), HostUsage.threads(e.getValue()));
        }
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        Map<Long, Long> syscalls = new HashMap<>();
        if (perf != null && perf.waitFor(10, TimeUnit.SECONDS) && perf.exitValue() == 0) {
            try {
                syscalls = parsePerf(Files.readString(perfOutput, StandardCharsets.UTF_8));
            } catch (IOException e) {
                syscalls = new HashMap<>();
            }
        } else if (perf != null) {
            perf.destroyForcibly();
        }
        List<Usage> rows = new ArrayList<>();
        List<HostUsage.ThreadCounters> everyThread = new ArrayList<>();
        for (String label : pids.keySet()) {
            Map<Long, HostUsage.ThreadCounters> d = HostUsage.delta(before.get(label), after.get(label));
            everyThread.addAll(d.values());
            rows.add(usage(label, d.values().stream().toList(), seconds, syscalls));
            List<HostUsage.ThreadCounters> others = new ArrayList<>();
            for (HostUsage.ThreadCounters t : d.values()) {
                if (t.name().startsWith("locus-io")) {
                    rows.add(usage("  " + t.name(), List.of(t), seconds, syscalls));
                } else {
                    others.add(t);
                }
            }
            if (others.size() < d.size()) {
                // the JVM's other threads: GC, JIT compilers, timers
                rows.add(usage("  other threads", others, seconds, syscalls));
            }
        }
        // The whole chain: when the cores are shared with other load, throughput follows its CPU per request.
        rows.add(usage("all", everyThread, seconds, syscalls));
        return rows;
    }

    private static Usage usage(
            String label, List<HostUsage.ThreadCounters> threads, double seconds, Map<Long, Long> syscalls) {
        long ticks = 0;
        long system = 0;
        long voluntary = 0;
        long involuntary = 0;
        long calls = 0;
        boolean counted = false;
        HostUsage.ThreadCounters busiest = null;
        for (HostUsage.ThreadCounters t : threads) {
            ticks += t.ticks();
            system += t.systemTicks();
            voluntary += t.voluntary();
            involuntary += t.involuntary();
            Long c = syscalls.get(t.tid());
            if (c != null) {
                calls += c;
                counted = true;
            }
            if (busiest == null || t.ticks() > busiest.ticks()) {
                busiest = t;
            }
        }
        double perTick = 1 / HostUsage.TICKS_PER_SECOND / seconds;
        return new Usage(
                label,
                ticks * perTick,
                ticks == 0 ? 0 : (double) system / ticks,
                busiest == null ? 0 : busiest.ticks() * perTick,
                busiest == null ? "-" : busiest.name(),
                voluntary / seconds,
                involuntary / seconds,
                counted ? calls / seconds : Double.NaN);
    }

    /**
     * tid to system calls from {@code perf stat -x, --per-thread} output, whose lines read {@code
     * <comm>-<tid>,<count>,,raw_syscalls:sys_enter,...}; {@code <not counted>} is zero.
     */
    static Map<Long, Long> parsePerf(String text) {
        Map<Long, Long> out = new HashMap<>();
        for (String line : text.split("\n")) {
            String[] f = line.split(",");
            if (f.length < 4 || !f[3].startsWith("raw_syscalls:sys_enter")) {
                continue;
            }
            int dash = f[0].lastIndexOf('-');
            try {
                long tid = Long.parseLong(f[0].substring(dash + 1).trim());
                out.merge(tid, f[1].startsWith("<") ? 0 : Long.parseLong(f[1].trim()), Long::sum);
            } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
                // a header or comment line
            }
        }
        return out;
    }

    /** One table row per usage, per request where {@code opsPerSecond} is the run's throughput. */
    static String rows(int round, String target, double opsPerSecond, List<Usage> usages) {
        StringBuilder sb = new StringBuilder();
        for (Usage u : usages) {
            sb.append(String.format(
                    Locale.ROOT,
                    "%-5d %-24s %-18s %6.2f %6.2f  %-16s %7.2f %5.0f%% %7.3f %7.3f %8s%n",
                    round,
                    target,
                    u.process(),
                    u.cores(),
                    u.busiestThread(),
                    u.busiestName(),
                    u.cores() * 1e6 / opsPerSecond,
                    100 * u.systemShare(),
                    u.voluntaryPerSecond() / opsPerSecond,
                    u.involuntaryPerSecond() / opsPerSecond,
                    Double.isNaN(u.syscallsPerSecond())
                            ? "-"
                            : String.format(Locale.ROOT, "%.2f", u.syscallsPerSecond() / opsPerSecond)));
        }
        return sb.toString();
    }

    static String header() {
        return String.format(
                Locale.ROOT,
                "%-5s %-24s %-18s %6s %6s  %-16s %7s %6s %7s %7s %8s%n",
                "round",
                "target",
                "process",
                "cores",
                "top",
                "top thread",
                "us/op",
                "kernel",
                "vcs/op",
                "ics/op",
                "sysc/op");
    }

    /**
     * Per target the median CPU µs per request of all its processes, and the ratio of two setups' costs: when the
     * machine's cores are full (load average above the core count), throughput follows it.
     */
    static String chainTable(Map<String, List<Double>> chainMicros) {
        StringBuilder sb = new StringBuilder(
                String.format(Locale.ROOT, "%n%-20s %12s  %s%n", "target", "all us/op", "(median over rounds)"));
        Map<String, Double> med = new LinkedHashMap<>();
        for (Map.Entry<String, List<Double>> e : chainMicros.entrySet()) {
            double m = MemcaslapBench.median(
                    e.getValue().stream().mapToDouble(Double::doubleValue).toArray());
            med.put(e.getKey(), m);
            sb.append(String.format(Locale.ROOT, "%-20s %12.2f%n", e.getKey(), m));
        }
        String[][] pairs = {
            {"locus-pass-through", "twemproxy"}, {"locus-full-hot", "direct-hot"}, {"locus-full-2t-hot", "direct-hot"}
        };
        for (String[] p : pairs) {
            if (med.containsKey(p[0]) && med.containsKey(p[1])) {
                sb.append(String.format(
                        Locale.ROOT,
                        "all us/op %s / %s: %.2f, the throughput ratio to expect when the cores are the limit%n",
                        p[1],
                        p[0],
                        med.get(p[1]) / med.get(p[0])));
            }
        }
        return sb.toString();
    }
}

package io.locus.memcached.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * CPU time a proxy process spent per request over the measured part of one row, from {@code /proc/<pid>/stat}. Why:
 * on a shared 2-core machine throughput swings with other people's load, while a proxy's CPU per request is its own
 * cost; the ratio of two proxies' CPU per request is the steadier comparison.
 */
final class ProcessCpu {
    /** Linux's USER_HZ, the unit of utime and stime. */
    private static final double TICKS_PER_SECOND = 100;

    private final long pid;
    private final LongSupplier generator;
    private volatile long[] before = {-1, -1};
    private volatile long opsBefore;

    private ProcessCpu(long pid, LongSupplier generator) {
        this.pid = pid;
        this.generator = generator;
    }

    /**
     * Starts counting once {@code warmupNanos} (plus the generator's 50 ms start delay) have passed, so the JIT
     * compiling the proxy's hot path during the warm-up is not charged to its requests.
     */
    static ProcessCpu start(long pid, LongSupplier generator, long warmupNanos) {
        ProcessCpu cpu = new ProcessCpu(pid, generator);
        Thread t = new Thread(
                () -> {
                    try {
                        Thread.sleep(warmupNanos / 1_000_000 + 50);
                    } catch (InterruptedException e) {
                        return;
                    }
                    cpu.opsBefore = generator.getAsLong();
                    cpu.before = ticks(pid);
                },
                "bench-cpu-" + pid);
        t.setDaemon(true);
        t.start();
        return cpu;
    }

    /** {user, system} clock ticks of the process, or {-1, -1} where /proc is unreadable. */
    static long[] ticks(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // The command name may hold spaces; the fields after its closing parenthesis are fixed.
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return new long[] {Long.parseLong(f[11]), Long.parseLong(f[12])};
        } catch (IOException | RuntimeException e) {
            return new long[] {-1, -1};
        }
    }

    /** {@code <row>: <µs>/op (user <µs>, system <µs>) over <n> requests}, or why not. */
    String line(String row) {
        long[] after = ticks(pid);
        long ops = generator.getAsLong() - opsBefore;
        if (before[0] < 0 || after[0] < 0 || ops <= 0) {
            return row + ": not measured";
        }
        double user = (after[0] - before[0]) / TICKS_PER_SECOND * 1e6 / ops;
        double sys = (after[1] - before[1]) / TICKS_PER_SECOND * 1e6 / ops;
        return String.format(
                Locale.ROOT,
                "%s: %.1f us/op (user %.1f, system %.1f) over %d requests",
                row,
                user + sys,
                user,
                sys,
                ops);
    }
}

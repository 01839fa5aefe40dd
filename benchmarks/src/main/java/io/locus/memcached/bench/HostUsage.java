package io.locus.memcached.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What the processes of one benchmark run spent over a window: CPU (utime + stime from {@code /proc/<pid>/task/
 * <tid>/stat}), voluntary and involuntary context switches ({@code /proc/<pid>/task/<tid>/status}), per thread so a
 * process with one saturated thread among idle ones is seen as saturated. Why: a closed-loop throughput ratio says
 * that one setup is slower, not which process limits it; the busiest thread's share of a core does.
 */
final class HostUsage {
    /** Linux's USER_HZ, the unit of utime and stime. */
    static final double TICKS_PER_SECOND = 100;

    private HostUsage() {}

    /** One thread's counters at one instant. */
    record ThreadCounters(long tid, String name, long ticks, long systemTicks, long voluntary, long involuntary) {}

    /** Every thread of {@code pid} now; empty if the process is gone or /proc is unreadable. */
    static List<ThreadCounters> threads(long pid) {
        List<ThreadCounters> out = new ArrayList<>();
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        try (Stream<Path> list = Files.list(tasks)) {
            for (Path task : list.toList()) {
                ThreadCounters t = thread(task);
                if (t != null) {
                    out.add(t);
                }
            }
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
        return out;
    }

    private static ThreadCounters thread(Path task) {
        try {
            return parse(
                    Long.parseLong(task.getFileName().toString()),
                    Files.readString(task.resolve("stat")),
                    Files.readString(task.resolve("status")));
        } catch (IOException | RuntimeException e) {
            return null; // the thread ended between the listing and the read
        }
    }

    /** One thread's counters from the text of its {@code stat} and {@code status} files. */
    static ThreadCounters parse(long tid, String stat, String status) {
        String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        // The name may hold spaces and parentheses; the fields after its last closing parenthesis are fixed.
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long system = Long.parseLong(f[12]);
        return new ThreadCounters(
                tid,
                name,
                Long.parseLong(f[11]) + system,
                system,
                field(status, "voluntary_ctxt_switches"),
                field(status, "nonvoluntary_ctxt_switches"));
    }

    private static long field(String status, String key) {
        for (String line : status.split("\n")) {
            if (line.startsWith(key + ":")) {
                return Long.parseLong(line.substring(key.length() + 1).trim());
            }
        }
        throw new IllegalArgumentException("no " + key + " line in /proc status");
    }

    /**
     * Per-thread differences between two snapshots of one process, keyed by tid; threads born in between count from
     * zero, threads that ended are left out.
     */
    static Map<Long, ThreadCounters> delta(List<ThreadCounters> before, List<ThreadCounters> after) {
        Map<Long, ThreadCounters> old = new LinkedHashMap<>();
        for (ThreadCounters t : before) {
            old.put(t.tid(), t);
        }
        Map<Long, ThreadCounters> out = new LinkedHashMap<>();
        for (ThreadCounters t : after) {
            ThreadCounters b = old.getOrDefault(t.tid(), new ThreadCounters(t.tid(), t.name(), 0, 0, 0, 0));
            out.put(
                    t.tid(),
                    new ThreadCounters(
                            t.tid(),
                            t.name(),
                            t.ticks() - b.ticks(),
                            t.systemTicks() - b.systemTicks(),
                            t.voluntary() - b.voluntary(),
                            t.involuntary() - b.involuntary()));
        }
        return out;
    }
}

package io.locus.bench.virtcache;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * How long a process's threads have run and have waited, runnable, for a CPU that another process held: the sums of
 * the first two fields of {@code /proc/PID/task/TID/schedstat} (nanoseconds), over the threads alive now. The wait is
 * what a reservation of CPU would remove and a quota cannot.
 *
 * @param runNanos time on a CPU
 * @param waitNanos time runnable but waiting on a run queue
 */
record CpuWait(long runNanos, long waitNanos) {

    /** The sums for process {@code pid}; zeros if it is gone or the kernel keeps no schedstat. */
    static CpuWait of(long pid) {
        long run = 0;
        long wait = 0;
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks.toList()) {
                try {
                    CpuWait t = parse(Files.readString(task.resolve("schedstat")));
                    run += t.runNanos;
                    wait += t.waitNanos;
                } catch (IOException e) {
                    // The thread ended meanwhile.
                }
            }
        } catch (IOException e) {
            return new CpuWait(0, 0);
        }
        return new CpuWait(run, wait);
    }

    /**
     * One {@code schedstat} line: run time, wait time, timeslices.
     *
     * @throws IllegalArgumentException naming the text if it does not hold three numbers
     */
    static CpuWait parse(String line) {
        String[] f = line.trim().split("\\s+");
        if (f.length != 3 || !line.trim().matches("[0-9]+\\s+[0-9]+\\s+[0-9]+")) {
            throw new IllegalArgumentException(
                    "schedstat \"" + line.trim() + "\" (expected: three numbers: run ns, wait ns, timeslices)");
        }
        return new CpuWait(Long.parseLong(f[0]), Long.parseLong(f[1]));
    }

    CpuWait minus(CpuWait before) {
        return new CpuWait(runNanos - before.runNanos, waitNanos - before.waitNanos);
    }
}

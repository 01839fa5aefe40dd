package io.locus.bench.virtcache;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

/**
 * What the victims' client (this JVM) and the two bricks it talks to spent during a phase of the bench: CPU time,
 * time runnable but waiting for a CPU that another process held ({@link CpuWait}), and this JVM's garbage
 * collections. Take one at a phase's start and print the difference at its end.
 */
record PhaseUsage(long nanos, CpuWait client, CpuWait disksBrick, CpuWait logBrick, long gcCount, long gcMillis) {

    static PhaseUsage now(long disksBrickPid, long logBrickPid) {
        long count = 0;
        long millis = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            count += Math.max(0, gc.getCollectionCount());
            millis += Math.max(0, gc.getCollectionTime());
        }
        return new PhaseUsage(
                System.nanoTime(),
                CpuWait.of(ProcessHandle.current().pid()),
                CpuWait.of(disksBrickPid),
                CpuWait.of(logBrickPid),
                count,
                millis);
    }

    /** One line: the phase's wall time, and for each process its CPU and its wait for a CPU, in seconds. */
    String since(PhaseUsage before, String phase) {
        return String.format(
                "  %s, %.1f s: CPU s used / s waited for a CPU held by another process: the victims' client (this"
                        + " JVM) %s, the disks' brick %s, the log's brick %s; %d garbage collections, %d ms",
                phase,
                (nanos - before.nanos) / 1e9,
                seconds(client.minus(before.client)),
                seconds(disksBrick.minus(before.disksBrick)),
                seconds(logBrick.minus(before.logBrick)),
                gcCount - before.gcCount,
                gcMillis - before.gcMillis);
    }

    private static String seconds(CpuWait w) {
        return String.format("%.2f / %.2f", w.runNanos() / 1e9, w.waitNanos() / 1e9);
    }
}

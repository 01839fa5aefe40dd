package io.locus.memcached.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code nice -n 19} busy loops that keep this VM's vCPUs awake while a benchmark measures: an idle vCPU of a
 * Firecracker guest halts and takes 1-2 ms to wake, which otherwise decides latency at low load. At the lowest
 * priority they yield to every measured process. Stopped by {@link #close()}, or at JVM exit.
 */
final class BusyLoops implements AutoCloseable {
    private final List<Process> loops = new ArrayList<>();

    private BusyLoops() {}

    static BusyLoops start(int count) throws IOException {
        BusyLoops b = new BusyLoops();
        for (int i = 0; i < count; i++) {
            b.loops.add(new ProcessBuilder("nice", "-n", "19", "sh", "-c", "while :; do :; done")
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start());
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> b.loops.forEach(Process::destroyForcibly)));
        return b;
    }

    /** The loops' process ids. */
    List<Long> pids() {
        return loops.stream().map(Process::pid).toList();
    }

    @Override
    public void close() throws InterruptedException {
        for (Process p : loops) {
            p.destroyForcibly();
            p.waitFor(5, TimeUnit.SECONDS);
        }
    }
}

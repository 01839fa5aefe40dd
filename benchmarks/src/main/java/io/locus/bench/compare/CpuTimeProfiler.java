package io.locus.bench.compare;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.profile.ProfilerException;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * A JMH profiler ({@code -prof io.locus.bench.compare.CpuTimeProfiler}) that adds the CPU time the benchmark's own
 * threads spent per operation, as the secondary metric {@value #LABEL} in ns/op.
 *
 * <p>Why: JMH's scores are wall-clock time. On a machine shared with other work, a benchmark thread that waits for a
 * core is charged the wait, so two runs of the same code can differ by tens of percent and their errors swamp a
 * regression. Thread CPU time counts only what the threads ran; other processes still disturb it through shared caches
 * and clock speed, but far less. {@code ./locus bench compare --metric cpu.time.norm} compares it.
 *
 * <p>What is counted: each iteration, the CPU time of the threads named {@code *-jmh-worker-*} (JMH's benchmark
 * threads, which persist across iterations), divided by all the operations they ran in it (as JMH's own GC profiler
 * normalises). Compilation and GC threads are not counted.
 */
public final class CpuTimeProfiler implements InternalProfiler {
    /** The secondary metric's name in JMH's output and JSON. */
    public static final String LABEL = "\u00b7cpu.time.norm";

    private static final String WORKER = "-jmh-worker-";

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private Map<Long, Long> before = Map.of();

    /** @throws ProfilerException if this JVM cannot measure thread CPU time */
    public CpuTimeProfiler() throws ProfilerException {
        if (!threads.isThreadCpuTimeSupported()) {
            throw new ProfilerException("this JVM cannot measure thread CPU time (ThreadMXBean)");
        }
        if (!threads.isThreadCpuTimeEnabled()) {
            threads.setThreadCpuTimeEnabled(true);
        }
    }

    @Override
    public String getDescription() {
        return "CPU time of the benchmark threads per operation (" + LABEL + ", ns/op)";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        before = workerCpuNanos();
    }

    @Override
    public Collection<? extends Result> afterIteration(
            BenchmarkParams benchmarkParams, IterationParams iterationParams, IterationResult result) {
        long ops = result.getMetadata().getAllOps();
        if (ops <= 0) {
            return List.of();
        }
        long nanos = 0;
        for (Map.Entry<Long, Long> e : workerCpuNanos().entrySet()) {
            nanos += e.getValue() - before.getOrDefault(e.getKey(), 0L);
        }
        return List.of(new ScalarResult(LABEL, (double) nanos / ops, "ns/op", AggregationPolicy.AVG));
    }

    /** CPU nanoseconds so far of every live benchmark thread, by thread id. */
    private Map<Long, Long> workerCpuNanos() {
        Map<Long, Long> out = new HashMap<>();
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && info.getThreadName().contains(WORKER)) {
                long cpu = threads.getThreadCpuTime(info.getThreadId());
                if (cpu >= 0) { // -1: the thread ended in between
                    out.put(info.getThreadId(), cpu);
                }
            }
        }
        return out;
    }
}

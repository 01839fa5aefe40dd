package io.locus.bench.virtcache;

import io.locus.gluster.virtcache.detector.DetectorConfig;
import io.locus.gluster.virtcache.detector.InterferenceDetector;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * VirtCache's interference detector with its default configuration (windows of 30 one-second samples):
 *
 * <ul>
 *   <li>{@code sample}: one sub-interval, {@link InterferenceDetector#sample} with one sample per VM (the queueing
 *       model's prediction for every VM, appended to its windows);
 *   <li>{@code evaluate}: one evaluation period, {@link InterferenceDetector#evaluate} (the p90 of every VM's recent
 *       and low-load window, violation check, selection by hit rate then deviation).
 * </ul>
 *
 * <p>Workload: {@code vms} disks on one device (4, or 16 = the device's parallelism n), 64 sub-intervals drawn once
 * with a fixed seed and cycled: arrivals 20-200 IO/s per VM, service times 0.1-10 ms, one sub-interval in three at low
 * queue depth (so the low-load window fills too); the windows are full before measuring.
 *
 * <p>Run: {@code ./locus bench jmh bench.virtcache}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "-Xmx512m")
public class DetectorBenchmark {
    private static final int INTERVALS = 64;

    @Param({"4", "16"})
    public int vms;

    private InterferenceDetector detector;
    private Map<String, InterferenceDetector.Sample>[] intervals;
    private double[] queueDepth;
    private int next;

    @Setup
    @SuppressWarnings("unchecked")
    public void setUp() {
        SplittableRandom random = new SplittableRandom(42);
        intervals = new Map[INTERVALS];
        queueDepth = new double[INTERVALS];
        for (int i = 0; i < INTERVALS; i++) {
            Map<String, InterferenceDetector.Sample> m = new LinkedHashMap<>();
            for (int v = 0; v < vms; v++) {
                m.put(
                        "vm" + v + ".img",
                        new InterferenceDetector.Sample(
                                random.nextDouble(20, 200), 0, random.nextDouble(0.0001, 0.01)));
            }
            intervals[i] = m;
            queueDepth[i] = i % 3 == 0 ? random.nextDouble(0, 4) : random.nextDouble(4, 32);
        }
        detector = new InterferenceDetector(DetectorConfig.DEFAULTS);
        for (int i = 0; i < 2 * DetectorConfig.DEFAULTS.samplesPerWindow() * 3; i++) {
            sample();
        }
    }

    @Benchmark
    public int sample() {
        int i = next++ & (INTERVALS - 1);
        detector.sample(intervals[i], queueDepth[i]);
        return i;
    }

    @Benchmark
    public InterferenceDetector.Decision evaluate() {
        InterferenceDetector.Decision d = detector.evaluate(vm -> 0.5);
        // A selected VM is excluded from selection until reverted: revert it, so every evaluation does the same work.
        d.selected().ifPresent(detector::reverted);
        return d;
    }
}

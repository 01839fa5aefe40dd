package io.locus.gluster.virtcache.detector;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * VirtCache's workload interference detector for the VMs (virtual disk files) sharing one storage device: a
 * product-form queueing model predicts each VM's response time from the arrival rates of all of them, and a VM whose
 * predicted 90th percentile drifts above its low-load value is selected for redirection (Arumugam, ch. 3, §3.7.1,
 * eq. 3.5 and Algorithm 2).
 *
 * <p>Every sub-interval the caller passes one {@link Sample} per VM and the device's average queue depth
 * ({@link #sample}); every evaluation period it calls {@link #evaluate}. There is no clock inside: the caller's
 * schedule is the time base, so tests drive it by counts. Not thread-safe.
 */
public final class InterferenceDetector {
    private final DetectorConfig config;
    private final Map<String, VmState> vms = new LinkedHashMap<>();
    private int settleLeft;

    public InterferenceDetector(DetectorConfig config) {
        this.config = Objects.requireNonNull(config, "config");
    }

    /**
     * One VM's load in one sub-interval.
     *
     * @param arrivalsPerSecond λ observed at the server
     * @param redirectedPerSecond what the client currently sends elsewhere; counted as if it still arrived, so that a
     *     redirected VM does not look idle to the model
     * @param deviceSeconds d, the VM's service time without queueing (measured when nothing was queued), in seconds
     */
    public record Sample(double arrivalsPerSecond, double redirectedPerSecond, double deviceSeconds) {
        /** @throws IllegalArgumentException for a negative or non-finite value, naming it */
        public Sample {
            if (!(arrivalsPerSecond >= 0) || Double.isInfinite(arrivalsPerSecond)) {
                throw new IllegalArgumentException("arrivalsPerSecond " + arrivalsPerSecond + " (expected: >= 0)");
            }
            if (!(redirectedPerSecond >= 0) || Double.isInfinite(redirectedPerSecond)) {
                throw new IllegalArgumentException("redirectedPerSecond " + redirectedPerSecond + " (expected: >= 0)");
            }
            if (!(deviceSeconds > 0) || Double.isInfinite(deviceSeconds)) {
                throw new IllegalArgumentException("deviceSeconds " + deviceSeconds + " (expected: > 0)");
            }
        }
    }

    /** A VM's standing after an evaluation. */
    public record VmReport(String vm, double p90, double lowLoadP90, double deviation, boolean violating) {}

    /**
     * The outcome of one evaluation.
     *
     * @param selected the VM to redirect now, if any
     * @param reports every VM that has a low-load baseline, in the order first seen
     */
    public record Decision(Optional<String> selected, List<VmReport> reports) {}

    /**
     * Records one sub-interval: the model's prediction R_i = d_i / (1 - U) for every VM, with
     * U = Σ_j (1 + headroom)·(λ_j + redirected_j) / n · d_j (R_i infinite when U ≥ 1). If the device's average queue
     * depth was below the low-load threshold and no VM was redirected, the predictions also become the VMs' low-load
     * baseline.
     *
     * @throws IllegalArgumentException for a negative queue depth
     */
    public void sample(Map<String, Sample> samples, double averageQueueDepth) {
        if (!(averageQueueDepth >= 0)) {
            throw new IllegalArgumentException("averageQueueDepth " + averageQueueDepth + " (expected: >= 0)");
        }
        double u = 0;
        double redirected = 0;
        for (Sample s : samples.values()) {
            redirected += s.redirectedPerSecond();
            u += (1 + config.headroom())
                    * (s.arrivalsPerSecond() + s.redirectedPerSecond())
                    / config.parallelIo()
                    * s.deviceSeconds();
        }
        // While load is redirected the device's queue is short because of the redirection, not because the load is
        // low: such a period must not become the baseline the redirection is later judged against. Nor is a
        // saturated device (U >= 1) ever low load, whatever queue depth was seen above it.
        boolean lowLoad = averageQueueDepth < config.lowLoadQueueDepth() && redirected == 0 && u < 1;
        for (Map.Entry<String, Sample> e : samples.entrySet()) {
            double r = u < 1 ? e.getValue().deviceSeconds() / (1 - u) : Double.POSITIVE_INFINITY;
            VmState vm = vms.computeIfAbsent(e.getKey(), k -> new VmState(config.samplesPerWindow()));
            vm.recent.add(r);
            if (lowLoad) {
                vm.lowLoad.add(r);
            }
        }
    }

    /**
     * Compares every VM's p90 prediction over the last window with its low-load p90 (Algorithm 2: violation if
     * R^m − R^l > threshold·R^l). Among VMs violating for {@code confirmEvaluations} evaluations in a row it selects
     * the one with the highest hit rate at the cache size on offer (rounded to {@code hitRateStep}), then the largest
     * deviation; after a selection it waits {@code settleEvaluations} evaluations before selecting again.
     *
     * @param hitRate each VM's expected cache hit rate (0..1), e.g. from its shadow-LRU curve
     */
    public Decision evaluate(ToDoubleFunction<String> hitRate) {
        List<VmReport> reports = new ArrayList<>();
        List<VmReport> candidates = new ArrayList<>();
        for (Map.Entry<String, VmState> e : vms.entrySet()) {
            VmState vm = e.getValue();
            if (vm.lowLoad.size() == 0 || vm.recent.size() == 0) {
                continue;
            }
            double p90 = vm.recent.p90();
            double low = vm.lowLoad.p90();
            double deviation = p90 - low;
            boolean violating = deviation > config.threshold() * low;
            vm.violations = violating ? vm.violations + 1 : 0;
            VmReport report = new VmReport(e.getKey(), p90, low, deviation, violating);
            reports.add(report);
            if (vm.violations >= config.confirmEvaluations() && !vm.selected) {
                candidates.add(report);
            }
        }
        if (settleLeft > 0) {
            settleLeft--;
            return new Decision(Optional.empty(), reports);
        }
        Comparator<VmReport> order = Comparator.<VmReport>comparingDouble(r -> -rounded(hitRate.applyAsDouble(r.vm())))
                .thenComparingDouble(r -> -r.deviation())
                .thenComparing(VmReport::vm);
        Optional<String> selected = candidates.stream().min(order).map(VmReport::vm);
        selected.ifPresent(vm -> {
            vms.get(vm).selected = true;
            settleLeft = config.settleEvaluations();
        });
        return new Decision(selected, reports);
    }

    /** The VM is back on its primary (the client reverted): it may be selected again. */
    public void reverted(String vm) {
        VmState s = vms.get(vm);
        if (s != null) {
            s.selected = false;
            s.violations = 0;
        }
    }

    private double rounded(double hitRate) {
        if (!(hitRate >= 0 && hitRate <= 1)) {
            throw new IllegalArgumentException("hit rate " + hitRate + " (expected: 0..1)");
        }
        return config.hitRateStep() == 0 ? hitRate : Math.round(hitRate / config.hitRateStep()) * config.hitRateStep();
    }

    private static final class VmState {
        final Ring recent;
        final Ring lowLoad;
        int violations;
        boolean selected;

        VmState(int size) {
            recent = new Ring(size);
            lowLoad = new Ring(size);
        }
    }

    /** The last {@code capacity} values. */
    static final class Ring {
        private final double[] values;
        private int next;
        private int size;

        Ring(int capacity) {
            values = new double[capacity];
        }

        void add(double v) {
            values[next] = v;
            next = (next + 1) % values.length;
            size = Math.min(size + 1, values.length);
        }

        int size() {
            return size;
        }

        /** The nearest-rank 90th percentile. */
        double p90() {
            double[] sorted = Arrays.copyOf(values, size);
            Arrays.sort(sorted);
            int rank = (int) Math.ceil(0.9 * size);
            return sorted[Math.max(0, rank - 1)];
        }
    }
}

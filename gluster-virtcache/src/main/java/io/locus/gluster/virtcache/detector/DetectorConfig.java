package io.locus.gluster.virtcache.detector;

/**
 * Parameters of the {@link InterferenceDetector}; defaults from VirtCache's detector (Arumugam, <i>Performance
 * Enhancements in Large Scale Storage Systems</i>, ch. 3, §3.7.1) where it gives them.
 *
 * @param headroom how much faster than observed arrivals are assumed to come (0.10: "around 10% higher")
 * @param parallelIo n, the I/Os the device serves in parallel (16 for both the RAID5 array and the SSD of §3.7.1)
 * @param lowLoadQueueDepth below this average queue depth a period counts as low load (4)
 * @param threshold the p90 of the predicted latency may exceed its low-load value by this fraction (0.05)
 * @param samplesPerWindow how many one-second predictions one evaluation looks at (30)
 * @param confirmEvaluations consecutive violating evaluations before a VM is selected (2; not in the thesis: against
 *     flapping)
 * @param settleEvaluations evaluations to wait after a selection before selecting another VM (2)
 * @param hitRateStep hit rates are compared rounded to this step, so that VMs with about the same hit rate are told
 *     apart by their deviation (0.05)
 */
public record DetectorConfig(
        double headroom,
        int parallelIo,
        double lowLoadQueueDepth,
        double threshold,
        int samplesPerWindow,
        int confirmEvaluations,
        int settleEvaluations,
        double hitRateStep) {

    public static final DetectorConfig DEFAULTS = new DetectorConfig(0.10, 16, 4, 0.05, 30, 2, 2, 0.05);

    /** @throws IllegalArgumentException naming the parameter, its value and the range expected */
    public DetectorConfig {
        check("headroom", headroom, 0, 10);
        check("parallelIo", parallelIo, 1, 1 << 16);
        check("lowLoadQueueDepth", lowLoadQueueDepth, 0, 1 << 16);
        check("threshold", threshold, 0, 100);
        check("samplesPerWindow", samplesPerWindow, 1, 1 << 16);
        check("confirmEvaluations", confirmEvaluations, 1, 1000);
        check("settleEvaluations", settleEvaluations, 0, 1000);
        check("hitRateStep", hitRateStep, 0, 1);
    }

    private static void check(String name, double v, double min, double max) {
        if (!(v >= min && v <= max)) {
            throw new IllegalArgumentException("detector " + name + " " + v + " (expected: " + min + ".." + max + ")");
        }
    }
}

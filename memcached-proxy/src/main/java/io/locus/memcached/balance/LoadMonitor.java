package io.locus.memcached.balance;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Exact per-backend and per-virtual-bucket request counts over the current epoch, turned into rates (ops/s) and
 * mean latencies when the epoch ends (MBal §3.1 "cachelet load", BALANCE.md, "Statistics"). The proxy sees
 * every request, so nothing here is sampled.
 *
 * <p>Load is reads plus writes (w_load_write = 1). Rates divide by the real epoch length passed to
 * {@link #endEpoch}, so a late epoch end does not inflate them. Thread-safe (synchronised); O(1) per record.
 */
public final class LoadMonitor {
    private final double[] capacityOpsPerSecond;
    private final long[] backendOps;
    private final long[] backendWrites;
    private final long[] latencySumNanos;
    private final long[] latencyCount;
    private final long[] bucketOps;

    /**
     * One backend's statistics for the epoch that ended.
     *
     * @param backend index in the pool
     * @param opsPerSecond requests routed to it per second (its load L)
     * @param writeOpsPerSecond the writes among them
     * @param capacityOpsPerSecond its maximum permissible load T
     * @param meanLatencyNanos mean completion latency, or -1 if nothing completed
     */
    public record BackendLoad(
            int backend,
            double opsPerSecond,
            double writeOpsPerSecond,
            double capacityOpsPerSecond,
            double meanLatencyNanos) {

        /** Load over capacity; above 1 the backend is overloaded. */
        public double utilization() {
            return opsPerSecond / capacityOpsPerSecond;
        }

        /** True if the load exceeds the capacity. */
        public boolean overloaded() {
            return opsPerSecond > capacityOpsPerSecond;
        }
    }

    /**
     * @param capacityOpsPerSecond T_b per backend (configured or calibrated, MBal §3.1), each > 0
     * @param buckets number of virtual buckets counted (0 if Phase 3 is not used)
     * @throws IllegalArgumentException if no backend is given or a capacity is not positive
     */
    public LoadMonitor(double[] capacityOpsPerSecond, int buckets) {
        if (capacityOpsPerSecond.length == 0) {
            throw new IllegalArgumentException("backends: 0 (expected: >= 1)");
        }
        for (int b = 0; b < capacityOpsPerSecond.length; b++) {
            if (!(capacityOpsPerSecond[b] > 0)) {
                throw new IllegalArgumentException(
                        "capacity of backend " + b + ": " + capacityOpsPerSecond[b] + " ops/s (expected: > 0)");
            }
        }
        if (buckets < 0) {
            throw new IllegalArgumentException("virtual buckets: " + buckets + " (expected: >= 0)");
        }
        int n = capacityOpsPerSecond.length;
        this.capacityOpsPerSecond = capacityOpsPerSecond.clone();
        this.backendOps = new long[n];
        this.backendWrites = new long[n];
        this.latencySumNanos = new long[n];
        this.latencyCount = new long[n];
        this.bucketOps = new long[buckets];
    }

    /** Number of backends. */
    public int backends() {
        return capacityOpsPerSecond.length;
    }

    /** Counts one request sent to {@code backend}. */
    public synchronized void recordRequest(int backend, boolean write) {
        backendOps[backend]++;
        if (write) {
            backendWrites[backend]++;
        }
    }

    /** Counts one request for a key of virtual bucket {@code bucket}. */
    public synchronized void recordBucket(int bucket) {
        bucketOps[bucket]++;
    }

    /** Records the latency of a completed request at {@code backend}, in nanoseconds. */
    public synchronized void recordLatency(int backend, long latencyNanos) {
        latencySumNanos[backend] += latencyNanos;
        latencyCount[backend]++;
    }

    /**
     * Requests sent to {@code backend} so far in this epoch: the default cost of a replica choice (spread each hot
     * key's reads so that the epoch's counts stay even). Never negative.
     */
    public synchronized long epochCount(int backend) {
        return backendOps[backend];
    }

    /** The capacity T_b of {@code backend}, ops/s. */
    public double capacity(int backend) {
        return capacityOpsPerSecond[backend];
    }

    /**
     * Ends the epoch: returns each backend's rates and the per-bucket rates (via {@code bucketRatesOut}, which must
     * have the bucket count as length, or be null), then resets the counters.
     *
     * @param epochSeconds real length of the epoch, > 0
     */
    public synchronized List<BackendLoad> endEpoch(double epochSeconds, double[] bucketRatesOut) {
        if (!(epochSeconds > 0)) {
            throw new IllegalArgumentException("epoch length " + epochSeconds + " s (expected: > 0)");
        }
        List<BackendLoad> out = new ArrayList<>(backendOps.length);
        for (int b = 0; b < backendOps.length; b++) {
            double load = backendOps[b] / epochSeconds;
            double mean = latencyCount[b] == 0 ? -1 : (double) latencySumNanos[b] / latencyCount[b];
            out.add(new BackendLoad(b, load, backendWrites[b] / epochSeconds, capacityOpsPerSecond[b], mean));
        }
        if (bucketRatesOut != null) {
            if (bucketRatesOut.length != bucketOps.length) {
                throw new IllegalArgumentException("bucket rate array of length " + bucketRatesOut.length
                        + " (expected: " + bucketOps.length + ")");
            }
            for (int k = 0; k < bucketOps.length; k++) {
                bucketRatesOut[k] = bucketOps[k] / epochSeconds;
            }
        }
        Arrays.fill(backendOps, 0);
        Arrays.fill(backendWrites, 0);
        Arrays.fill(latencySumNanos, 0);
        Arrays.fill(latencyCount, 0);
        Arrays.fill(bucketOps, 0);
        return out;
    }
}

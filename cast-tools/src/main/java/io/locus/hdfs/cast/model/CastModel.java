package io.locus.hdfs.cast.model;

import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Evaluates a placement of a workload's jobs with the basic CAST formulation (Eqs. 4.2-4.6 of Yue Cheng's
 * dissertation, §4.3.2) and, when reuse-aware, CAST++'s data reuse (Eq. 4.7, §4.3.3):
 *
 * <pre>
 * maximise U = (1/T) / ($vm + $store)                                   (4.2)
 * c_i ≥ input_i + inter_i + output_i                                    (4.3)
 * T = Σ_i REG(s_i, capacity[s_i], R̂, L̂_i)                              (4.4)  jobs run one after another
 * $vm = n_vm · price_vm · T                                             (4.5)
 * $store = Σ_f capacity[f] · price_store[f] · ⌈T/60⌉                    (4.6)  billed by the started hour
 * capacity[f] = Σ_{i: s_i = f} c_i
 * </pre>
 *
 * A placement is the tier of each job plus, per tier, a per-VM capacity floor (over-provisioning that buys bandwidth
 * on tiers whose performance scales with capacity). What the equations leave out and the prose requires:
 *
 * <ul>
 *   <li>a non-persistent tier (ephSSD) downloads its input from its backing tier before the job and uploads its
 *       output after it, and the backing tier holds a copy of both;
 *   <li>an object-store job keeps its intermediate data on the object store's intermediate tier (persSSD);
 *   <li>volume tiers are bought in whole volumes, and at most {@code maxPerVmGb} per VM (a hard limit).
 * </ul>
 *
 * Reuse-aware (CAST++, and the model every plan is judged by): a shared dataset is stored once per tier holding it
 * (the copy of its largest reader's input), downloaded to a non-persistent tier once there, and copied from its home
 * tier to any other persistent tier its readers use (each charged to that copy's largest reader). Not reuse-aware
 * (basic CAST's planning model), every job stores and downloads its own input, as if no two jobs read the same data.
 */
public final class CastModel {
    private final Workload workload;
    private final boolean reuseAware;
    private final Cluster cluster;
    private final TierCatalog tiers;
    private final int[] interTier;
    private final int[] backingTier;
    private final double[] repl;
    private final int[] datasetId;
    private final double[] pricePerGbHour;

    public CastModel(Workload workload, boolean reuseAware) {
        this.workload = workload;
        this.reuseAware = reuseAware;
        this.cluster = workload.cluster();
        this.tiers = workload.tiers();
        int n = tiers.size();
        interTier = new int[n];
        backingTier = new int[n];
        repl = new double[n];
        pricePerGbHour = new double[n];
        for (int f = 0; f < n; f++) {
            Tier t = tiers.get(f);
            interTier[f] = t.intermediateTier() == null ? f : tiers.indexOf(t.intermediateTier());
            backingTier[f] = t.persistent() ? -1 : tiers.indexOf(t.backingTier());
            repl[f] = t.persistent() && !t.elastic() ? cluster.replication() : 1;
            pricePerGbHour[f] = t.pricePerGbHour(cluster.hoursPerMonth());
        }
        List<Job> jobs = workload.jobs();
        datasetId = new int[jobs.size()];
        Map<String, Integer> ids = new HashMap<>();
        for (int i = 0; i < jobs.size(); i++) {
            String d = jobs.get(i).dataset();
            datasetId[i] = reuseAware && d != null ? ids.computeIfAbsent(d, k -> ids.size()) : -1;
        }
    }

    public Workload workload() {
        return workload;
    }

    public boolean reuseAware() {
        return reuseAware;
    }

    /**
     * Evaluates jobs placed on {@code tierOfJob} (a tier index per job; -1 leaves a job out, as greedy does with the
     * jobs it has not placed yet) with {@code floorPerVmGb} per tier.
     */
    public Evaluation evaluate(int[] tierOfJob, double[] floorPerVmGb) {
        List<Job> jobs = workload.jobs();
        int nt = tiers.size();
        double[] need = new double[nt];
        Map<Long, Double> datasetCopy = reuseAware ? new HashMap<>() : null;
        Map<Long, Integer> copyReader = reuseAware ? new HashMap<>() : null;
        for (int i = 0; i < jobs.size(); i++) {
            int f = tierOfJob[i];
            if (f < 0) {
                continue;
            }
            Job j = jobs.get(i);
            need[interTier[f]] += j.interGb();
            need[f] += j.outputGb() * repl[f];
            int b = backingTier[f];
            if (b >= 0) {
                need[b] += j.outputGb() * repl[b];
            }
            if (datasetId[i] >= 0) {
                addReader(datasetCopy, copyReader, key(datasetId[i], f), i);
                if (b >= 0) {
                    addReader(datasetCopy, copyReader, key(datasetId[i], b), i);
                }
            } else {
                need[f] += j.inputGb() * repl[f];
                if (b >= 0) {
                    need[b] += j.inputGb() * repl[b];
                }
            }
        }
        if (datasetCopy != null) {
            for (Map.Entry<Long, Double> e : datasetCopy.entrySet()) {
                int f = (int) (e.getKey() & 0xffff);
                need[f] += e.getValue() * repl[f];
            }
        }
        double[] perVm = new double[nt];
        double[] capacity = new double[nt];
        double[] bw = new double[nt];
        double violation = 0;
        for (int f = 0; f < nt; f++) {
            Tier t = tiers.get(f);
            perVm[f] = need[f] > 0 ? t.provisionPerVm(need[f], cluster.nVm(), floorPerVmGb[f]) : 0;
            capacity[f] = perVm[f] * cluster.nVm();
            bw[f] = t.bandwidthAt(perVm[f]);
            violation += Math.max(0, perVm[f] - t.maxPerVmGb()) * cluster.nVm();
            violation += Math.max(0, capacity[f] - t.capacityLimitGb());
        }
        double[] runtime = new double[jobs.size()];
        if (datasetCopy != null) {
            copySec(datasetCopy, copyReader, bw, runtime);
        }
        Set<Long> downloaded = reuseAware ? new HashSet<>() : null;
        double totalSec = 0;
        for (int i = 0; i < jobs.size(); i++) {
            int f = tierOfJob[i];
            if (f < 0) {
                runtime[i] = Double.NaN;
                continue;
            }
            Job j = jobs.get(i);
            double sec = Estimator.runtimeSec(cluster, j, tiers.get(f), bw[f], bw[interTier[f]]);
            int b = backingTier[f];
            if (b >= 0) {
                boolean fetch = datasetId[i] < 0
                        || (j.inputGb() >= datasetCopy.get(key(datasetId[i], f))
                                && downloaded.add(key(datasetId[i], f)));
                if (fetch) {
                    sec += Estimator.transferSec(cluster, j.inputGb(), j.maps(), bw[b], bw[f]);
                }
                sec += Estimator.transferSec(cluster, j.outputGb(), j.reduces(), bw[f], bw[b]);
            }
            runtime[i] += sec;
            totalSec += runtime[i];
        }
        double minutes = totalSec / 60;
        return new Evaluation(
                minutes,
                vmCost(cluster, minutes),
                storeCost(capacity, pricePerGbHour, minutes),
                capacity,
                perVm,
                runtime,
                violation);
    }

    /** Records job {@code i} as a reader of a dataset copy: the copy is its largest reader's input (first on ties). */
    private void addReader(Map<Long, Double> copy, Map<Long, Integer> reader, long key, int i) {
        double gb = workload.jobs().get(i).inputGb();
        Double had = copy.get(key);
        if (had == null || gb > had) {
            copy.put(key, gb);
            reader.put(key, i);
        }
    }

    /**
     * A dataset is one set of bytes with one home: the persistent tier holding its largest copy (the lowest tier index
     * on ties). Every other persistent tier its readers use gets a copy from the home before its largest reader there
     * runs, charged to that reader like a download. A non-persistent tier's copy comes from its backing tier (the
     * download charged per job below).
     */
    private void copySec(Map<Long, Double> copy, Map<Long, Integer> reader, double[] bw, double[] runtime) {
        Map<Integer, Integer> home = new HashMap<>();
        for (Map.Entry<Long, Double> e : copy.entrySet()) {
            int d = (int) (e.getKey() >>> 16);
            int f = (int) (e.getKey() & 0xffff);
            if (!tiers.get(f).persistent()) {
                continue;
            }
            home.merge(d, f, (h, g) -> {
                double ch = copy.get(key(d, h));
                double cg = copy.get(key(d, g));
                return cg > ch || (cg == ch && g < h) ? g : h;
            });
        }
        for (Map.Entry<Long, Double> e : copy.entrySet()) {
            int d = (int) (e.getKey() >>> 16);
            int f = (int) (e.getKey() & 0xffff);
            Integer h = home.get(d);
            if (tiers.get(f).persistent() && h != f) {
                int i = reader.get(e.getKey());
                runtime[i] += Estimator.transferSec(
                        cluster, e.getValue(), workload.jobs().get(i).maps(), bw[h], bw[f]);
            }
        }
    }

    /** Every job on one tier, at that tier's per-VM floor {@code floorPerVmGb}. */
    public Evaluation evaluateSingleTier(int tier, double floorPerVmGb) {
        int[] s = new int[workload.jobs().size()];
        Arrays.fill(s, tier);
        double[] floors = new double[tiers.size()];
        floors[tier] = floorPerVmGb;
        return evaluate(s, floors);
    }

    /** $vm = n_vm · price_vm · T (Eq. 4.5), T in minutes. */
    public static double vmCost(Cluster c, double minutes) {
        return c.nVm() * c.vmPricePerMinute() * minutes;
    }

    /** $store = Σ_f capacity[f] · price_store[f] · ⌈T/60⌉ (Eq. 4.6): storage is billed by the started hour. */
    public static double storeCost(double[] capacityGb, double[] pricePerGbHour, double minutes) {
        double hours = Math.ceil(minutes / 60 - 1e-12);
        double sum = 0;
        for (int f = 0; f < capacityGb.length; f++) {
            sum += capacityGb[f] * pricePerGbHour[f];
        }
        return sum * hours;
    }

    private static long key(int dataset, int tier) {
        return ((long) dataset << 16) | tier;
    }
}

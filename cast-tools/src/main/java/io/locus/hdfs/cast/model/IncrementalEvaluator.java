package io.locus.hdfs.cast.model;

import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The same verdict as {@link CastModel#evaluate} (T, cost, hard-limit violation) kept up to date as jobs move, so a
 * solver's step costs the jobs it moves plus one pass over the tiers instead of a pass over every job.
 *
 * <p>It works because Eq. 4.1 is additive once a tier's bandwidth is known: a job's phase on tier f takes {@code
 * waves × chunk / min(rate, B_f/slots)}, and the rate depends only on its application type, so each tier keeps, per
 * application type and phase, the sum of {@code waves × chunk} of the jobs on it; transfers likewise. Capacity is a
 * sum, except a shared dataset's copy, which is its largest reader's input (kept in an ordered set per dataset and
 * tier), and the copies of a dataset from its home tier to its other persistent tiers, kept per (home, tier) pair
 * because their speed depends on both. Sums of many additions and removals drift by rounding; {@link #resync} rebuilds
 * them.
 */
public final class IncrementalEvaluator {
    private final Cluster c;
    private final TierCatalog tiers;
    private final int nt;
    private final int np;
    private final int[] interTier;
    private final int[] backingTier;
    private final double[] repl;
    private final double[] price;
    private final double[][] rate;
    private final int[] profile;
    private final int[] dataset;
    private final double[] input;
    private final double[] fixedNeedOnTier;
    private final double[] interNeed;
    private final double[] outputNeed;
    private final double[][] work;
    private final double[] overheadWaves;
    private final double[] downWork;
    private final double[] upWork;

    private final int[] tierOfJob;
    private double[] need;
    private double[][][] phaseWork;
    private double[] overhead;
    private double[] transferWork;
    // Work of copying shared datasets from their home tier (first index) to another persistent tier (second).
    private double[][] copyWork;
    private int[][] copies;
    // Counts of what feeds each sum, so a sum that should be empty is exactly 0, not rounding residue.
    private int[] touching;
    private int[][] onTierByProfile;
    private int[] onTier;
    private final Map<Long, TreeSet<Integer>> readers = new HashMap<>();

    public IncrementalEvaluator(CastModel model) {
        Workload w = model.workload();
        this.c = w.cluster();
        this.tiers = w.tiers();
        nt = tiers.size();
        interTier = new int[nt];
        backingTier = new int[nt];
        repl = new double[nt];
        price = new double[nt];
        for (int f = 0; f < nt; f++) {
            Tier t = tiers.get(f);
            interTier[f] = t.intermediateTier() == null ? f : tiers.indexOf(t.intermediateTier());
            backingTier[f] = t.persistent() ? -1 : tiers.indexOf(t.backingTier());
            repl[f] = t.persistent() && !t.elastic() ? c.replication() : 1;
            price[f] = t.pricePerGbHour(c.hoursPerMonth());
        }
        List<Job> jobs = w.jobs();
        int n = jobs.size();
        Map<String, Integer> profiles = new LinkedHashMap<>();
        Map<String, Integer> datasets = new HashMap<>();
        profile = new int[n];
        dataset = new int[n];
        input = new double[n];
        fixedNeedOnTier = new double[n];
        interNeed = new double[n];
        outputNeed = new double[n];
        work = new double[n][3];
        overheadWaves = new double[n];
        downWork = new double[n];
        upWork = new double[n];
        for (int i = 0; i < n; i++) {
            Job j = jobs.get(i);
            profile[i] = profiles.computeIfAbsent(j.profile().name(), k -> profiles.size());
            String d = j.dataset();
            dataset[i] = model.reuseAware() && d != null ? datasets.computeIfAbsent(d, k -> datasets.size()) : -1;
            input[i] = j.inputGb();
            interNeed[i] = j.interGb();
            outputNeed[i] = j.outputGb();
            double mapWaves = Math.ceil((double) j.maps() / ((long) c.nVm() * c.mapSlotsPerVm()));
            double reduceWaves = Math.ceil((double) j.reduces() / ((long) c.nVm() * c.reduceSlotsPerVm()));
            int it = j.profile().iterations();
            work[i][0] = it * mapWaves * j.inputGb() * 1024 / j.maps();
            work[i][1] = it * reduceWaves * j.interGb() * 1024 / j.reduces();
            work[i][2] = it * reduceWaves * j.outputGb() * 1024 / j.reduces();
            overheadWaves[i] = it * reduceWaves * j.profile().filesPerReduceTask();
            downWork[i] = transferWork(j.inputGb(), j.maps());
            upWork[i] = transferWork(j.outputGb(), j.reduces());
        }
        np = profiles.size();
        rate = new double[np][3];
        for (Job j : jobs) {
            int p = profiles.get(j.profile().name());
            rate[p] = new double[] {
                j.profile().mapRate(), j.profile().shuffleRate(), j.profile().reduceRate()
            };
        }
        tierOfJob = new int[n];
        java.util.Arrays.fill(tierOfJob, -1);
        resync();
    }

    /** {@link Estimator#transferSec} × the bandwidth it divides by. */
    private double transferWork(double gb, int tasks) {
        if (gb <= 0) {
            return 0;
        }
        double waves = Math.ceil((double) tasks / ((long) c.nVm() * c.mapSlotsPerVm()));
        return waves * (gb * 1024 / tasks) * c.mapSlotsPerVm();
    }

    /** Rebuilds every sum from the current placement. */
    public void resync() {
        need = new double[nt];
        phaseWork = new double[nt][np][3];
        overhead = new double[nt];
        transferWork = new double[nt];
        copyWork = new double[nt][nt];
        copies = new int[nt][nt];
        touching = new int[nt];
        onTierByProfile = new int[nt][np];
        onTier = new int[nt];
        readers.clear();
        for (int i = 0; i < tierOfJob.length; i++) {
            if (tierOfJob[i] >= 0) {
                apply(i, tierOfJob[i], 1);
            }
        }
    }

    /** Moves job {@code job} to tier {@code tier} (-1: leaves it out). */
    public void place(int job, int tier) {
        int from = tierOfJob[job];
        if (from == tier) {
            return;
        }
        if (from >= 0) {
            apply(job, from, -1);
        }
        tierOfJob[job] = tier;
        if (tier >= 0) {
            apply(job, tier, 1);
        }
    }

    private void apply(int i, int f, int sign) {
        int b = backingTier[f];
        touching[f] += sign;
        touching[interTier[f]] += sign;
        if (b >= 0) {
            touching[b] += sign;
        }
        onTier[f] += sign;
        onTierByProfile[f][profile[i]] += sign;
        need[interTier[f]] += sign * interNeed[i];
        need[f] += sign * outputNeed[i] * repl[f];
        if (b >= 0) {
            need[b] += sign * outputNeed[i] * repl[b];
            transferWork[f] += sign * upWork[i];
        }
        for (int k = 0; k < 3; k++) {
            phaseWork[f][profile[i]][k] += sign * work[i][k];
        }
        overhead[f] += sign * overheadWaves[i];
        if (dataset[i] < 0) {
            need[f] += sign * input[i] * repl[f];
            if (b >= 0) {
                need[b] += sign * input[i] * repl[b];
                transferWork[f] += sign * downWork[i];
            }
        } else {
            homeCopies(dataset[i], -1);
            copy(dataset[i], f, i, sign, b >= 0);
            if (b >= 0) {
                copy(dataset[i], b, i, sign, false);
            }
            homeCopies(dataset[i], 1);
        }
        for (int t : new int[] {f, interTier[f], b}) {
            if (t >= 0 && touching[t] == 0) {
                need[t] = 0;
            }
        }
        if (onTier[f] == 0) {
            overhead[f] = 0;
            transferWork[f] = 0;
        }
        if (onTierByProfile[f][profile[i]] == 0) {
            phaseWork[f][profile[i]] = new double[3];
        }
    }

    /** Adds or removes job {@code i} as a reader of dataset {@code d}'s copy on tier {@code f}. */
    private void copy(int d, int f, int i, int sign, boolean downloads) {
        long key = ((long) d << 16) | f;
        TreeSet<Integer> readers = this.readers.computeIfAbsent(
                key,
                k -> new TreeSet<>(
                        Comparator.<Integer>comparingDouble(x -> input[x]).thenComparing(x -> -x)));
        Integer before = readers.isEmpty() ? null : readers.last();
        if (sign > 0) {
            readers.add(i);
        } else {
            readers.remove(i);
        }
        Integer after = readers.isEmpty() ? null : readers.last();
        if (before != null) {
            need[f] -= input[before] * repl[f];
            if (downloads) {
                transferWork[f] -= downWork[before];
            }
        }
        if (after != null) {
            need[f] += input[after] * repl[f];
            if (downloads) {
                transferWork[f] += downWork[after];
            }
        }
    }

    /**
     * Adds ({@code sign} 1) or removes (-1) dataset {@code d}'s copies from its home to its other persistent tiers, as
     * {@link CastModel} charges them: the home is the persistent tier with the largest copy, the lowest index on ties.
     */
    private void homeCopies(int d, int sign) {
        int home = -1;
        double homeGb = 0;
        int[] last = new int[nt];
        for (int f = 0; f < nt; f++) {
            TreeSet<Integer> r = readers.get(((long) d << 16) | f);
            last[f] = r == null || r.isEmpty() || !tiers.get(f).persistent() ? -1 : r.last();
            if (last[f] >= 0 && (home < 0 || input[last[f]] > homeGb)) {
                home = f;
                homeGb = input[last[f]];
            }
        }
        for (int f = 0; f < nt; f++) {
            if (last[f] >= 0 && f != home) {
                copies[home][f] += sign;
                copyWork[home][f] = copies[home][f] == 0 ? 0 : copyWork[home][f] + sign * downWork[last[f]];
            }
        }
    }

    /** T (minutes), $vm + $store, and the hard-limit violation, with per-VM floors {@code floorPerVmGb}. */
    public double[] evaluate(double[] floorPerVmGb) {
        double[] bw = new double[nt];
        double[] capacity = new double[nt];
        double violation = 0;
        for (int f = 0; f < nt; f++) {
            Tier t = tiers.get(f);
            double perVm = need[f] > 1e-9 ? t.provisionPerVm(need[f], c.nVm(), floorPerVmGb[f]) : 0;
            capacity[f] = perVm * c.nVm();
            bw[f] = t.bandwidthAt(perVm);
            violation += Math.max(0, perVm - t.maxPerVmGb()) * c.nVm();
            violation += Math.max(0, capacity[f] - t.capacityLimitGb());
        }
        double sec = 0;
        for (int f = 0; f < nt; f++) {
            double[][] pw = phaseWork[f];
            for (int p = 0; p < np; p++) {
                if (pw[p][0] > 0) {
                    sec += pw[p][0] / Estimator.taskBandwidth(rate[p][0], bw[f], c.mapSlotsPerVm());
                }
                if (pw[p][1] > 0) {
                    sec += pw[p][1] / Estimator.taskBandwidth(rate[p][1], bw[interTier[f]], c.reduceSlotsPerVm());
                }
                if (pw[p][2] > 0) {
                    sec += pw[p][2] / Estimator.taskBandwidth(rate[p][2], bw[f], c.reduceSlotsPerVm());
                }
            }
            sec += overhead[f] * tiers.get(f).perFileOverheadSec();
            int b = backingTier[f];
            if (b >= 0 && transferWork[f] > 0) {
                sec += transferWork[f] / Math.min(bw[b], bw[f]);
            }
        }
        for (int h = 0; h < nt; h++) {
            for (int f = 0; f < nt; f++) {
                if (copies[h][f] > 0 && copyWork[h][f] > 0) {
                    sec += copyWork[h][f] / Math.min(bw[h], bw[f]);
                }
            }
        }
        double minutes = sec / 60;
        double cost = CastModel.vmCost(c, minutes) + CastModel.storeCost(capacity, price, minutes);
        return new double[] {minutes, cost, violation};
    }
}

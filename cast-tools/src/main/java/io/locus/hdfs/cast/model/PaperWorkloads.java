package io.locus.hdfs.cast.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The evaluation workloads of Yue Cheng's dissertation (§4.4), rebuilt from what the text states; the choices it
 * leaves open are documented on each method (and in DESIGN.md).
 */
public final class PaperWorkloads {
    private PaperWorkloads() {}

    /** Map tasks per job in each size bin of Table 4.4. */
    public static final int[] BIN_MAPS = {1, 5, 10, 50, 500, 1500, 3000};
    /** Jobs per size bin in the 100-job workload of Table 4.4. */
    public static final int[] BIN_JOBS = {35, 22, 16, 13, 7, 4, 3};

    private static final List<JobProfile> APPS =
            List.of(JobProfile.SORT, JobProfile.JOIN, JobProfile.GREP, JobProfile.KMEANS);

    /**
     * The 100-job workload of §4.4.1 (Table 4.4): 19,455 map tasks in 7 size bins; application types assigned round
     * robin over Sort, Join, Grep, KMeans in (bin, index) order; 15 % of the jobs share input, as three datasets of
     * five large jobs each (the first five of bin 4, the first five of bin 5, bin 6's four and bin 7's first); no
     * dependencies.
     */
    public static Workload table44(Cluster cluster, TierCatalog tiers) {
        List<Job> jobs = new ArrayList<>();
        int k = 0;
        for (int bin = 0; bin < BIN_MAPS.length; bin++) {
            for (int n = 0; n < BIN_JOBS[bin]; n++, k++) {
                String dataset = null;
                if (bin == 3 && n < 5) {
                    dataset = "shared-a";
                } else if (bin == 4 && n < 5) {
                    dataset = "shared-b";
                } else if (bin == 5 || (bin == 6 && n == 0)) {
                    dataset = "shared-c";
                }
                String id = String.format("job%03d", k);
                jobs.add(Job.ofMaps(id, APPS.get(k % APPS.size()), BIN_MAPS[bin], cluster, dataset));
            }
        }
        return new Workload("table-4.4", cluster, tiers, jobs, List.of());
    }

    /** Workflow sizes of the §4.4.2 workload: 5 workflows, 31 jobs, the longest 9. */
    public static final int[] WORKFLOW_SIZES = {9, 7, 6, 5, 4};

    /** External input of the workflow jobs, in map tasks, cycled: large jobs that fill the 400-slot cluster. */
    private static final int[] WORKFLOW_EXTERNAL_MAPS = {400, 800, 600, 1200, 400, 1000};

    /**
     * The workflow workload of §4.4.2 with the deadlines of Fig. 4.9: each workflow's deadline is its time on the
     * fastest single tier (each tier at its largest capacity level), clamped to [15, 40] minutes. The dissertation
     * sets deadlines "based on the job input sizes and the job types" and reports which single tiers miss them
     * (ephSSD 20 %, persSSD 40 %, persHDD and objStore 100 %): a deadline is about what the best uniform deployment
     * achieves, and these are the misses this rule gives.
     */
    public static Workload workflows(Cluster cluster, TierCatalog tiers) {
        return workflows(cluster, tiers, null, 1.0);
    }

    /**
     * The workflow workload of §4.4.2: 5 workflows of {9, 7, 6, 5, 4} jobs. The 4-job one is the search-engine log
     * analysis of Fig. 4.4 (Grep → Sort → Join → KMeans); the others are chains whose third job joins the first
     * two (one fan-in each), with application types cycling over the four. Every job reads an external dataset
     * (400-1,200 map tasks) plus its parents' output. Deadline = {@code deadlineFactor} × the workflow's time with
     * all of it on {@code referenceTier} at its largest capacity level (null: on whichever single tier is fastest for
     * that workflow), clamped to [15, 40] minutes (the range the dissertation gives).
     */
    public static Workload workflows(Cluster cluster, TierCatalog tiers, String referenceTier, double deadlineFactor) {
        List<Job> jobs = new ArrayList<>();
        List<Workflow> flows = new ArrayList<>();
        int ext = 0;
        for (int w = 0; w < WORKFLOW_SIZES.length; w++) {
            int size = WORKFLOW_SIZES[w];
            boolean fig44 = size == 4;
            List<String> ids = new ArrayList<>();
            Map<String, List<String>> parents = new HashMap<>();
            Map<String, Job> byId = new HashMap<>();
            for (int i = 0; i < size; i++) {
                String id = String.format("wf%d-job%d", w + 1, i + 1);
                List<String> ps = new ArrayList<>();
                if (fig44) {
                    if (i > 0) {
                        ps.add(ids.get(i - 1));
                    }
                } else if (i == 2) {
                    ps.addAll(List.of(ids.get(0), ids.get(1)));
                } else if (i > 2) {
                    ps.add(ids.get(i - 1));
                }
                JobProfile app = APPS.get(fig44 ? i : (i + w) % APPS.size());
                double input = WORKFLOW_EXTERNAL_MAPS[ext++ % WORKFLOW_EXTERNAL_MAPS.length] * cluster.splitMb() / 1024;
                for (String p : ps) {
                    input += byId.get(p).outputGb();
                }
                int maps = (int) Math.ceil(input * 1024 / cluster.splitMb());
                Job j = new Job(
                        id,
                        app,
                        input,
                        input * app.interRatio(),
                        input * app.outputRatio(),
                        maps,
                        cluster.defaultReduces(maps),
                        null);
                jobs.add(j);
                byId.put(id, j);
                ids.add(id);
                if (!ps.isEmpty()) {
                    parents.put(id, ps);
                }
            }
            flows.add(new Workflow("wf" + (w + 1), ids, parents, 1e9));
        }
        Workload draft = new Workload("workflows", cluster, tiers, jobs, flows);
        int ref = referenceTier == null ? -1 : tiers.indexOf(referenceTier);
        if (referenceTier != null && ref < 0) {
            throw new IllegalArgumentException("unknown reference tier " + referenceTier);
        }
        WorkflowModel model = new WorkflowModel(draft);
        List<Workflow> withDeadlines = new ArrayList<>();
        for (Workflow f : flows) {
            double t = Double.POSITIVE_INFINITY;
            for (int r = 0; r < tiers.size(); r++) {
                if (ref < 0 || r == ref) {
                    t = Math.min(t, timeOnOneTier(model, f, jobs.size(), tiers, r));
                }
            }
            double deadline = Math.min(40, Math.max(15, deadlineFactor * t));
            withDeadlines.add(new Workflow(f.id(), f.jobs(), f.parents(), deadline));
        }
        return new Workload("workflows", cluster, tiers, jobs, withDeadlines);
    }

    /** Minutes workflow {@code f} takes with all of it on tier {@code t} at the tier's largest capacity level. */
    private static double timeOnOneTier(WorkflowModel model, Workflow f, int jobs, TierCatalog tiers, int t) {
        int[] all = new int[jobs];
        Arrays.fill(all, t);
        double[] floors = new double[tiers.size()];
        double[] levels = tiers.get(t).levels();
        floors[t] = levels[levels.length - 1];
        return model.evaluate(f, all, floors, true).runtimeMin();
    }
}

package io.locus.hdfs.cast.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the tenant hands CAST: the cluster, the tiers to choose from, the jobs, and the workflows some of them form.
 * Jobs sharing a {@link Job#dataset()} form a reuse group (the set D of Eq. 4.7).
 */
public final class Workload {
    private final String name;
    private final Cluster cluster;
    private final TierCatalog tiers;
    private final List<Job> jobs;
    private final List<Workflow> workflows;
    private final Map<String, Integer> jobIndex = new HashMap<>();

    public Workload(String name, Cluster cluster, TierCatalog tiers, List<Job> jobs, List<Workflow> workflows) {
        this.name = Objects.requireNonNull(name, "name");
        this.cluster = Objects.requireNonNull(cluster, "cluster");
        this.tiers = Objects.requireNonNull(tiers, "tiers");
        this.jobs = List.copyOf(jobs);
        this.workflows = List.copyOf(workflows);
        if (jobs.isEmpty()) {
            throw new IllegalArgumentException("workload " + name + " has no jobs");
        }
        for (int i = 0; i < jobs.size(); i++) {
            if (jobIndex.put(jobs.get(i).id(), i) != null) {
                throw new IllegalArgumentException("job " + jobs.get(i).id() + " is defined twice");
            }
        }
        Map<String, String> workflowOf = new HashMap<>();
        for (Workflow w : workflows) {
            for (String j : w.jobs()) {
                if (!jobIndex.containsKey(j)) {
                    throw new IllegalArgumentException("workflow " + w.id() + " names unknown job " + j);
                }
                String other = workflowOf.put(j, w.id());
                if (other != null) {
                    throw new IllegalArgumentException("job " + j + " is in workflows " + other + " and " + w.id());
                }
            }
        }
    }

    public String name() {
        return name;
    }

    public Cluster cluster() {
        return cluster;
    }

    public TierCatalog tiers() {
        return tiers;
    }

    public List<Job> jobs() {
        return jobs;
    }

    public List<Workflow> workflows() {
        return workflows;
    }

    /** Index of the job named {@code id}, or -1. */
    public int indexOf(String id) {
        return jobIndex.getOrDefault(id, -1);
    }

    /**
     * The placement groups: one per shared dataset (its jobs, in workload order), then one per job that shares
     * nothing. With {@code reuseAware} false every job is its own group (basic CAST).
     */
    public List<int[]> groups(boolean reuseAware) {
        Map<String, List<Integer>> byDataset = new LinkedHashMap<>();
        List<int[]> groups = new ArrayList<>();
        for (int i = 0; i < jobs.size(); i++) {
            String d = jobs.get(i).dataset();
            if (reuseAware && d != null) {
                byDataset.computeIfAbsent(d, k -> new ArrayList<>()).add(i);
            }
        }
        for (List<Integer> members : byDataset.values()) {
            groups.add(members.stream().mapToInt(Integer::intValue).toArray());
        }
        for (int i = 0; i < jobs.size(); i++) {
            if (!reuseAware || jobs.get(i).dataset() == null) {
                groups.add(new int[] {i});
            }
        }
        return groups;
    }

    /** The same workload with other jobs and workflows (for sub-problems and scaled variants). */
    public Workload with(String newName, List<Job> newJobs, List<Workflow> newWorkflows) {
        return new Workload(newName, cluster, tiers, newJobs, newWorkflows);
    }
}

package io.locus.hdfs.cast.io;

import io.locus.hdfs.cast.model.Cluster;
import io.locus.hdfs.cast.model.Job;
import io.locus.hdfs.cast.model.JobProfile;
import io.locus.hdfs.cast.model.TierCatalog;
import io.locus.hdfs.cast.model.Workflow;
import io.locus.hdfs.cast.model.Workload;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Workload files ({@code schema: locus-cast-workload/1}): the cluster, extra job profiles, the jobs and the workflows.
 * Every key is described in the module README; sizes not given follow the job's profile (intermediate and output
 * from its ratios, map tasks from the split size, reduce tasks a quarter of the maps).
 */
public final class WorkloadFiles {
    private WorkloadFiles() {}

    public static final String SCHEMA = "locus-cast-workload/1";

    public static Workload read(Path p, TierCatalog tiers) {
        Node root =
                Documents.read(p, SCHEMA).object(List.of("schema", "name", "cluster", "profiles", "jobs", "workflows"));
        Cluster cluster = cluster(root.get("cluster"));
        Map<String, JobProfile> profiles = new LinkedHashMap<>(JobProfile.defaults());
        for (Node n : root.get("profiles").list()) {
            JobProfile prof = profile(n);
            if (profiles.containsKey(prof.name())) {
                throw n.get("name").error("a profile name not already defined " + profiles.keySet());
            }
            profiles.put(prof.name(), prof);
        }
        List<Job> jobs = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        List<Node> jobNodes = root.required("jobs").list();
        if (jobNodes.isEmpty()) {
            throw root.get("jobs").error("a list of at least one job");
        }
        for (Node n : jobNodes) {
            Job j = job(n, cluster, profiles);
            if (!ids.add(j.id())) {
                throw n.get("id").error("a job id no other job has");
            }
            jobs.add(j);
        }
        List<Workflow> workflows = new ArrayList<>();
        Set<String> inWorkflow = new HashSet<>();
        for (Node n : root.get("workflows").list()) {
            n.object(List.of("id", "deadlineMin", "jobs", "parents"));
            List<String> members = new ArrayList<>();
            for (Node j : n.required("jobs").list()) {
                String id = j.string();
                if (!ids.contains(id)) {
                    throw j.error("the id of a job in this workload");
                }
                if (!inWorkflow.add(id)) {
                    throw j.error("a job that is in no other workflow");
                }
                members.add(id);
            }
            Map<String, List<String>> parents = new LinkedHashMap<>();
            Node ps = n.get("parents");
            if (!ps.isMissing()) {
                for (Map.Entry<String, Node> e : ps.entries().entrySet()) {
                    List<String> of = new ArrayList<>();
                    for (Node x : e.getValue().list()) {
                        of.add(x.string());
                    }
                    parents.put(e.getKey(), of);
                }
            }
            try {
                workflows.add(new Workflow(
                        n.required("id").string(),
                        members,
                        parents,
                        n.required("deadlineMin").number(0.001, 1e9)));
            } catch (IllegalArgumentException e) {
                throw n.get("parents")
                        .error("edges between its own jobs, parents listed first (" + e.getMessage() + ")");
            }
        }
        return new Workload(root.get("name").string(p.getFileName().toString()), cluster, tiers, jobs, workflows);
    }

    private static Cluster cluster(Node n) {
        Cluster d = Cluster.DEFAULT;
        if (n.isMissing()) {
            return d;
        }
        n.object(List.of(
                "vms",
                "mapSlotsPerVm",
                "reduceSlotsPerVm",
                "vmPricePerHour",
                "splitMb",
                "hoursPerMonth",
                "replication"));
        return new Cluster(
                n.get("vms").integer(1, 1_000_000, d.nVm()),
                n.get("mapSlotsPerVm").integer(1, 100_000, d.mapSlotsPerVm()),
                n.get("reduceSlotsPerVm").integer(1, 100_000, d.reduceSlotsPerVm()),
                n.get("vmPricePerHour").number(0, 1e6, d.vmPricePerHour()),
                n.get("splitMb").number(0.001, 1e9, d.splitMb()),
                n.get("hoursPerMonth").number(1, 10_000, d.hoursPerMonth()),
                n.get("replication").integer(1, 100, d.replication()));
    }

    private static JobProfile profile(Node n) {
        n.object(List.of(
                "name",
                "interRatio",
                "outputRatio",
                "mapRate",
                "shuffleRate",
                "reduceRate",
                "iterations",
                "filesPerReduceTask"));
        return new JobProfile(
                n.required("name").string(),
                n.required("interRatio").number(0, 1e6),
                n.required("outputRatio").number(0, 1e6),
                n.required("mapRate").number(0.001, 1e7),
                n.required("shuffleRate").number(0.001, 1e7),
                n.required("reduceRate").number(0.001, 1e7),
                n.get("iterations").integer(1, 10_000, 1),
                n.get("filesPerReduceTask").integer(0, 1_000_000, 1));
    }

    private static Job job(Node n, Cluster c, Map<String, JobProfile> profiles) {
        n.object(List.of("id", "app", "inputGb", "interGb", "outputGb", "maps", "reduces", "dataset"));
        String id = n.required("id").string();
        Node app = n.required("app");
        JobProfile prof = profiles.get(app.string());
        if (prof == null) {
            throw app.error("an application type " + profiles.keySet());
        }
        double input = n.required("inputGb").number(0, 1e12);
        int maps =
                n.get("maps").integer(1, Integer.MAX_VALUE, (int) Math.max(1, Math.ceil(input * 1024 / c.splitMb())));
        return new Job(
                id,
                prof,
                input,
                n.get("interGb").number(0, 1e12, input * prof.interRatio()),
                n.get("outputGb").number(0, 1e12, input * prof.outputRatio()),
                maps,
                n.get("reduces").integer(1, Integer.MAX_VALUE, c.defaultReduces(maps)),
                n.get("dataset").string(null));
    }

    /** Writes {@code w} (its profiles only where they are not the built-in four). */
    public static void write(Workload w, Path p) {
        Cluster c = w.cluster();
        Map<String, JobProfile> builtIn = JobProfile.defaults();
        Map<String, Object> profiles = new LinkedHashMap<>();
        List<Object> jobs = new ArrayList<>();
        for (Job j : w.jobs()) {
            JobProfile prof = j.profile();
            if (!prof.equals(builtIn.get(prof.name())) && !profiles.containsKey(prof.name())) {
                profiles.put(
                        prof.name(),
                        Documents.map(
                                "name", prof.name(),
                                "interRatio", prof.interRatio(),
                                "outputRatio", prof.outputRatio(),
                                "mapRate", prof.mapRate(),
                                "shuffleRate", prof.shuffleRate(),
                                "reduceRate", prof.reduceRate(),
                                "iterations", prof.iterations(),
                                "filesPerReduceTask", prof.filesPerReduceTask()));
            }
            jobs.add(Documents.map(
                    "id", j.id(),
                    "app", prof.name(),
                    "inputGb", j.inputGb(),
                    "interGb", j.interGb(),
                    "outputGb", j.outputGb(),
                    "maps", j.maps(),
                    "reduces", j.reduces(),
                    "dataset", j.dataset()));
        }
        List<Object> flows = new ArrayList<>();
        for (Workflow f : w.workflows()) {
            Map<String, Object> parents = new LinkedHashMap<>();
            for (String j : f.jobs()) {
                if (!f.parentsOf(j).isEmpty()) {
                    parents.put(j, f.parentsOf(j));
                }
            }
            flows.add(
                    Documents.map("id", f.id(), "deadlineMin", f.deadlineMin(), "jobs", f.jobs(), "parents", parents));
        }
        Documents.write(
                p,
                Documents.map(
                        "schema",
                        SCHEMA,
                        "name",
                        w.name(),
                        "cluster",
                        Documents.map(
                                "vms", c.nVm(),
                                "mapSlotsPerVm", c.mapSlotsPerVm(),
                                "reduceSlotsPerVm", c.reduceSlotsPerVm(),
                                "vmPricePerHour", c.vmPricePerHour(),
                                "splitMb", c.splitMb(),
                                "hoursPerMonth", c.hoursPerMonth(),
                                "replication", c.replication()),
                        "profiles",
                        profiles.isEmpty() ? null : new ArrayList<>(profiles.values()),
                        "jobs",
                        jobs,
                        "workflows",
                        flows.isEmpty() ? null : flows));
    }
}

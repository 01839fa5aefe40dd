package io.locus.hdfs.cast.model;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A workflow: a DAG of jobs where an edge carries the parent's output into the child's input, with a deadline for the
 * whole DAG (CAST++, §4.3.3 of Yue Cheng's dissertation).
 *
 * @param id unique name
 * @param jobs its job ids, in a topological order
 * @param parents for each job id, the ids of the jobs whose output it reads (absent or empty for a root)
 * @param deadlineMin deadline in minutes from the start of its first job to the end of its last
 */
public record Workflow(String id, List<String> jobs, Map<String, List<String>> parents, double deadlineMin) {

    public Workflow {
        Objects.requireNonNull(id, "id");
        jobs = List.copyOf(jobs);
        parents = Map.copyOf(parents);
        if (jobs.isEmpty()) {
            throw new IllegalArgumentException("workflow " + id + " has no jobs");
        }
        if (!(deadlineMin > 0)) {
            throw new IllegalArgumentException("workflow " + id + ": deadline must be > 0 minutes");
        }
        for (int i = 0; i < jobs.size(); i++) {
            for (String p : parentsOf(jobs.get(i), parents)) {
                int at = jobs.indexOf(p);
                if (at < 0) {
                    throw new IllegalArgumentException(
                            "workflow " + id + ": job " + jobs.get(i) + " reads " + p + ", which is not in it");
                }
                if (at >= i) {
                    throw new IllegalArgumentException("workflow " + id + ": jobs must be listed parents first (" + p
                            + " comes after " + jobs.get(i) + ", or the edges form a cycle)");
                }
            }
        }
    }

    private static List<String> parentsOf(String job, Map<String, List<String>> parents) {
        return parents.getOrDefault(job, List.of());
    }

    /** The jobs whose output {@code job} reads. */
    public List<String> parentsOf(String job) {
        return parentsOf(job, parents);
    }

    /** The jobs that read {@code job}'s output. */
    public List<String> childrenOf(String job) {
        return jobs.stream().filter(j -> parentsOf(j).contains(job)).toList();
    }
}
